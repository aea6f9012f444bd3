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
	if res.Status != 200 {
		t.Errorf("carol/widgets: status %d, want 200: %s", res.Status, res.Body)
	}
	if !repo.Fork {
		t.Errorf("carol/widgets: fork = false, want true")
	}
	if repo.Parent.FullName != "acme/widgets" {
		t.Errorf("carol/widgets: parent %q, want %q", repo.Parent.FullName, "acme/widgets")
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
	if res.Status != 200 {
		t.Errorf("pull request from the fork: status %d, want 200: %s", res.Status, res.Body)
	}
	if pull.Head.Label != "carol:readme" {
		t.Errorf("pull request from the fork: head.label %q, want %q", pull.Head.Label, "carol:readme")
	}
	if pull.Head.Repo.FullName != "carol/widgets" {
		t.Errorf("pull request from the fork: head.repo %q, want %q", pull.Head.Repo.FullName, "carol/widgets")
	}
	if !pull.MaintainerCanModify {
		t.Errorf("pull request from the fork: maintainer_can_modify = false, want true")
	}
}
