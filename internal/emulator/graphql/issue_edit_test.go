package graphql_test

import (
	"fmt"
	"slices"
	"testing"
)

// The documents are the ones gh v2.83.0 sends for `gh issue edit` on
// github.com (pkg/cmd/pr/shared/editable_http.go, api/queries_repo.go),
// with the emulator's state read back directly.

const (
	ghLabelAdd         = `mutation LabelAdd($input:AddLabelsToLabelableInput!){addLabelsToLabelable(input: $input){__typename}}`
	ghLabelRemove      = `mutation LabelRemove($input:RemoveLabelsFromLabelableInput!){removeLabelsFromLabelable(input: $input){__typename}}`
	ghIssueUpdate      = `mutation IssueUpdate($input:UpdateIssueInput!){updateIssue(input: $input){__typename}}`
	ghReplaceActors    = `mutation ReplaceActorsForAssignable($input:ReplaceActorsForAssignableInput!){replaceActorsForAssignable(input: $input){__typename}}`
	ghAssignableActors = `query RepositoryAssignableActors($endCursor:String$name:String!$owner:String!){repository(owner: $owner, name: $name){suggestedActors(first: 100, after: $endCursor, capabilities: CAN_BE_ASSIGNED){nodes{...on User{id,login,name,__typename},...on Bot{id,login,__typename}},pageInfo{hasNextPage,endCursor}}}}`
)

// editView is an issue as the test reads it from the state.
type editView struct {
	title, body, milestone string
	labels, assignees      []string
}

func (w *gqlWorld) editView(n int) editView {
	st := w.emu.State()
	st.RLock()
	defer st.RUnlock()
	is := st.Repo("acme", "widgets").Issue(n)
	v := editView{title: is.Title}
	if is.Body != nil {
		v.body = *is.Body
	}
	if is.Milestone != nil {
		v.milestone = is.Milestone.Title
	}
	for _, l := range is.Labels {
		v.labels = append(v.labels, l.Name)
	}
	for _, a := range is.Assignees {
		v.assignees = append(v.assignees, a.Login)
	}
	return v
}

// editIDs reads label and suggested-actor ids by name, as gh does.
func (w *gqlWorld) editIDs(t *testing.T) (labels, actors map[string]string) {
	var d struct {
		Repository struct {
			Labels struct{ Nodes []struct{ ID, Name string } }
		}
	}
	w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { labels(first: 100) { nodes { id name } } } }`, nil).ok(t, &d)
	labels = map[string]string{}
	for _, l := range d.Repository.Labels.Nodes {
		labels[l.Name] = l.ID
	}
	res := w.query("emu-alice", ghAssignableActors, map[string]any{"owner": "acme", "name": "widgets"})
	var raw struct {
		Repository struct {
			SuggestedActors struct {
				Nodes []struct {
					ID       string `json:"id"`
					Login    string `json:"login"`
					Typename string `json:"__typename"`
				}
			}
		}
	}
	res.ok(t, &raw)
	actors = map[string]string{}
	for _, n := range raw.Repository.SuggestedActors.Nodes {
		actors[n.Login] = n.ID
	}
	return labels, actors
}

func TestGraphQLIssueEdit(t *testing.T) {
	schemasOrFail(t)
	w := newGQLWorld(t, &fidelityCount{})
	labels, actors := w.editIDs(t)

	// suggestedActors(CAN_BE_ASSIGNED) lists exactly who can be assigned.
	st := w.emu.State()
	st.RLock()
	repo := st.Repo("acme", "widgets")
	var want []string
	for _, login := range []string{"acme", "alice", "bob", "carol", "nobody"} {
		if repo.Assignable(login) && st.Account(login) != nil && !st.Account(login).IsOrg {
			want = append(want, login)
		}
	}
	st.RUnlock()
	var got []string
	for login := range actors {
		got = append(got, login)
	}
	slices.Sort(got)
	if len(want) == 0 {
		t.Fatalf("no account in the world is assignable, want some")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("suggestedActors = %v, want %v", got, want)
	}

	id := w.issueID("emu-alice", w.bug)
	before := w.editView(w.bug)
	in := func(m map[string]any) map[string]any { return map[string]any{"input": m} }

	// carol has read access: every edit is refused, and nothing changes.
	for _, tc := range []struct{ doc, op string }{
		{ghLabelAdd, "AddLabelsToLabelable"}, {ghLabelRemove, "RemoveLabelsFromLabelable"},
	} {
		res := w.query("emu-carol", tc.doc, in(map[string]any{"labelableId": id, "labelIds": []string{labels["enhancement"]}}))
		checkOneError(t, "carol "+tc.op, res.Errors,
			wantErr{Type: "FORBIDDEN", Message: "carol does not have the correct permissions to execute `" + tc.op + "`"})
	}
	res := w.query("emu-carol", ghIssueUpdate, in(map[string]any{"id": id, "title": "carol was here"}))
	checkOneError(t, "carol UpdateIssue", res.Errors,
		wantErr{Message: "carol does not have the correct permissions to execute `UpdateIssue`"})
	res = w.query("emu-carol", ghReplaceActors, in(map[string]any{"assignableId": id, "actorIds": []string{actors["carol"]}}))
	checkOneError(t, "carol ReplaceActorsForAssignable", res.Errors,
		wantErr{Message: "carol does not have the correct permissions to execute `ReplaceActorsForAssignable`"})
	after := w.editView(w.bug)
	if !slices.Equal(after.labels, before.labels) {
		t.Fatalf("after refused edits labels = %v, want %v as before", after.labels, before.labels)
	}
	if after.title != before.title {
		t.Fatalf("after refused edits title = %q, want %q as before", after.title, before.title)
	}
	if !slices.Equal(after.assignees, before.assignees) {
		t.Fatalf("after refused edits assignees = %v, want %v as before", after.assignees, before.assignees)
	}

	// bob (write) edits as gh does.
	var typ struct {
		AddLabelsToLabelable struct {
			Typename string `json:"__typename"`
		}
	}
	w.query("emu-bob", ghLabelAdd, in(map[string]any{"labelableId": id, "labelIds": []string{labels["enhancement"], labels["bug"]}})).ok(t, &typ)
	if typ.AddLabelsToLabelable.Typename != "AddLabelsToLabelablePayload" {
		t.Errorf("addLabelsToLabelable __typename = %q, want AddLabelsToLabelablePayload", typ.AddLabelsToLabelable.Typename)
	}
	v := w.editView(w.bug)
	if wantLabels := append(slices.Clone(before.labels), "enhancement"); !slices.Equal(v.labels, wantLabels) {
		t.Errorf("after adding: labels %v, want %v", v.labels, wantLabels)
	}
	var ignore map[string]any
	w.query("emu-bob", ghLabelRemove, in(map[string]any{"labelableId": id, "labelIds": []string{labels["bug"]}})).ok(t, &ignore)
	v = w.editView(w.bug)
	if slices.Contains(v.labels, "bug") {
		t.Errorf("after removing bug: labels %v, want no bug", v.labels)
	}
	if !slices.Contains(v.labels, "enhancement") {
		t.Errorf("after removing bug: labels %v, want enhancement still", v.labels)
	}
	w.query("emu-bob", ghReplaceActors, in(map[string]any{"assignableId": id, "actorIds": []string{actors["carol"], actors["alice"]}})).ok(t, &ignore)
	if v = w.editView(w.bug); !slices.Equal(v.assignees, []string{"carol", "alice"}) {
		t.Errorf("after replacing actors: assignees %v, want [carol alice]", v.assignees)
	}
	w.query("emu-bob", ghIssueUpdate, in(map[string]any{"id": id, "title": "  Renamed by bob ", "body": "New body", "milestoneId": nil})).ok(t, &ignore)
	// milestoneId: null is how gh's `issue edit --remove-milestone` asks
	// for no milestone.
	v = w.editView(w.bug)
	if v.title != "Renamed by bob" {
		t.Errorf("after updateIssue: title %q, want %q", v.title, "Renamed by bob")
	}
	if v.body != "New body" {
		t.Errorf("after updateIssue: body %q, want %q", v.body, "New body")
	}
	if before.milestone == "" {
		t.Errorf("before updateIssue: no milestone, want one to remove")
	}
	if v.milestone != "" {
		t.Errorf("after updateIssue: milestone %q, want none", v.milestone)
	}

	// assignedActors reads the assignees back, as gh's IssueByNumber does.
	var a struct {
		Repository struct {
			Issue struct {
				AssignedActors struct {
					Nodes []struct {
						Login    string `json:"login"`
						Typename string `json:"__typename"`
					}
					TotalCount int
				}
			}
		}
	}
	w.query("emu-alice", `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) {
  assignedActors(first: 10) { nodes { ...on User { id login name __typename } ...on Bot { id login __typename } } totalCount } } } }`,
		map[string]any{"n": w.bug}).ok(t, &a)
	var read []string
	for _, n := range a.Repository.Issue.AssignedActors.Nodes {
		read = append(read, n.Login+" "+n.Typename)
	}
	if got := a.Repository.Issue.AssignedActors.TotalCount; got != len(v.assignees) {
		t.Errorf("assignedActors totalCount = %d, want %d", got, len(v.assignees))
	}
	if want := []string{"carol User", "alice User"}; !slices.Equal(read, want) {
		t.Errorf("assignedActors = %q, want %q", read, want)
	}

	// Bad input is refused by name and changes nothing.
	for _, tc := range []struct {
		doc   string
		input map[string]any
		msg   string
	}{
		{ghIssueUpdate, map[string]any{"id": id, "title": "   "}, "Title can't be blank"},
		{ghLabelAdd, map[string]any{"labelableId": id, "labelIds": []string{id}}, "Could not resolve to Label node with the global id of '" + id + "'"},
		{ghReplaceActors, map[string]any{"assignableId": id, "actorIds": []string{labels["bug"]}}, "Could not resolve to Actor node with the global id of '" + labels["bug"] + "'"},
	} {
		res := w.query("emu-alice", tc.doc, in(tc.input))
		checkOneError(t, fmt.Sprint(tc.input), res.Errors, wantErr{Message: tc.msg})
	}
	after = w.editView(w.bug)
	if after.title != v.title {
		t.Errorf("after refused input title = %q, want %q as before", after.title, v.title)
	}
	if !slices.Equal(after.labels, v.labels) {
		t.Errorf("after refused input labels = %v, want %v as before", after.labels, v.labels)
	}
	if !slices.Equal(after.assignees, v.assignees) {
		t.Errorf("after refused input assignees = %v, want %v as before", after.assignees, v.assignees)
	}

	// The author may retitle their own issue without triage access, but
	// their label changes are dropped, as PATCH .../issues/{n} drops them.
	carolIssue := w.issueID("emu-carol", w.locked)
	w.query("emu-carol", ghIssueUpdate, in(map[string]any{"id": carolIssue, "title": "Calm discussion", "labelIds": []string{labels["bug"]}})).ok(t, &ignore)
	v = w.editView(w.locked)
	if v.title != "Calm discussion" {
		t.Errorf("author's edit: title %q, want %q", v.title, "Calm discussion")
	}
	if len(v.labels) != 0 {
		t.Errorf("author's edit: labels %v, want none (dropped)", v.labels)
	}
}
