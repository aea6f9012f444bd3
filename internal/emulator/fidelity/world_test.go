// Package fidelity drives the emulator through every route it serves and
// replays GitHub's recorded @octokit/fixtures scenarios against it, with
// every response validated against GitHub's OpenAPI description by
// emulatortest.
package fidelity

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

func TestMain(m *testing.M) {
	code := m.Run()
	emulatortest.Tally(emulatortest.Summary())
	emulatortest.Tally(fmt.Sprintf("fixture replay: %d recorded requests replayed", replayed.Load()))
	os.Exit(code)
}

// Tokens of the test world. Each names its user and what it may do.
const (
	tokAlice = "t-alice" // owns acme: admin everywhere
	tokBob   = "t-bob"   // write on acme/widgets and acme/vault
	tokCarol = "t-carol" // read on acme/widgets, nothing on acme/vault
)

// world is a small organization built through the State API, so these
// tests depend on no seed: acme/widgets (public, 35 issues among them a
// pull request, labels, milestones, sub-issues, dependencies, a locked
// issue, issue templates), acme/vault (private) and alice/notes.
type world struct {
	srv *emulatortest.Server
	// ids by issue number in acme/widgets, for the routes that take
	// database ids.
	ids map[int]int64
	// board is acme's project "Gear train": its field and item ids.
	board boardIDs
}

var epoch = time.Date(2025, 1, 6, 9, 0, 0, 0, time.UTC)

func newWorld(t *testing.T, opts emulator.Options) *world {
	t.Helper()
	opts.Seed = "empty"
	srv := emulatortest.Start(t, opts)
	w := &world{srv: srv, ids: map[int]int64{}}
	st := srv.Emu.State()
	st.Lock()
	defer st.Unlock()

	at := func(h int) time.Time { return epoch.Add(time.Duration(h) * time.Hour) }
	acme := st.AddAccount("acme", "Acme Corporation", true, epoch)
	alice := st.AddAccount("alice", "Alice Liddell", false, epoch)
	bob := st.AddAccount("bob", "Bob Builder", false, epoch)
	carol := st.AddAccount("carol", "Carol Danvers", false, epoch)
	st.AddToken(&emulator.Token{Value: tokAlice, Login: "alice",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermAdmin, "acme/vault": emulator.PermAdmin}})
	st.AddToken(&emulator.Token{Value: tokBob, Login: "bob",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermWrite, "acme/vault": emulator.PermWrite}})
	st.AddToken(&emulator.Token{Value: tokCarol, Login: "carol",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermRead}})

	widgets := st.AddRepo(acme, "widgets", "Widgets for every occasion", false, epoch)
	widgets.Collaborators = []string{"alice", "bob", "carol"}
	vault := st.AddRepo(acme, "vault", "Secrets", true, epoch)
	vault.Collaborators = []string{"alice", "bob"}
	notes := st.AddRepo(alice, "notes", "Alice's notes", false, epoch)
	st.AddIssue(vault, alice, "Rotate the signing key", nil, false, at(1))
	st.AddIssue(notes, alice, "Sort the index", nil, false, at(1))

	desc := func(s string) *string { return &s }
	bug := st.AddLabel(widgets, "bug", "d73a4a", desc("Something isn't working"))
	enh := st.AddLabel(widgets, "enhancement", "a2eeef", desc("New feature or request"))
	triage := st.AddLabel(widgets, "status: triage", "fbca04", nil)
	st.AddLabel(widgets, "priority: high", "b60205", nil)
	due := epoch.AddDate(0, 2, 0)
	v1 := st.AddMilestone(widgets, "v1.0", desc("First release"), &due, alice, epoch)
	st.AddMilestone(widgets, "v1.1", nil, nil, alice, epoch)
	bugType := st.AddIssueType(acme, "Bug", desc("An unexpected problem"), desc("red"), epoch)
	st.AddIssueType(acme, "Feature", nil, desc("blue"), epoch)

	authors := []*emulator.Account{alice, bob, carol}
	for n := 1; n <= 35; n++ {
		body := fmt.Sprintf("Widget %d misbehaves when the gear ratio exceeds %d:1.\n\nSteps:\n1. Mount the widget\n2. Spin it", n, n+2)
		is := st.AddIssue(widgets, authors[n%3], fmt.Sprintf("Widget %d rattles at speed", n), &body, n == 7, at(n))
		w.ids[n] = is.ID
		switch {
		case n%5 == 0:
			st.AddLabels(is, alice, bug)
		case n%7 == 0:
			st.AddLabels(is, alice, enh, triage)
		}
		if n%4 == 0 {
			st.SetMilestone(is, alice, v1)
		}
		if n == 3 {
			st.SetType(is, bugType)
			st.Assign(is, alice, bob)
		}
	}
	issue := func(n int) *emulator.Issue { return widgets.Issue(n) }
	// Issue 1 is a parent with two sub-issues; 2 is blocked by 4.
	mustNil(t, st.AddSubIssue(issue(1), issue(5), alice, false))
	mustNil(t, st.AddSubIssue(issue(1), issue(6), alice, false))
	mustNil(t, st.AddBlockedBy(issue(2), issue(4), alice))
	st.AddComment(issue(1), bob, "I can reproduce this on the bench rig.", at(40))
	st.AddComment(issue(1), carol, "Same here with the 3:1 gear.", at(41))
	// Issue 9 carries a history of every kind of event the emulator records.
	st.Rename(issue(9), alice, "Widget 9 rattles at any speed")
	st.RemoveLabel(issue(10), alice, bug)
	st.Unassign(issue(3), alice, bob)
	st.Close(issue(11), alice, "not_planned")
	st.Reopen(issue(11), alice)
	st.SetMilestone(issue(12), alice, nil)
	reason := "resolved"
	st.LockIssue(issue(13), alice, &reason)
	st.UnlockIssue(issue(13), alice)
	st.LockIssue(issue(14), alice, nil)
	mustNil(t, st.RemoveSubIssue(issue(1), issue(6), alice))
	mustNil(t, st.AddBlockedBy(issue(15), issue(16), alice))
	mustNil(t, st.RemoveBlockedBy(issue(15), issue(16), alice))

	// Pull request 7 carries two pushes, a review with a thread and a
	// reply, a pending review request, check runs and a status.
	pr := issue(7)
	fix := "package gears\n\n// MaxRatio is the highest gear ratio a widget runs at.\nconst MaxRatio = 9\n"
	st.Push(pr, bob, at(50), "Cap the gear ratio at 9:1\n\nFixes #7.", map[string]*string{"gears/ratio.go": &fix})
	test := "package gears\n\nimport \"testing\"\n\nfunc TestMaxRatio(t *testing.T) {\n\tif MaxRatio != 9 {\n\t\tt.Fatal(MaxRatio)\n\t}\n}\n"
	head := st.Push(pr, bob, at(51), "Test the cap", map[string]*string{"gears/ratio_test.go": &test})
	rv := st.AddReview(pr, alice, "CHANGES_REQUESTED", "One question.", at(52))
	first := st.AddReviewComment(rv, nil, "gears/ratio.go", 4, "Why 9 and not 8?", at(52))
	st.AddReviewComment(st.AddReview(pr, bob, "COMMENTED", "", at(53)), first, "", 0, "The spec says 9.", at(53))
	pr.Pull.RequestedReviewers = append(pr.Pull.RequestedReviewers, carol)
	st.AddCheckRun(widgets, head.SHA, "CI", "test", "success", at(51), 3*time.Minute)
	st.AddCheckRun(widgets, head.SHA, "CI", "lint", "", at(51), 0)
	st.AddStatus(widgets, head.SHA, "failure", "ci/coverage", "Coverage fell by 2%", "https://coverage.example/7", alice, at(51))
	// Two releases of main: v1.0.0, and v1.1.0-rc.1, a pre-release.
	st.Tag(widgets, "v1.0.0", widgets.Git.Branches["main"])
	st.AddRelease(widgets, "v1.0.0", "First release.", alice, at(54))
	st.Tag(widgets, "v1.1.0-rc.1", widgets.Git.Branches["main"])
	st.AddRelease(widgets, "v1.1.0-rc.1", "", alice, at(55))

	widgets.Files[".github/ISSUE_TEMPLATE/bug_report.yml"] = "name: Bug report\ndescription: Something is broken\nbody:\n  - type: textarea\n    id: what\n    attributes:\n      label: What happened?\n"
	widgets.Files[".github/ISSUE_TEMPLATE/feature_request.md"] = "---\nname: Feature request\nabout: Suggest an idea\n---\n\nDescribe the idea.\n"
	widgets.Files["README.md"] = "# widgets\n"
	w.board = addBoard(st, acme, alice, widgets, notes)
	return w
}

// boardIDs are the database ids the project routes take.
type boardIDs struct {
	priority, sprint, points, high, current, userTitle, aliceID string
	item, userItem                                              int64
}

// addBoard gives acme a project, "Gear train" (#1: Priority, Sprint,
// Points; issues 1 to 5 of acme/widgets, one archived), and alice one of
// her own (#1: issue 1 of alice/notes).
func addBoard(st *emulator.State, acme, alice *emulator.Account, widgets, notes *emulator.Repo) boardIDs {
	board := st.AddProject(acme, alice, "Gear train", ptrTo("Gears, ratios and rattles"), false)
	board.Roles = map[string]emulator.Permission{"alice": state.PermAdmin, "bob": state.PermWrite}
	prio := st.AddProjectField(board, "Priority", "SINGLE_SELECT")
	high := st.AddProjectOption(prio, "High", "RED", "Soon")
	st.AddProjectOption(prio, "Low", "GRAY", "")
	sprint := st.AddProjectField(board, "Sprint", "ITERATION")
	sprint.Iteration = &state.IterationConfig{Duration: 7, StartDay: 1,
		Iterations: []*state.Iteration{{ID: "0000aa01", Title: "Sprint 2", StartDate: "2025-01-13", Duration: 7}},
		Completed:  []*state.Iteration{{ID: "0000aa00", Title: "Sprint 1", StartDate: "2025-01-06", Duration: 7}}}
	points := st.AddProjectField(board, "Points", "NUMBER")
	var first *state.ProjectItem
	for n := 1; n <= 5; n++ {
		it, _ := st.AddProjectItem(board, widgets.Issue(n), alice)
		st.SetProjectValue(it, state.ProjectValue{Field: prio, Option: high}, alice)
		if first == nil {
			first = it
		}
	}
	st.SetItemArchived(board.Items[4], true)
	mine := st.AddProject(alice, alice, "Reading", nil, false)
	note, _ := st.AddProjectItem(mine, notes.Issue(1), alice)
	id := func(n int64) string { return fmt.Sprint(n) }
	return boardIDs{priority: id(prio.ID), sprint: id(sprint.ID), points: id(points.ID), high: high.ID, current: "0000aa01",
		item: first.ID, userItem: note.ID, userTitle: id(mine.FindField("Title").ID), aliceID: id(alice.ID)}
}

func ptrTo(s string) *string { return &s }

func mustNil(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// do sends one request through the validating harness.
func (w *world) do(t *testing.T, method, path, token string, body any) *emulatortest.Response {
	t.Helper()
	return w.srv.Do(t, method, path, token, body)
}
