package graphql_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/schema"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// gqlWorld is an emulator over HTTP seeded with a small world of its own:
// org acme with public acme/widgets and private acme/vault, users alice
// (admin), bob (write) and carol (read).
type gqlWorld struct {
	t     *testing.T
	emu   *emulator.Emulator
	srv   *httptest.Server
	count *fidelityCount

	// Issue numbers in acme/widgets.
	bug, wontfix, pull, epic, child1, child2, locked int
}

var gqlEpoch = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

func newGQLWorld(t *testing.T, count *fidelityCount) *gqlWorld {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Seed: "empty", Now: func() time.Time { return gqlEpoch.Add(48 * time.Hour) }})
	if err != nil {
		t.Fatal(err)
	}
	w := &gqlWorld{t: t, emu: emu, count: count}
	st := emu.State()
	st.Lock()
	at := func(h int) time.Time { return gqlEpoch.Add(time.Duration(h) * time.Hour) }
	acme := st.AddAccount("acme", "Acme Corp", true, at(0))
	alice := st.AddAccount("alice", "Alice Liddell", false, at(0))
	bob := st.AddAccount("bob", "", false, at(0))
	carol := st.AddAccount("carol", "Carol", false, at(0))
	st.AddToken(&state.Token{Value: "emu-alice", Login: "alice", Perms: map[string]state.Permission{"acme/widgets": state.PermAdmin, "acme/vault": state.PermAdmin}})
	st.AddToken(&state.Token{Value: "emu-bob", Login: "bob", Perms: map[string]state.Permission{"acme/widgets": state.PermWrite}})
	st.AddToken(&state.Token{Value: "emu-carol", Login: "carol", Perms: map[string]state.Permission{"acme/widgets": state.PermRead}})

	repo := st.AddRepo(acme, "widgets", "Widgets, sprockets and gizmos", false, at(0))
	repo.Collaborators = []string{"alice", "bob", "carol"}
	vault := st.AddRepo(acme, "vault", "", true, at(0))
	st.AddIssue(vault, alice, "Secret plans", nil, false, at(1))

	desc := "Something isn't working"
	bugLabel := st.AddLabel(repo, "bug", "d73a4a", &desc)
	enh := st.AddLabel(repo, "enhancement", "a2eeef", nil)
	triage := st.AddLabel(repo, "status: triage", "ededed", nil)
	for i := range 7 {
		st.AddLabel(repo, fmt.Sprintf("area: part-%d", i), "0e8a16", nil)
	}
	ms := st.AddMilestone(repo, "v1.0", nil, nil, alice, at(1))
	bugType := st.AddIssueType(acme, "Bug", nil, nil, at(0))
	red := "red"
	st.AddIssueType(acme, "Feature", nil, &red, at(0))

	body := "Steps: open the widget.\n\n```go\nif a<b && c {}\n```"
	bug := st.AddIssue(repo, alice, "Widget crashes on resize", &body, false, at(2))
	st.AddLabels(bug, alice, bugLabel, triage)
	st.Assign(bug, alice, bob)
	st.SetMilestone(bug, alice, ms)
	st.SetType(bug, bugType)
	for i := range 25 {
		st.AddComment(bug, []*state.Account{alice, bob, carol}[i%3], fmt.Sprintf("comment %02d", i+1), at(3+i))
	}
	wontfix := st.AddIssue(repo, bob, "Make widgets purple", nil, false, at(4))
	st.AddLabels(wontfix, bob, enh)
	st.Close(wontfix, alice, "not_planned")
	pull := st.AddIssue(repo, bob, "Fix resize crash", nil, true, at(5))
	st.AddLabels(pull, bob, bugLabel)
	epic := st.AddIssue(repo, alice, "Epic: gizmo support", nil, false, at(6))
	child1 := st.AddIssue(repo, alice, "Gizmo parser", nil, false, at(7))
	child2 := st.AddIssue(repo, alice, "Gizmo renderer", nil, false, at(8))
	if err := st.AddSubIssue(epic, child1, alice, false); err != nil {
		t.Fatal(err)
	}
	if err := st.AddSubIssue(epic, child2, alice, false); err != nil {
		t.Fatal(err)
	}
	st.Close(child1, alice, "completed")
	if err := st.AddBlockedBy(child2, child1, alice); err != nil {
		t.Fatal(err)
	}
	if err := st.AddBlockedBy(child2, bug, alice); err != nil {
		t.Fatal(err)
	}
	locked := st.AddIssue(repo, carol, "Flame war", nil, false, at(9))
	reason := "too heated"
	st.LockIssue(locked, alice, &reason)
	w.bug, w.wontfix, w.pull, w.epic, w.child1, w.child2, w.locked =
		bug.Number, wontfix.Number, pull.Number, epic.Number, child1.Number, child2.Number, locked.Number
	st.Unlock()

	w.srv = httptest.NewServer(emu)
	t.Cleanup(w.srv.Close)
	return w
}

// gqlResult is a decoded GraphQL response; Data stays raw so tests can
// decode it into the shape they expect.
type gqlResult struct {
	Status int             `json:"-"`
	Header http.Header     `json:"-"`
	Data   json.RawMessage `json:"data"`
	Errors []respError     `json:"errors"`
	raw    []byte
	// HasData is whether the response had a "data" key at all.
	HasData bool
}

// query sends a document GitHub's schema must accept.
func (w *gqlWorld) query(token, doc string, vars map[string]any) gqlResult {
	w.t.Helper()
	requireGitHubValid(w.t, w.count, doc)
	return w.send("/graphql", token, map[string]any{"query": doc, "variables": vars})
}

// send posts any body and decodes the answer.
func (w *gqlWorld) send(path, token string, body any) gqlResult {
	w.t.Helper()
	var b []byte
	switch v := body.(type) {
	case string:
		b = []byte(v)
	default:
		var err error
		if b, err = json.Marshal(v); err != nil {
			w.t.Fatal(err)
		}
	}
	req, err := http.NewRequest(http.MethodPost, w.srv.URL+path, bytes.NewReader(b))
	if err != nil {
		w.t.Fatal(err)
	}
	req.Header.Set("Authorization", "token "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := w.srv.Client().Do(req)
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		w.t.Fatal(err)
	}
	out := gqlResult{Status: resp.StatusCode, Header: resp.Header, raw: raw}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		w.t.Fatalf("response is not a JSON object: %v\n%s", err, raw)
	}
	_, out.HasData = keys["data"]
	if err := json.Unmarshal(raw, &out); err != nil {
		w.t.Fatalf("response does not decode: %v\n%s", err, raw)
	}
	return out
}

// ok fails unless the response is a 200 without errors, and decodes data.
func (r gqlResult) ok(t *testing.T, into any) {
	t.Helper()
	if r.Status != http.StatusOK {
		t.Fatalf("status = %d, want 200\n%s", r.Status, r.raw)
	}
	if len(r.Errors) > 0 {
		t.Fatalf("errors = %+v, want none\n%s", r.Errors, r.raw)
	}
	if err := json.Unmarshal(r.Data, into); err != nil {
		t.Fatalf("data does not decode: %v\n%s", err, r.Data)
	}
}

// issueID reads an issue's node id through GraphQL.
func (w *gqlWorld) issueID(token string, number int) string {
	w.t.Helper()
	var d struct {
		Repository struct{ Issue struct{ ID string } }
	}
	w.query(token, `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { id } } }`,
		map[string]any{"n": number}).ok(w.t, &d)
	return d.Repository.Issue.ID
}

// TestGraphQL runs the endpoint's tests against one shared count of the
// documents validated against GitHub's schema, and reports it.
func TestGraphQL(t *testing.T) {
	count := &fidelityCount{}
	schemasOrFail(t)
	tests := []struct {
		name string
		fn   func(t *testing.T, w *gqlWorld)
	}{
		{"IssueFields", testGraphQLIssueFields},
		{"AliasesFragmentsVariables", testGraphQLAliasesFragmentsVariables},
		{"CommentsPagination", testGraphQLCommentsPagination},
		{"PaginationErrors", testGraphQLPaginationErrors},
		{"IssueList", testGraphQLIssueList},
		{"RepositoryMetadata", testGraphQLRepositoryMetadata},
		{"Relations", testGraphQLRelations},
		{"NodeRoundTrip", testGraphQLNodeRoundTrip},
		{"BotActor", testGraphQLBotActor},
		{"NotFound", testGraphQLNotFound},
		{"DeleteIssue", testGraphQLDeleteIssue},
		{"DeleteIssueForbidden", testGraphQLDeleteIssueForbidden},
		{"AddComment", testGraphQLAddComment},
		{"LockUnlock", testGraphQLLockUnlock},
		{"CloseReopen", testGraphQLCloseReopen},
		{"PinUnpin", testGraphQLPinUnpin},
		{"ViewerAndRateLimit", testGraphQLViewerAndRateLimit},
		{"ValidationErrors", testGraphQLValidationErrors},
		{"FieldMerge", testGraphQLFieldMerge},
		{"RequestErrors", testGraphQLRequestErrors},
		{"Introspection", testGraphQLIntrospection},
		{"Concurrent", testGraphQLConcurrent},
		{"GhLabelList", testGraphQLGhLabelList},
		{"GhIssueList", testGraphQLGhIssueList},
		{"GhRepositoryInfo", testGraphQLGhRepositoryInfo},
		{"GhIssueCreate", testGraphQLGhIssueCreate},
		{"GhRepoList", testGraphQLGhRepoList},
		{"GhIssueView", testGraphQLGhIssueView},
		{"LabelMutations", testGraphQLLabelMutations},
		{"LabelsByIssueCount", testGraphQLLabelsByIssueCount},
		{"LabelAndMilestoneIssues", testGraphQLLabelAndMilestoneIssues},
		{"CustomIssueFields", testGraphQLCustomIssueFields},
		{"ClosedByPullRequests", testGraphQLClosedByPullRequests},
		{"Teams", testGraphQLTeams},
		{"ErrorsInDocumentOrder", testGraphQLErrorsInDocumentOrder},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newGQLWorld(t, count)) })
	}
	n := count.validated.Load()
	graphQLReport = fmt.Sprintf("graphql fidelity: %d documents validated against %s %s (%d of them need %s)",
		n, schemasOrFail(t).src.Package, schemasOrFail(t).src.Version, count.overlay.Load(), schema.OverlayPath)
	t.Log(graphQLReport)
	if n < 30 {
		t.Errorf("%d documents were validated against GitHub's schema, want at least 30", n)
	}
}

// respError is one entry of a GraphQL response's errors array, as the
// tests decode it.
type respError struct {
	Type       string         `json:"type,omitempty"`
	Path       []any          `json:"path,omitempty"`
	Extensions map[string]any `json:"extensions,omitempty"`
	Locations  []respLocation `json:"locations,omitempty"`
	Message    string         `json:"message"`
}

// respLocation is where in the document an error points.
type respLocation struct {
	Line   int `json:"line"`
	Column int `json:"column"`
}

// wantCursorPrefix is the emulator's cursor format: base64 of this prefix
// and an index, which tests forge cursors with.
const wantCursorPrefix = "cursor:v2:"

func wantCursor(index int) string {
	return base64.StdEncoding.EncodeToString([]byte(wantCursorPrefix + strconv.Itoa(index)))
}

// introspectionField names the root fields introspection adds.
func introspectionField(name string) bool { return name == "__schema" || name == "__type" }

func isDeprecated(dirs ast.DirectiveList) bool { return dirs.ForName("deprecated") != nil }

// allReactionContents is GitHub's ReactionContent enum.
var allReactionContents = []string{"CONFUSED", "EYES", "HEART", "HOORAY", "LAUGH", "ROCKET", "THUMBS_DOWN", "THUMBS_UP"}
