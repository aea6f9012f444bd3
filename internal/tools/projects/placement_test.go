package projects_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	if p == nil {
		t.Fatalf("create with project: project = nil, want the placement: %+v", created)
	}
	if !p.Added {
		t.Fatalf("create with project: added = false, want true")
	}
	if p.Number != seed.DemoProjectNumber {
		t.Fatalf("create with project: number = %d, want %d", p.Number, seed.DemoProjectNumber)
	}
	if got := str(p.Item.Fields["Status"]); got != "Todo" {
		t.Fatalf("create with project: Status = %s, want Todo", got)
	}
	if got := str(p.Item.Fields["Estimate"]); got != "5" {
		t.Fatalf("create with project: Estimate = %s, want 5", got)
	}
	if got := itemOf(t, env, created.Issue.Number); got.Version != p.Item.Version {
		t.Fatalf("the board holds version %q, want the create's %q: %+v", got.Version, p.Item.Version, got)
	}

	updated := servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": offBoard,
		"title": "Quotas per tenant", "project": place(map[string]any{"Priority": "P1"})})
	if updated.Project == nil {
		t.Fatalf("update with project: project = nil, want the placement: %+v", updated)
	}
	if !updated.Project.Added {
		t.Fatalf("update with project: added = false, want true")
	}
	if got := str(updated.Project.Item.Fields["Priority"]); got != "P1" {
		t.Fatalf("update with project: Priority = %s, want P1", got)
	}
	if updated.Issue.Title != "Quotas per tenant" {
		t.Fatalf("update with project: title = %q, want %q", updated.Issue.Title, "Quotas per tenant")
	}
	again := servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": offBoard,
		"project": place(map[string]any{"Priority": "P1"})})
	if !again.NoOp {
		t.Fatalf("the same placement again: no_op = false, want true")
	}
	if again.Project == nil {
		t.Fatalf("the same placement again: project = nil, want it shown: %+v", again)
	}
	if again.Project.Added {
		t.Fatalf("the same placement again: added = true, want false")
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
	if !contracttest.Matches(t, "bad option", e, contracttest.Want{Code: contract.CodeProjectOptionNotFound, Field: "project.fields.Status", Settlement: contract.NotStarted}) {
		t.FailNow()
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(listed.Projects) != 1 {
		t.Fatalf("repair: %d projects, want 1: %+v", len(listed.Projects), listed)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if len(r.Issues) != before {
			t.Fatalf("acme/widgets has %d issues, want %d: an issue was created", len(r.Issues), before)
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
		contracttest.Matches(t, fmt.Sprintf("project %v", c.project), e, contracttest.Want{Code: contract.CodeInvalidField, Field: c.field})
	}
	// Issue 1's item is archived: its fields cannot change, and that is
	// known before the title is written.
	e = refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "title": "renamed",
		"project": place(map[string]any{"Priority": "P2"})})
	if !contracttest.Matches(t, "archived item", e, contracttest.Want{Code: contract.CodeValidationFailed, Settlement: contract.NotStarted, RepairTool: projects.NameUpdateProjectItem}) {
		t.FailNow()
	}
	inWidgets(env, func(r *emulator.Repo) {
		if r.Issue(1).Title == "renamed" {
			t.Fatal("issue 1's title = \"renamed\", want it unwritten")
		}
	})
	if un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair)); un.Item.Archived {
		t.Fatalf("repair: archived = true, want false: %+v", un)
	}
	e = refused(t, env, toolkit.NameUpdateIssue, map[string]any{"owner": "acme", "repo": "widgets", "issue_number": onBoard,
		"project": map[string]any{"owner": "acme", "project_number": 42}})
	contracttest.Matches(t, "no such board", e, contracttest.Want{Code: contract.CodeProjectNotFound, Settlement: contract.NotStarted})
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
	if !contracttest.Matches(t, "placement failed", e, contracttest.Want{Code: contract.CodePartialSuccess, Settlement: contract.RemoteSuccessKnown}) {
		t.FailNow()
	}
	if e.FollowUp == nil {
		t.Fatalf("placement failed: follow_up = nil, want a call of %s", toolkit.NameUpdateIssue)
	}
	if e.FollowUp.Tool != toolkit.NameUpdateIssue {
		t.Fatalf("placement failed: follow_up tool = %q, want %s", e.FollowUp.Tool, toolkit.NameUpdateIssue)
	}
	if e.Details == nil {
		t.Fatal("placement failed: details = nil, want applied and not_applied")
	}
	if len(e.Details.Applied) != 1 {
		t.Fatalf("placement failed: %d applied, want 1: %+v", len(e.Details.Applied), e.Details.Applied)
	}
	if len(e.Details.NotApplied) != 1 {
		t.Fatalf("placement failed: %d not applied, want 1: %+v", len(e.Details.NotApplied), e.Details.NotApplied)
	}
	var created int
	inWidgets(env, func(r *emulator.Repo) { created = r.Issues[len(r.Issues)-1].Number })
	done := servertest.CallOK[issues.UpdateIssueOut](t, env, e.FollowUp.Tool, repairArgs(t, e.FollowUp))
	if done.Issue.Number != created {
		t.Fatalf("follow_up: issue #%d, want the created #%d", done.Issue.Number, created)
	}
	if done.Project == nil {
		t.Fatalf("follow_up: project = nil, want the placement: %+v", done)
	}
	if got := str(done.Project.Item.Fields["Status"]); got != "In progress" {
		t.Fatalf("follow_up: Status = %s, want In progress", got)
	}
	if it := itemOf(t, env, created); str(it.Fields["Status"]) != "In progress" {
		t.Fatalf("the board holds Status %s, want In progress: %+v", str(it.Fields["Status"]), it)
	}
	inWidgets(env, func(r *emulator.Repo) {
		if last := r.Issues[len(r.Issues)-1].Number; last != created {
			t.Fatalf("the last issue is #%d, want #%d: the follow-up created another issue", last, created)
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
	for _, want := range []string{"projects toolset:", "create or edit Projects boards", "take project {owner, project_number, fields}"} {
		if !strings.Contains(with, want) {
			t.Fatalf("served, the summary lacks %q, want it:\n%s", want, with)
		}
	}
	without := servertest.Start(t, servertest.Options{}).Stack.Server.Summary()
	for _, bad := range []string{"projects toolset:", "take project {owner, project_number, fields}"} {
		if strings.Contains(without, bad) {
			t.Fatalf("not served, the summary says %q, want it not to:\n%s", bad, without)
		}
	}
	if !strings.Contains(without, "the projects toolset does them") {
		t.Fatalf("not served, the summary lacks %q, want it:\n%s", "the projects toolset does them", without)
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
	if res.IsError {
		t.Fatalf("bulk with project: error %s, want success", res.JSON)
	}
	if strings.Contains(string(res.JSON), "failed") {
		t.Fatalf("bulk with project: %s, want no item failed", res.JSON)
	}
	for _, n := range numbers {
		if it := itemOf(t, env, n); str(it.Fields["Priority"]) != "P0" {
			t.Errorf("#%d on the board: Priority = %s, want P0: %+v", n, str(it.Fields["Priority"]), it)
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
	if !contracttest.Matches(t, "another owner's board", e, contracttest.Want{Code: contract.CodeInvalidField, Field: "project.owner", RepairTool: toolkit.NameUpdateIssue}) {
		t.FailNow()
	}
	args := string(mustMarshal(t, e.Repair.Arguments))
	if strings.Contains(args, "project") {
		t.Fatalf("repair arguments = %s, want them without project", args)
	}
	if !strings.Contains(args, "Moved on") {
		t.Fatalf("repair arguments = %s, want them to keep the title", args)
	}
	servertest.CallOK[map[string]any](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	e = refused(t, env, projects.NameUpdateProjectItem, map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber, "action": "add",
		"item": map[string]any{"repo": "acme/widgets", "issue_number": onBoard}})
	if !contracttest.Matches(t, "acme's issue on alice's board", e, contracttest.Want{Code: contract.CodeInvalidField, Field: "item.repo"}) {
		t.FailNow()
	}
	e = refused(t, env, toolkit.NameCreateIssue, map[string]any{"owner": "acme", "repo": "widgets", "title": "x",
		"project": map[string]any{"owner": "alice", "project_number": 1}})
	if !contracttest.Matches(t, "create on another owner's board", e, contracttest.Want{Code: contract.CodeInvalidField, Field: "project.owner", RepairTool: toolkit.NameCreateIssue}) {
		t.FailNow()
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
