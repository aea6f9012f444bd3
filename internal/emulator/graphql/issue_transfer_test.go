package graphql_test

import (
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

const transferDoc = `mutation IssueTransfer($input: TransferIssueInput!) {
  transferIssue(input: $input) { clientMutationId issue { number url repository { nameWithOwner }
    title labels(first: 10) { nodes { name color } } milestone { title } assignees(first: 10) { nodes { login } }
    comments(first: 1) { totalCount } } }
}`

type transferredIssue struct {
	Number     int
	URL        string
	Repository struct{ NameWithOwner string }
	Title      string
	Labels     struct {
		Nodes []struct{ Name, Color string }
	}
	Milestone *struct{ Title string }
	Assignees struct{ Nodes []struct{ Login string } }
	Comments  struct{ TotalCount int }
}

// transferWorld adds what transfers need to the shared world: acme/gadgets
// (public, one issue, a "bug" label of its own colour, a "v1.0"
// milestone, alice its only collaborator), alice/own (another owner's),
// and dora, who may write to all of acme's repositories.
func transferWorld(t *testing.T) (*gqlWorld, map[string]string) {
	w := newGQLWorld(t, &fidelityCount{})
	st := w.emu.State()
	st.Lock()
	acme, alice := st.Account("acme"), st.Account("alice")
	st.AddAccount("dora", "", false, gqlEpoch)
	gadgets := st.AddRepo(acme, "gadgets", "", false, gqlEpoch)
	gadgets.Collaborators = []string{"alice", "dora"}
	st.AddLabel(gadgets, "bug", "ff0000", nil)
	st.AddMilestone(gadgets, "v1.0", nil, nil, alice, gqlEpoch)
	st.AddIssue(gadgets, alice, "Already here", nil, false, gqlEpoch)
	st.AddRepo(alice, "own", "", false, gqlEpoch)
	archived := st.AddRepo(acme, "attic", "", false, gqlEpoch)
	archived.Archived = true
	st.AddToken(&state.Token{Value: "emu-dora", Login: "dora", Perms: map[string]state.Permission{
		"acme/widgets": state.PermWrite, "acme/gadgets": state.PermWrite, "acme/vault": state.PermWrite,
		"acme/attic": state.PermWrite, "alice/own": state.PermWrite}})
	st.Unlock()
	ids := map[string]string{}
	for _, name := range []string{"acme/widgets", "acme/gadgets", "acme/vault", "acme/attic", "alice/own"} {
		var d struct{ Repository struct{ ID string } }
		owner, repo, _ := strings.Cut(name, "/")
		w.query("emu-dora", `query($o: String!, $n: String!) { repository(owner: $o, name: $n) { id } }`,
			map[string]any{"o": owner, "n": repo}).ok(t, &d)
		ids[name] = d.Repository.ID
	}
	return w, ids
}

func TestGraphQLTransferIssue(t *testing.T) {
	w, repos := transferWorld(t)
	id := w.issueID("emu-dora", w.bug)
	var d struct {
		TransferIssue struct {
			ClientMutationID string
			Issue            transferredIssue
		}
	}
	w.query("emu-dora", transferDoc, map[string]any{"input": map[string]any{
		"issueId": id, "repositoryId": repos["acme/gadgets"], "clientMutationId": "t1"}}).ok(t, &d)
	got := d.TransferIssue.Issue
	// The next number in acme/gadgets; the same-named label only, in the
	// target's colour; the same-titled milestone; bob, who cannot be
	// assigned in acme/gadgets, dropped; every comment kept.
	if d.TransferIssue.ClientMutationID != "t1" {
		t.Errorf("transferIssue clientMutationId = %q, want t1", d.TransferIssue.ClientMutationID)
	}
	type facts struct {
		Number                   int
		Repository, URL, Title   string
		Assignees, CommentsTotal int
	}
	if diff := cmp.Diff(facts{2, "acme/gadgets", w.srv.URL + "/acme/gadgets/issues/2", "Widget crashes on resize", 0, 25},
		facts{got.Number, got.Repository.NameWithOwner, got.URL, got.Title, len(got.Assignees.Nodes), got.Comments.TotalCount}); diff != "" {
		t.Errorf("transferred issue mismatch (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]struct{ Name, Color string }{{"bug", "ff0000"}}, got.Labels.Nodes); diff != "" {
		t.Errorf("transferred issue labels mismatch (-want +got):\n%s", diff)
	}
	if got.Milestone == nil {
		t.Errorf("transferred issue milestone = null, want v1.0")
	} else if got.Milestone.Title != "v1.0" {
		t.Errorf("transferred issue milestone = %q, want v1.0", got.Milestone.Title)
	}
	// GraphQL does not find it under its old number.
	res := w.query("emu-dora", `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { id } } }`,
		map[string]any{"n": w.bug})
	want := fmt.Sprintf("Could not resolve to an Issue with the number of %d.", w.bug)
	checkOneError(t, "old number in GraphQL", res.Errors, wantErr{Type: "NOT_FOUND", Message: want})

	// REST redirects the old number, sub-resources included.
	for _, suffix := range []string{"", "/comments"} {
		status, loc, body := restGet(t, w, "emu-dora", fmt.Sprintf("/repos/acme/widgets/issues/%d%s", w.bug, suffix))
		wantURL := w.srv.URL + "/repos/acme/gadgets/issues/2" + suffix
		wantBody := `{"message":"Moved Permanently","url":"` + wantURL +
			`","documentation_url":"https://docs.github.com/rest/guides/best-practices-for-using-the-rest-api#follow-redirects"}`
		if status != http.StatusMovedPermanently {
			t.Errorf("GET old%s: status %d, want 301", suffix, status)
		}
		if loc != wantURL {
			t.Errorf("GET old%s: Location %q, want %q", suffix, loc, wantURL)
		}
		if body != wantBody {
			t.Errorf("GET old%s: body %s, want %s", suffix, body, wantBody)
		}
	}
	// Who cannot read the new repository learns nothing of it.
	if status, _, _ := restGet(t, w, "emu-carol", fmt.Sprintf("/repos/acme/widgets/issues/%d", w.bug)); status != http.StatusMovedPermanently {
		// carol reads public acme/gadgets, so she is redirected too.
		t.Errorf("carol's GET = %d, want 301", status)
	}
	// The old number is not reused.
	var c struct {
		CreateIssue struct{ Issue struct{ Number int } }
	}
	w.query("emu-dora", `mutation($r: ID!) { createIssue(input: {repositoryId: $r, title: "next"}) { issue { number } } }`,
		map[string]any{"r": repos["acme/widgets"]}).ok(t, &c)
	if c.CreateIssue.Issue.Number == w.bug {
		t.Errorf("a new issue took the transferred issue's number %d", w.bug)
	}
}

func TestGraphQLTransferIssueCreatesLabels(t *testing.T) {
	w, repos := transferWorld(t)
	var d struct {
		TransferIssue struct{ Issue transferredIssue }
	}
	w.query("emu-dora", transferDoc, map[string]any{"input": map[string]any{
		"issueId": w.issueID("emu-dora", w.bug), "repositoryId": repos["acme/gadgets"], "createLabelsIfMissing": true}}).ok(t, &d)
	want := []struct{ Name, Color string }{{"bug", "ff0000"}, {"status: triage", "ededed"}}
	if got := d.TransferIssue.Issue.Labels.Nodes; !reflect.DeepEqual(got, want) {
		t.Errorf("labels = %+v, want %+v", got, want)
	}
}

func TestGraphQLTransferIssueRefused(t *testing.T) {
	w, repos := transferWorld(t)
	bug := w.issueID("emu-dora", w.bug)
	var v struct {
		Repository struct{ Issue struct{ ID string } }
	}
	w.query("emu-dora", `{ repository(owner: "acme", name: "vault") { issue(number: 1) { id } } }`, nil).ok(t, &v)
	var p struct {
		Repository struct{ PullRequest struct{ ID string } }
	}
	w.query("emu-dora", `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { id } } }`,
		map[string]any{"n": w.pull}).ok(t, &p)
	cases := []struct {
		name, token, issue, repo, typ, msg string
	}{
		{"bob lacks write access to the target", "emu-bob", bug, "acme/gadgets", "FORBIDDEN",
			"bob does not have the correct permissions to execute `TransferIssue`"},
		{"another owner", "emu-dora", bug, "alice/own", "UNPROCESSABLE",
			"New repository must have the same owner as the current repository"},
		{"private to public", "emu-dora", v.Repository.Issue.ID, "acme/widgets", "UNPROCESSABLE",
			"New repository must be private if the current repository is private"},
		{"archived target", "emu-dora", bug, "acme/attic", "UNPROCESSABLE", "Repository was archived so is read-only."},
		{"a pull request", "emu-dora", p.Repository.PullRequest.ID, "acme/gadgets", "NOT_FOUND",
			"Could not resolve to Issue node with the global id of '" + p.Repository.PullRequest.ID + "'"},
	}
	for _, tc := range cases {
		res := w.query(tc.token, transferDoc, map[string]any{"input": map[string]any{"issueId": tc.issue, "repositoryId": repos[tc.repo]}})
		checkData(t, tc.name, res, `{"transferIssue":null}`)
		checkOneError(t, tc.name, res.Errors, wantErr{Type: tc.typ, Message: tc.msg})
	}
	// Nothing moved.
	st := w.emu.State()
	st.RLock()
	defer st.RUnlock()
	is := st.Repo("acme", "widgets").Issue(w.bug)
	if is.MovedTo != nil {
		t.Errorf("after the refused transfers the issue has moved to %v, want it unmoved", is.MovedTo)
	}
	if is.Repo.Name != "widgets" {
		t.Errorf("after the refused transfers the issue is in %s, want widgets", is.Repo.Name)
	}
}

// restGet sends a REST GET without following redirects.
func restGet(t *testing.T, w *gqlWorld, token, path string) (int, string, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, w.srv.URL+path, nil)
	req.Header.Set("Authorization", "token "+token)
	client := *w.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header.Get("Location"), string(b)
}
