package fidelity

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A repository with its issues turned off says so in REST's has_issues
// (validated against GitHub's description like every answer); others keep
// them on.
func TestIssuesDisabledFlag(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	st := w.srv.Emu.State()
	st.Lock()
	st.Repo("acme", "widgets").IssuesDisabled = true
	st.Unlock()
	for repo, want := range map[string]bool{"widgets": false, "vault": true} {
		var r struct {
			HasIssues *bool `json:"has_issues"`
		}
		w.do(t, "GET", "/repos/acme/"+repo, tokAlice, nil).JSON(t, &r)
		if r.HasIssues == nil {
			t.Errorf("acme/%s has_issues = null, want %v", repo, want)
		} else if *r.HasIssues != want {
			t.Errorf("acme/%s has_issues = %v, want %v", repo, *r.HasIssues, want)
		}
	}
}
