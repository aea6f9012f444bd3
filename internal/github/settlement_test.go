package github

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// writeCase is one fault against one write, and what the client must say.
type writeCase struct {
	name  string
	fault *emulator.Fault // nil: no fault
	// cancelOnArrival cancels the caller's context once the emulator has
	// the request: sent, and then abandoned before any answer.
	cancelOnArrival bool
	settlement      Settlement
	code            Code // "" for success
	status          int  // GitHub's status in the error, 0 for none
	applied         bool // whether the emulator's state changed
}

// writeCases drives every fault kind the emulator has through a write.
// The fault's Method and Path are filled in per write.
func writeCases() []writeCase {
	return []writeCase{
		{name: "no fault", settlement: RemoteSuccessKnown, applied: true},
		{name: "status 502", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 502},
			settlement: NoRemoteSuccessKnown, code: UpstreamUnavailable, status: 502},
		{name: "status 500", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 500},
			settlement: NoRemoteSuccessKnown, code: UpstreamUnavailable, status: 500},
		{name: "status 404", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 404},
			settlement: NoRemoteSuccessKnown, code: NotFound, status: 404},
		{name: "status 422", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 422},
			settlement: NoRemoteSuccessKnown, code: ValidationFailed, status: 422},
		{name: "status 409", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 409},
			settlement: NoRemoteSuccessKnown, code: Conflict, status: 409},
		{name: "status 410", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 410},
			settlement: NoRemoteSuccessKnown, code: Gone, status: 410},
		{name: "status 400", fault: &emulator.Fault{Kind: emulator.FaultStatus, Status: 400},
			settlement: NoRemoteSuccessKnown, code: BadRequest, status: 400},
		{name: "secondary rate limit", fault: &emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 1},
			settlement: NoRemoteSuccessKnown, code: RateLimited, status: 403},
		{name: "secondary rate limit 429", fault: &emulator.Fault{Kind: emulator.FaultSecondary, Status: 429, RetryAfter: 1},
			settlement: NoRemoteSuccessKnown, code: RateLimited, status: 429},
		{name: "primary rate limit", fault: &emulator.Fault{Kind: emulator.FaultRateLimit},
			settlement: NoRemoteSuccessKnown, code: RateLimited, status: 403},
		// The connection closes after the request was written: from the
		// client's side drop_before and drop_after look the same, and only
		// the emulator's state shows which happened. That is exactly why
		// both must be indeterminate.
		{name: "drop before", fault: &emulator.Fault{Kind: emulator.FaultDropBefore},
			settlement: Indeterminate, code: UpstreamUnavailable},
		{name: "drop after", fault: &emulator.Fault{Kind: emulator.FaultDropAfter},
			settlement: Indeterminate, code: UpstreamUnavailable, applied: true},
		{name: "malformed after", fault: &emulator.Fault{Kind: emulator.FaultMalformedAfter},
			settlement: RemoteSuccessKnown, code: MalformedResponse, status: 201, applied: true},
		{name: "latency", fault: &emulator.Fault{Kind: emulator.FaultLatency, LatencyMS: 20},
			settlement: RemoteSuccessKnown, applied: true},
		// Sent, then abandoned while the emulator was slow to answer. The
		// emulator (like GitHub) goes on to apply it: the reason a write
		// the caller gave up on is indeterminate, not failed.
		{name: "latency then cancelled", fault: &emulator.Fault{Kind: emulator.FaultLatency, LatencyMS: 300},
			cancelOnArrival: true, settlement: Indeterminate, code: Cancelled, applied: true},
	}
}

func TestWriteSettlementUnderFaults(t *testing.T) {
	type write struct {
		name, method, path string
		do                 func(context.Context, *Client) (Settlement, error)
		count              func(*emu) int
	}
	writes := []write{
		{"create issue", "POST", "/repos/acme/widgets/issues",
			func(ctx context.Context, c *Client) (Settlement, error) {
				_, s, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "Widget spins backwards", Body: "Seen on v2."})
				return s, err
			},
			func(e *emu) int { return e.issueCount() }},
		{"add comment", "POST", "/repos/acme/widgets/issues/3/comments",
			func(ctx context.Context, c *Client) (Settlement, error) {
				_, s, err := c.CreateComment(ctx, owner, repo, 3, "Reproduced on main.")
				return s, err
			},
			func(e *emu) int { return e.commentCount(3) }},
	}
	for _, w := range writes {
		for _, tc := range writeCases() {
			t.Run(w.name+"/"+tc.name, func(t *testing.T) {
				em := startEmu(t, emulator.Options{})
				c, sl := newClient(t, em.URL, emulator.DemoTokenAlice)
				if tc.fault != nil {
					f := *tc.fault
					f.Method, f.Path, f.Times = w.method, w.path, 1
					em.fault(t, f)
				}
				before := w.count(em)
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				if tc.cancelOnArrival {
					em.arriving(cancel)
				}
				s, err := w.do(ctx, c)
				if s != tc.settlement {
					t.Errorf("settlement %q, want %q (err %v)", s, tc.settlement, err)
				}
				if tc.code == "" {
					if err != nil {
						t.Fatalf("unexpected error %v", err)
					}
				} else {
					e := asError(t, err)
					if e.Code != tc.code {
						t.Errorf("error code = %q, want %q (%v)", e.Code, tc.code, e)
					}
					if e.Status != tc.status {
						t.Errorf("error status = %d, want %d", e.Status, tc.status)
					}
					if e.Settlement != tc.settlement {
						t.Errorf("error settlement = %q, want %q", e.Settlement, tc.settlement)
					}
					if e.Code == RateLimited && e.RetryAfter <= 0 {
						t.Errorf("rate_limited RetryAfter = %v, want a retry hint > 0", e.RetryAfter)
					}
				}
				// Writes are never retried: exactly one request arrived.
				if n := em.count(w.method + " /api/v3" + w.path); n != 1 {
					t.Errorf("%d requests arrived, want exactly 1", n)
				}
				if len(sl.recorded()) != 0 {
					t.Errorf("a write waited to retry: %v", sl.recorded())
				}
				// Let every handler finish before looking at the state.
				em.srv.Close()
				if applied := w.count(em) > before; applied != tc.applied {
					t.Errorf("applied = %v, want %v", applied, tc.applied)
				}
			})
		}
	}
}

// Failures that never reach the network settle not_started.
func TestWriteNotStarted(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	ctx := context.Background()

	t.Run("missing credential", func(t *testing.T) {
		c, _ := newClient(t, em.URL, "")
		_, s, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "x"})
		e := asError(t, err)
		wantRefusal(t, "CreateIssue without a credential", s, e, NotStarted, MissingCredential)
		if e.Settlement != NotStarted {
			t.Errorf("error settlement = %q, want %q", e.Settlement, NotStarted)
		}
	})
	t.Run("our validation", func(t *testing.T) {
		c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
		for name, call := range map[string]func() (Settlement, error){
			"empty title": func() (Settlement, error) {
				_, s, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "  "})
				return s, err
			},
			"bad repo": func() (Settlement, error) {
				_, s, err := c.CreateComment(ctx, owner, "widgets?x=1", 1, "hi")
				return s, err
			},
			"empty edit": func() (Settlement, error) {
				_, s, err := c.EditIssue(ctx, owner, repo, 1, IssueEdit{})
				return s, err
			},
			"no labels": func() (Settlement, error) {
				_, s, err := c.AddLabels(ctx, owner, repo, 1, nil)
				return s, err
			},
		} {
			s, err := call()
			wantRefusal(t, name, s, asError(t, err), NotStarted, InvalidArgument)
		}
	})
	t.Run("connection refused", func(t *testing.T) {
		dead := startEmu(t, emulator.Options{Seed: "empty"})
		url := dead.URL
		dead.srv.Close()
		c, _ := newClient(t, url, emulator.DemoTokenAlice)
		_, s, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "x"})
		e := asError(t, err)
		wantRefusal(t, "CreateIssue on a refused connection", s, e, NotStarted, UpstreamUnavailable)
		if !e.Temporary {
			t.Errorf("Temporary = false, want true")
		}
	})
	t.Run("cancelled before sending", func(t *testing.T) {
		c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
		cctx, cancel := context.WithCancel(ctx)
		cancel()
		before := em.total()
		_, s, err := c.CreateIssue(cctx, owner, repo, NewIssue{Title: "x"})
		wantRefusal(t, "cancelled CreateIssue", s, asError(t, err), NotStarted, Cancelled)
		if n := em.total() - before; n != 0 {
			t.Fatalf("a cancelled write sent %d requests, want 0", n)
		}
	})
	t.Run("budget known to be spent", func(t *testing.T) {
		e2 := startEmu(t, emulator.Options{})
		c, _ := newClient(t, e2.URL, emulator.DemoTokenAlice)
		e2.ExhaustRateLimit(emulator.DemoTokenAlice, "core")
		// The first refusal comes from GitHub and teaches the client...
		if _, _, err := c.GetIssue(ctx, owner, repo, 1); asError(t, err).Code != RateLimited {
			t.Fatalf("read on a spent budget: error code = %q, want %q (%v)", asError(t, err).Code, RateLimited, err)
		}
		before := e2.total()
		// ...so the write is refused without being sent.
		_, s, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "x"})
		e := asError(t, err)
		wantRefusal(t, "write on a spent budget", s, e, NotStarted, RateLimited)
		if e.RetryAfter <= 0 {
			t.Errorf("RetryAfter = %v, want > 0", e.RetryAfter)
		}
		if e.Status != 0 {
			t.Errorf("Status = %d, want 0 (no answer from GitHub)", e.Status)
		}
		if n := e2.total() - before; n != 0 {
			t.Fatalf("the refused write sent %d requests, want 0", n)
		}
	})
}

// GitHub's own refusals, produced by the emulator's permission model rather
// than by injected faults.
func TestWriteRefusedByGitHub(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	ctx := context.Background()

	bad, _ := newClient(t, em.URL, "not-a-token")
	_, s, err := bad.CreateComment(ctx, owner, repo, 1, "hi")
	e := asError(t, err)
	wantRefusal(t, "bad token", s, e, NoRemoteSuccessKnown, InvalidCredential)
	if e.Status != http.StatusUnauthorized {
		t.Errorf("bad token: Status = %d, want %d", e.Status, http.StatusUnauthorized)
	}

	carol, _ := newClient(t, em.URL, emulator.DemoTokenCarol) // read-only
	_, s, err = carol.AddLabels(ctx, owner, repo, 1, []string{"bug"})
	e = asError(t, err)
	wantRefusal(t, "read-only token", s, e, NoRemoteSuccessKnown, InsufficientScope)
	if e.Status != http.StatusForbidden {
		t.Errorf("read-only token: Status = %d, want %d", e.Status, http.StatusForbidden)
	}

	alice, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	_, s, err = alice.CreateIssue(ctx, owner, "no-such-repo", NewIssue{Title: "x"})
	wantRefusal(t, "missing repo", s, asError(t, err), NoRemoteSuccessKnown, NotFound)

	_, s, err = alice.CreateIssue(ctx, owner, repo, NewIssue{Title: "x", Milestone: ptr(9999)})
	e = asError(t, err)
	wantRefusal(t, "bad milestone", s, e, NoRemoteSuccessKnown, ValidationFailed)
	if len(e.Fields) == 0 {
		t.Errorf("bad milestone: no Fields, want one for milestone")
	} else if e.Fields[0].Field != "milestone" {
		t.Errorf("bad milestone: Fields[0].Field = %q, want milestone", e.Fields[0].Field)
	}

	st := em.State()
	st.Lock()
	st.Repo(owner, repo).Issue(2).Deleted = true
	st.Unlock()
	_, s, err = alice.CreateComment(ctx, owner, repo, 2, "hi")
	wantRefusal(t, "deleted issue", s, asError(t, err), NoRemoteSuccessKnown, Gone)
	if e := asError(t, err); e.RequestID == "" {
		t.Errorf("RequestID is empty, want GitHub's request id (%+v)", e)
	}
}

func ptr[T any](v T) *T { return &v }

// The settlement rules on transport failures, checked directly: whether
// the request reached the connection decides between not_started and
// indeterminate.
func TestSettleTransportFailures(t *testing.T) {
	c, _ := newClient(t, "https://ghe.example.com", "tok")
	urlErr := func(err error) error {
		return &url.Error{Op: "Post", URL: "https://ghe.example.com/api/v3/repos/a/b/issues", Err: err}
	}
	rec := func(reached, sent bool) *call {
		r := &call{}
		r.reached.Store(reached)
		r.sent.Store(sent)
		return r
	}
	dial := &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	cases := []struct {
		name       string
		rec        *call
		err        error
		settlement Settlement
		code       Code
		temporary  bool
	}{
		{"dial failure", rec(true, false), urlErr(dial), NotStarted, UpstreamUnavailable, true},
		{"timeout after sending", rec(true, true), context.DeadlineExceeded, Indeterminate, UpstreamUnavailable, false},
		{"reset after sending", rec(true, true), urlErr(errors.New("connection reset by peer")), Indeterminate, UpstreamUnavailable, false},
		{"cancelled after sending", rec(true, true), context.Canceled, Indeterminate, Cancelled, false},
		{"refused by go-github", rec(false, false), errors.New("path must not contain '..'"), NotStarted, InvalidArgument, false},
	}
	for _, tc := range cases {
		e := c.fail(tc.rec, nil, tc.err, true)
		if e.Settlement != tc.settlement {
			t.Errorf("%s: settlement = %q, want %q", tc.name, e.Settlement, tc.settlement)
		}
		if e.Code != tc.code {
			t.Errorf("%s: code = %q, want %q", tc.name, e.Code, tc.code)
		}
		if e.Temporary != tc.temporary {
			t.Errorf("%s: Temporary = %v, want %v", tc.name, e.Temporary, tc.temporary)
		}
		if strings.Contains(e.Message, "ghe.example.com") {
			t.Errorf("%s: message carries the URL: %q", tc.name, e.Message)
		}
	}
}
