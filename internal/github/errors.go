package github

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Code is a stable, snake_case name for a failure. Callers branch on it;
// messages may change.
type Code string

const (
	// MissingCredential: no token is configured.
	MissingCredential Code = "missing_credential"
	// InvalidCredential: GitHub rejected the token (401).
	InvalidCredential Code = "invalid_credential"
	// InsufficientScope: the token is valid but may not do this (403 that
	// is not a rate limit). Error.RequiredScopes lists what GitHub said it
	// accepts, when it said.
	InsufficientScope Code = "insufficient_scope"
	NotFound          Code = "not_found"         // 404, including repositories the token cannot see
	Gone              Code = "gone"              // 410: deleted, or the feature is disabled
	ValidationFailed  Code = "validation_failed" // 422; Error.Fields names the fields
	Conflict          Code = "conflict"          // 409
	BadRequest        Code = "bad_request"       // 400 and other client errors GitHub reports
	// RateLimited: the primary budget is spent or a secondary limit hit;
	// Error.RetryAfter says when to try again.
	RateLimited Code = "rate_limited"
	// UpstreamUnavailable: GitHub answered 5xx, or could not be reached.
	UpstreamUnavailable Code = "upstream_unavailable"
	// MalformedResponse: GitHub's answer could not be read.
	MalformedResponse Code = "malformed_response"
	// InvalidArgument: ghgate refused the call before sending it.
	InvalidArgument Code = "invalid_argument"
	// Cancelled: the caller's context was cancelled.
	Cancelled Code = "cancelled"
	// Unadmitted: a write the write path (internal/policy) did not admit;
	// a tool that writes what it did not declare. Nothing was sent.
	Unadmitted Code = "write_not_admitted"
)

// FieldError is one entry of a 422's errors array.
type FieldError struct {
	Resource string `json:"resource,omitempty"`
	Field    string `json:"field,omitempty"`
	Code     string `json:"code,omitempty"`
	Message  string `json:"message,omitempty"`
}

// Error is every failure this package returns. Its text never contains the
// credential.
type Error struct {
	Code    Code
	Message string
	// Status is GitHub's HTTP status, or 0 when no answer came.
	Status int
	// Temporary is true when the same call may succeed later unchanged.
	Temporary bool
	// RetryAfter is how long to wait before trying again; 0 when unknown
	// or not applicable.
	RetryAfter time.Duration
	// Settlement is set for writes: what the write did (see Settlement).
	Settlement Settlement
	// RequiredScopes lists the OAuth scopes (x-accepted-oauth-scopes) or
	// fine-grained permissions (x-accepted-github-permissions, as
	// "issues=write") GitHub said the call accepts.
	RequiredScopes []string
	// RequestID is GitHub's x-github-request-id, for support requests.
	RequestID string
	Fields    []FieldError
	// GraphQL holds a GraphQL answer's errors, with their types and
	// paths, so a caller that asked for several things in one document
	// can tell which of them failed.
	GraphQL []GraphQLError

	cause error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("github: ")
	b.WriteString(string(e.Code))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	return b.String()
}

// Unwrap exposes the underlying cause (a context or network error, say).
func (e *Error) Unwrap() error { return e.cause }

// secondaryDefaultWait is GitHub's advice when a secondary limit gives no
// retry-after: "wait for at least one minute".
const secondaryDefaultWait = time.Minute

// statusError maps an error answer from GitHub to an Error. msg and fields
// come from the body when it had GitHub's error shape.
func statusError(status int, h http.Header, msg string, fields []FieldError, now time.Time) *Error {
	e := &Error{Status: status, Message: msg, Fields: fields, RequestID: h.Get("X-GitHub-Request-Id")}
	if e.Message == "" {
		e.Message = http.StatusText(status)
	}
	switch {
	case status == http.StatusUnauthorized:
		e.Code = InvalidCredential
	case isPrimaryLimit(status, h):
		e.Code, e.Temporary = RateLimited, true
		e.RetryAfter = untilReset(h, now)
	case isSecondaryLimit(status, h, msg):
		e.Code, e.Temporary = RateLimited, true
		e.RetryAfter = retryAfter(h, now)
		if e.RetryAfter <= 0 {
			e.RetryAfter = secondaryDefaultWait
		}
	case status == http.StatusForbidden:
		e.Code = InsufficientScope
		e.RequiredScopes = requiredScopes(h)
	case status == http.StatusNotFound:
		e.Code = NotFound
	case status == http.StatusGone:
		e.Code = Gone
	case status == http.StatusConflict:
		e.Code = Conflict
	case status == http.StatusUnprocessableEntity:
		e.Code = ValidationFailed
	case status >= 500:
		e.Code, e.Temporary = UpstreamUnavailable, true
		e.RetryAfter = retryAfter(h, now)
	default:
		e.Code = BadRequest
	}
	return e
}

// isPrimaryLimit: GitHub answers 403 or 429 with x-ratelimit-remaining: 0
// when the hourly budget is spent.
func isPrimaryLimit(status int, h http.Header) bool {
	return (status == http.StatusForbidden || status == http.StatusTooManyRequests) &&
		h.Get("X-RateLimit-Remaining") == "0"
}

// isSecondaryLimit: a 403 or 429 with retry-after or GitHub's secondary
// limit message. Every 429 that is not primary is secondary.
func isSecondaryLimit(status int, h http.Header, msg string) bool {
	if status == http.StatusTooManyRequests {
		return true
	}
	return status == http.StatusForbidden &&
		(h.Get("Retry-After") != "" || strings.Contains(strings.ToLower(msg), "secondary rate limit"))
}

// untilReset is the wait until x-ratelimit-reset (epoch seconds), at least
// one second so a caller never spins.
func untilReset(h http.Header, now time.Time) time.Duration {
	reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64)
	if err != nil || reset <= 0 {
		return secondaryDefaultWait
	}
	return max(time.Unix(reset, 0).Sub(now), time.Second)
}

// retryAfter reads retry-after, in seconds or as an HTTP date.
func retryAfter(h http.Header, now time.Time) time.Duration {
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.Atoi(v); err == nil {
		return max(time.Duration(secs)*time.Second, 0)
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0)
	}
	return 0
}

// requiredScopes collects what GitHub said a refused call accepts. Lists
// are comma-separated; fine-grained permission sets may also be separated
// by semicolons.
func requiredScopes(h http.Header) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range []string{"X-Accepted-OAuth-Scopes", "X-Accepted-GitHub-Permissions"} {
		for _, v := range h.Values(name) {
			for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ',' || r == ';' }) {
				p := strings.TrimSpace(part)
				if p != "" && !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
		}
	}
	return out
}
