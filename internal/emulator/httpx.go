package emulator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
)

// errorBody is GitHub's basic-error and validation-error shape.
type errorBody struct {
	Message          string       `json:"message"`
	Errors           []fieldError `json:"errors,omitempty"`
	DocumentationURL string       `json:"documentation_url,omitempty"`
	Status           string       `json:"status,omitempty"`
}

// fieldError is one entry of a 422's errors array.
type fieldError struct {
	Resource string `json:"resource"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code"`
	Value    any    `json:"value,omitempty"`
	Message  string `json:"message,omitempty"`
}

func docsURL(path string) string { return "https://docs.github.com/" + path }

func writeJSON(w http.ResponseWriter, status int, v any) {
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

// json writes a successful response.
func (c *call) json(status int, v any) { writeJSON(c.w, status, v) }

// noContent answers 204.
func (c *call) noContent() { c.w.WriteHeader(http.StatusNoContent) }

// fail answers with GitHub's basic-error shape.
func (c *call) fail(status int, message, doc string) {
	writeJSON(c.w, status, errorBody{Message: message, DocumentationURL: docsURL(doc), Status: strconv.Itoa(status)})
}

func (c *call) notFound() { c.fail(http.StatusNotFound, "Not Found", "rest") }

// forbidden is GitHub's answer to a write without the permission for it.
func (c *call) forbidden() {
	c.fail(http.StatusForbidden, "Resource not accessible by personal access token", "rest")
}

// invalid answers 422 with GitHub's validation-error shape.
func (c *call) invalid(message, doc string, errs ...fieldError) {
	if message == "" {
		message = "Validation Failed"
	}
	// GitHub's validation-error has no status field, unlike basic-error.
	writeJSON(c.w, http.StatusUnprocessableEntity, errorBody{Message: message, Errors: errs, DocumentationURL: docsURL(doc)})
}

// decode reads a JSON request body into v. A body that is not JSON answers
// 400, and one that does not fit v answers 422 naming the field, as GitHub
// does. It reports whether the handler may go on.
func (c *call) decode(v any) bool {
	body, err := io.ReadAll(io.LimitReader(c.req.Body, 25<<20))
	if err != nil {
		c.fail(http.StatusBadRequest, "Problems parsing JSON", "rest")
		return false
	}
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	if !json.Valid(body) {
		c.fail(http.StatusBadRequest, "Problems parsing JSON", "rest")
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		var te *json.UnmarshalTypeError
		field := ""
		if errors.As(err, &te) {
			field = te.Field
		}
		c.invalid("Invalid request.\n\nFor '"+field+"', the value has the wrong type.", "rest",
			fieldError{Resource: "Request", Field: field, Code: "invalid"})
		return false
	}
	return true
}

// repoFor resolves {owner}/{repo} and checks the token may use it at need.
// A repository the token cannot see answers 404, one it can see but not
// change answers 403, as GitHub does. It returns nil when it has answered.
func (c *call) repoFor(need Permission) *Repo {
	r := c.st.Repo(c.req.PathValue("owner"), c.req.PathValue("repo"))
	if r == nil {
		c.notFound()
		return nil
	}
	p := c.token.Permission(r)
	if p == PermNone {
		c.notFound()
		return nil
	}
	if p < need {
		c.forbidden()
		return nil
	}
	return r
}

// issueFor resolves {issue_number} in r. Deleted issues answer 410.
func (c *call) issueFor(r *Repo) *Issue {
	n, err := strconv.Atoi(c.req.PathValue("issue_number"))
	if err != nil {
		c.notFound()
		return nil
	}
	is := r.Issue(n)
	if is == nil {
		c.notFound()
		return nil
	}
	if is.Deleted {
		c.fail(http.StatusGone, "This issue was deleted", "rest/issues/issues#get-an-issue")
		return nil
	}
	return is
}
