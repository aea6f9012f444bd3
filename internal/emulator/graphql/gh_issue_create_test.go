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
		if len(ids) != 10 || d.Repository.Labels.PageInfo.HasNextPage {
			t.Fatalf("labels = %+v", d.Repository.Labels)
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
		if is == nil || d.CreateIssue.Issue.URL != w.srv.URL+"/acme/widgets/issues/"+strconv.Itoa(is.Number) {
			t.Fatalf("payload %+v does not name a new issue", d.CreateIssue.Issue)
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
	if is.Title != "Created by gh" || is.Body == nil || *is.Body != "Body written by gh." || is.User.Login != "alice" ||
		!reflect.DeepEqual(labels, []string{"bug"}) {
		t.Errorf("created %q %v by %s with labels %v", is.Title, is.Body, is.User.Login, labels)
	}

	// A writer assigns and sets a milestone; each id is resolved.
	is = created(create("emu-bob", map[string]any{"repositoryId": repoID, "title": "Triaged at birth",
		"assigneeIds": []string{ids.Bob.ID}, "labelIds": []string{labelIDs["enhancement"], labelIDs["enhancement"]},
		"milestoneId": ids.Repository.Milestones.Nodes[0].ID}))
	labels, assignees := names(is)
	if !reflect.DeepEqual(labels, []string{"enhancement"}) || !reflect.DeepEqual(assignees, []string{"bob"}) ||
		is.Milestone == nil || is.Milestone.Title != "v1.0" || is.Body != nil {
		t.Errorf("bob's issue: labels %v, assignees %v, milestone %v, body %v", labels, assignees, is.Milestone, is.Body)
	}

	// Read access opens issues; its labels are dropped, as REST drops them.
	is = created(create("emu-carol", map[string]any{"repositoryId": repoID, "title": "From a reader", "labelIds": []string{labelIDs["bug"]}}))
	if labels, _ := names(is); len(labels) != 0 {
		t.Errorf("a reader's issue got labels %v", labels)
	}

	// A parent joins the new issue as its last sub-issue; linking needs
	// triage access on the parent's repository.
	epic := w.issueID("emu-alice", w.epic)
	is = created(create("emu-alice", map[string]any{"repositoryId": repoID, "title": "Gizmo packaging", "parentIssueId": epic}))
	st.RLock()
	parent := is.Parent
	st.RUnlock()
	if parent == nil || parent.Number != w.epic || parent.SubIssues[len(parent.SubIssues)-1] != is {
		t.Errorf("parent of the new issue = %v", parent)
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
		if string(res.Data) != `{"createIssue":null}` || len(res.Errors) != 1 || res.Errors[0].Type != tc.typ || res.Errors[0].Message != tc.msg {
			t.Errorf("%s: %s", tc.name, res.raw)
		}
	}
	st.RLock()
	after := len(st.Repo("acme", "widgets").Issues)
	st.RUnlock()
	if after != before {
		t.Errorf("refused mutations created %d issues", after-before)
	}
}
