package seed

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Every seeded pull request has a branch of one to three commits over its
// base that changes files, and together they cover the states a client
// meets.
func TestDemoSeedPulls(t *testing.T) {
	s := state.NewState(func() time.Time { return DemoNow() })
	SeedDemo(s)
	seen := map[string]int{}
	reviewStates := map[string]bool{}
	outdated, resolved, teams := 0, 0, 0
	for _, name := range []string{DemoWidgetsRepo, DemoGadgetsRepo} {
		r := s.Repo(DemoOrg, name)
		g := r.Git
		if g == nil || g.Branches[state.RepoDefaultBranch] == nil {
			t.Fatalf("%s has no main branch", name)
		}
		for _, is := range r.Issues {
			if !is.IsPull {
				continue
			}
			p := is.Pull
			if p == nil {
				t.Errorf("%s#%d has no branches", name, is.Number)
				continue
			}
			if p.HeadRepo != r {
				seen["cross-repository"]++
				if p.HeadRepo.Parent != r || !p.MaintainerCanModify || g.Commits[p.Head.SHA] != p.Head {
					t.Errorf("%s#%d: head in %s, not a fork whose head the base repository tracks", name, is.Number, p.HeadRepo.FullName())
				}
			}
			if p.HeadRepo.Git.Branches[p.HeadRef] == nil || p.BaseRef != state.RepoDefaultBranch {
				t.Errorf("%s#%d: head %q base %q", name, is.Number, p.HeadRef, p.BaseRef)
			}
			if n := len(p.Commits()); n < 1 || n > 3 {
				t.Errorf("%s#%d has %d commits", name, is.Number, n)
			}
			if len(p.Changes()) == 0 {
				t.Errorf("%s#%d changes no file", name, is.Number)
			}
			if len(g.CheckRuns[p.Head.SHA]) == 0 {
				t.Errorf("%s#%d has no check runs on its head", name, is.Number)
			}
			switch {
			case is.Merged:
				seen["merged"]++
				mc := p.MergeCommit
				if mc == nil || len(mc.Parents) != 2 || mc.Parents[1] != p.Head || !slices.Contains(state.History(g.Branches[state.RepoDefaultBranch]), mc) {
					t.Errorf("%s#%d: merged without a merge commit on main", name, is.Number)
				}
				if p.MergedAt == nil || is.ClosedAt == nil || !p.MergedAt.Equal(*is.ClosedAt) || p.MergedBy == nil {
					t.Errorf("%s#%d: merged_at %v closed_at %v merged_by %v", name, is.Number, p.MergedAt, is.ClosedAt, p.MergedBy)
				}
			case is.State == "closed":
				seen["closed"]++
			case p.Draft:
				seen["draft"]++
			default:
				seen["open"]++
			}
			for _, rv := range p.Reviews {
				reviewStates[rv.State] = true
			}
			for _, th := range p.Threads {
				if th.Outdated() {
					outdated++
				}
				if th.Resolved {
					resolved++
				}
			}
			teams += len(p.RequestedTeams)
		}
	}
	for _, k := range []string{"merged", "closed", "draft", "open", "cross-repository"} {
		if seen[k] == 0 {
			t.Errorf("no %s pull request in the seed (%v)", k, seen)
		}
	}
	for _, st := range []string{"APPROVED", "CHANGES_REQUESTED", "COMMENTED"} {
		if !reviewStates[st] {
			t.Errorf("no %s review in the seed", st)
		}
	}
	if outdated == 0 || resolved == 0 || teams == 0 {
		t.Errorf("outdated threads %d, resolved threads %d, team review requests %d", outdated, resolved, teams)
	}
	// The default branch's files are its tip's tree.
	w := s.Repo(DemoOrg, DemoWidgetsRepo)
	tip := w.Git.Branches[state.RepoDefaultBranch]
	if state.TreeSHA(w.Files) != tip.TreeSHA {
		t.Error("acme/widgets' files are not main's tree")
	}
	if !strings.Contains(w.Files["README.md"], "docs/query-cache-invalidation.md") {
		t.Error("a merged docs pull request's README link is not on main")
	}
}

// The seed is deterministic: two runs give the same commit ids.
func TestDemoSeedGitDeterministic(t *testing.T) {
	tips := func() string {
		s := state.NewState(func() time.Time { return DemoNow() })
		SeedDemo(s)
		var b strings.Builder
		for _, r := range s.Repos() {
			for _, n := range r.Git.BranchNames() {
				b.WriteString(r.FullName() + " " + n + " " + r.Git.Branches[n].SHA + "\n")
			}
		}
		return b.String()
	}
	if a, b := tips(), tips(); a != b {
		t.Errorf("two seeds differ:\n%s\n---\n%s", a, b)
	}
}

// The demo's pull request timelines show what happened to them, in time
// order: each pull request's commits, its reviews, and for a merged one
// the merge before its close; some open one was pushed to after a review,
// and some asked for reviews.
func TestDemoSeedPullTimelines(t *testing.T) {
	s := state.NewState(func() time.Time { return DemoNow() })
	SeedDemo(s)
	pushedAfterReview, requested := 0, 0
	for _, name := range []string{DemoWidgetsRepo, DemoGadgetsRepo} {
		for _, is := range s.Repo(DemoOrg, name).Issues {
			if is.Pull == nil {
				continue
			}
			var kinds []string
			reviewed := false
			for i, e := range is.Events {
				if i > 0 && e.CreatedAt.Before(is.Events[i-1].CreatedAt) {
					t.Errorf("%s#%d: %s at %v after %s at %v", name, is.Number, e.Event, e.CreatedAt, is.Events[i-1].Event, is.Events[i-1].CreatedAt)
				}
				kinds = append(kinds, e.Event)
				switch e.Event {
				case "reviewed":
					reviewed = true
				case "committed":
					if reviewed {
						pushedAfterReview++
					}
				case "review_requested":
					requested++
				}
			}
			commits := 0
			for _, k := range kinds {
				if k == "committed" {
					commits++
				}
			}
			if commits != len(is.Pull.Commits()) {
				t.Errorf("%s#%d: %d committed events for %d commits: %v", name, is.Number, commits, len(is.Pull.Commits()), kinds)
			}
			if len(is.Pull.Reviews) > 0 && !slices.Contains(kinds, "reviewed") {
				t.Errorf("%s#%d: reviews but no reviewed event: %v", name, is.Number, kinds)
			}
			if is.Merged {
				m := slices.Index(kinds, "merged")
				if m < 0 || m+1 >= len(kinds) || kinds[m+1] != "closed" || slices.Index(kinds, "reviewed") > m {
					t.Errorf("%s#%d: merged pull request's timeline %v, want its reviews, then merged, then closed", name, is.Number, kinds)
				}
			}
		}
	}
	if pushedAfterReview == 0 || requested == 0 {
		t.Errorf("pushes after a review %d, review requests %d; want some of each", pushedAfterReview, requested)
	}
}
