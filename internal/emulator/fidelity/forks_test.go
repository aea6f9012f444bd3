package fidelity

import (
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A fork and a pull request from it, through the validating harness:
// full-repository's parent and source, and a cross-repository head.
func TestForkShapes(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	st := w.srv.Emu.State()
	st.Lock()
	widgets := st.Repo("acme", "widgets")
	carol := st.Account("carol")
	fork := st.Fork(widgets, carol, epoch.Add(100*time.Hour))
	content := "# widgets\n\nA fork's change.\n"
	st.Commit(fork, "readme", carol, epoch.Add(101*time.Hour), "Reword the README", map[string]*string{"README.md": &content})
	st.CreatePull(widgets, carol, "Reword the README", nil, fork, "readme", "main", false)
	st.Unlock()

	res := w.do(t, "GET", "/repos/carol/widgets", tokCarol, nil)
	var repo struct {
		Fork   bool
		Parent struct {
			FullName string `json:"full_name"`
		}
	}
	res.JSON(t, &repo)
	if res.Status != 200 || !repo.Fork || repo.Parent.FullName != "acme/widgets" {
		t.Errorf("carol/widgets: %d %s", res.Status, res.Body)
	}
	res = w.do(t, "GET", "/repos/acme/widgets/pulls/36", tokCarol, nil)
	var pull struct {
		Head struct {
			Label string
			Repo  struct {
				FullName string `json:"full_name"`
			}
		}
		MaintainerCanModify bool `json:"maintainer_can_modify"`
	}
	res.JSON(t, &pull)
	if res.Status != 200 || pull.Head.Label != "carol:readme" || pull.Head.Repo.FullName != "carol/widgets" || !pull.MaintainerCanModify {
		t.Errorf("pull request from the fork: %d %s", res.Status, res.Body)
	}
}
