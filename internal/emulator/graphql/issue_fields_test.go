package graphql_test

import (
	"fmt"
	"reflect"
	"testing"
)

// The documents are shaped as GitHub's MCP server v1.9.0 sends them
// (pkg/github/issue_fields.go and issues.go).

const issueFieldValuesSelection = `issueFieldValues(first: 25) { nodes { __typename
  ... on IssueFieldTextValue { field { ... on IssueFieldText { name fullDatabaseId } } value }
  ... on IssueFieldNumberValue { field { ... on IssueFieldNumber { name fullDatabaseId } } valueNumber: value }
  ... on IssueFieldDateValue { field { ... on IssueFieldDate { name fullDatabaseId } } value }
  ... on IssueFieldSingleSelectValue { field { ... on IssueFieldSingleSelect { name fullDatabaseId } } value }
} }`

func testGraphQLCustomIssueFields(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	acme := st.Account("acme")
	repo := st.Repo("acme", "widgets")
	estimate := st.AddIssueField(acme, "Estimate", "NUMBER", nil)
	priority := st.AddIssueField(acme, "Priority", "SINGLE_SELECT", nil, "P0", "P1")
	due := st.AddIssueField(acme, "Due", "DATE", nil)
	errs := []error{
		st.SetIssueFieldValue(repo.Issue(w.bug), estimate, "3"),
		st.SetIssueFieldValue(repo.Issue(w.bug), priority, "P1"),
		st.SetIssueFieldValue(repo.Issue(w.bug), priority, "p0"), // replaces P1
		st.SetIssueFieldValue(repo.Issue(w.epic), due, "2025-04-01"),
		st.SetIssueFieldValue(repo.Issue(w.epic), due, "April"),
		st.SetIssueFieldValue(repo.Issue(w.epic), priority, "P9"),
	}
	st.Unlock()
	for i, err := range errs[:4] {
		if err != nil {
			t.Fatalf("setting value %d: %v, want it set", i, err)
		}
	}
	if errs[4] == nil {
		t.Fatalf(`setting Due to "April": no error, want a refusal`)
	}
	if errs[5] == nil {
		t.Fatalf(`setting Priority to "P9": no error, want a refusal`)
	}

	var org struct {
		Organization struct {
			IssueFields struct {
				Nodes []struct {
					Typename               string `json:"__typename"`
					IssueFieldSingleSelect struct {
						Name     string
						DataType string
						Options  []struct{ Name, Color string }
					}
				}
			}
		}
	}
	w.query("emu-carol", `query($login: String!) { organization(login: $login) { issueFields(first: 100) { nodes { __typename
  ... on IssueFieldSingleSelect { name dataType options { name color } }
  ... on IssueFieldNumber { id fullDatabaseId name description dataType visibility }
} } } }`, map[string]any{"login": "acme"}).ok(t, &org)
	var kinds []string
	for _, n := range org.Organization.IssueFields.Nodes {
		kinds = append(kinds, n.Typename)
	}
	if want := []string{"IssueFieldNumber", "IssueFieldSingleSelect", "IssueFieldDate"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("organization issue fields = %v, want %v", kinds, want)
	}

	doc := `query($owner: String!, $repo: String!, $issueFieldValues: [IssueFieldValueFilter!]!) {
  repository(owner: $owner, name: $repo) {
    issues(first: 10, states: [OPEN], filterBy: {issueFieldValues: $issueFieldValues}) { totalCount nodes { number ` + issueFieldValuesSelection + ` } }
  }
}`
	type node struct {
		Number           int
		IssueFieldValues struct {
			Nodes []map[string]any
		}
	}
	var d struct {
		Repository struct {
			Issues struct {
				TotalCount int
				Nodes      []node
			}
		}
	}
	filter := []map[string]any{{"fieldName": "priority", "singleSelectOptionValue": "P0"}}
	w.query("emu-carol", doc, map[string]any{"owner": "acme", "repo": "widgets", "issueFieldValues": filter}).ok(t, &d)
	if d.Repository.Issues.TotalCount != 1 {
		t.Fatalf("issues with Priority P0: totalCount = %d, want 1", d.Repository.Issues.TotalCount)
	}
	if len(d.Repository.Issues.Nodes) != 1 {
		t.Fatalf("issues with Priority P0 = %d nodes, want 1", len(d.Repository.Issues.Nodes))
	}
	if got := d.Repository.Issues.Nodes[0].Number; got != w.bug {
		t.Fatalf("issue with Priority P0 = #%d, want #%d", got, w.bug)
	}
	got := fmt.Sprint(d.Repository.Issues.Nodes[0].IssueFieldValues.Nodes)
	want := fmt.Sprintf("[map[__typename:IssueFieldNumberValue field:map[fullDatabaseId:%d name:Estimate] valueNumber:3] "+
		"map[__typename:IssueFieldSingleSelectValue field:map[fullDatabaseId:%d name:Priority] value:P0]]", estimate.ID, priority.ID)
	if got != want {
		t.Errorf("the bug's field values =\n %s\nwant\n %s", got, want)
	}
	// An empty filter list, as the MCP server always sends, filters nothing.
	w.query("emu-carol", doc, map[string]any{"owner": "acme", "repo": "widgets", "issueFieldValues": []any{}}).ok(t, &d)
	if d.Repository.Issues.TotalCount < 4 {
		t.Errorf("no field filter: %d open issues, want at least 4", d.Repository.Issues.TotalCount)
	}
}

func testGraphQLClosedByPullRequests(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	repo := st.Repo("acme", "widgets")
	bob := st.Account("bob")
	body := fmt.Sprintf("Handles the resize.\n\nFixes #%d", w.bug)
	open := st.AddIssue(repo, bob, "Handle resize", &body, true, st.Now())
	closed := st.AddIssue(repo, bob, "First try", &body, true, st.Now())
	st.Close(closed, bob, "")
	mention := fmt.Sprintf("Related to #%d, does not fix it.", w.bug)
	st.AddIssue(repo, bob, "Unrelated", &mention, true, st.Now())
	st.Unlock()

	const doc = `query($n: Int!, $closed: Boolean!) { repository(owner: "acme", name: "widgets") { issue(number: $n) {
  closedByPullRequestsReferences(first: 5, includeClosedPrs: $closed, orderByState: true) { totalCount nodes { number state url author { login } repository { nameWithOwner } } }
} } }`
	for _, tc := range []struct {
		closed bool
		want   []int
	}{{false, []int{open.Number}}, {true, []int{open.Number, closed.Number}}} {
		var d struct {
			Repository struct {
				Issue struct {
					ClosedByPullRequestsReferences struct {
						TotalCount int
						Nodes      []struct{ Number int }
					}
				}
			}
		}
		w.query("emu-carol", doc, map[string]any{"n": w.bug, "closed": tc.closed}).ok(t, &d)
		var got []int
		for _, n := range d.Repository.Issue.ClosedByPullRequestsReferences.Nodes {
			got = append(got, n.Number)
		}
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("includeClosedPrs %v: %v, want %v", tc.closed, got, tc.want)
		}
		if total := d.Repository.Issue.ClosedByPullRequestsReferences.TotalCount; total != len(tc.want) {
			t.Errorf("includeClosedPrs %v: totalCount = %d, want %d", tc.closed, total, len(tc.want))
		}
	}
}
