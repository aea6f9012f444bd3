package projects_test

import (
	"github.com/ghgate/ghgate/internal/server/servertest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

func board(extra map[string]any) map[string]any {
	args := map[string]any{"owner": "acme", "project_number": seed.DemoProjectNumber}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

// An organization's boards come with their fields: types, options and
// iterations (the current one marked); a user's are found after the
// organization lookup fails; full detail adds to summary, never removes.
func TestListProjectsShowsFieldsAndOptions(t *testing.T) {
	env := start(t, "")
	out := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme"})
	if out.OwnerKind != "organization" || len(out.Projects) != 2 || out.Projects[0].Title != seed.DemoProjectTitle {
		t.Fatalf("acme's boards: %+v", out)
	}
	fields := map[string]projects.FieldView{}
	for _, f := range out.Projects[0].Fields {
		fields[f.Name] = f
	}
	want := map[string]string{"Status": "single_select", "Priority": "single_select", "Iteration": "iteration", "Estimate": "number", "Target date": "date", "Notes": "text"}
	for name, typ := range want {
		if fields[name].Type != typ {
			t.Errorf("%s: type %q, want %q", name, fields[name].Type, typ)
		}
	}
	if got := strings.Join(fields["Status"].Options, ","); got != "Todo,In progress,Done" {
		t.Errorf("Status options %q", got)
	}
	its := fields["Iteration"].Iterations
	if len(its) != 2 || !its[0].Current || its[1].Current || its[0].Days != 14 {
		t.Errorf("summary iterations: %+v", its)
	}
	full := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "detail": "full"})
	if len(full.Projects) != len(out.Projects) || full.Projects[0].URL == "" || len(full.Projects[0].Fields) <= len(out.Projects[0].Fields) {
		t.Errorf("full detail: %+v", full.Projects[0])
	}
	for _, f := range full.Projects[0].Fields {
		if f.Name == "Iteration" && len(f.Iterations) != 3 {
			t.Errorf("full detail lists %d iterations, want the completed one too", len(f.Iterations))
		}
	}

	env.Upstream()
	mine := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "alice"})
	if mine.OwnerKind != "user" || len(mine.Projects) != 1 || mine.Projects[0].Title != "Personal planning" {
		t.Fatalf("alice's boards: %+v", mine)
	}
	wantCalls(t, env, 2) // organization, then user

	q := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "query": "intake"})
	if len(q.Projects) != 1 || q.Projects[0].Title != "Support intake" || !q.Projects[0].Closed {
		t.Errorf("query intake: %+v", q.Projects)
	}
}

// Pages of boards chain through signed cursors; a cursor used with other
// filters is refused with a restart that works as given.
func TestListProjectsPagesAndRefusesForeignCursors(t *testing.T) {
	env := start(t, "")
	first := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 1})
	if !first.HasMore || first.NextCursor == "" || len(first.Projects) != 1 {
		t.Fatalf("first page: %+v", first)
	}
	second := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 1, "cursor": first.NextCursor})
	if second.HasMore || len(second.Projects) != 1 || second.Projects[0].Number == first.Projects[0].Number {
		t.Fatalf("second page: %+v", second)
	}
	e := refused(t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 2, "cursor": first.NextCursor})
	if e.Code != contract.CodeCursorInvalid {
		t.Fatalf("cursor under other filters: %+v", e)
	}
	again := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(again.Projects) != 2 {
		t.Fatalf("restart: %+v", again)
	}
}

// The board's items come a page at a time through cursors: every item
// once, issues from both repositories, pull requests and drafts told
// apart and counted.
func TestListProjectItemsPagesTheWholeBoard(t *testing.T) {
	env := start(t, "")
	seen := map[string]bool{}
	var total projects.ItemCounts
	total.Repos = map[string]int{}
	cursor := ""
	pages := 0
	boardSize := 0
	for {
		args := board(map[string]any{"page_size": 10})
		if cursor != "" {
			args["cursor"] = cursor
		}
		page := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, args)
		pages++
		boardSize = page.Total
		kinds := map[string]int{}
		for _, it := range page.Items {
			if seen[it.ItemID] {
				t.Fatalf("item %s listed twice", it.ItemID)
			}
			seen[it.ItemID] = true
			kinds[it.Kind]++
			switch it.Kind {
			case "issue", "pull_request":
				if it.Repo == "" || it.Number == 0 {
					t.Errorf("%s without repo and number: %+v", it.Kind, it)
				}
			case "draft_issue":
				if it.Repo != "" || it.Number != 0 {
					t.Errorf("a draft passed off as an issue: %+v", it)
				}
			}
		}
		c := page.Counts
		if c.Issues != kinds["issue"] || c.PullRequests != kinds["pull_request"] || c.DraftIssues != kinds["draft_issue"] {
			t.Errorf("page counts %+v, rows %v", c, kinds)
		}
		total.Issues += c.Issues
		total.PullRequests += c.PullRequests
		total.DraftIssues += c.DraftIssues
		total.Archived += c.Archived
		for r, n := range c.Repos {
			total.Repos[r] += n
		}
		if !page.HasMore {
			break
		}
		cursor = page.NextCursor
	}
	if pages < 5 || len(seen) != boardSize || boardSize < 45 {
		t.Fatalf("%d pages, %d items seen, board says %d", pages, len(seen), boardSize)
	}
	want := projects.ItemCounts{Issues: seed.DemoProjectWidgetsIssues + seed.DemoProjectGadgetsIssues, PullRequests: 3, DraftIssues: 2, Archived: 3}
	if total.Issues != want.Issues || total.PullRequests != want.PullRequests || total.DraftIssues != want.DraftIssues || total.Archived != want.Archived {
		t.Errorf("counted %+v, want %+v", total, want)
	}
	if total.Repos["acme/widgets"] != seed.DemoProjectWidgetsIssues+3 || total.Repos["acme/gadgets"] != seed.DemoProjectGadgetsIssues {
		t.Errorf("per repository: %v", total.Repos)
	}
}

// A filter goes to GitHub in its own syntax (a qualifier naming no field:
// TestListProjectItemsRefusesUnknownFields).
func TestListProjectItemsFilters(t *testing.T) {
	env := start(t, "")
	out := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"filter": `status:"In progress" is:issue`, "page_size": 100}))
	if len(out.Items) == 0 || out.Total != len(out.Items) {
		t.Fatalf("filtered: %d rows of %d", len(out.Items), out.Total)
	}
	for _, it := range out.Items {
		if it.Kind != "issue" || it.Fields["Status"].Str == nil || *it.Fields["Status"].Str != "In progress" {
			t.Fatalf("row outside the filter: %+v", it)
		}
	}
}

// An item is read by its issue or by the item_id a listing returned;
// an issue not on the board is not_found with the add as the repair, and
// that add, taken as given, puts it there.
func TestGetProjectItem(t *testing.T) {
	env := start(t, "")
	byIssue := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": 5}))
	if byIssue.Item.Kind != "issue" || byIssue.Item.Number != 5 || byIssue.Item.Repo != "acme/widgets" || byIssue.Item.Version == "" || len(byIssue.Item.Fields) == 0 {
		t.Fatalf("by issue: %+v", byIssue.Item)
	}
	byID := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"item_id": byIssue.Item.ItemID}))
	if byID.Item.ItemID != byIssue.Item.ItemID || byID.Item.Version != byIssue.Item.Version {
		t.Fatalf("by id: %+v", byID.Item)
	}
	other := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "acme/gadgets", "issue_number": 1}))
	if other.Item.Repo != "acme/gadgets" {
		t.Fatalf("gadgets issue: %+v", other.Item)
	}

	e := refused(t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": 150}))
	if e.Code != contract.CodeNotFound || e.Repair.Tool != projects.NameUpdateProjectItem {
		t.Fatalf("issue off the board: %+v", e)
	}
	added := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if added.Item == nil || added.Item.Number != 150 || added.NoOp {
		t.Fatalf("repair's add: %+v", added)
	}
}

// A board that is not there is project_not_found with the owner's boards
// as the repair; a fine-grained token on a user's board is
// insufficient_scope that says why, not a not-found.
func TestProjectNotFoundAndFineGrainedUserBoards(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, projects.NameListProjectItems, map[string]any{"owner": "acme", "project_number": 99})
	if e.Code != contract.CodeProjectNotFound || e.Details.Field != "project_number" {
		t.Fatalf("board 99: %+v", e)
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(listed.Projects) != 2 {
		t.Fatalf("repair: %+v", listed)
	}

	fg := start(t, seed.DemoTokenAliceFineGrained)
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{projects.NameListProjects, map[string]any{"owner": "alice"}},
		{projects.NameListProjectItems, map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber}},
		{projects.NameGetProjectItem, map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber, "repo": "notes", "issue_number": 1}},
		{projects.NameUpdateProjectItem, map[string]any{"owner": "alice", "project_number": seed.DemoUserProjectNumber,
			"item": map[string]any{"repo": "notes", "issue_number": 1}, "action": "set_fields", "fields": map[string]any{"Status": "Done"}}},
	} {
		e := refused(t, fg, c.tool, c.args)
		if e.Code != contract.CodeInsufficientScope || !strings.Contains(e.Message, "fine-grained") || e.Repair == nil || !strings.Contains(e.Repair.NextStep, "fine-grained") {
			t.Errorf("%s with a fine-grained token: %+v", c.tool, e)
		}
	}
	// The same token reaches the organization's board.
	servertest.CallOK[projects.ListProjectItemsOut](t, fg, projects.NameListProjectItems, board(map[string]any{"page_size": 1}))
}

// An item named by an issue of another owner's repository is refused
// before any request: the call is routed and authorized by the board
// owner's credential, which must not be used to read past that owner.
func TestItemOfAnotherOwnerIsNamedByItemID(t *testing.T) {
	env := start(t, "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{projects.NameGetProjectItem, board(map[string]any{"repo": "alice/notes", "issue_number": 1})},
		{projects.NameUpdateProjectItem, board(map[string]any{"item": map[string]any{"repo": "alice/notes", "issue_number": 1}, "action": "add"})},
		{projects.NameUpdateProjectItem, board(map[string]any{"item": map[string]any{"repo": "ALICE/notes", "issue_number": 1}, "action": "archive"})},
	} {
		e := refused(t, env, c.tool, c.args)
		if e.Code != contract.CodeInvalidField || e.Details == nil || !strings.HasSuffix(e.Details.Field, "repo") {
			t.Errorf("%s %v: %s %+v, want invalid_field on repo", c.tool, c.args, e.Code, e.Details)
		}
		if got := upstream(env); len(got) != 0 {
			t.Errorf("%s %v: upstream requests %v, want none", c.tool, c.args, got)
		}
	}
	// The board owner's own repositories, spelled either way, still work.
	out := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "Acme/widgets", "issue_number": 20}))
	if out.Item.ItemID == "" {
		t.Fatalf("acme's own item: %+v", out)
	}
}
