package graphql_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testGraphQLNotFound(t *testing.T, w *gqlWorld) {
	res := w.query("emu-alice", `query {
  repository(owner: "acme", name: "nope") { id }
}`, nil)
	const want = `{"data":{"repository":null},"errors":[{"type":"NOT_FOUND","path":["repository"],"locations":[{"line":2,"column":3}],"message":"Could not resolve to a Repository with the name 'acme/nope'."}]}`
	if string(res.raw) != want {
		t.Errorf("missing repository:\n got %s\nwant %s", res.raw, want)
	}

	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { name issue(number: 999) { id } } }`, nil)
	checkData(t, "missing issue", res, `{"repository":{"name":"widgets","issue":null}}`)
	if checkOneError(t, "missing issue", res.Errors,
		wantErr{Type: "NOT_FOUND", Message: "Could not resolve to an issue or pull request with the number of 999."}) {
		if diff := cmp.Diff([]any{"repository", "issue"}, res.Errors[0].Path); diff != "" {
			t.Errorf("missing issue: error path mismatch (-want +got):\n%s", diff)
		}
	}

	// A private repository answers carol as a missing one.
	res = w.query("emu-carol", `{ repository(owner: "acme", name: "vault") { id } }`, nil)
	checkOneError(t, "private repository", res.Errors,
		wantErr{Message: "Could not resolve to a Repository with the name 'acme/vault'."})
	res = w.query("emu-carol", `{ user(login: "nobody") { login } organization(login: "acme") { login } }`, nil)
	checkData(t, "missing user", res, `{"user":null,"organization":{"login":"acme"}}`)
	checkOneError(t, "missing user", res.Errors,
		wantErr{Message: "Could not resolve to a User with the login of 'nobody'."})
}

func testGraphQLValidationErrors(t *testing.T, w *gqlWorld) {
	// A deliberately broken document: GitHub's schema rejects it, and so
	// does the emulator, in GitHub's shape.
	const broken = `query {
  repository(owner: "acme", name: "widgets") {
    issue(number: 1) { title nope }
  }
}`
	if _, ok, _ := checkDocument(t, broken); ok {
		t.Fatal("GitHub's schema accepted the broken document")
	}
	res := w.send("/graphql", "emu-alice", map[string]any{"query": broken})
	want := `{"errors":[{"path":["query","repository","issue","nope"],"extensions":{"code":"undefinedField","fieldName":"nope","typeName":"Issue"},"locations":[{"line":3,"column":30}],"message":"Field 'nope' doesn't exist on type 'Issue'"}]}`
	checkStatus(t, "broken document", res, 200)
	checkNoData(t, "broken document", res)
	if string(res.raw) != want {
		t.Errorf("broken document:\n got %s\nwant %s", res.raw, want)
	}

	for _, tc := range []struct{ doc, message string }{
		{`{ repository(owner: "acme") { id } }`, "Field 'repository' is missing required arguments: name"},
		{`{ repository(owner: "acme", name: "widgets", color: 1) { id } }`, "Field 'repository' doesn't accept argument 'color'"},
		{`{ viewer }`, "Field must have selections (field 'viewer' returns User but has no selections. Did you mean 'viewer { ... }'?)"},
		{`{ viewer { login(x: 1) } }`, "Field 'login' doesn't accept argument 'x'"},
		{`query Q { viewer { login @include(if: $x) } }`, "Variable $x is used by Q but not declared"},
		{`{ viewer { login @include(if: $x) } }`, "Variable $x is used by anonymous query but not declared"},
		{`{ viewer { ...Nope } }`, "Fragment Nope was used, but not defined"},
		{`{ viewer { login } `, ""},
		// Served by GitHub, not by the emulator: the pruned schema says so.
		{`{ viewer { bio } }`, "Field 'bio' doesn't exist on type 'User'"},
	} {
		res := w.send("/graphql", "emu-alice", map[string]any{"query": tc.doc})
		checkStatus(t, tc.doc, res, 200)
		checkNoData(t, tc.doc, res)
		if len(res.Errors) == 0 {
			t.Errorf("%s: no errors, want some\n%s", tc.doc, res.raw)
		}
		if res.Status != 200 || res.HasData || len(res.Errors) == 0 {
			continue
		}
		if tc.message != "" && res.Errors[0].Message != tc.message {
			t.Errorf("%s: message %q, want %q", tc.doc, res.Errors[0].Message, tc.message)
		}
		if len(res.Errors[0].Locations) == 0 {
			t.Errorf("%s: error has no locations, want some", tc.doc)
		}
	}

	res = w.query("emu-alice", `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { id } } }`,
		map[string]any{"n": "abc"})
	checkNoData(t, "bad variable", res)
	checkOneError(t, "bad variable", res.Errors, wantErr{Message: "Variable $n of type Int! was provided invalid value"})
}

func testGraphQLRequestErrors(t *testing.T, w *gqlWorld) {
	res := w.send("/graphql", "emu-alice", `{"query": "{ viewer { login } ",`)
	checkStatus(t, "malformed JSON", res, http.StatusBadRequest)
	if want := `"message":"Problems parsing JSON"`; !strings.Contains(string(res.raw), want) {
		t.Errorf("malformed JSON: body %s, want one containing %s", res.raw, want)
	}
	for _, body := range []string{`{}`, `{"query": 7}`, `{"variables": {}}`} {
		res = w.send("/graphql", "emu-alice", body)
		checkStatus(t, body, res, http.StatusOK)
		if want := `{"errors":[{"message":"A query attribute must be specified and must be a string."}]}`; string(res.raw) != want {
			t.Errorf("%s: body %s, want %s", body, res.raw, want)
		}
	}
}

// GitHub's CLI asks for state on both sides of issueOrPullRequest, where it
// is IssueState! on one and PullRequestState! on the other; GitHub answers,
// and so does the emulator. Fields that would merge into one value with
// different names or arguments are still refused.
func testGraphQLFieldMerge(t *testing.T, w *gqlWorld) {
	// gh issue close/reopen (IssueFromArgWithFields with id, number, title
	// and state), as gh v2.83.0 formats it.
	const ghLookup = `
	query IssueByNumber($owner: String!, $repo: String!, $number: Int!) {
		repository(owner: $owner, name: $repo) {
			hasIssuesEnabled
			issue: issueOrPullRequest(number: $number) {
				__typename
				...on Issue{id,number,title,state}
				...on PullRequest{id,number,title,state}
			}
		}
	}`
	for _, tc := range []struct {
		number          int
		typename, state string
	}{{w.bug, "Issue", "OPEN"}, {w.wontfix, "Issue", "CLOSED"}, {w.pull, "PullRequest", "OPEN"}} {
		var d struct {
			Repository struct {
				HasIssuesEnabled bool
				Issue            struct {
					Typename string `json:"__typename"`
					Number   int
					State    string
				}
			}
		}
		w.query("emu-carol", ghLookup, map[string]any{"owner": "acme", "repo": "widgets", "number": tc.number}).ok(t, &d)
		is := d.Repository.Issue
		if is.Typename != tc.typename {
			t.Errorf("#%d: __typename %s, want %s", tc.number, is.Typename, tc.typename)
		}
		if is.Number != tc.number {
			t.Errorf("#%d: number %d, want %d", tc.number, is.Number, tc.number)
		}
		if is.State != tc.state {
			t.Errorf("#%d: state %s, want %s", tc.number, is.State, tc.state)
		}
	}

	for _, doc := range []string{
		`{ viewer { a: login a: name } }`,
		`{ viewer { avatarUrl(size: 1) avatarUrl(size: 2) } }`,
		`query($id: ID!) { node(id: $id) { ... on Issue { x: title } ... on Closable { x: closed } } }`,
	} {
		if _, ok, _ := checkDocument(t, doc); ok {
			t.Errorf("GitHub's rules accepted %s", doc)
		}
		res := w.send("/graphql", "emu-alice", map[string]any{"query": doc, "variables": map[string]any{"id": "x"}})
		checkNoData(t, doc, res)
		checkOneError(t, doc, res.Errors, wantErr{Contains: []string{"conflict"}})
	}
}
