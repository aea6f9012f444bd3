package projects_test

import (
	"encoding/json"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// onBoard is an issue of acme/widgets that the seed put on the board
// (the first 30 issues are), and offBoard one it did not.
const (
	onBoard  = 20
	offBoard = 120
)

func update(issue int, extra map[string]any) map[string]any {
	a := board(extra)
	a["item"] = map[string]any{"repo": "widgets", "issue_number": issue}
	return a
}

func str(v projects.FieldValue) string {
	b, _ := json.Marshal(v)
	return strings.Trim(string(b), `"`)
}

// Every field type takes its value by name, checked first, and the
// result shows the item's fields as they now stand; writing them again
// is a no_op.
func TestSetFieldsOfEveryType(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	fields := map[string]any{"Status": "in progress", "Priority": "P0", "Iteration": "@next", "Estimate": 8, "Target date": "2027-03-04", "Notes": "ship it"}
	out := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": fields}))
	got := out.Item.Fields
	want := map[string]string{"Status": "In progress", "Priority": "P0", "Iteration": "Iteration 3", "Estimate": "8", "Target date": "2027-03-04", "Notes": "ship it"}
	for name, w := range want {
		if str(got[name]) != w {
			t.Errorf("%s = %s, want %s", name, str(got[name]), w)
		}
	}
	if out.NoOp || len(out.ChangedFields) == 0 {
		t.Errorf("the write says %+v", out)
	}
	again := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields",
		"fields": fields, "expected_version": out.Item.Version}))
	if !again.NoOp || len(again.ChangedFields) != 0 {
		t.Errorf("writing the same values again: %+v", again)
	}
	cur := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields",
		"fields": map[string]any{"Iteration": "@current", "Notes": nil}}))
	if str(cur.Item.Fields["Iteration"]) != "Iteration 2" {
		t.Errorf("@current: %s", str(cur.Item.Fields["Iteration"]))
	}
	if _, ok := cur.Item.Fields["Notes"]; ok {
		t.Errorf("null left Notes: %+v", cur.Item.Fields)
	}
	cleared := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "clear_field", "field": "Estimate"}))
	if _, ok := cleared.Item.Fields["Estimate"]; ok || !slices.Equal(cleared.ChangedFields, []string{"Estimate"}) {
		t.Errorf("clear_field: %+v", cleared)
	}
	// GitHub holds what the results said.
	read := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	if read.Item.Version != cleared.Item.Version {
		t.Errorf("read %+v, the write said %+v", read.Item, cleared.Item)
	}
}

// Moving an issue to "In progress" costs two upstream calls the first
// time (the board and the issue's item in one read, then the write) and
// one once both are known.
func TestMoveToInProgressUpstreamCalls(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	move := func(issue int, status string) projects.UpdateProjectItemOut {
		return servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(issue, map[string]any{"action": "set_fields", "fields": map[string]any{"Status": status}}))
	}
	move(onBoard, "Todo")
	wantCalls(t, env, 2)
	out := move(onBoard, "In progress")
	wantCalls(t, env, 1)
	if str(out.Item.Fields["Status"]) != "In progress" {
		t.Fatalf("after: %+v", out.Item)
	}
}

// An unknown field or option is refused before anything is written, its
// details listing what the board takes and its repair listing the board;
// a value of the wrong type names the field.
func TestUnknownFieldsAndOptionsAreRefused(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	before := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	for _, c := range []struct {
		fields map[string]any
		code   contract.Code
		field  string
		lists  string
	}{
		{map[string]any{"Stauts": "Done"}, contract.CodeProjectFieldNotFound, "fields.Stauts", "Status"},
		{map[string]any{"Status": "Blocked"}, contract.CodeProjectOptionNotFound, "fields.Status", "In progress"},
		{map[string]any{"Iteration": "Iteration 9"}, contract.CodeProjectOptionNotFound, "fields.Iteration", "@current"},
		{map[string]any{"Estimate": "lots"}, contract.CodeInvalidField, "fields.Estimate", ""},
		{map[string]any{"Target date": "next week"}, contract.CodeInvalidField, "fields.Target date", ""},
		{map[string]any{"Notes": 3}, contract.CodeInvalidField, "fields.Notes", ""},
		{map[string]any{"Title": "renamed"}, contract.CodeInvalidField, "fields.Title", ""},
	} {
		e := refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": c.fields}))
		if e.Code != c.code || e.Details == nil || e.Details.Field != c.field || e.Settlement != contract.NotStarted {
			t.Errorf("%v: %+v", c.fields, e)
			continue
		}
		if c.lists == "" {
			continue
		}
		values, _ := e.Details.Value.([]any)
		if !slices.Contains(values, any(c.lists)) {
			t.Errorf("%v: details.value %v lacks %q", c.fields, e.Details.Value, c.lists)
		}
		listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
		if len(listed.Projects) != 1 || listed.Projects[0].Number != seed.DemoProjectNumber {
			t.Errorf("%v: repair lists %+v", c.fields, listed.Projects)
		}
	}
	after := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	if after.Item.Version != before.Item.Version {
		t.Fatal("a refused write changed the item")
	}
	e := refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "clear_field", "field": "Colour"}))
	if e.Code != contract.CodeProjectFieldNotFound || e.Details.Field != "field" {
		t.Errorf("clear_field of no field: %+v", e)
	}
}

// add puts an issue on the board once, with fields; again it is a no_op
// that says so. archive and unarchive flip the item, move reorders it,
// remove needs confirm: true and its repair, taken as given, removes it;
// removing again is a no_op.
func TestItemActions(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	added := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "add",
		"fields": map[string]any{"Status": "Todo", "Estimate": 2}}))
	if added.NoOp || added.Item == nil || added.Item.Number != offBoard || str(added.Item.Fields["Status"]) != "Todo" || !slices.Contains(added.ChangedFields, "added") {
		t.Fatalf("add: %+v", added)
	}
	again := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "add"}))
	if !again.NoOp || !strings.Contains(again.Note, "already on the board") || again.Item.ItemID != added.Item.ItemID {
		t.Fatalf("add again: %+v", again)
	}

	arch := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "archive"}))
	if !arch.Item.Archived {
		t.Fatalf("archive: %+v", arch)
	}
	if a := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "archive"})); !a.NoOp {
		t.Errorf("archive again: %+v", a)
	}
	un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "unarchive",
		"expected_version": arch.Item.Version}))
	if un.Item.Archived {
		t.Fatalf("unarchive: %+v", un)
	}

	// Move it first, then right after issue 3.
	servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "move"}))
	first := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 1}))
	if first.Items[0].Number != offBoard {
		t.Fatalf("after move to the top, first is %+v", first.Items[0])
	}
	servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "move",
		"after_item": map[string]any{"repo": "acme/widgets", "issue_number": 3}}))
	page := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 10}))
	for i, it := range page.Items {
		if it.Number == 3 && (i+1 >= len(page.Items) || page.Items[i+1].Number != offBoard) {
			t.Fatalf("not right after #3: %+v", page.Items)
		}
	}

	e := refused(t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "remove"}))
	if e.Code != contract.CodeInvalidField || e.Details.Field != "confirm" || e.Settlement != contract.NotStarted {
		t.Fatalf("remove without confirm: %+v", e)
	}
	removed := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if !removed.Removed || removed.Item.Number != offBoard {
		t.Fatalf("remove: %+v", removed)
	}
	if r := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "remove", "confirm": true})); !r.NoOp {
		t.Errorf("remove again: %+v", r)
	}
	// Setting a field of an issue off the board offers the add, with the
	// fields, as its repair; taken as given it adds and sets.
	e = refused(t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Priority": "P2"}}))
	if e.Code != contract.CodeNotFound {
		t.Fatalf("set on an issue off the board: %+v", e)
	}
	back := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if str(back.Item.Fields["Priority"]) != "P2" {
		t.Fatalf("the repair's add: %+v", back)
	}
}

// An archived item's fields are refused before the write, with the
// unarchive as the repair; after it, the same set goes through.
func TestArchivedItemsAreUnarchivedFirst(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	set := board(map[string]any{"item": map[string]any{"repo": "widgets", "issue_number": 1}, "action": "set_fields", "fields": map[string]any{"Notes": "reopen?"}})
	e := refused(t, env, projects.NameUpdateProjectItem, set)
	if e.Code != contract.CodeValidationFailed || e.Settlement != contract.NotStarted {
		t.Fatalf("archived item: %+v", e)
	}
	un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if un.Item.Archived {
		t.Fatalf("repair left it archived: %+v", un)
	}
	if out := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, set); str(out.Item.Fields["Notes"]) != "reopen?" {
		t.Fatalf("then: %+v", out)
	}
}

// expected_version guards set_fields: a stale one is conflict, nothing is
// written, and the repair re-reads the item.
func TestExpectedVersionConflict(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	read := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Notes": "changed meanwhile"}}))
	e := refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Notes": "mine"},
		"expected_version": read.Item.Version}))
	if e.Code != contract.CodeConflict || e.Settlement != contract.NotStarted {
		t.Fatalf("stale version: %+v", e)
	}
	now := servertest.CallOK[projects.GetProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if str(now.Item.Fields["Notes"]) != "changed meanwhile" {
		t.Fatalf("repair read %+v", now.Item)
	}
	e = refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Notes": "x"}, "expected_version": "nope"}))
	if e.Code != contract.CodeInvalidField || e.Details.Field != "expected_version" {
		t.Fatalf("not a version: %+v", e)
	}
}

// Arguments that do not fit are refused by name before any request.
func TestUpdateArgumentRefusals(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	for _, c := range []struct {
		args  map[string]any
		field string
	}{
		{update(onBoard, map[string]any{"action": "set_fields"}), "fields"},
		{update(onBoard, map[string]any{"action": "archive", "fields": map[string]any{"Status": "Done"}}), "fields"},
		{board(map[string]any{"item": map[string]any{"repo": "widgets"}, "action": "archive"}), "item.repo"},
		{board(map[string]any{"item": map[string]any{"repo": "widgets", "issue_number": 1, "colour": "red"}, "action": "archive"}), "item"},
		{board(map[string]any{"item": map[string]any{"item_id": "PVTI_x"}, "action": "add"}), "item"},
		{update(onBoard, map[string]any{"action": "archive", "after_item": map[string]any{"repo": "widgets", "issue_number": 1}}), "after_item"},
	} {
		e := refused(t, env, projects.NameUpdateProjectItem, c.args)
		if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != c.field || e.Settlement != contract.NotStarted {
			t.Errorf("%v: %+v", c.args, e)
		}
	}
	wantCalls(t, env, 0)
}
