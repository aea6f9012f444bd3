package graphql_test

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The Projects (v2) item mutations over the demo seed's roadmap.

// boardIDs reads the ids the mutations take: the roadmap's, its fields'
// and their options' and iterations'.
type boardIDs struct {
	project string
	fields  map[string]projectField
}

func readBoardIDs(t *testing.T, w *gqlWorld) boardIDs {
	t.Helper()
	p := readBoard(t, w, seed.DemoTokenAlice).Organization.ProjectV2
	ids := boardIDs{project: p.ID, fields: map[string]projectField{}}
	for _, f := range p.Fields.Nodes {
		ids.fields[f.Name] = f
	}
	return ids
}

func (b boardIDs) option(field, name string) string {
	for _, o := range b.fields[field].Options {
		if o.Name == name {
			return o.ID
		}
	}
	return ""
}

const itemStateDoc = `query($id: ID!) { node(id: $id) { ... on ProjectV2Item { id isArchived type
  content { ... on Issue { number } ... on DraftIssue { title body assignees(first: 5) { nodes { login } } } }
  fieldValues(first: 20) { nodes { __typename
    ... on ProjectV2ItemFieldTextValue { text field { ... on ProjectV2FieldCommon { name } } }
    ... on ProjectV2ItemFieldNumberValue { number field { ... on ProjectV2FieldCommon { name } } }
    ... on ProjectV2ItemFieldDateValue { date field { ... on ProjectV2FieldCommon { name } } }
    ... on ProjectV2ItemFieldSingleSelectValue { name optionId field { ... on ProjectV2FieldCommon { name } } }
    ... on ProjectV2ItemFieldIterationValue { title iterationId field { ... on ProjectV2FieldCommon { name } } } } } } } }`

// itemState reads an item's values by field name.
func itemState(t *testing.T, w *gqlWorld, id string) (projectItem, map[string]itemValue) {
	t.Helper()
	var d struct{ Node projectItem }
	w.query(seed.DemoTokenAlice, itemStateDoc, map[string]any{"id": id}).ok(t, &d)
	vals := map[string]itemValue{}
	for _, v := range d.Node.FieldValues.Nodes {
		vals[v.Field.Name] = v
	}
	return d.Node, vals
}

const addItemDoc = `mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c, clientMutationId: "m1"}) {
  clientMutationId item { id type content { ... on Issue { number } } } } }`

const updateValueDoc = `mutation($p: ID!, $i: ID!, $f: ID!, $v: ProjectV2FieldValue!) {
  updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f, value: $v}) { projectV2Item { id updatedAt } } }`

func TestGraphQLProjectMutations(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	b := readBoardIDs(t, w)

	// Add widgets #100, an issue not on the board; adding it again returns
	// the same item.
	issue := w.issueID(seed.DemoTokenAlice, 100)
	var added struct {
		AddProjectV2ItemByID struct {
			ClientMutationID string
			Item             struct {
				ID, Type string
				Content  struct{ Number int }
			}
		} `json:"addProjectV2ItemById"`
	}
	w.query(seed.DemoTokenBob, addItemDoc, map[string]any{"p": b.project, "c": issue}).ok(t, &added)
	item := added.AddProjectV2ItemByID.Item
	if item.Type != "ISSUE" {
		t.Fatalf("added item type = %q, want ISSUE", item.Type)
	}
	if item.Content.Number != 100 {
		t.Fatalf("added item content = #%d, want #100", item.Content.Number)
	}
	if got := added.AddProjectV2ItemByID.ClientMutationID; got != "m1" {
		t.Fatalf("addProjectV2ItemById clientMutationId = %q, want m1", got)
	}
	var again = added
	w.query(seed.DemoTokenBob, addItemDoc, map[string]any{"p": b.project, "c": issue}).ok(t, &again)
	if again.AddProjectV2ItemByID.Item.ID != item.ID {
		t.Errorf("adding it again made item %s, want the existing %s", again.AddProjectV2ItemByID.Item.ID, item.ID)
	}
	if p := readBoard(t, w, seed.DemoTokenAlice).Organization.ProjectV2; p.Items.TotalCount != 48 {
		t.Errorf("board holds %d items after one add, want 48", p.Items.TotalCount)
	}

	// Set every kind of field.
	iter := seed.DemoIterationIDs()[1]
	for _, set := range []struct {
		field string
		value map[string]any
	}{
		{"Status", map[string]any{"singleSelectOptionId": b.option("Status", "In progress")}},
		{"Priority", map[string]any{"singleSelectOptionId": b.option("Priority", "P0")}},
		{"Iteration", map[string]any{"iterationId": iter}},
		{"Estimate", map[string]any{"number": 3.5}},
		{"Target date", map[string]any{"date": "2026-11-02"}},
		{"Notes", map[string]any{"text": "Needs a design review"}},
	} {
		w.query(seed.DemoTokenBob, updateValueDoc, map[string]any{"p": b.project, "i": item.ID,
			"f": b.fields[set.field].ID, "v": set.value}).ok(t, &struct{}{})
	}
	_, vals := itemState(t, w, item.ID)
	if v := vals["Status"]; v.Name == nil || *v.Name != "In progress" {
		t.Errorf("Status = %v, want %q", deref(v.Name), "In progress")
	}
	if v := vals["Priority"]; v.Name == nil || *v.Name != "P0" {
		t.Errorf("Priority = %v, want P0", deref(v.Name))
	}
	if v := vals["Iteration"]; v.IterationID == nil || *v.IterationID != iter {
		t.Errorf("Iteration id = %v, want %q", deref(v.IterationID), iter)
	}
	if v := vals["Estimate"]; v.Number == nil || *v.Number != 3.5 {
		t.Errorf("Estimate = %v, want 3.5", deref(v.Number))
	}
	if v := vals["Target date"]; v.Date == nil || *v.Date != "2026-11-02" {
		t.Errorf("Target date = %v, want 2026-11-02", deref(v.Date))
	}
	if v := vals["Notes"]; v.Text == nil || *v.Text != "Needs a design review" {
		t.Errorf("Notes = %v, want %q", deref(v.Text), "Needs a design review")
	}

	// The refusals: each error is GitHub's, and nothing changes.
	for _, tc := range []struct {
		name, token, field string
		value              map[string]any
		wantType, wantMsg  string
	}{
		{"option of another field", seed.DemoTokenBob, "Status", map[string]any{"singleSelectOptionId": b.option("Priority", "P1")},
			"UNPROCESSABLE", "The single select option Id does not belong to the field"},
		{"text for a number", seed.DemoTokenBob, "Estimate", map[string]any{"text": "three"},
			"UNPROCESSABLE", "Did not receive a number value to update a field of type number"},
		{"unknown iteration", seed.DemoTokenBob, "Iteration", map[string]any{"iterationId": "ffffffff"},
			"UNPROCESSABLE", "The iteration Id does not belong to the field"},
		{"built-in field", seed.DemoTokenBob, "Title", map[string]any{"text": "New title"},
			"UNPROCESSABLE", "The field of type title cannot be updated"},
		{"reader", seed.DemoTokenCarol, "Notes", map[string]any{"text": "x"},
			"FORBIDDEN", "carol does not have the correct permissions to execute `UpdateProjectV2ItemFieldValue`"},
		{"outsider", seed.DemoTokenDave, "Notes", map[string]any{"text": "x"},
			"NOT_FOUND", "Could not resolve to a node with the global id of '" + b.project + "'"},
		{"no project scope", seed.DemoTokenAliceNoProject, "Notes", map[string]any{"text": "x"},
			"INSUFFICIENT_SCOPES", "The 'updateProjectV2ItemFieldValue' field requires one of the following scopes: ['project']"},
	} {
		r := w.query(tc.token, updateValueDoc, map[string]any{"p": b.project, "i": item.ID, "f": b.fields[tc.field].ID, "v": tc.value})
		checkOneError(t, tc.name, r.Errors, wantErr{Type: tc.wantType, Contains: []string{tc.wantMsg}})
	}
	_, after := itemState(t, w, item.ID)
	if got := *after["Status"].Name; got != "In progress" {
		t.Errorf("after the refused updates Status = %q, want %q", got, "In progress")
	}
	if got := *after["Notes"].Text; got != "Needs a design review" {
		t.Errorf("after the refused updates Notes = %q, want %q", got, "Needs a design review")
	}

	// Clear a value.
	const clearDoc = `mutation($p: ID!, $i: ID!, $f: ID!) { clearProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f}) {
  projectV2Item { id } } }`
	w.query(seed.DemoTokenBob, clearDoc, map[string]any{"p": b.project, "i": item.ID, "f": b.fields["Notes"].ID}).ok(t, &struct{}{})
	if _, vals := itemState(t, w, item.ID); vals["Notes"].Typename != "" {
		t.Errorf("Notes after clear is a %s value (%v), want none", vals["Notes"].Typename, deref(vals["Notes"].Text))
	}

	// Archive: the item leaves the default filter, refuses updates, and
	// comes back on unarchive.
	const archiveDoc = `mutation($p: ID!, $i: ID!) { archiveProjectV2Item(input: {projectId: $p, itemId: $i}) { item { isArchived } } }`
	const unarchiveDoc = `mutation($p: ID!, $i: ID!) { unarchiveProjectV2Item(input: {projectId: $p, itemId: $i}) { item { isArchived } } }`
	var ar struct {
		ArchiveProjectV2Item struct{ Item struct{ IsArchived bool } }
	}
	w.query(seed.DemoTokenBob, archiveDoc, map[string]any{"p": b.project, "i": item.ID}).ok(t, &ar)
	if !ar.ArchiveProjectV2Item.Item.IsArchived {
		t.Error("archiveProjectV2Item: isArchived = false, want true")
	}
	r := w.query(seed.DemoTokenBob, updateValueDoc, map[string]any{"p": b.project, "i": item.ID, "f": b.fields["Notes"].ID,
		"v": map[string]any{"text": "x"}})
	checkOneError(t, "update of an archived item", r.Errors,
		wantErr{Type: "UNPROCESSABLE", Message: "The item is archived and cannot be updated"})
	var un struct {
		UnarchiveProjectV2Item struct{ Item struct{ IsArchived bool } }
	}
	w.query(seed.DemoTokenBob, unarchiveDoc, map[string]any{"p": b.project, "i": item.ID}).ok(t, &un)
	if un.UnarchiveProjectV2Item.Item.IsArchived {
		t.Error("unarchiveProjectV2Item: isArchived = true, want false")
	}

	// Move the new item first, then after the second item.
	const moveDoc = `mutation($p: ID!, $i: ID!, $after: ID) { updateProjectV2ItemPosition(input: {projectId: $p, itemId: $i, afterId: $after}) {
  items(first: 3) { nodes { id } } } }`
	var mv struct {
		UpdateProjectV2ItemPosition struct {
			Items struct{ Nodes []struct{ ID string } }
		}
	}
	w.query(seed.DemoTokenBob, moveDoc, map[string]any{"p": b.project, "i": item.ID}).ok(t, &mv)
	order := slices.Clone(mv.UpdateProjectV2ItemPosition.Items.Nodes)
	if order[0].ID != item.ID {
		t.Errorf("after a move to the top the first item = %s, want the new %s", order[0].ID, item.ID)
	}
	w.query(seed.DemoTokenBob, moveDoc, map[string]any{"p": b.project, "i": item.ID, "after": order[2].ID}).ok(t, &mv)
	var got []string
	for _, n := range mv.UpdateProjectV2ItemPosition.Items.Nodes[:3] {
		got = append(got, n.ID)
	}
	if diff := cmp.Diff([]string{order[1].ID, order[2].ID, item.ID}, got); diff != "" {
		t.Errorf("order after a move past two mismatch (-want +got):\n%s", diff)
	}

	// A draft issue with an assignee.
	const draftDoc = `mutation($p: ID!, $a: [ID!]) { addProjectV2DraftIssue(input: {projectId: $p, title: "Plan the launch", body: "Dates and owners", assigneeIds: $a}) {
  projectItem { id type content { ... on DraftIssue { title body } } } } }`
	var bob struct{ User struct{ ID string } }
	w.query(seed.DemoTokenAlice, `query { user(login: "bob") { id } }`, nil).ok(t, &bob)
	var dr struct {
		AddProjectV2DraftIssue struct {
			ProjectItem struct{ ID, Type string }
		}
	}
	w.query(seed.DemoTokenBob, draftDoc, map[string]any{"p": b.project, "a": []string{bob.User.ID}}).ok(t, &dr)
	draft, _ := itemState(t, w, dr.AddProjectV2DraftIssue.ProjectItem.ID)
	if got := dr.AddProjectV2DraftIssue.ProjectItem.Type; got != "DRAFT_ISSUE" {
		t.Errorf("draft item type = %q, want DRAFT_ISSUE", got)
	}
	if draft.Content == nil {
		t.Errorf("draft content = null, want the draft issue")
	} else if draft.Content.Title != "Plan the launch" {
		t.Errorf("draft title = %q, want %q", draft.Content.Title, "Plan the launch")
	}
	r = w.query(seed.DemoTokenBob, `mutation($p: ID!) { addProjectV2DraftIssue(input: {projectId: $p, title: " "}) { projectItem { id } } }`,
		map[string]any{"p": b.project})
	checkOneError(t, "blank draft title", r.Errors, wantErr{Message: "Title can't be blank"})

	// Delete both; the issue stays in its repository, the item's id no
	// longer resolves.
	const deleteDoc = `mutation($p: ID!, $i: ID!) { deleteProjectV2Item(input: {projectId: $p, itemId: $i}) { deletedItemId } }`
	for _, id := range []string{item.ID, dr.AddProjectV2DraftIssue.ProjectItem.ID} {
		var del struct {
			DeleteProjectV2Item struct{ DeletedItemID string }
		}
		w.query(seed.DemoTokenBob, deleteDoc, map[string]any{"p": b.project, "i": id}).ok(t, &del)
		if del.DeleteProjectV2Item.DeletedItemID != id {
			t.Errorf("deleted %q, want %q", del.DeleteProjectV2Item.DeletedItemID, id)
		}
		r := w.query(seed.DemoTokenAlice, itemStateDoc, map[string]any{"id": id})
		checkOneError(t, "node(id:) of the deleted item", r.Errors, wantErr{Type: "NOT_FOUND"})
	}
	if got := w.issueID(seed.DemoTokenAlice, 100); got != issue {
		t.Errorf("after deleting the item, issue #100's id = %q, want %q", got, issue)
	}
	if p := readBoard(t, w, seed.DemoTokenAlice).Organization.ProjectV2; p.Items.TotalCount != 47 {
		t.Errorf("board holds %d items after the deletes, want 47", p.Items.TotalCount)
	}
}

// TestGraphQLProjectMutationAccess: a user's board is out of a
// fine-grained token's reach for writes too, and a classic token needs
// the project scope to write where read:project lets it read.
func TestGraphQLProjectMutationAccess(t *testing.T) {
	schemasOrFail(t)
	w := projectsWorld(t)
	var d struct {
		User struct {
			ProjectV2 struct {
				ID    string
				Items struct{ Nodes []struct{ ID string } }
			}
		}
	}
	w.query(seed.DemoTokenAlice, `query { user(login: "alice") { projectV2(number: 1) { id items(first: 1) { nodes { id } } } } }`, nil).ok(t, &d)
	const archiveDoc = `mutation($p: ID!, $i: ID!) { archiveProjectV2Item(input: {projectId: $p, itemId: $i}) { item { isArchived } } }`
	vars := map[string]any{"p": d.User.ProjectV2.ID, "i": d.User.ProjectV2.Items.Nodes[0].ID}
	r := w.query(seed.DemoTokenAliceFineGrained, archiveDoc, vars)
	checkOneError(t, "fine-grained token archives on a user board", r.Errors, wantErr{Type: "NOT_FOUND"})
	w.emu.State().Lock()
	w.emu.State().AddToken(&state.Token{Value: "emu-alice-readproject", Login: "alice", Scopes: []string{"repo", "read:project"}})
	w.emu.State().Unlock()
	var read struct {
		User struct{ ProjectV2 struct{ Title string } }
	}
	w.query("emu-alice-readproject", `query { user(login: "alice") { projectV2(number: 1) { title } } }`, nil).ok(t, &read)
	if read.User.ProjectV2.Title != "Personal planning" {
		t.Errorf("read:project token reads title %q, want %q", read.User.ProjectV2.Title, "Personal planning")
	}
	r = w.query("emu-alice-readproject", archiveDoc, vars)
	checkOneError(t, "read:project token archives", r.Errors, wantErr{Type: "INSUFFICIENT_SCOPES",
		Contains: []string{"['project'], but your token has only been granted the: ['read:project', 'repo'] scopes"}})
	var ok struct {
		ArchiveProjectV2Item struct{ Item struct{ IsArchived bool } }
	}
	w.query(seed.DemoTokenAlice, archiveDoc, vars).ok(t, &ok)
	if !ok.ArchiveProjectV2Item.Item.IsArchived {
		t.Error("alice archiving on her own board: isArchived = false, want true")
	}
}
