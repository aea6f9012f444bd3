package github

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// GraphQLError is one entry of a GraphQL response's errors array, in
// GitHub's shape.
type GraphQLError struct {
	Type    string `json:"type,omitempty"` // NOT_FOUND, FORBIDDEN, RATE_LIMITED, ...
	Message string `json:"message"`
	// Path locates the failing field: names and list indexes.
	Path []json.RawMessage `json:"path,omitempty"`
}

type graphQLRequest struct {
	Query     string `json:"query"`
	Variables any    `json:"variables,omitempty"`
}

type graphQLResponse struct {
	Data   json.RawMessage `json:"data"`
	Errors []GraphQLError  `json:"errors"`
}

// Query runs a GraphQL query document with vars (a struct or map marshalled
// as the variables object) and decodes its data into out. Queries are
// reads: they are retried like REST reads. Mutations must go through
// Mutate, which never retries.
//
// POST /graphql
func (c *Client) Query(ctx context.Context, query string, vars, out any) error {
	if c.token == "" {
		return missingCredential(false)
	}
	if isMutation(query) {
		return invalidArgument(false, "Query runs queries; send mutations with Mutate, which never retries")
	}
	_, err := c.graphql(ctx, true, query, vars, out)
	return err
}

// Mutate runs a GraphQL mutation document once and settles it. GitHub
// answers GraphQL errors with 200, so a 200 proves success only when it
// carries no errors; a 200 that cannot be read settles indeterminate.
//
// POST /graphql
func (c *Client) Mutate(ctx context.Context, mutation string, vars, out any) (Settlement, error) {
	if c.token == "" {
		return NotStarted, missingCredential(true)
	}
	return c.graphql(ctx, false, mutation, vars, out)
}

func (c *Client) graphql(ctx context.Context, read bool, doc string, vars, out any) (Settlement, error) {
	body, err := json.Marshal(graphQLRequest{Query: doc, Variables: vars})
	if err != nil {
		e := invalidArgument(!read, "GraphQL variables: "+err.Error())
		return NotStarted, e
	}
	ctx, rec := withCall(ctx, read)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.ep.graphql.String(), bytes.NewReader(body))
	if err != nil {
		return NotStarted, invalidArgument(!read, err.Error())
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")

	resp, err := c.http.Do(req)
	if err != nil {
		e := c.fail(rec, nil, err, !read)
		return e.Settlement, e
	}
	defer resp.Body.Close()
	data, readErr := io.ReadAll(io.LimitReader(resp.Body, maxCachedBody))
	settled := func(s Settlement, e *Error) (Settlement, error) {
		c.scrub(e)
		if e.RequestID == "" {
			e.RequestID = resp.Header.Get("X-GitHub-Request-Id")
		}
		if !read {
			e.Settlement = s
			if s == RemoteSuccessKnown || s == Indeterminate {
				e.Temporary = false
			}
		}
		return e.Settlement, e
	}
	if resp.StatusCode != http.StatusOK {
		var eb struct {
			Message string       `json:"message"`
			Errors  []FieldError `json:"errors"`
		}
		_ = json.Unmarshal(data, &eb)
		return settled(NoRemoteSuccessKnown, statusError(resp.StatusCode, resp.Header, eb.Message, eb.Errors, c.now()))
	}
	var gr graphQLResponse
	if readErr != nil || decodeJSON(data, &gr) != nil {
		return settled(Indeterminate, &Error{Code: MalformedResponse, Status: resp.StatusCode, Temporary: true,
			Message: "GitHub's GraphQL response could not be read"})
	}
	if len(gr.Errors) > 0 {
		partial := hasData(gr.Data)
		if partial && out != nil {
			// Hand over what did resolve alongside the error. encoding/json
			// keeps decoding past a field of the wrong type, where
			// segmentio's decoder stops, and the caller reads what came.
			_ = json.Unmarshal(gr.Data, out)
		}
		s := NoRemoteSuccessKnown
		if partial {
			s = RemoteSuccessKnown
		}
		return settled(s, graphQLFailure(resp, gr.Errors, c))
	}
	if out != nil {
		if err := decodeJSON(gr.Data, out); err != nil {
			return settled(RemoteSuccessKnown, &Error{Code: MalformedResponse, Status: resp.StatusCode,
				Message: "GitHub's GraphQL data did not fit the result type: " + err.Error(), cause: err})
		}
	}
	return RemoteSuccessKnown, nil
}

// graphQLFailure maps GitHub's GraphQL error types to codes. The first
// typed error decides; the message joins them all.
func graphQLFailure(resp *http.Response, errs []GraphQLError, c *Client) *Error {
	msgs := make([]string, 0, len(errs))
	for _, ge := range errs {
		msgs = append(msgs, ge.Message)
	}
	e := &Error{Code: BadRequest, Status: resp.StatusCode, Message: strings.Join(msgs, "; "), GraphQL: errs}
	for _, ge := range errs {
		switch ge.Type {
		case "RATE_LIMITED":
			e.Code, e.Temporary, e.RetryAfter = RateLimited, true, untilReset(resp.Header, c.now())
		case "NOT_FOUND":
			e.Code = NotFound
		case "FORBIDDEN", "INSUFFICIENT_SCOPES":
			e.Code = InsufficientScope
			e.RequiredScopes = requiredScopes(resp.Header)
		case "UNPROCESSABLE":
			e.Code = ValidationFailed
		default:
			continue
		}
		return e
	}
	return e
}

// hasData reports whether a GraphQL data object resolved any root field.
func hasData(data json.RawMessage) bool {
	var roots map[string]json.RawMessage
	if json.Unmarshal(data, &roots) != nil {
		return false
	}
	for _, v := range roots {
		if !bytes.Equal(bytes.TrimSpace(v), []byte("null")) {
			return true
		}
	}
	return false
}

// isMutation reports whether a GraphQL document defines a mutation
// operation: the keyword "mutation" at the top level, outside strings,
// comments and selection sets.
func isMutation(doc string) bool {
	depth := 0
	for i := 0; i < len(doc); {
		ch := doc[i]
		switch {
		case ch == '#':
			for i < len(doc) && doc[i] != '\n' {
				i++
			}
		case ch == '"':
			i = skipString(doc, i)
		case ch == '{' || ch == '(':
			depth++
			i++
		case ch == '}' || ch == ')':
			depth--
			i++
		case isNameStart(ch):
			j := i
			for j < len(doc) && isNameChar(doc[j]) {
				j++
			}
			if depth == 0 && doc[i:j] == "mutation" {
				return true
			}
			i = j
		default:
			i++
		}
	}
	return false
}

// skipString returns the index after the string starting at i, for both
// "..." and """block""" strings.
func skipString(doc string, i int) int {
	if strings.HasPrefix(doc[i:], `"""`) {
		end := strings.Index(doc[i+3:], `"""`)
		if end < 0 {
			return len(doc)
		}
		return i + 3 + end + 3
	}
	for j := i + 1; j < len(doc); j++ {
		switch doc[j] {
		case '\\':
			j++
		case '"', '\n':
			return j + 1
		}
	}
	return len(doc)
}

func isNameStart(ch byte) bool {
	return ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z'
}

func isNameChar(ch byte) bool { return isNameStart(ch) || ch >= '0' && ch <= '9' }
