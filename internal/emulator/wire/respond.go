package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// ErrorBody is GitHub's basic-error and validation-error shape.
type ErrorBody struct {
	Message          string       `json:"message"`
	Errors           []FieldError `json:"errors,omitempty"`
	DocumentationURL string       `json:"documentation_url,omitempty"`
	Status           string       `json:"status,omitempty"`
}

// FieldError is one entry of a 422's errors array.
type FieldError struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Value    any    `json:"value,omitempty"`
	Message  string `json:"message,omitempty"`
}

// DocsURL is a page of GitHub's REST or GraphQL documentation.
func DocsURL(path string) string { return "https://docs.github.com/" + path }

// WriteJSON answers status with v as JSON, encoded as GitHub encodes it.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	// GitHub sends <, > and & as they are, not as \u003c escapes.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		buf.Reset()
		buf.WriteString(`{"message":"emulator: cannot encode response"}`)
	}
	_, _ = w.Write(bytes.TrimRight(buf.Bytes(), "\n"))
}

// JSON writes a successful response.
func (c *Call) JSON(status int, v any) { WriteJSON(c.W, status, v) }

// NoContent answers 204.
func (c *Call) NoContent() { c.W.WriteHeader(http.StatusNoContent) }

// Fail answers with GitHub's basic-error shape.
func (c *Call) Fail(status int, message, doc string) {
	WriteJSON(c.W, status, ErrorBody{Message: message, DocumentationURL: DocsURL(doc), Status: strconv.Itoa(status)})
}

// NotFound is GitHub's 404, also its answer for what the token may not see.
func (c *Call) NotFound() { c.Fail(http.StatusNotFound, "Not Found", "rest") }

// Forbidden is GitHub's answer to a write without the permission for it,
// which names the kind of token that lacked it.
func (c *Call) Forbidden() {
	msg := state.NotAccessibleByPAT
	if c.Token != nil && c.Token.App != nil {
		msg = state.NotAccessibleByIntegration
	}
	c.Fail(http.StatusForbidden, msg, "rest")
}

// Invalid answers 422 with GitHub's validation-error shape.
func (c *Call) Invalid(message, doc string, errs ...FieldError) {
	if message == "" {
		message = "Validation Failed"
	}
	// GitHub's validation-error has no status field, unlike basic-error.
	WriteJSON(c.W, http.StatusUnprocessableEntity, ErrorBody{Message: message, Errors: errs, DocumentationURL: DocsURL(doc)})
}

// Decode reads a JSON request body into v. A body that is not JSON answers
// 400, and one that does not fit v answers 422 naming the field, as GitHub
// does. It reports whether the handler may go on.
func (c *Call) Decode(v any) bool {
	body, err := io.ReadAll(io.LimitReader(c.Req.Body, 25<<20))
	if err != nil {
		c.Fail(http.StatusBadRequest, "Problems parsing JSON", "rest")
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		c.Fail(http.StatusBadRequest, "Problems parsing JSON", "rest")
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		field := ""
		if errors.As(err, &te) {
			field = te.Field
		}
		c.Invalid("Invalid request.\n\nFor '"+field+"', the value has the wrong type.", "rest",
			FieldError{Resource: "Request", Field: field, Code: "invalid"})
		return false
	}
	return true
}

// RepoFor resolves {owner}/{repo} and checks the token may use it at need.
// A repository the token cannot see answers 404, one it can see but not
// change answers 403, as GitHub does. It returns nil when it has answered.
func (c *Call) RepoFor(need state.Permission) *state.Repo {
	r := c.State.Repo(c.Req.PathValue("owner"), c.Req.PathValue("repo"))
	if r == nil {
		if to := c.State.RepoRedirect(c.Req.PathValue("owner"), c.Req.PathValue("repo")); to != nil && c.Token.Permission(to) > state.PermNone {
			c.movedRepo(to)
			return nil
		}
		c.NotFound()
		return nil
	}
	p := c.Token.Permission(r)
	if p == state.PermNone {
		c.NotFound()
		return nil
	}
	if p < need {
		c.Forbidden()
		return nil
	}
	// Every write to an archived repository is refused, whoever asks.
	if r.Archived && c.Req.Method != http.MethodGet && c.Req.Method != http.MethodHead {
		c.Fail(http.StatusForbidden, "Repository was archived so is read-only.", "rest")
		return nil
	}
	return r
}

// IssueFor resolves {issue_number} in r. Deleted issues answer 410.
func (c *Call) IssueFor(r *state.Repo) *state.Issue {
	n, err := strconv.Atoi(c.Req.PathValue("issue_number"))
	if err != nil {
		c.NotFound()
		return nil
	}
	is := r.Issue(n)
	if is == nil {
		c.NotFound()
		return nil
	}
	if is.MovedTo != nil {
		c.movedIssue(is.MovedTo)
		return nil
	}
	if is.Deleted {
		c.Fail(http.StatusGone, "This issue was deleted", "rest/issues/issues#get-an-issue")
		return nil
	}
	return is
}

// MovedBody is GitHub's answer to a request for something that moved for
// good: basic-error's message and documentation_url, and where it went.
type MovedBody struct {
	Message          string `json:"message"`
	URL              string `json:"url"`
	DocumentationURL string `json:"documentation_url"`
}

// movedIssue answers a request under a transferred issue's old number with
// 301 to the same request under its new one, which GitHub's clients follow.
// A caller who cannot read the new repository learns nothing of it: 404.
func (c *Call) movedIssue(to *state.Issue) {
	if c.Token.Permission(to.Repo) == state.PermNone {
		c.NotFound()
		return
	}
	n := c.Req.PathValue("issue_number")
	_, rest, _ := strings.Cut(c.Req.URL.Path, "/issues/"+n)
	u := c.Links.Repo(to.Repo) + "/issues/" + strconv.Itoa(to.Number) + rest
	c.W.Header().Set("Location", u)
	WriteJSON(c.W, http.StatusMovedPermanently, MovedBody{Message: "Moved Permanently", URL: u,
		DocumentationURL: DocsURL("rest/guides/best-practices-for-using-the-rest-api#follow-redirects")})
}

// movedRepo answers a request under a renamed repository's former name
// with 301 to the same request under its name now, as GitHub does.
func (c *Call) movedRepo(to *state.Repo) {
	prefix := "/repos/" + c.Req.PathValue("owner") + "/" + c.Req.PathValue("repo")
	_, rest, _ := strings.Cut(c.Req.URL.Path, prefix)
	u := c.Links.Repo(to) + rest
	if c.Req.URL.RawQuery != "" {
		u += "?" + c.Req.URL.RawQuery
	}
	c.W.Header().Set("Location", u)
	WriteJSON(c.W, http.StatusMovedPermanently, MovedBody{Message: "Moved Permanently", URL: u,
		DocumentationURL: DocsURL("rest/guides/best-practices-for-using-the-rest-api#follow-redirects")})
}
