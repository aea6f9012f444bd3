// Package emulatortest runs the GitHub emulator for tests and checks every
// response that passes through it against GitHub's OpenAPI description
// (a pruned copy of @octokit/openapi, embedded), with kin-openapi. A
// response that breaks the description fails the test that caused it.
//
// What is checked, and how the description's loose spots are decided:
//   - The operation is found by routing a copy of the request, addressed to
//     GitHub's server and without the GHES /api/v3 prefix, through a
//     gorillamux router over the pruned description.
//   - A status the operation lists (or its default) is validated by
//     openapi3filter.ValidateResponse: headers it documents, content type,
//     body. A status it does not list passes only where GitHub's REST
//     documentation gives it to every operation (see unlistedStatus), and
//     its body must then be GitHub's basic-error or validation-error.
//   - Formats: date-time is checked by kin-openapi, uri by the harness.
//   - oneOf: kin-openapi fails a value that matches several branches of a
//     oneOf without discriminator, and the harness keeps that failure: such
//     a body is ambiguous under GitHub's own description. (The one such
//     oneOf whose branches overlap is validation-error's errors[].value,
//     which only a null would match thrice.)
//   - anyOf: the timeline's items are an anyOf of 33 event schemas that any
//     generic event satisfies; each item is also checked against the branch
//     its "event" names (timeline.go).
//   - GraphQL, the emulator's admin endpoints, HEAD requests and bodies the
//     malformed_after fault cut short are not REST shapes and are skipped.
//
// Test packages that use it print the tally from TestMain (Tally also
// leaves it where make test reads it):
//
//	func TestMain(m *testing.M) {
//		code := m.Run()
//		emulatortest.Tally(emulatortest.Summary())
//		os.Exit(code)
//	}
package emulatortest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Server is an emulator listening on 127.0.0.1 for one test.
type Server struct {
	URL string
	Emu *emulator.Emulator

	t   testing.TB
	srv *httptest.Server
}

// Start builds an emulator with opts and serves it until the test ends.
func Start(t testing.TB, opts emulator.Options) *Server {
	t.Helper()
	if _, err := loadSpec(); err != nil {
		t.Fatal(err)
	}
	emu, err := emulator.New(opts)
	if err != nil {
		t.Fatalf("emulator.New: %v", err)
	}
	srv := httptest.NewServer(emu) // httptest listens on 127.0.0.1
	t.Cleanup(srv.Close)
	return &Server{URL: srv.URL, Emu: emu, t: t, srv: srv}
}

// Response is a whole emulator answer.
type Response struct {
	Status int
	Header http.Header
	Body   []byte
	// Operation is the operation of GitHub's description the response was
	// validated against ("" when none applied).
	Operation string
}

// JSON decodes the body into v, failing the test when it does not fit.
func (r *Response) JSON(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.Body, v); err != nil {
		t.Fatalf("decode %d response %q: %v", r.Status, truncate(r.Body), err)
	}
}

// Do sends one request and validates the answer. path may carry a query
// and the /api/v3 prefix. token "" sends no Authorization header. body nil
// sends none; []byte and string are sent as they are (so a test can send
// broken JSON); anything else is marshalled as JSON. Extra headers (e.g.
// If-None-Match) are added as given.
func (s *Server) Do(t testing.TB, method, path, token string, body any, extra ...http.Header) *Response {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	case string:
		rd = bytes.NewReader([]byte(b))
	default:
		enc, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("marshal request body: %v", err)
		}
		rd = bytes.NewReader(enc)
	}
	req, err := http.NewRequest(method, s.URL+path, rd)
	if err != nil {
		t.Fatalf("new request %s %s: %v", method, path, err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	if token != "" {
		req.Header.Set("Authorization", "token "+token)
	}
	for _, h := range extra {
		for k, vs := range h {
			for _, v := range vs {
				req.Header.Add(k, v)
			}
		}
	}
	// A redirect is answered as such (a job's logs are a 302), and
	// validated as the operation's answer; Client follows them.
	client := *s.srv.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: read body: %v", method, path, err)
	}
	res, verr := ValidateExchange(req, resp.StatusCode, resp.Header, data)
	if verr != nil {
		t.Errorf("openapi: %s %s -> %d (%s): %v", method, path, resp.StatusCode, orUnrouted(res.Operation), verr)
	}
	return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data, Operation: res.Operation}
}

// Client is an HTTP client for the server whose every response is validated
// the way Do validates, failing the test that started the server; for
// exercising real clients (go-github, the access layer) against the
// emulator.
func (s *Server) Client() *http.Client {
	return &http.Client{Transport: &validatingTransport{next: s.srv.Client().Transport, t: s.t}}
}

type validatingTransport struct {
	next http.RoundTripper
	t    testing.TB
}

func (v *validatingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := v.next.RoundTrip(req)
	if err != nil {
		return resp, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		// A body cut short (an injected fault) is the client's to see, not
		// something to validate.
		resp.Body = io.NopCloser(bytes.NewReader(data))
		return resp, nil
	}
	resp.Body = io.NopCloser(bytes.NewReader(data))
	res, verr := ValidateExchange(req, resp.StatusCode, resp.Header, data)
	if verr != nil {
		v.t.Errorf("openapi: %s %s -> %d (%s): %v", req.Method, req.URL.RequestURI(), resp.StatusCode, orUnrouted(res.Operation), verr)
	}
	return resp, nil
}

func orUnrouted(op string) string {
	if op == "" {
		return "no operation"
	}
	return op
}

func truncate(b []byte) string {
	const max = 300
	if len(b) > max {
		return string(b[:max]) + "..."
	}
	return string(b)
}
