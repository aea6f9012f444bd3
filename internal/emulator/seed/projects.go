package seed

import (
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The demo seed's Projects (v2) boards.
const (
	// DemoProjectNumber is acme's "Widgets roadmap" board: Status,
	// Priority, Iteration, Estimate, Target date and Notes fields, 42
	// issues from both acme repositories, 3 pull requests and 2 draft
	// issues, 3 of the items archived. It is private to acme's members:
	// dave cannot see it.
	DemoProjectNumber = 1
	DemoProjectTitle  = "Widgets roadmap"
	// DemoClosedProjectNumber is acme's closed, public "Support intake"
	// board with two items.
	DemoClosedProjectNumber = 2
	// DemoUserProjectNumber is alice's own "Personal planning" board:
	// the five alice/notes issues and a draft.
	DemoUserProjectNumber = 1
	// DemoProjectWidgetsIssues and [DemoProjectGadgetsIssues] are how many
	// issues of each repository the roadmap holds.
	DemoProjectWidgetsIssues = 30
	DemoProjectGadgetsIssues = 12
	// DemoTokenAliceNoProject is a classic token for alice without the
	// project scopes: GitHub refuses it any Projects (v2) field with
	// INSUFFICIENT_SCOPES.
	DemoTokenAliceNoProject = "emu-alice-noproject"
	// DemoTokenAliceFineGrained is a fine-grained token for alice, with
	// her repository access: it reaches acme's boards but not her own,
	// as fine-grained tokens cannot be granted user-owned projects.
	DemoTokenAliceFineGrained = "github_pat_emu_alice"
	// DemoTokenAliceIssues is a fine-grained token for alice granted
	// issues (read and write) and metadata alone: GitHub refuses it the
	// contents of her repositories (issue templates included) and writes
	// to their pull requests.
	DemoTokenAliceIssues = "github_pat_emu_alice_issues"
)

// DemoIterationIDs are the roadmap's Iteration field's iterations, oldest
// first: the completed one, the current one and the next one.
func DemoIterationIDs() []string { return []string{"5e1a7001", "5e1a7002", "5e1a7003"} }

// seedProjects builds the boards. The iteration dates follow the clock
// the emulator serves with (now): the middle iteration is the one that
// holds today, so "@current" means something whatever the date; every
// other value is fixed.
func (sd *seeder) seedProjects(w *world, now time.Time) {
	s := sd.s
	s.AddToken(&state.Token{Value: DemoTokenAliceNoProject, Login: "alice", Scopes: []string{"repo", "read:org"},
		Perms: map[string]state.Permission{w.widgets.FullName(): state.PermAdmin, w.gadgets.FullName(): state.PermAdmin,
			w.notes.FullName(): state.PermAdmin}})
	s.AddToken(&state.Token{Value: DemoTokenAliceFineGrained, Login: "alice", FineGrained: true,
		Perms: map[string]state.Permission{w.widgets.FullName(): state.PermAdmin, w.gadgets.FullName(): state.PermAdmin,
			w.notes.FullName(): state.PermAdmin}})
	s.AddToken(&state.Token{Value: DemoTokenAliceIssues, Login: "alice", FineGrained: true,
		Grants: state.AppPermissions{"issues": "write", "metadata": "read"},
		Perms: map[string]state.Permission{w.widgets.FullName(): state.PermAdmin, w.gadgets.FullName(): state.PermAdmin,
			w.notes.FullName(): state.PermAdmin}})

	p := s.AddProject(w.acme, w.alice, DemoProjectTitle, ptr("What the widgets team ships next, by iteration"), false)
	p.Roles = map[string]state.Permission{"alice": state.PermAdmin, "bob": state.PermWrite, "carol": state.PermRead}
	status := p.FindField("Status")
	priority := s.AddProjectField(p, "Priority", "SINGLE_SELECT")
	for _, o := range []struct{ name, color, desc string }{
		{"P0", "RED", "Drop everything"}, {"P1", "ORANGE", "This iteration"}, {"P2", "BLUE", "When there is room"},
	} {
		s.AddProjectOption(priority, o.name, o.color, o.desc)
	}
	iteration := s.AddProjectField(p, "Iteration", "ITERATION")
	iteration.Iteration = demoIterations(now)
	estimate := s.AddProjectField(p, "Estimate", "NUMBER")
	target := s.AddProjectField(p, "Target date", "DATE")
	notes := s.AddProjectField(p, "Notes", "TEXT")

	var contents []*state.Issue
	contents = append(contents, firstIssues(w.widgets, DemoProjectWidgetsIssues)...)
	contents = append(contents, firstIssues(w.gadgets, DemoProjectGadgetsIssues)...)
	for _, n := range DemoPulls()[:3] {
		contents = append(contents, w.widgets.Issue(n))
	}
	iters := iteration.AllIterations() // current, next, completed
	for i, is := range contents {
		it, _ := s.AddProjectItem(p, is, w.alice)
		st := status.Options[i%2]
		if is.State == "closed" {
			st = status.Options[2]
		}
		s.SetProjectValue(it, state.ProjectValue{Field: status, Option: st}, w.alice)
		if i%4 != 3 {
			s.SetProjectValue(it, state.ProjectValue{Field: priority, Option: priority.Options[i%3]}, w.alice)
		}
		s.SetProjectValue(it, state.ProjectValue{Field: iteration, Iteration: iters[i%3]}, w.alice)
		if i%3 != 2 {
			s.SetProjectValue(it, state.ProjectValue{Field: estimate, Number: float64(1 + i%5*2)}, w.bob)
		}
		if i%5 == 0 {
			s.SetProjectValue(it, state.ProjectValue{Field: target, Date: fmt.Sprintf("2026-%02d-%02d", 10+i%3, 1+i%28)}, w.bob)
		}
		if i%7 == 0 {
			s.SetProjectValue(it, state.ProjectValue{Field: notes, Text: "Check with support before moving"}, w.bob)
		}
	}
	for _, d := range []struct{ title, body string }{
		{"Spike: server-side rendering for gauges", "Try rendering gauges on the server and compare first paint."},
		{"Write the v2.0 migration guide outline", "List every breaking change with a before/after snippet."},
	} {
		it := s.AddDraftItem(p, d.title, d.body, []*state.Account{w.bob}, w.bob)
		s.SetProjectValue(it, state.ProjectValue{Field: status, Option: status.Options[0]}, w.bob)
	}
	// Three closed issues are archived off the board.
	archived := 0
	for _, it := range p.Items {
		if archived < 3 && it.Issue != nil && it.Issue.State == "closed" && !it.Issue.IsPull {
			s.SetItemArchived(it, true)
			archived++
		}
	}

	intake := s.AddProject(w.acme, w.bob, "Support intake", ptr("Reports from customers, triaged weekly"), true)
	intake.Roles = map[string]state.Permission{"bob": state.PermAdmin, "carol": state.PermWrite}
	for _, n := range []int{DemoManyCommentsIssue, DemoTriageIssue} {
		s.AddProjectItem(intake, w.widgets.Issue(n), w.carol)
	}
	intake.Closed = true
	closed := s.Now()
	intake.ClosedAt = &closed

	mine := s.AddProject(w.alice, w.alice, "Personal planning", ptr("Talks, reading and errands"), false)
	mst := mine.FindField("Status")
	for i, is := range w.notes.Issues {
		it, _ := s.AddProjectItem(mine, is, w.alice)
		s.SetProjectValue(it, state.ProjectValue{Field: mst, Option: mst.Options[i%3]}, w.alice)
	}
	s.AddDraftItem(mine, "Book the venue for the October meetup", "", nil, w.alice)
}

// firstIssues lists a repository's first n issues, pull requests left out.
func firstIssues(r *state.Repo, n int) []*state.Issue {
	var out []*state.Issue
	for _, is := range r.Issues {
		if len(out) == n {
			break
		}
		if !is.IsPull {
			out = append(out, is)
		}
	}
	return out
}

// demoIterations is a two-week schedule starting on Mondays whose current
// iteration holds now: one completed before it and one after it.
func demoIterations(now time.Time) *state.IterationConfig {
	today := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	monday := today.AddDate(0, 0, -((int(today.Weekday()) + 6) % 7))
	ids := DemoIterationIDs()
	it := func(i int, start time.Time) *state.Iteration {
		return &state.Iteration{ID: ids[i], Title: fmt.Sprintf("Iteration %d", i+1), StartDate: start.Format(time.DateOnly), Duration: 14}
	}
	return &state.IterationConfig{Duration: 14, StartDay: 1,
		Iterations: []*state.Iteration{it(1, monday), it(2, monday.AddDate(0, 0, 14))},
		Completed:  []*state.Iteration{it(0, monday.AddDate(0, 0, -14))}}
}
