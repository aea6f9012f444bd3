package projects_test

import (
	"encoding/json"
	"fmt"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	if out.NoOp {
		t.Errorf("the write: no_op = true, want false")
	}
	if len(out.ChangedFields) == 0 {
		t.Errorf("the write: no changed_fields, want some: %+v", out)
	}
	again := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields",
		"fields": fields, "expected_version": out.Item.Version}))
	if !again.NoOp {
		t.Errorf("writing the same values again: no_op = false, want true")
	}
	if len(again.ChangedFields) != 0 {
		t.Errorf("writing the same values again: changed_fields = %v, want none", again.ChangedFields)
	}
	cur := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields",
		"fields": map[string]any{"Iteration": "@current", "Notes": nil}}))
	if str(cur.Item.Fields["Iteration"]) != "Iteration 2" {
		t.Errorf("@current: Iteration = %s, want Iteration 2", str(cur.Item.Fields["Iteration"]))
	}
	if _, ok := cur.Item.Fields["Notes"]; ok {
		t.Errorf("null left Notes = %s, want it cleared: %+v", str(cur.Item.Fields["Notes"]), cur.Item.Fields)
	}
	cleared := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "clear_field", "field": "Estimate"}))
	if _, ok := cleared.Item.Fields["Estimate"]; ok {
		t.Errorf("clear_field: Estimate = %s, want it cleared", str(cleared.Item.Fields["Estimate"]))
	}
	if !slices.Equal(cleared.ChangedFields, []string{"Estimate"}) {
		t.Errorf("clear_field: changed_fields = %v, want [Estimate]", cleared.ChangedFields)
	}
	// GitHub holds what the results said.
	read := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	if read.Item.Version != cleared.Item.Version {
		t.Errorf("read version %q, want the write's %q: read %+v, the write said %+v", read.Item.Version, cleared.Item.Version, read.Item, cleared.Item)
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
		t.Fatalf("after: Status = %s, want In progress: %+v", str(out.Item.Fields["Status"]), out.Item)
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
		if !contracttest.Matches(t, fmt.Sprintf("%v", c.fields), e, contracttest.Want{Code: c.code, Field: c.field, Settlement: contract.NotStarted}) {
			continue
		}
		if c.lists == "" {
			continue
		}
		values, _ := e.Details.Value.([]any)
		if !slices.Contains(values, any(c.lists)) {
			t.Errorf("%v: details.value = %v, want %q among them", c.fields, e.Details.Value, c.lists)
		}
		listed := servertest.CallOK[projects.ListProjectsOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
		if len(listed.Projects) != 1 {
			t.Errorf("%v: repair lists %d projects, want 1: %+v", c.fields, len(listed.Projects), listed.Projects)
		} else if listed.Projects[0].Number != seed.DemoProjectNumber {
			t.Errorf("%v: repair lists project #%d, want #%d", c.fields, listed.Projects[0].Number, seed.DemoProjectNumber)
		}
	}
	after := servertest.CallOK[projects.GetProjectItemOut](t, env, projects.NameGetProjectItem, board(map[string]any{"repo": "widgets", "issue_number": onBoard}))
	if after.Item.Version != before.Item.Version {
		t.Fatalf("item version = %q, want %q: a refused write changed the item", after.Item.Version, before.Item.Version)
	}
	e := refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "clear_field", "field": "Colour"}))
	contracttest.Matches(t, "clear_field of no field", e, contracttest.Want{Code: contract.CodeProjectFieldNotFound, Field: "field"})
}

// add puts an issue on the board once, with fields; again it is a no_op
// that says so. archive and unarchive flip the item, move reorders it,
// remove needs confirm: true and its repair, taken as given, removes it;
// removing again is a no_op.
func TestItemActions(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	added := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "add",
		"fields": map[string]any{"Status": "Todo", "Estimate": 2}}))
	if added.NoOp {
		t.Fatalf("add: no_op = true, want false")
	}
	if added.Item == nil {
		t.Fatalf("add: item = nil, want #%d: %+v", offBoard, added)
	}
	if added.Item.Number != offBoard {
		t.Fatalf("add: number = %d, want %d", added.Item.Number, offBoard)
	}
	if got := str(added.Item.Fields["Status"]); got != "Todo" {
		t.Fatalf("add: Status = %s, want Todo", got)
	}
	if !slices.Contains(added.ChangedFields, "added") {
		t.Fatalf("add: changed_fields = %v, want added among them", added.ChangedFields)
	}
	again := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "add"}))
	if !again.NoOp {
		t.Fatalf("add again: no_op = false, want true")
	}
	if !strings.Contains(again.Note, "already on the board") {
		t.Fatalf("add again: note = %q, want it to say already on the board", again.Note)
	}
	if again.Item.ItemID != added.Item.ItemID {
		t.Fatalf("add again: item_id = %q, want the first add's %q", again.Item.ItemID, added.Item.ItemID)
	}

	arch := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "archive"}))
	if !arch.Item.Archived {
		t.Fatalf("archive: archived = false, want true: %+v", arch)
	}
	if a := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "archive"})); !a.NoOp {
		t.Errorf("archive again: no_op = false, want true: %+v", a)
	}
	un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "unarchive",
		"expected_version": arch.Item.Version}))
	if un.Item.Archived {
		t.Fatalf("unarchive: archived = true, want false: %+v", un)
	}

	// Move it first, then right after issue 3.
	servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "move"}))
	first := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 1}))
	if first.Items[0].Number != offBoard {
		t.Fatalf("after move to the top, first is #%d, want #%d: %+v", first.Items[0].Number, offBoard, first.Items[0])
	}
	servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "move",
		"after_item": map[string]any{"repo": "acme/widgets", "issue_number": 3}}))
	page := servertest.CallOK[projects.ListProjectItemsOut](t, env, projects.NameListProjectItems, board(map[string]any{"page_size": 10}))
	for i, it := range page.Items {
		if it.Number != 3 {
			continue
		}
		if i+1 >= len(page.Items) {
			t.Fatalf("#3 is last on the page, want #%d right after it: %+v", offBoard, page.Items)
		}
		if next := page.Items[i+1].Number; next != offBoard {
			t.Fatalf("#%d is right after #3, want #%d: %+v", next, offBoard, page.Items)
		}
	}

	e := refused(t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "remove"}))
	if !contracttest.Matches(t, "remove without confirm", e, contracttest.Want{Code: contract.CodeInvalidField, Field: "confirm", Settlement: contract.NotStarted}) {
		t.FailNow()
	}
	removed := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if !removed.Removed {
		t.Fatalf("remove: removed = false, want true: %+v", removed)
	}
	if removed.Item.Number != offBoard {
		t.Fatalf("remove: number = %d, want %d", removed.Item.Number, offBoard)
	}
	if r := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "remove", "confirm": true})); !r.NoOp {
		t.Errorf("remove again: no_op = false, want true: %+v", r)
	}
	// Setting a field of an issue off the board offers the add, with the
	// fields, as its repair; taken as given it adds and sets.
	e = refused(t, env, projects.NameUpdateProjectItem, update(offBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Priority": "P2"}}))
	if e.Code != contract.CodeNotFound {
		t.Fatalf("set on an issue off the board: code = %s, want %s: %+v", e.Code, contract.CodeNotFound, e)
	}
	back := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if str(back.Item.Fields["Priority"]) != "P2" {
		t.Fatalf("the repair's add: Priority = %s, want P2: %+v", str(back.Item.Fields["Priority"]), back)
	}
}

// An archived item's fields are refused before the write, with the
// unarchive as the repair; after it, the same set goes through.
func TestArchivedItemsAreUnarchivedFirst(t *testing.T) {
	env := start(t, seed.DemoTokenBob)
	set := board(map[string]any{"item": map[string]any{"repo": "widgets", "issue_number": 1}, "action": "set_fields", "fields": map[string]any{"Notes": "reopen?"}})
	e := refused(t, env, projects.NameUpdateProjectItem, set)
	if !contracttest.Matches(t, "archived item", e, contracttest.Want{Code: contract.CodeValidationFailed, Settlement: contract.NotStarted}) {
		t.FailNow()
	}
	un := servertest.CallOK[projects.UpdateProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if un.Item.Archived {
		t.Fatalf("repair: archived = true, want false: %+v", un)
	}
	if out := servertest.CallOK[projects.UpdateProjectItemOut](t, env, projects.NameUpdateProjectItem, set); str(out.Item.Fields["Notes"]) != "reopen?" {
		t.Fatalf("then: Notes = %s, want reopen?: %+v", str(out.Item.Fields["Notes"]), out)
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
	if !contracttest.Matches(t, "stale version", e, contracttest.Want{Code: contract.CodeConflict, Settlement: contract.NotStarted}) {
		t.FailNow()
	}
	now := servertest.CallOK[projects.GetProjectItemOut](t, env, e.Repair.Tool, repairArgs(t, e.Repair))
	if got := str(now.Item.Fields["Notes"]); got != "changed meanwhile" {
		t.Fatalf("repair read Notes = %s, want %q: %+v", got, "changed meanwhile", now.Item)
	}
	e = refused(t, env, projects.NameUpdateProjectItem, update(onBoard, map[string]any{"action": "set_fields", "fields": map[string]any{"Notes": "x"}, "expected_version": "nope"}))
	if !contracttest.Matches(t, "not a version", e, contracttest.Want{Code: contract.CodeInvalidField, Field: "expected_version"}) {
		t.FailNow()
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
		contracttest.Matches(t, fmt.Sprintf("%v", c.args), e, contracttest.Want{Code: contract.CodeInvalidField, Field: c.field, Settlement: contract.NotStarted})
	}
	wantCalls(t, env, 0)
}
