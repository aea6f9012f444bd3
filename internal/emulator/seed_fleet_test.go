package emulator_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The fleet organization is opt-in, sized by its option, and repository i
// is the same whatever the size; it holds what reports look for.
func TestDemoSeedFleet(t *testing.T) {
	if s := seeded(t); s.Account(emulator.FleetOrg) != nil {
		t.Fatal("the default demo seed should not hold the fleet organization")
	}
	build := func(n int) *emulator.State {
		s := state.NewState(emulator.DemoNow)
		if err := seed.SeedDemoWith(s, seed.DemoOptions{FleetRepos: n}); err != nil {
			t.Fatal(err)
		}
		return s
	}
	small, big := build(12), build(emulator.DemoFleetRepos)
	count := func(s *emulator.State) (repos int) {
		for _, r := range s.Repos() {
			if r.Owner.Login == emulator.FleetOrg {
				repos++
			}
		}
		return repos
	}
	if n := count(small); n != 12 {
		t.Fatalf("fleet of 12: %d repositories, want 12", n)
	}
	if n := count(big); n != emulator.DemoFleetRepos {
		t.Fatalf("fleet of DemoFleetRepos: %d repositories, want %d", n, emulator.DemoFleetRepos)
	}
	if emulator.DemoFleetRepos < 60 {
		t.Fatalf("DemoFleetRepos = %d, want at least 60", emulator.DemoFleetRepos)
	}
	var archived, private, noIssues, noCode, noSecret, noDependabot, releases, unlabelled, labelled, drafts int
	for i := range emulator.DemoFleetRepos {
		f := emulator.Fleet(i)
		r := big.Repo(emulator.FleetOrg, f.Name)
		if r == nil {
			t.Fatalf("fleet repository %d (%s) missing", i, f.Name)
		}
		if r.Archived != f.Archived {
			t.Fatalf("fleet repository %d: Archived = %v, want the spec's %v", i, r.Archived, f.Archived)
		}
		if r.Private != f.Private {
			t.Fatalf("fleet repository %d: Private = %v, want the spec's %v", i, r.Private, f.Private)
		}
		if r.IssuesDisabled != f.IssuesDisabled {
			t.Fatalf("fleet repository %d: IssuesDisabled = %v, want the spec's %v", i, r.IssuesDisabled, f.IssuesDisabled)
		}
		if i < 12 {
			a := small.Repo(emulator.FleetOrg, f.Name)
			if len(a.Issues) != len(r.Issues) {
				t.Errorf("fleet repository %d: %d issues in the fleet of 12, want the big fleet's %d", i, len(a.Issues), len(r.Issues))
			}
			if len(a.Security.Dependabot) != len(r.Security.Dependabot) {
				t.Errorf("fleet repository %d: %d Dependabot alerts in the fleet of 12, want the big fleet's %d", i, len(a.Security.Dependabot), len(r.Security.Dependabot))
			}
			if len(a.Runs) != len(r.Runs) {
				t.Errorf("fleet repository %d: %d runs in the fleet of 12, want the big fleet's %d", i, len(a.Runs), len(r.Runs))
			}
		}
		archived += b2i(f.Archived)
		private += b2i(f.Private)
		noIssues += b2i(f.IssuesDisabled)
		noCode += b2i(f.CodeScanningOff || (f.Private && f.AdvancedSecurityOff))
		noSecret += b2i(f.SecretScanningOff)
		noDependabot += b2i(f.DependabotOff)
		releases += b2i(f.Release != "")
		for _, is := range r.Issues {
			if is.State != "open" {
				continue
			}
			if len(is.Labels) == 0 {
				unlabelled++
			} else {
				labelled++
			}
			if is.Pull != nil && is.Pull.Draft {
				drafts++
			}
		}
	}
	for name, n := range map[string]int{"archived": archived, "private": private, "issues disabled": noIssues, "code scanning off": noCode,
		"secret scanning off": noSecret, "dependabot off": noDependabot, "release pull requests": releases,
		"unlabelled open items": unlabelled, "labelled open items": labelled, "draft pull requests": drafts} {
		if n == 0 {
			t.Errorf("no fleet repository with %s", name)
		}
	}
	t.Logf("fleet of %d: %d archived, %d private, %d issues off, %d code scanning off, %d secret scanning off, %d Dependabot off, %d release PRs; %d unlabelled and %d labelled open items, %d drafts",
		emulator.DemoFleetRepos, archived, private, noIssues, noCode, noSecret, noDependabot, releases, unlabelled, labelled, drafts)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
