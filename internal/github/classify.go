package github

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	gh "github.com/google/go-github/v88/github"
)

// fail builds the Error for a REST call that did not succeed, from what
// the transport recorded and what go-github returned. write says whether
// to settle it.
func (c *Client) fail(rec *call, resp *gh.Response, err error, write bool) *Error {
	e := c.describe(rec, resp, err)
	if write {
		e.Settlement = settle(rec, resp)
		if e.Settlement == RemoteSuccessKnown || e.Settlement == Indeterminate {
			// The write may have happened: repeating it unchanged is not
			// the fix, looking first is.
			e.Temporary = false
		}
	}
	c.scrub(e)
	return e
}

func (c *Client) describe(rec *call, resp *gh.Response, err error) *Error {
	if e := rec.refused.Load(); e != nil {
		cp := *e
		return &cp
	}
	if resp != nil && resp.Response != nil {
		status, h := resp.StatusCode, resp.Header
		if status >= 200 && status < 300 {
			// GitHub answered success but the body did not decode.
			return &Error{Code: MalformedResponse, Status: status, Temporary: true, cause: err,
				RequestID: h.Get("X-GitHub-Request-Id"),
				Message:   "GitHub's response could not be read: " + err.Error()}
		}
		msg, fields := ghErrorBody(err)
		e := statusError(status, h, msg, fields, c.now())
		e.cause = err
		if e.Code == InsufficientScope && len(e.RequiredScopes) == 0 && resp.Request != nil {
			e.RequiredScopes = issuesPermission(resp.Request.Method)
		}
		return e
	}
	if !rec.reached.Load() {
		// go-github refused before any transport was involved: a bad path
		// or an argument it could not encode.
		return &Error{Code: InvalidArgument, Message: err.Error(), cause: err}
	}
	switch {
	case errors.Is(err, context.Canceled):
		return &Error{Code: Cancelled, Message: "the request was cancelled", cause: err}
	case errors.Is(err, context.DeadlineExceeded):
		return &Error{Code: UpstreamUnavailable, Temporary: true, Message: "GitHub did not answer in time", cause: err}
	}
	return &Error{Code: UpstreamUnavailable, Temporary: true, Message: "GitHub could not be reached: " + netMessage(err), cause: err}
}

// settle applies the Settlement rules (see Settlement) to a failed write.
func settle(rec *call, resp *gh.Response) Settlement {
	switch {
	case rec.refused.Load() != nil:
		return NotStarted
	case resp != nil && resp.Response != nil && resp.StatusCode >= 200 && resp.StatusCode < 300:
		return RemoteSuccessKnown
	case resp != nil && resp.Response != nil:
		return NoRemoteSuccessKnown
	case rec.sent.Load():
		return Indeterminate
	}
	return NotStarted
}

// ghErrorBody takes the message and field errors go-github parsed from
// GitHub's error body.
func ghErrorBody(err error) (string, []FieldError) {
	var er *gh.ErrorResponse
	var rl *gh.RateLimitError
	var ab *gh.AbuseRateLimitError
	switch {
	case errors.As(err, &er):
		var fields []FieldError
		for _, f := range er.Errors {
			fields = append(fields, FieldError{Resource: f.Resource, Field: f.Field, Code: f.Code, Message: f.Message})
		}
		return er.Message, fields
	case errors.As(err, &rl):
		return rl.Message, nil
	case errors.As(err, &ab):
		return ab.Message, nil
	}
	return "", nil
}

// netMessage is a transport error's text without the URL go-github and
// net/http wrap around it (the URL is known to the caller, and shorter
// messages are kinder to agents).
func netMessage(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) && ue.Err != nil {
		return ue.Err.Error()
	}
	return err.Error()
}

// scrub redacts the credentials from the text of e that came from
// elsewhere: GitHub's message and field errors. GitHub does not echo
// tokens, but a proxy or a misconfigured server might, and a field error
// can quote a value the request carried.
func (c *Client) scrub(e *Error) {
	e.Message = c.secrets.String(e.Message)
	for i := range e.Fields {
		f := &e.Fields[i]
		f.Field, f.Message = c.secrets.String(f.Field), c.secrets.String(f.Message)
	}
	for i := range e.GraphQL {
		e.GraphQL[i].Message = c.secrets.String(e.GraphQL[i].Message)
	}
}

// missingCredential is the error for any call without a token.
func missingCredential(write bool) *Error {
	e := &Error{Code: MissingCredential, Message: "no GitHub token is configured"}
	if write {
		e.Settlement = NotStarted
	}
	return e
}

// invalidArgument is the error for a call ghgate refuses to send.
func invalidArgument(write bool, msg string) *Error {
	e := &Error{Code: InvalidArgument, Message: msg}
	if write {
		e.Settlement = NotStarted
	}
	return e
}

// issuesPermission is what a refused REST call needs when GitHub's answer
// did not say (it sends X-Accepted-GitHub-Permissions to fine-grained tokens
// and Apps, but not always to classic tokens): the issue, comment, label,
// milestone, sub-issue and dependency endpoints this layer calls are
// documented under the "Issues" repository permission, read for GET and
// write for the rest, and classic tokens need the repo scope.
func issuesPermission(method string) []string {
	if method == http.MethodGet || method == http.MethodHead {
		return []string{"issues=read", "repo"}
	}
	return []string{"issues=write", "repo"}
}
