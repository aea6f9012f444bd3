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
	if roadmap == nil {
		t.Fatalf("project #%d of %s missing", DemoProjectNumber, DemoOrg)
	}
	if roadmap.Title != DemoProjectTitle {
		t.Errorf("roadmap title %q, want %q", roadmap.Title, DemoProjectTitle)
	}
	if roadmap.Public {
		t.Errorf("roadmap Public = true, want false")
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
	if kinds["ISSUE"] < 40 {
		t.Errorf("roadmap holds %d issues, want at least 40", kinds["ISSUE"])
	}
	if kinds["PULL_REQUEST"] != 3 {
		t.Errorf("roadmap holds %d pull requests, want 3", kinds["PULL_REQUEST"])
	}
	if kinds["DRAFT_ISSUE"] != 2 {
		t.Errorf("roadmap holds %d draft issues, want 2", kinds["DRAFT_ISSUE"])
	}
	for _, repo := range []string{DemoWidgetsRepo, DemoGadgetsRepo} {
		if byRepo[repo] == 0 {
			t.Errorf("roadmap holds no issue of %s, want some (by repository: %v)", repo, byRepo)
		}
	}
	if archived < 2 {
		t.Errorf("roadmap holds %d archived items, want at least 2", archived)
	}
	for name, typ := range map[string]string{"Status": "SINGLE_SELECT", "Priority": "SINGLE_SELECT", "Iteration": "ITERATION",
		"Estimate": "NUMBER", "Target date": "DATE", "Notes": "TEXT"} {
		f := roadmap.FindField(name)
		if f == nil {
			t.Errorf("field %s missing, want one of type %s", name, typ)
			continue
		}
		if f.DataType != typ {
			t.Errorf("field %s: DataType %s, want %s", name, f.DataType, typ)
		}
	}
	iteration := roadmap.FindField("Iteration")
	if cur := iteration.CurrentIteration(DemoNow()); cur == nil || cur.ID != DemoIterationIDs()[1] {
		t.Errorf("current iteration %+v, want the middle one %s", cur, DemoIterationIDs()[1])
	}
	if n := len(iteration.Iteration.Iterations); n != 2 {
		t.Errorf("iterations: %d, want 2", n)
	}
	if n := len(iteration.Iteration.Completed); n != 1 {
		t.Errorf("completed iterations: %d, want 1", n)
	}
	// Seeded on another day, the middle iteration still holds that day.
	later := time.Date(2027, time.March, 17, 15, 0, 0, 0, time.UTC)
	s2, _ := board(later)
	it2 := s2.Project(s2.Account(DemoOrg), DemoProjectNumber).FindField("Iteration")
	if cur := it2.CurrentIteration(later); cur == nil || cur.ID != DemoIterationIDs()[1] {
		t.Errorf("seeded on %s the current iteration is %+v, want the middle one %s", later, cur, DemoIterationIDs()[1])
	}
	mine := s.Project(s.Account(DemoNotesOwner), DemoUserProjectNumber)
	if mine == nil {
		t.Errorf("alice's board #%d missing", DemoUserProjectNumber)
	} else if len(mine.Items) < 3 {
		t.Errorf("alice's board holds %d items, want at least 3", len(mine.Items))
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
	a, b := count(`status:Todo`), count(`-status:Todo`)
	if a == 0 {
		t.Errorf("status:Todo matches 0 items, want some")
	}
	if a+b != live {
		t.Errorf("status:Todo %d + -status:Todo %d = %d, want all %d", a, b, a+b, live)
	}
	if a, b, both := count(`priority:P0`), count(`priority:P1`), count(`priority:P0,P1`); both != a+b {
		t.Errorf("priority:P0,P1 %d, want %d+%d", both, a, b)
	}
	quoted, dashed := count(`"Target date":>=2026-10-01`), count(`target-date:>=2026-10-01`)
	if quoted == 0 {
		t.Errorf(`"Target date":>=2026-10-01 matches 0 items, want some`)
	}
	if dashed != quoted {
		t.Errorf("target-date:>=2026-10-01 matches %d, want the quoted name's %d", dashed, quoted)
	}
	if n := count(`target-date:<@today-3650d`); n != 0 {
		t.Errorf("dates ten years back: %d items, want 0", n)
	}
	if n := count(`assignee:@me is:draft`); n != 2 {
		t.Errorf("bob's drafts: %d items, want 2", n)
	}
	if n, all := count(`no:estimate`)+count(`has:estimate`), live; n != all {
		t.Errorf("no:estimate + has:estimate = %d, want all %d", n, all)
	}
	for _, bad := range []string{`sprint:1`, `is:blocked`, `no:sprint`} {
		if _, err := state.ParseItemFilter(p, bad); err == nil {
			t.Errorf("ParseItemFilter(%q) = nil error, want one", bad)
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
