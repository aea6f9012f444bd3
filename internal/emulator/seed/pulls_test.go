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
		if g == nil {
			t.Fatalf("%s has no git data, want a main branch", name)
		}
		if g.Branches[state.RepoDefaultBranch] == nil {
			t.Fatalf("%s has no %s branch", name, state.RepoDefaultBranch)
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
				if p.HeadRepo.Parent != r {
					t.Errorf("%s#%d: head in %s, whose parent is %v, want a fork of %s", name, is.Number, p.HeadRepo.FullName(), p.HeadRepo.Parent, r.FullName())
				}
				if !p.MaintainerCanModify {
					t.Errorf("%s#%d: cross-repository MaintainerCanModify = false, want true", name, is.Number)
				}
				if g.Commits[p.Head.SHA] != p.Head {
					t.Errorf("%s#%d: head %s (in %s) not among %s's commits, want the base repository to track it", name, is.Number, p.Head.SHA, p.HeadRepo.FullName(), name)
				}
			}
			if p.HeadRepo.Git.Branches[p.HeadRef] == nil {
				t.Errorf("%s#%d: head branch %q missing in %s", name, is.Number, p.HeadRef, p.HeadRepo.FullName())
			}
			if p.BaseRef != state.RepoDefaultBranch {
				t.Errorf("%s#%d: base %q, want %q", name, is.Number, p.BaseRef, state.RepoDefaultBranch)
			}
			if n := len(p.Commits()); n < 1 || n > 3 {
				t.Errorf("%s#%d has %d commits, want 1..3", name, is.Number, n)
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
				switch {
				case mc == nil:
					t.Errorf("%s#%d: merged, MergeCommit = nil, want a merge commit", name, is.Number)
				case len(mc.Parents) != 2:
					t.Errorf("%s#%d: merge commit has %d parents, want 2", name, is.Number, len(mc.Parents))
				case mc.Parents[1] != p.Head:
					t.Errorf("%s#%d: merge commit's second parent %s, want the head %s", name, is.Number, mc.Parents[1].SHA, p.Head.SHA)
				case !slices.Contains(state.History(g.Branches[state.RepoDefaultBranch]), mc):
					t.Errorf("%s#%d: merge commit %s not in main's history", name, is.Number, mc.SHA)
				}
				if p.MergedAt == nil || is.ClosedAt == nil || !p.MergedAt.Equal(*is.ClosedAt) {
					t.Errorf("%s#%d: merged_at %v, closed_at %v, want both set and equal", name, is.Number, p.MergedAt, is.ClosedAt)
				}
				if p.MergedBy == nil {
					t.Errorf("%s#%d: merged, MergedBy = nil, want the merger", name, is.Number)
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
	if outdated == 0 {
		t.Errorf("outdated threads: 0, want some")
	}
	if resolved == 0 {
		t.Errorf("resolved threads: 0, want some")
	}
	if teams == 0 {
		t.Errorf("team review requests: 0, want some")
	}
	// The default branch's files are its tip's tree.
	w := s.Repo(DemoOrg, DemoWidgetsRepo)
	tip := w.Git.Branches[state.RepoDefaultBranch]
	if got := state.TreeSHA(w.Files); got != tip.TreeSHA {
		t.Errorf("acme/widgets' files hash to tree %s, want main's tree %s", got, tip.TreeSHA)
	}
	if !strings.Contains(w.Files["README.md"], "docs/query-cache-invalidation.md") {
		t.Errorf("main's README.md lacks the merged docs pull request's link %q", "docs/query-cache-invalidation.md")
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
				if m < 0 {
					t.Errorf("%s#%d: merged pull request's timeline %v has no merged event", name, is.Number, kinds)
				} else {
					if m+1 >= len(kinds) || kinds[m+1] != "closed" {
						t.Errorf("%s#%d: merged pull request's timeline %v, want closed right after merged", name, is.Number, kinds)
					}
					if slices.Index(kinds, "reviewed") > m {
						t.Errorf("%s#%d: merged pull request's timeline %v, want its reviews before merged", name, is.Number, kinds)
					}
				}
			}
		}
	}
	if pushedAfterReview == 0 {
		t.Errorf("pushes after a review: 0, want some")
	}
	if requested == 0 {
		t.Errorf("review_requested events: 0, want some")
	}
}
