package seed

import "github.com/ghgate/ghgate/internal/emulator/state"

// seedDevelopment fills the Development section of a few acme/widgets
// issues: the first two open issues an open pull request will close ("Fixes
// #N" in its body) get a branch linked to them, named as GitHub names one
// created from the issue, at main. It runs last, so the ids it takes leave
// every other object's as they were; it adds no issue.
func (sd *seeder) seedDevelopment(w *world) {
	r := w.widgets
	main := r.Git.Branches[state.RepoDefaultBranch]
	linked := 0
	for _, pr := range r.Issues {
		if linked == 2 {
			return
		}
		if !pr.IsPull || pr.State != "open" {
			continue
		}
		for _, is := range state.ClosingIssues(pr) {
			if is.State != "open" || len(is.LinkedBranches) > 0 || linked == 2 {
				continue
			}
			if _, err := sd.s.CreateLinkedBranch(is, r, state.LinkedBranchName(is), main); err != nil {
				sd.fail("link a branch to #%d: %v", is.Number, err)
				return
			}
			linked++
		}
	}
}
