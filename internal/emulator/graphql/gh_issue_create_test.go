package graphql_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// ghRepositoryLabelList is the query gh's api.RepoLabels builds (through
// githubv4) to turn `gh issue create --label` names into ids.
const ghRepositoryLabelList = `query RepositoryLabelList($endCursor:String$name:String!$owner:String!){repository(owner: $owner, name: $name){labels(first: 100, orderBy: {field: NAME, direction: ASC}, after: $endCursor){nodes{id,name},pageInfo{hasNextPage,endCursor}}}}`

// ghIssueCreate is gh's IssueCreate mutation (api/queries_issue.go).
const ghIssueCreate = `
	mutation IssueCreate($input: CreateIssueInput!) {
		createIssue(input: $input) {
			issue {
				id
				url
			}
		}
	}`

func testGraphQLGhIssueCreate(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	labelIDs := func() map[string]string {
		var d struct {
			Repository struct {
				Labels struct {
					Nodes    []struct{ ID, Name string }
					PageInfo struct{ HasNextPage bool }
				}
			}
		}
		w.query("emu-alice", ghRepositoryLabelList, map[string]any{"owner": "acme", "name": "widgets", "endCursor": nil}).ok(t, &d)
		ids := map[string]string{}
		for _, n := range d.Repository.Labels.Nodes {
			ids[n.Name] = n.ID
		}
		if len(ids) != 10 {
			t.Fatalf("labels = %v, want 10", ids)
		}
		if d.Repository.Labels.PageInfo.HasNextPage {
			t.Fatalf("labels hasNextPage = true, want false")
		}
		return ids
	}()
	var ids struct {
		Repository struct {
			ID         string
			Milestones struct{ Nodes []struct{ ID string } }
		}
		Bob struct{ ID string }
	}
	w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { id milestones(first: 1) { nodes { id } } } bob: user(login: "bob") { id } }`, nil).ok(t, &ids)
	repoID := ids.Repository.ID

	create := func(token string, input map[string]any) gqlResult {
		t.Helper()
		return w.query(token, ghIssueCreate, map[string]any{"input": input})
	}
	// created checks the issue behind a payload against the state.
	created := func(res gqlResult) *state.Issue {
		t.Helper()
		var d struct {
			CreateIssue struct{ Issue struct{ ID, URL string } }
		}
		res.ok(t, &d)
		st.RLock()
		defer st.RUnlock()
		is, _ := st.Node(d.CreateIssue.Issue.ID).(*state.Issue)
		if is == nil {
			t.Fatalf("createIssue payload id %q names no issue", d.CreateIssue.Issue.ID)
		}
		if want := w.srv.URL + "/acme/widgets/issues/" + strconv.Itoa(is.Number); d.CreateIssue.Issue.URL != want {
			t.Fatalf("createIssue payload url = %q, want %q", d.CreateIssue.Issue.URL, want)
		}
		return is
	}
	names := func(is *state.Issue) (labels, assignees []string) {
		st.RLock()
		defer st.RUnlock()
		for _, l := range is.Labels {
			labels = append(labels, l.Name)
		}
		for _, a := range is.Assignees {
			assignees = append(assignees, a.Login)
		}
		return labels, assignees
	}

	// What `gh issue create --title … --body … --label bug` sends: empty
	// assignees and no projects besides the label.
	is := created(create("emu-alice", map[string]any{"repositoryId": repoID, "title": "  Created by gh ", "body": "Body written by gh.",
		"assigneeIds": []string{}, "labelIds": []string{labelIDs["bug"]}, "projectIds": nil}))
	labels, _ := names(is)
	if is.Title != "Created by gh" {
		t.Errorf("created issue title = %q, want %q", is.Title, "Created by gh")
	}
	if is.Body == nil || *is.Body != "Body written by gh." {
		t.Errorf("created issue body = %v, want %q", deref(is.Body), "Body written by gh.")
	}
	if is.User.Login != "alice" {
		t.Errorf("created issue author = %s, want alice", is.User.Login)
	}
	if want := []string{"bug"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("created issue labels = %v, want %v", labels, want)
	}

	// A writer assigns and sets a milestone; each id is resolved.
	is = created(create("emu-bob", map[string]any{"repositoryId": repoID, "title": "Triaged at birth",
		"assigneeIds": []string{ids.Bob.ID}, "labelIds": []string{labelIDs["enhancement"], labelIDs["enhancement"]},
		"milestoneId": ids.Repository.Milestones.Nodes[0].ID}))
	labels, assignees := names(is)
	if want := []string{"enhancement"}; !reflect.DeepEqual(labels, want) {
		t.Errorf("bob's issue: labels %v, want %v", labels, want)
	}
	if want := []string{"bob"}; !reflect.DeepEqual(assignees, want) {
		t.Errorf("bob's issue: assignees %v, want %v", assignees, want)
	}
	if is.Milestone == nil {
		t.Errorf("bob's issue: no milestone, want v1.0")
	} else if is.Milestone.Title != "v1.0" {
		t.Errorf("bob's issue: milestone %q, want v1.0", is.Milestone.Title)
	}
	if is.Body != nil {
		t.Errorf("bob's issue: body %q, want null", *is.Body)
	}

	// Read access opens issues; its labels are dropped, as REST drops them.
	is = created(create("emu-carol", map[string]any{"repositoryId": repoID, "title": "From a reader", "labelIds": []string{labelIDs["bug"]}}))
	if labels, _ := names(is); len(labels) != 0 {
		t.Errorf("a reader's issue got labels %v, want none", labels)
	}

	// A parent joins the new issue as its last sub-issue; linking needs
	// triage access on the parent's repository.
	epic := w.issueID("emu-alice", w.epic)
	is = created(create("emu-alice", map[string]any{"repositoryId": repoID, "title": "Gizmo packaging", "parentIssueId": epic}))
	st.RLock()
	parent := is.Parent
	st.RUnlock()
	if parent == nil {
		t.Errorf("the new issue has no parent, want #%d", w.epic)
	} else if parent.Number != w.epic {
		t.Errorf("parent of the new issue = #%d, want #%d", parent.Number, w.epic)
	} else if last := parent.SubIssues[len(parent.SubIssues)-1]; last != is {
		t.Errorf("the parent's last sub-issue = #%d, want the new #%d", last.Number, is.Number)
	}

	st.RLock()
	before := len(st.Repo("acme", "widgets").Issues)
	vaultID := st.Repo("acme", "vault").NodeID
	st.RUnlock()
	for _, tc := range []struct {
		name, token string
		input       map[string]any
		typ, msg    string
	}{
		{"blank title", "emu-alice", map[string]any{"repositoryId": repoID, "title": " \n"}, "UNPROCESSABLE", "Title can't be blank"},
		{"unseen repository", "emu-bob", map[string]any{"repositoryId": vaultID, "title": "x"},
			"NOT_FOUND", "Could not resolve to a node with the global id of '" + vaultID + "'"},
		{"classic project", "emu-alice", map[string]any{"repositoryId": repoID, "title": "x", "projectIds": []string{"PRO_kwDOAAA"}},
			"NOT_FOUND", "Could not resolve to a node with the global id of 'PRO_kwDOAAA'"},
		{"template", "emu-alice", map[string]any{"repositoryId": repoID, "title": "x", "issueTemplate": "Bug report"},
			"UNPROCESSABLE", "The emulator does not apply issue templates (issueTemplate)."},
		{"issue as label", "emu-alice", map[string]any{"repositoryId": repoID, "title": "x", "labelIds": []string{epic}},
			"NOT_FOUND", "Could not resolve to Label node with the global id of '" + epic + "'"},
		{"reader's parent", "emu-carol", map[string]any{"repositoryId": repoID, "title": "x", "parentIssueId": epic},
			"FORBIDDEN", "carol does not have the correct permissions to execute `CreateIssue`"},
	} {
		res := create(tc.token, tc.input)
		checkData(t, tc.name, res, `{"createIssue":null}`)
		checkOneError(t, tc.name, res.Errors, wantErr{Type: tc.typ, Message: tc.msg})
	}
	st.RLock()
	after := len(st.Repo("acme", "widgets").Issues)
	st.RUnlock()
	if after != before {
		t.Errorf("after the refused mutations widgets has %d issues, want %d as before", after, before)
	}
}
