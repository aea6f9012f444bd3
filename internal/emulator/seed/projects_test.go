package seed

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The demo boards hold what the issue asks of them, the same way every
// time, with the current iteration on the clock the emulator serves with.
func TestDemoSeedProjects(t *testing.T) {
	board := func(now time.Time) (*state.State, string) {
		s := state.NewState(func() time.Time { return now })
		if err := SeedDemo(s); err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, owner := range []string{DemoOrg, DemoNotesOwner} {
			for _, p := range s.Projects(s.Account(owner)) {
				fmt.Fprintf(&b, "%s #%d %s %s\n", owner, p.Number, p.Title, p.NodeID)
				for _, it := range p.Items {
					fmt.Fprintf(&b, "  %s %s archived=%v values=%d\n", it.NodeID, it.Type(), it.Archived, len(it.Values))
				}
			}
		}
		return s, b.String()
	}
	s, first := board(DemoNow())
	if _, again := board(DemoNow()); again != first {
		t.Errorf("two seeds differ:\n%s\n---\n%s", first, again)
	}

	roadmap := s.Project(s.Account(DemoOrg), DemoProjectNumber)
	if roadmap == nil || roadmap.Title != DemoProjectTitle || roadmap.Public {
		t.Fatalf("roadmap %+v", roadmap)
	}
	byRepo := map[string]int{}
	kinds := map[string]int{}
	archived := 0
	for _, it := range roadmap.Items {
		kinds[it.Type()]++
		if it.Issue != nil && !it.Issue.IsPull {
			byRepo[it.Issue.Repo.Name]++
		}
		if it.Archived {
			archived++
		}
		if it.Value(roadmap.FindField("Status")) == nil {
			t.Errorf("item %s has no Status", it.NodeID)
		}
	}
	if kinds["ISSUE"] < 40 || kinds["PULL_REQUEST"] != 3 || kinds["DRAFT_ISSUE"] != 2 || byRepo[DemoWidgetsRepo] == 0 ||
		byRepo[DemoGadgetsRepo] == 0 || archived < 2 {
		t.Errorf("roadmap holds %v, issues by repository %v, %d archived", kinds, byRepo, archived)
	}
	for name, typ := range map[string]string{"Status": "SINGLE_SELECT", "Priority": "SINGLE_SELECT", "Iteration": "ITERATION",
		"Estimate": "NUMBER", "Target date": "DATE", "Notes": "TEXT"} {
		if f := roadmap.FindField(name); f == nil || f.DataType != typ {
			t.Errorf("field %s: %+v", name, f)
		}
	}
	iteration := roadmap.FindField("Iteration")
	if cur := iteration.CurrentIteration(DemoNow()); cur == nil || cur.ID != DemoIterationIDs()[1] ||
		len(iteration.Iteration.Iterations) != 2 || len(iteration.Iteration.Completed) != 1 {
		t.Errorf("iterations %+v, current %+v", iteration.Iteration, cur)
	}
	// Seeded on another day, the middle iteration still holds that day.
	later := time.Date(2027, time.March, 17, 15, 0, 0, 0, time.UTC)
	s2, _ := board(later)
	it2 := s2.Project(s2.Account(DemoOrg), DemoProjectNumber).FindField("Iteration")
	if cur := it2.CurrentIteration(later); cur == nil || cur.ID != DemoIterationIDs()[1] {
		t.Errorf("seeded on %s the current iteration is %+v", later, cur)
	}
	mine := s.Project(s.Account(DemoNotesOwner), DemoUserProjectNumber)
	if mine == nil || len(mine.Items) < 3 {
		t.Errorf("alice's board %+v", mine)
	}
}

// The filter syntax: quoting, alternatives, negation and comparisons.
func TestProjectItemFilterSyntax(t *testing.T) {
	s := state.NewState(func() time.Time { return DemoNow() })
	if err := SeedDemo(s); err != nil {
		t.Fatal(err)
	}
	p := s.Project(s.Account(DemoOrg), DemoProjectNumber)
	count := func(q string) int {
		t.Helper()
		f, err := state.ParseItemFilter(p, q)
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		n := 0
		for _, it := range p.Items {
			if f.Match(it, s.Account("bob"), DemoNow()) {
				n++
			}
		}
		return n
	}
	live := count("")
	if a, b := count(`status:Todo`), count(`-status:Todo`); a == 0 || a+b != live {
		t.Errorf("status:Todo %d and -status:Todo %d of %d", a, b, live)
	}
	if a, b, both := count(`priority:P0`), count(`priority:P1`), count(`priority:P0,P1`); both != a+b {
		t.Errorf("priority:P0,P1 %d, want %d+%d", both, a, b)
	}
	if a, b := count(`"Target date":>=2026-10-01`), count(`target-date:>=2026-10-01`); a == 0 || a != b {
		t.Errorf("quoted and dashed field names: %d, %d", a, b)
	}
	if n := count(`target-date:<@today-3650d`); n != 0 {
		t.Errorf("dates ten years back: %d", n)
	}
	if n := count(`assignee:@me is:draft`); n != 2 {
		t.Errorf("bob's drafts: %d", n)
	}
	if n, all := count(`no:estimate`)+count(`has:estimate`), live; n != all {
		t.Errorf("no: and has: split %d of %d", n, all)
	}
	for _, bad := range []string{`sprint:1`, `is:blocked`, `no:sprint`} {
		if _, err := state.ParseItemFilter(p, bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// An organization's owners manage every board of the organization, even one
// whose roles do not name them; its other members only read it.
func TestOrgOwnersAdministerEveryBoard(t *testing.T) {
	s := state.NewState(DemoNow)
	if err := SeedDemo(s); err != nil {
		t.Fatal(err)
	}
	intake := s.Project(s.Account(DemoOrg), DemoClosedProjectNumber)
	for login, want := range map[string]state.Permission{
		"alice": state.PermAdmin, // an owner of acme, not in the board's roles
		"bob":   state.PermAdmin, // the board's admin by its roles
		"carol": state.PermWrite,
	} {
		if got := s.ProjectPermission(intake, s.Account(login)); got != want {
			t.Errorf("%s on %q: permission %v, want %v", login, intake.Title, got, want)
		}
	}
}
