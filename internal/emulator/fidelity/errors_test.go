package fidelity

import (
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// apiError is GitHub's basic-error and validation-error body.
type apiError struct {
	Message          string `json:"message"`
	DocumentationURL string `json:"documentation_url"`
	Errors           []struct {
		Resource string `json:"resource"`
		Field    string `json:"field"`
		Code     string `json:"code"`
	} `json:"errors"`
}

// TestErrorStatuses drives the refusals GitHub documents for the REST API
// ("Troubleshooting the REST API", the per-operation responses of its
// description), each through the validating harness.
func TestErrorStatuses(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const repo = "/repos/acme/widgets"
	st := w.srv.Emu.State()
	st.Lock()
	st.DeleteIssue(st.Repo("acme", "widgets").Issue(30))
	st.Unlock()

	cases := []struct {
		name                string
		method, path, token string
		body                any
		status              int
		message             string // "" skips the check
		field, code         string // the first errors[] entry of a 422
	}{
		{"no token", "GET", repo + "/issues/1", "", nil, 401, "Requires authentication", "", ""},
		{"bad token", "GET", repo + "/issues/1", "t-nobody", nil, 401, "Bad credentials", "", ""},
		{"bad token on a write", "POST", repo + "/issues", "t-nobody", map[string]any{"title": "x"}, 401, "Bad credentials", "", ""},
		{"private repo invisible", "GET", "/repos/acme/vault", tokCarol, nil, 404, "Not Found", "", ""},
		{"private repo issues invisible", "GET", "/repos/acme/vault/issues/1", tokCarol, nil, 404, "Not Found", "", ""},
		{"write to an invisible repo", "POST", "/repos/acme/vault/labels", tokCarol, map[string]any{"name": "x"}, 404, "Not Found", "", ""},
		{"absent issue", "GET", repo + "/issues/999", tokCarol, nil, 404, "Not Found", "", ""},
		{"label not on the issue", "DELETE", repo + "/issues/2/labels/bug", tokBob, nil, 404, "Label does not exist", "", ""},
		{"not assignable", "GET", repo + "/assignees/mallory", tokCarol, nil, 404, "Not Found", "", ""},
		{"read token creates a label", "POST", repo + "/labels", tokCarol, map[string]any{"name": "wontfix"}, 403, "Resource not accessible by personal access token", "", ""},
		{"read token locks an issue", "PUT", repo + "/issues/1/lock", tokCarol, nil, 403, "", "", ""},
		{"read token edits another's issue", "PATCH", repo + "/issues/1", tokCarol, map[string]any{"title": "mine now"}, 403, "", "", ""},
		{"read token comments on a locked issue", "POST", repo + "/issues/14/comments", tokCarol, map[string]any{"body": "hello?"}, 403, "", "", ""},
		{"deleted issue", "GET", repo + "/issues/30", tokCarol, nil, 410, "This issue was deleted", "", ""},
		{"deleted issue update", "PATCH", repo + "/issues/30", tokBob, map[string]any{"title": "back"}, 410, "This issue was deleted", "", ""},
		{"deleted issue comments", "GET", repo + "/issues/30/comments", tokCarol, nil, 410, "", "", ""},
		{"bad JSON", "POST", repo + "/issues", tokBob, `{"title": "unterminated`, 400, "Problems parsing JSON", "", ""},
		{"bad JSON labels", "POST", repo + "/issues/1/labels", tokBob, []byte("labels=bug"), 400, "Problems parsing JSON", "", ""},
		{"missing title", "POST", repo + "/issues", tokBob, map[string]any{"body": "no title"}, 422, "Validation Failed", "title", "missing_field"},
		{"bad color", "POST", repo + "/labels", tokBob, map[string]any{"name": "x", "color": "blurple"}, 422, "Validation Failed", "color", "invalid"},
		{"duplicate label", "POST", repo + "/labels", tokBob, map[string]any{"name": "BUG"}, 422, "Validation Failed", "name", "already_exists"},
		{"unknown milestone", "PATCH", repo + "/issues/2", tokBob, map[string]any{"milestone": 99}, 422, "Validation Failed", "milestone", "invalid"},
		{"bad lock reason", "PUT", repo + "/issues/2/lock", tokBob, map[string]any{"lock_reason": "bored"}, 422, "Validation Failed", "lock_reason", "invalid"},
		{"empty comment", "POST", repo + "/issues/2/comments", tokBob, map[string]any{"body": "  "}, 422, "Validation Failed", "body", "missing_field"},
		{"sub-issue cycle", "POST", repo + "/issues/5/sub_issues", tokAlice, map[string]any{"sub_issue_id": w.ids[1]}, 422, "", "sub_issue_id", "invalid"},
		{"self dependency", "POST", repo + "/issues/2/dependencies/blocked_by", tokAlice, map[string]any{"issue_id": w.ids[2]}, 422, "", "issue_id", "invalid"},
		{"dependency cycle", "POST", repo + "/issues/4/dependencies/blocked_by", tokAlice, map[string]any{"issue_id": w.ids[2]}, 422, "", "issue_id", "invalid"},
		{"bad state filter", "GET", repo + "/issues?state=sideways", tokCarol, nil, 422, "Validation Failed", "state", "invalid"},
		{"empty search", "GET", "/search/issues?q=", tokCarol, nil, 422, "Validation Failed", "q", "missing"},
		{"search past 1000", "GET", "/search/issues?q=repo:acme/widgets&per_page=100&page=11", tokCarol, nil, 422, "Only the first 1000 search results are available", "", ""},
		{"search an invisible repo", "GET", "/search/issues?q=repo:acme/vault", tokCarol, nil, 422, "", "q", "invalid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			res := w.do(t, c.method, c.path, c.token, c.body)
			if res.Status != c.status {
				t.Fatalf("%s %s: status %d, want %d: %s", c.method, c.path, res.Status, c.status, res.Body)
			}
			var e apiError
			res.JSON(t, &e)
			if c.message != "" && e.Message != c.message {
				t.Errorf("message %q, want %q", e.Message, c.message)
			}
			if e.DocumentationURL == "" {
				t.Errorf("no documentation_url in %s", res.Body)
			}
			if c.status == http.StatusUnprocessableEntity && c.field != "" {
				if len(e.Errors) == 0 {
					t.Errorf("no errors, want field %q code %q: %s", c.field, c.code, res.Body)
				} else {
					if e.Errors[0].Field != c.field {
						t.Errorf("errors[0].field %q, want %q", e.Errors[0].Field, c.field)
					}
					if e.Errors[0].Code != c.code {
						t.Errorf("errors[0].code %q, want %q", e.Errors[0].Code, c.code)
					}
				}
			}
			if res.Header.Get("X-RateLimit-Limit") == "" && c.status != http.StatusUnauthorized {
				t.Errorf("no x-ratelimit-limit on a %d", res.Status)
			}
		})
	}
}
