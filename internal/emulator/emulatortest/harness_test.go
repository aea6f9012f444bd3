package emulatortest

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// recordingTB stands in for a test so a harness failure can be observed
// instead of failing the test that provokes it.
type recordingTB struct {
	testing.TB
	mu   sync.Mutex
	errs []string
}

func (r *recordingTB) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The client's transport validates like Do: a good answer is counted and
// passed on whole, a broken one fails the test that owns the server.
func TestClientValidates(t *testing.T) {
	s := smallWorld(t)
	before := Validated()
	req, _ := http.NewRequest("GET", s.URL+"/repos/alice/notes/issues/1", nil)
	req.Header.Set("Authorization", "Bearer t-alice")
	resp, err := s.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("client GET: status %d, want 200: %s", resp.StatusCode, body)
	}
	if !bytes.Contains(body, []byte(`"number":1`)) {
		t.Fatalf("client GET: body %s, want issue \"number\":1", body)
	}
	if Validated() != before+1 {
		t.Fatalf("Validated() %d -> %d after one response", before, Validated())
	}

	rec := &recordingTB{TB: t}
	broken := &validatingTransport{t: rec, next: roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Request: r,
			Header: http.Header{"Content-Type": {"application/json; charset=utf-8"}},
			Body:   io.NopCloser(strings.NewReader(`{"number":"one"}`))}, nil
	})}
	resp, err = (&http.Client{Transport: broken}).Get(s.URL + "/repos/alice/notes/issues/1")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != `{"number":"one"}` {
		t.Fatalf("the transport changed the body: %s", got)
	}
	if len(rec.errs) != 1 {
		t.Fatalf("a broken answer through the client reported %d errors %q, want 1", len(rec.errs), rec.errs)
	}
	if want := "GET /repos/{owner}/{repo}/issues/{issue_number}"; !strings.Contains(rec.errs[0], want) {
		t.Fatalf("a broken answer through the client reported %q, want one naming %s", rec.errs[0], want)
	}
}

// A body cut short by the malformed_after fault is the client's problem,
// not a shape: the harness leaves it unvalidated and uncounted.
func TestInjectedMalformedBodyIsNotValidated(t *testing.T) {
	s := smallWorld(t)
	if err := s.Emu.Faults().Add(emulator.Fault{Kind: emulator.FaultMalformedAfter, Method: "GET", Path: "/repos/alice/notes/issues/1", Times: 1}); err != nil {
		t.Fatal(err)
	}
	before := Validated()
	res := s.Do(t, "GET", "/repos/alice/notes/issues/1", "t-alice", nil)
	if res.Status != 200 {
		t.Fatalf("fault: status %d, want 200", res.Status)
	}
	if res.Header.Get(emulator.FaultHeader) == "" {
		t.Fatalf("fault: no %s header, want one", emulator.FaultHeader)
	}
	if res.Operation != "" {
		t.Fatalf("a truncated body was validated as %q, want no operation", res.Operation)
	}
	if got := Validated(); got != before {
		t.Fatalf("Validated() = %d after a truncated body, want %d unchanged", got, before)
	}
	// The next answer is whole again, and validated.
	if res := s.Do(t, "GET", "/repos/alice/notes/issues/1", "t-alice", nil); res.Operation == "" {
		t.Fatal("the answer after the fault was not validated")
	}
}
