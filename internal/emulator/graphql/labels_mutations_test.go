package graphql_test

import (
	"fmt"
	"reflect"
	"testing"
)

// The documents are those GitHub's MCP server (v1.9.0, pkg/github/labels.go)
// sends for list_label and label_write.

func testGraphQLLabelMutations(t *testing.T, w *gqlWorld) {
	var repo struct{ Repository struct{ ID string } }
	w.query("emu-bob", `{ repository(owner: "acme", name: "widgets") { id } }`, nil).ok(t, &repo)

	const create = `mutation($input: CreateLabelInput!) { createLabel(input: $input) { label { name id } } }`
	var made struct {
		CreateLabel struct{ Label struct{ Name, ID string } }
	}
	w.query("emu-bob", create, map[string]any{"input": map[string]any{
		"repositoryId": repo.Repository.ID, "name": "area: gears", "color": "c5def5", "description": "Gear train"}}).ok(t, &made)
	if made.CreateLabel.Label.Name != "area: gears" {
		t.Fatalf("createLabel name = %q, want %q", made.CreateLabel.Label.Name, "area: gears")
	}
	if made.CreateLabel.Label.ID == "" {
		t.Fatalf("createLabel id is empty, want one")
	}

	const update = `mutation($input: UpdateLabelInput!) { updateLabel(input: $input) { label { name id } } }`
	var changed struct {
		UpdateLabel struct{ Label struct{ Name string } }
	}
	w.query("emu-bob", update, map[string]any{"input": map[string]any{
		"id": made.CreateLabel.Label.ID, "name": "area: gearbox", "color": "0e8a16"}}).ok(t, &changed)
	if changed.UpdateLabel.Label.Name != "area: gearbox" {
		t.Errorf("updateLabel name = %q, want %q", changed.UpdateLabel.Label.Name, "area: gearbox")
	}
	st := w.emu.State()
	st.RLock()
	l := st.Repo("acme", "widgets").FindLabel("area: gearbox")
	got := []any{l != nil}
	if l != nil {
		got = append(got, l.Color, *l.Description)
	}
	st.RUnlock()
	if want := []any{true, "0e8a16", "Gear train"}; !reflect.DeepEqual(got, want) {
		t.Errorf("after updateLabel the label is %v, want %v", got, want)
	}

	// GitHub's refusals: a name taken regardless of case, a bad colour,
	// and a reader who may not change labels.
	for _, tc := range []struct{ token, name, color, typ, message string }{
		{"emu-bob", "BUG", "ffffff", "UNPROCESSABLE", "Name has already been taken"},
		{"emu-bob", "area: brakes", "red", "UNPROCESSABLE", "Color is invalid"},
		{"emu-carol", "area: brakes", "ffffff", "FORBIDDEN", "carol does not have the correct permissions to execute `CreateLabel`"},
	} {
		res := w.query(tc.token, create, map[string]any{"input": map[string]any{
			"repositoryId": repo.Repository.ID, "name": tc.name, "color": tc.color}})
		checkOneError(t, fmt.Sprintf("createLabel %q %q as %s", tc.name, tc.color, tc.token), res.Errors,
			wantErr{Type: tc.typ, Message: tc.message})
	}

	const del = `mutation($input: DeleteLabelInput!) { deleteLabel(input: $input) { clientMutationId } }`
	var gone struct {
		DeleteLabel struct{ ClientMutationID string }
	}
	w.query("emu-bob", del, map[string]any{"input": map[string]any{"id": made.CreateLabel.Label.ID, "clientMutationId": "d1"}}).ok(t, &gone)
	if gone.DeleteLabel.ClientMutationID != "d1" {
		t.Errorf("deleteLabel clientMutationId = %q, want d1", gone.DeleteLabel.ClientMutationID)
	}
	res := w.query("emu-bob", del, map[string]any{"input": map[string]any{"id": made.CreateLabel.Label.ID}})
	checkOneError(t, "deleting it again", res.Errors, wantErr{Type: "NOT_FOUND"})
}

// testGraphQLLabelsByIssueCount orders labels as list_label asks: the most
// used first. bug is on the bug and the pull request, the others on one
// issue or none.
func testGraphQLLabelsByIssueCount(t *testing.T, w *gqlWorld) {
	const doc = `query($owner: String!, $repo: String!, $orderByField: LabelOrderField!, $orderByDirection: OrderDirection!) {
  repository(owner: $owner, name: $repo) {
    labels(first: 100, orderBy: {field: $orderByField, direction: $orderByDirection}) { nodes { id name color description } totalCount }
  }
}`
	var d struct {
		Repository struct {
			Labels struct {
				Nodes      []struct{ Name string }
				TotalCount int
			}
		}
	}
	w.query("emu-carol", doc, map[string]any{"owner": "acme", "repo": "widgets", "orderByField": "ISSUE_COUNT", "orderByDirection": "DESC"}).ok(t, &d)
	var names []string
	for _, n := range d.Repository.Labels.Nodes {
		names = append(names, n.Name)
	}
	if len(names) != 10 {
		t.Errorf("labels by issue count = %d %v, want 10", len(names), names)
	} else {
		if names[0] != "bug" {
			t.Errorf("labels by issue count, most first: first = %q, want bug (all %v)", names[0], names)
		}
		if want := []string{"status: triage", "enhancement"}; !reflect.DeepEqual(names[1:3], want) {
			t.Errorf("labels by issue count, most first: second and third = %q, want %q", names[1:3], want)
		}
	}
	if d.Repository.Labels.TotalCount != 10 {
		t.Errorf("labels totalCount = %d, want 10", d.Repository.Labels.TotalCount)
	}
}
