package projects_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func place(fields map[string]any) map[string]any {
	return map[string]any{"owner": "acme", "project_number": seed.DemoProjectNumber, "fields": fields}
}

// itemOf reads an issue's item on the board.
func itemOf(t *testing.T, env *servertest.Env, number int) projects.ItemView {
	t.Helper()
	return servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": number})).Item
}

// create_issue with project lands the new issue on the board with its
// fields in the same call; update_issue with project does the same for an
// existing one, beside its other edits; done again it is a no_op.
func TestIssueWritesPutIssuesOnTheBoard(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	created := servertest.CallOK[issues.CreateIssueOut](t, env, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "Plan the gauges release",
		"project": place(map[string]any{"Status": "Todo", "Iteration": "@next", "Estimate": 5})})
	p := created.Project
	if p == nil || !p.Added || p.Number != seed.DemoProjectNumber || str(p.Item.Fields["Status"]) != "Todo" || str(p.Item.Fields["Estimate"]) != "5" {
		t.Fatalf("create with project: %+v", p)
	}
	if got := itemOf(t, env, created.Issue.Number); got.Version != p.Item.Version {
		t.Fatalf("the board holds %+v, the create said %+v", got, p.Item)
	}

	updated := servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": offBoard,
		"title": "Quotas per tenant", "project": place(map[string]any{"Priority": "P1"})})
	if updated.Project == nil || !updated.Project.Added || str(updated.Project.Item.Fields["Priority"]) != "P1" || updated.Issue.Title != "Quotas per tenant" {
		t.Fatalf("update with project: %+v", updated)
	}
	again := servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": offBoard,
		"project": place(map[string]any{"Priority": "P1"})})
	if !again.NoOp || again.Project == nil || again.Project.Added {
		t.Fatalf("the same placement again: %+v", again)
	}
}

// A bad value refuses the whole call before the issue is written, naming
// the field under project; a malformed project object is refused by name.
func TestIssueWritesCheckTheBoardFirst(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	var before int
	inWidgets(env, func(r *emulator.Repo) { before = len(r.Issues) })
	e := refused(t, env, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "never",
		"project": place(map[string]any{"Status": "Blocked"})})
	if e.Code != contract.CodeProjectOptionNotFound || e.Details.Field != "project.fields.Status" || e.Settlement != contract.NotStarted {
		t.Fatalf("bad option: %+v", e)
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(listed.Projects) != 1 {
		t.Fatalf("repair: %+v", listed)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if len(r.Issues) != before {
			t.Fatal("an issue was created")
		}
	})
	for _, c := range []struct {
		project any
		field   string
	}{
		{map[string]any{"owner": "acme", "project_number": 1, "colour": "red"}, "project"},
		{map[string]any{"owner": "acme"}, "project.project_number"},
		{map[string]any{"owner": "acme", "project_number": 1, "fields": map[string]any{"Status": []string{"Todo"}}}, "project"},
	} {
		e := refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": onBoard, "project": c.project})
		if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != c.field {
			t.Errorf("%v: %+v", c.project, e)
		}
	}
	// Issue 1's item is archived: its fields cannot change, and that is
	// known before the title is written.
	e = refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "title": "renamed",
		"project": place(map[string]any{"Priority": "P2"})})
	if e.Code != contract.CodeValidationFailed || e.Settlement != contract.NotStarted || e.Repair.Tool != projects.NameUpdateProjectItem {
		t.Fatalf("archived item: %+v", e)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.Issue(1).Title == "renamed" {
			t.Fatal("the title was written")
		}
	})
	if un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair)); un.Item.Archived {
		t.Fatalf("repair: %+v", un)
	}
	e = refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": onBoard,
		"project": map[string]any{"owner": "acme", "project_number": 42}})
	if e.Code != contract.CodeProjectNotFound || e.Settlement != contract.NotStarted {
		t.Errorf("no such board: %+v", e)
	}
}

// When the board write fails after the issue write, the call is a
// partial_success that says what happened, and its follow_up, taken as
// given, finishes the placement without writing the issue again.
func TestPlacementFailureIsPartialSuccess(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	// The board is known, so the next GraphQL request is the add.
	servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme"})
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "POST", Path: "/api/graphql", Times: 1}); err != nil {
		t.Fatal(err)
	}
	e := refused(t, env, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "Half done",
		"project": place(map[string]any{"Status": "In progress"})})
	if e.Code != contract.CodePartialSuccess || e.Settlement != contract.RemoteSuccessKnown || e.FollowUp == nil || e.FollowUp.Tool != toolkit.NameUpdateIssue {
		t.Fatalf("placement failed: %+v", e)
	}
	if e.Details == nil || len(e.Details.Applied) != 1 || len(e.Details.NotApplied) != 1 {
		t.Fatalf("details: %+v", e.Details)
	}
	var created int
	inWidgets(env, func(r *emulator.Repo) { created = r.Issues[len(r.Issues)-1].Number })
	done := servertest.CallOK[issues.UpdateIssueOut](t, env, e.FollowUp.Tool, repairArgs(t, e.FollowUp))
	if done.Issue.Number != created || done.Project == nil || str(done.Project.Item.Fields["Status"]) != "In progress" {
		t.Fatalf("follow_up: %+v", done)
	}
	if it := itemOf(t, env, created); str(it.Fields["Status"]) != "In progress" {
		t.Fatalf("the board holds %+v", it)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.Issues[len(r.Issues)-1].Number != created {
			t.Fatal("the follow-up created another issue")
		}
	})
}

// inWidgets runs f on acme/widgets under the emulator state's lock.
func inWidgets(env *servertest.Env, f func(r *emulator.Repo)) {
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	f(s.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo))
}

// The capability summary says what the projects toolset does when it is
// served, and points to it when it is not.
func TestCapabilitiesNameTheProjectsToolset(t *testing.T) {
	with := start(t, "").Stack.Server.Summary()
	if !strings.Contains(with, "projects toolset:") || !strings.Contains(with, "create or edit Projects boards") ||
		!strings.Contains(with, "take project {owner, project_number, fields}") {
		t.Fatalf("served, the summary says:\n%s", with)
	}
	without := servertest.Start(t, servertest.Options{}).Stack.Server.Summary()
	if strings.Contains(without, "projects toolset:") || !strings.Contains(without, "the projects toolset does them") ||
		strings.Contains(without, "take project {owner, project_number, fields}") {
		t.Fatalf("not served, the summary says:\n%s", without)
	}
}

// bulk_update_issues shares update_issue's changes, project included:
// each issue lands on the board with the fields.
func TestBulkUpdatePutsEachIssueOnTheBoard(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	var numbers []int // two issues (not pull requests) off the board
	inWidgets(env, func(r *emulator.Repo) {
		for n := offBoard; len(numbers) < 2; n++ {
			if !r.Issue(n).IsPull {
				numbers = append(numbers, n)
			}
		}
	})
	res := env.Call(t, toolkit.NameBulkUpdateIssues, map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": numbers,
		"changes": map[string]any{"project": place(map[string]any{"Priority": "P0"})}})
	if res.IsError || strings.Contains(string(res.JSON), "failed") {
		t.Fatalf("bulk with project: %s", res.JSON)
	}
	for _, n := range numbers {
		if it := itemOf(t, env, n); str(it.Fields["Priority"]) != "P0" {
			t.Errorf("#%d on the board: %+v", n, it)
		}
	}
}

// An issue write names a board of the issue's own owner: it is routed and
// authorized by that owner. Another owner's board is refused with the
// same write without project as the repair, and the board's own tool
// refuses the issue too: it takes only its owner's issues.
func TestIssueWritesStayWithTheIssuesOwner(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": onBoard, "title": "Moved on",
		"project": map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber, "fields": map[string]any{"Status": "Todo"}}})
	if e.Code != contract.CodeInvalidField || e.Details.Field != "project.owner" || e.Repair.Tool != toolkit.NameUpdateIssue {
		t.Fatalf("another owner's board: %+v", e)
	}
	if args := string(mustMarshal(t, e.Repair.Arguments)); strings.Contains(args, "project") || !strings.Contains(args, "Moved on") {
		t.Fatalf("the repair keeps project or loses the title: %s", args)
	}
	servertest.CallOK[map[string]any](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	e = refused(t, env, projects.NameUpdateProjectItem, map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber, "action": "add",
		"item": map[string]any{"repo": "acme/widgets", "issue_number": onBoard}})
	if e.Code != contract.CodeInvalidField || e.Details.Field != "item.repo" {
		t.Fatalf("acme's issue on alice's board: %+v", e)
	}
	e = refused(t, env, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "x",
		"project": map[string]any{"owner": "alice", "project_number": 1}})
	if e.Code != contract.CodeInvalidField || e.Details.Field != "project.owner" || e.Repair.Tool != toolkit.NameCreateIssue {
		t.Fatalf("create on another owner's board: %+v", e)
	}
}

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
