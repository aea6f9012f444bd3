package projects_test

import (
	"github.com/ghgate/ghgate/internal/server/servertest"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
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
	if out.OwnerKind != "organization" {
		t.Fatalf("acme's boards: owner_kind = %q, want organization", out.OwnerKind)
	}
	if len(out.Projects) != 2 {
		t.Fatalf("acme's boards: %d projects, want 2: %+v", len(out.Projects), out.Projects)
	}
	if out.Projects[0].Title != seed.DemoProjectTitle {
		t.Fatalf("acme's boards: first title = %q, want %q", out.Projects[0].Title, seed.DemoProjectTitle)
	}
	fields := map[string]projects.FieldView{}
	for _, f := range out.Projects[0].Fields {
		fields[f.Name] = f
	}
	want := map[string]string{"Status": "single_select", "Priority": "single_select", "Iteration": "iteration", "Estimate": "number", "Target date": "date", "Notes": "text"}
	for name, typ := range want {
		if fields[name].Type != typ {
			t.Errorf("%s: type = %q, want %q", name, fields[name].Type, typ)
		}
	}
	if got := strings.Join(fields["Status"].Options, ","); got != "Todo,In progress,Done" {
		t.Errorf("Status options = %q, want %q", got, "Todo,In progress,Done")
	}
	its := fields["Iteration"].Iterations
	if len(its) != 2 {
		t.Errorf("summary iterations: %d, want 2: %+v", len(its), its)
	} else {
		if !its[0].Current {
			t.Errorf("summary iterations: first current = false, want true: %+v", its)
		}
		if its[1].Current {
			t.Errorf("summary iterations: second current = true, want false: %+v", its)
		}
		if its[0].Days != 14 {
			t.Errorf("summary iterations: first days = %d, want 14", its[0].Days)
		}
	}
	full := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "detail": "full"})
	if len(full.Projects) != len(out.Projects) {
		t.Errorf("full detail: %d projects, want summary's %d", len(full.Projects), len(out.Projects))
	}
	if full.Projects[0].URL == "" {
		t.Errorf("full detail: url is empty, want one: %+v", full.Projects[0])
	}
	if got, summary := len(full.Projects[0].Fields), len(out.Projects[0].Fields); got <= summary {
		t.Errorf("full detail: %d fields, want more than summary's %d", got, summary)
	}
	for _, f := range full.Projects[0].Fields {
		if f.Name == "Iteration" && len(f.Iterations) != 3 {
			t.Errorf("full detail lists %d iterations, want 3 (the completed one too)", len(f.Iterations))
		}
	}

	env.Upstream()
	mine := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "alice"})
	if mine.OwnerKind != "user" {
		t.Fatalf("alice's boards: owner_kind = %q, want user", mine.OwnerKind)
	}
	if len(mine.Projects) != 1 {
		t.Fatalf("alice's boards: %d projects, want 1: %+v", len(mine.Projects), mine.Projects)
	}
	if mine.Projects[0].Title != "Personal planning" {
		t.Fatalf("alice's boards: title = %q, want %q", mine.Projects[0].Title, "Personal planning")
	}
	wantCalls(t, env, 2) // organization, then user

	q := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "query": "intake"})
	if len(q.Projects) != 1 {
		t.Errorf("query intake: %d projects, want 1: %+v", len(q.Projects), q.Projects)
	} else {
		if q.Projects[0].Title != "Support intake" {
			t.Errorf("query intake: title = %q, want %q", q.Projects[0].Title, "Support intake")
		}
		if !q.Projects[0].Closed {
			t.Errorf("query intake: closed = false, want true")
		}
	}
}

// Pages of boards chain through signed cursors; a cursor used with other
// filters is refused with a restart that works as given.
func TestListProjectsPagesAndRefusesForeignCursors(t *testing.T) {
	env := start(t, "")
	first := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 1})
	if !first.HasMore {
		t.Fatalf("first page: has_more = false, want true")
	}
	if first.NextCursor == "" {
		t.Fatalf("first page: next_cursor is empty, want one")
	}
	if len(first.Projects) != 1 {
		t.Fatalf("first page: %d projects, want 1: %+v", len(first.Projects), first.Projects)
	}
	second := servertest.CallOK[projects.ListProjectsOut](t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 1, "cursor": first.NextCursor})
	if second.HasMore {
		t.Fatalf("second page: has_more = true, want false")
	}
	if len(second.Projects) != 1 {
		t.Fatalf("second page: %d projects, want 1: %+v", len(second.Projects), second.Projects)
	}
	if second.Projects[0].Number == first.Projects[0].Number {
		t.Fatalf("second page: project #%d, want one other than the first page's", second.Projects[0].Number)
	}
	e := refused(t, env, projects.NameListProjects, map[string]any{"owner": "acme", "page_size": 2, "cursor": first.NextCursor})
	if e.Code != contract.CodeCursorInvalid {
		t.Fatalf("cursor under other filters: code = %s, want %s: %+v", e.Code, contract.CodeCursorInvalid, e)
	}
	again := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(again.Projects) != 2 {
		t.Fatalf("restart: %d projects, want 2: %+v", len(again.Projects), again)
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
				t.Fatalf("item %s listed twice, want once", it.ItemID)
			}
			seen[it.ItemID] = true
			kinds[it.Kind]++
			switch it.Kind {
			case "issue", "pull_request":
				if it.Repo == "" {
					t.Errorf("%s %s: repo is empty, want one: %+v", it.Kind, it.ItemID, it)
				}
				if it.Number == 0 {
					t.Errorf("%s %s: number = 0, want one: %+v", it.Kind, it.ItemID, it)
				}
			case "draft_issue":
				if it.Repo != "" {
					t.Errorf("draft %s: repo = %q, want none", it.ItemID, it.Repo)
				}
				if it.Number != 0 {
					t.Errorf("draft %s: number = %d, want none", it.ItemID, it.Number)
				}
			}
		}
		c := page.Counts
		if c.Issues != kinds["issue"] {
			t.Errorf("page counts: issues = %d, want the rows' %d", c.Issues, kinds["issue"])
		}
		if c.PullRequests != kinds["pull_request"] {
			t.Errorf("page counts: pull_requests = %d, want the rows' %d", c.PullRequests, kinds["pull_request"])
		}
		if c.DraftIssues != kinds["draft_issue"] {
			t.Errorf("page counts: draft_issues = %d, want the rows' %d", c.DraftIssues, kinds["draft_issue"])
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
	if pages < 5 {
		t.Fatalf("%d pages, want at least 5", pages)
	}
	if len(seen) != boardSize {
		t.Fatalf("%d items seen, want the board's total %d", len(seen), boardSize)
	}
	if boardSize < 45 {
		t.Fatalf("board total = %d, want at least 45", boardSize)
	}
	want := projects.ItemCounts{Issues: seed.DemoProjectWidgetsIssues + seed.DemoProjectGadgetsIssues, PullRequests: 3, DraftIssues: 2, Archived: 3}
	if diff := cmp.Diff(want, total, cmpopts.IgnoreFields(projects.ItemCounts{}, "Redacted", "Repos")); diff != "" {
		t.Errorf("counts mismatch (-want +got):\n%s", diff)
	}
	if got, want := total.Repos["acme/widgets"], seed.DemoProjectWidgetsIssues+3; got != want {
		t.Errorf("acme/widgets counted %d, want %d", got, want)
	}
	if got, want := total.Repos["acme/gadgets"], seed.DemoProjectGadgetsIssues; got != want {
		t.Errorf("acme/gadgets counted %d, want %d", got, want)
	}
}

// A filter goes to GitHub in its own syntax (a qualifier naming no field:
// TestListProjectItemsRefusesUnknownFields).
func TestListProjectItemsFilters(t *testing.T) {
	env := start(t, "")
	out := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"filter": `status:"In progress" is:issue`, "page_size": 100}))
	if len(out.Items) == 0 {
		t.Fatal("filtered: no rows, want some")
	}
	if out.Total != len(out.Items) {
		t.Fatalf("filtered: total = %d, want the rows' %d", out.Total, len(out.Items))
	}
	for _, it := range out.Items {
		if it.Kind != "issue" {
			t.Fatalf("row %s outside the filter: kind = %q, want issue", it.ItemID, it.Kind)
		}
		if it.Fields["Status"].Str == nil {
			t.Fatalf("row %s outside the filter: Status unset, want In progress: %+v", it.ItemID, it)
		}
		if got := *it.Fields["Status"].Str; got != "In progress" {
			t.Fatalf("row %s outside the filter: Status = %q, want In progress", it.ItemID, got)
		}
	}
}

// An item is read by its issue or by the item_id a listing returned;
// an issue not on the board is not_found with the add as the repair, and
// that add, taken as given, puts it there.
func TestGetProjectItem(t *testing.T) {
	env := start(t, "")
	byIssue := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": 5}))
	it := byIssue.Item
	if it.Kind != "issue" {
		t.Fatalf("by issue: kind = %q, want issue", it.Kind)
	}
	if it.Number != 5 {
		t.Fatalf("by issue: number = %d, want 5", it.Number)
	}
	if it.Repo != "acme/widgets" {
		t.Fatalf("by issue: repo = %q, want acme/widgets", it.Repo)
	}
	if it.Version == "" {
		t.Fatalf("by issue: version is empty, want one")
	}
	if len(it.Fields) == 0 {
		t.Fatalf("by issue: no fields, want some: %+v", it)
	}
	byID := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"item_id": byIssue.Item.ItemID}))
	if byID.Item.ItemID != byIssue.Item.ItemID {
		t.Fatalf("by id: item_id = %q, want %q", byID.Item.ItemID, byIssue.Item.ItemID)
	}
	if byID.Item.Version != byIssue.Item.Version {
		t.Fatalf("by id: version = %q, want the same as by issue, %q", byID.Item.Version, byIssue.Item.Version)
	}
	other := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "acme/gadgets", "issue_number": 1}))
	if other.Item.Repo != "acme/gadgets" {
		t.Fatalf("gadgets issue: repo = %q, want acme/gadgets", other.Item.Repo)
	}

	e := refused(t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": 150}))
	if e.Code != contract.CodeNotFound {
		t.Fatalf("issue off the board: code = %s, want %s", e.Code, contract.CodeNotFound)
	}
	if e.Repair.Tool != projects.NameUpdateProjectItem {
		t.Fatalf("issue off the board: repair tool = %q, want %s", e.Repair.Tool, projects.NameUpdateProjectItem)
	}
	added := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if added.Item == nil {
		t.Fatalf("repair's add: item = nil, want issue 150: %+v", added)
	}
	if added.Item.Number != 150 {
		t.Fatalf("repair's add: number = %d, want 150", added.Item.Number)
	}
	if added.NoOp {
		t.Fatalf("repair's add: no_op = true, want false")
	}
}

// A board that is not there is project_not_found with the owner's boards
// as the repair; a fine-grained token on a user's board is
// insufficient_scope that says why, not a not-found.
func TestProjectNotFoundAndFineGrainedUserBoards(t *testing.T) {
	env := start(t, "")
	e := refused(t, env, projects.NameListProjectItems, map[string]any{"owner": "acme", "project_number": 99})
	if e.Code != contract.CodeProjectNotFound {
		t.Fatalf("board 99: code = %s, want %s", e.Code, contract.CodeProjectNotFound)
	}
	if e.Details.Field != "project_number" {
		t.Fatalf("board 99: details.field = %q, want project_number", e.Details.Field)
	}
	listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if len(listed.Projects) != 2 {
		t.Fatalf("repair: %d projects, want 2: %+v", len(listed.Projects), listed)
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
		if e.Code != contract.CodeInsufficientScope {
			t.Errorf("%s with a fine-grained token: code = %s, want %s", c.tool, e.Code, contract.CodeInsufficientScope)
		}
		if !strings.Contains(e.Message, "fine-grained") {
			t.Errorf("%s with a fine-grained token: message = %q, want it to say fine-grained", c.tool, e.Message)
		}
		if e.Repair == nil {
			t.Errorf("%s with a fine-grained token: repair = nil, want a next step", c.tool)
		} else if !strings.Contains(e.Repair.NextStep, "fine-grained") {
			t.Errorf("%s with a fine-grained token: repair.next_step = %q, want it to say fine-grained", c.tool, e.Repair.NextStep)
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
		if e.Code != contract.CodeInvalidField {
			t.Errorf("%s %v: code = %s, want %s", c.tool, c.args, e.Code, contract.CodeInvalidField)
		}
		if e.Details == nil {
			t.Errorf("%s %v: details = nil, want a field on repo", c.tool, c.args)
		} else if !strings.HasSuffix(e.Details.Field, "repo") {
			t.Errorf("%s %v: details.field = %q, want one on repo", c.tool, c.args, e.Details.Field)
		}
		if got := upstream(env); len(got) != 0 {
			t.Errorf("%s %v: upstream requests %v, want none", c.tool, c.args, got)
		}
	}
	// The board owner's own repositories, spelled either way, still work.
	out := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "Acme/widgets", "issue_number": 20}))
	if out.Item.ItemID == "" {
		t.Fatalf("acme's own item: item_id is empty, want one: %+v", out)
	}
}
