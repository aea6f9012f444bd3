package github

import (
	"context"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// Reads are retried on failures a retry can fix, within the bound, and
// the number of requests that reached the emulator shows it.
func TestReadRetriesUnderFaults(t *testing.T) {
	const n = 3
	path := issuePath(n)
	route := "GET /api/v3" + path
	cases := []struct {
		name     string
		fault    emulator.Fault
		code     Code // "" for success
		requests int  // requests the emulator must have seen; 0 to skip
		waits    []time.Duration
	}{
		{name: "502 twice then success", fault: emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Times: 2},
			requests: 3},
		{name: "500 always", fault: emulator.Fault{Kind: emulator.FaultStatus, Status: 500},
			code: UpstreamUnavailable, requests: 3},
		{name: "404 is not retried", fault: emulator.Fault{Kind: emulator.FaultStatus, Status: 404},
			code: NotFound, requests: 1},
		{name: "422 is not retried", fault: emulator.Fault{Kind: emulator.FaultStatus, Status: 422},
			code: ValidationFailed, requests: 1},
		{name: "secondary limit waits out retry-after", fault: emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 2, Times: 1},
			requests: 2, waits: []time.Duration{2 * time.Second}},
		{name: "secondary limit longer than the bound", fault: emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 600, Times: 1},
			code: RateLimited, requests: 1},
		{name: "primary limit is not retried", fault: emulator.Fault{Kind: emulator.FaultRateLimit},
			code: RateLimited, requests: 1},
		{name: "malformed body once", fault: emulator.Fault{Kind: emulator.FaultMalformedAfter, Times: 1},
			requests: 2},
		{name: "malformed body always", fault: emulator.Fault{Kind: emulator.FaultMalformedAfter},
			code: MalformedResponse, requests: 3},
		// Go's own transport may replay an idempotent request on a reused
		// connection that closed, so only success is asserted for drops.
		{name: "drop before once", fault: emulator.Fault{Kind: emulator.FaultDropBefore, Times: 1}},
		{name: "drop after once", fault: emulator.Fault{Kind: emulator.FaultDropAfter, Times: 1}},
		{name: "drop always", fault: emulator.Fault{Kind: emulator.FaultDropBefore}, code: UpstreamUnavailable},
		{name: "latency", fault: emulator.Fault{Kind: emulator.FaultLatency, LatencyMS: 20}, requests: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			em := startEmu(t, emulator.Options{})
			c, sl := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) {
				o.RetryBaseDelay, o.RetryMaxDelay, o.MaxRetryWait = time.Millisecond, 5*time.Millisecond, 10*time.Second
			})
			f := tc.fault
			f.Method, f.Path = "GET", path
			em.fault(t, f)
			is, _, err := c.GetIssue(context.Background(), owner, repo, n)
			if tc.code == "" {
				if err != nil {
					t.Fatalf("read failed: %v", err)
				}
				if is.GetNumber() != n {
					t.Fatalf("read returned issue #%d, want #%d", is.GetNumber(), n)
				}
				if is.GetTitle() == "" {
					t.Fatalf("read returned issue #%d with an empty title, want its title", n)
				}
			} else {
				e := asError(t, err)
				if e.Code != tc.code {
					t.Fatalf("code %q, want %q (%v)", e.Code, tc.code, e)
				}
				if e.Settlement != "" {
					t.Errorf("a read carries settlement %q", e.Settlement)
				}
			}
			got := em.count(route)
			if tc.requests > 0 && got != tc.requests {
				t.Errorf("%d requests, want %d", got, tc.requests)
			}
			if tc.requests == 0 && got < 2 && tc.fault.Kind != emulator.FaultLatency {
				t.Errorf("%d requests: the dropped read was not retried", got)
			}
			if tc.waits != nil {
				w := sl.recorded()
				// retry-after, then at most one back-off (RetryMaxDelay 5 ms)
				// of jitter so a refused burst does not return at once.
				if len(w) != len(tc.waits) {
					t.Errorf("waits %v, want %d (%v plus at most 5ms)", w, len(tc.waits), tc.waits)
				} else if w[0] < tc.waits[0] || w[0] > tc.waits[0]+5*time.Millisecond {
					t.Errorf("first wait %v, want %v..%v", w[0], tc.waits[0], tc.waits[0]+5*time.Millisecond)
				}
			}
		})
	}
}

func TestSecondaryLimitNotWaitedOutPausesClient(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, sl := newClient(t, em.URL, emulator.DemoTokenAlice)
	em.fault(t, emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 120, Times: 1})
	ctx := context.Background()
	_, _, err := c.GetIssue(ctx, owner, repo, 1)
	e := asError(t, err)
	if e.Code != RateLimited {
		t.Fatalf("error code = %q, want %q (%v)", e.Code, RateLimited, e)
	}
	if e.RetryAfter != 120*time.Second {
		t.Errorf("RetryAfter = %v, want 2m0s", e.RetryAfter)
	}
	if !e.Temporary {
		t.Errorf("Temporary = false, want true")
	}
	if t.Failed() {
		t.FailNow()
	}
	if len(sl.recorded()) != 0 {
		t.Fatalf("waited %v though retry-after exceeds the bound, want no wait", sl.recorded())
	}
	before := em.total()
	_, _, err = c.GetIssue(ctx, owner, repo, 2)
	e = asError(t, err)
	if e.Code != RateLimited {
		t.Errorf("second read: error code = %q, want %q (%v)", e.Code, RateLimited, e)
	}
	if e.RetryAfter <= 0 {
		t.Errorf("second read: RetryAfter = %v, want > 0", e.RetryAfter)
	}
	if e.Status != 0 {
		t.Errorf("second read: Status = %d, want 0 (not sent)", e.Status)
	}
	if t.Failed() {
		t.FailNow()
	}
	if n := em.total() - before; n != 0 {
		t.Fatalf("%d reads sent during the secondary-limit pause, want 0", n)
	}
}

func TestPrimaryLimitRetryAfterFromReset(t *testing.T) {
	now := time.Now()
	em := startEmu(t, emulator.Options{Now: func() time.Time { return now }})
	c, sl := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Now = func() time.Time { return now } })
	em.ExhaustRateLimit(emulator.DemoTokenAlice, "core")
	_, _, err := c.GetIssue(context.Background(), owner, repo, 1)
	e := asError(t, err)
	if e.Code != RateLimited {
		t.Fatalf("error code = %q, want %q (%v)", e.Code, RateLimited, e)
	}
	if e.Status != 403 {
		t.Fatalf("Status = %d, want 403", e.Status)
	}
	// The emulator's window resets an hour after its first use, on a whole
	// second; the hint must come from x-ratelimit-reset.
	if e.RetryAfter < 59*time.Minute || e.RetryAfter > time.Hour {
		t.Fatalf("retry after %v, want about an hour (x-ratelimit-reset)", e.RetryAfter)
	}
	if w := sl.recorded(); len(w) != 0 {
		t.Fatalf("waited %v on a primary limit, want no wait", w)
	}
	b := c.RateBudget("core")
	if !b.Known {
		t.Fatalf("core budget Known = false, want true")
	}
	if b.Remaining != 0 {
		t.Errorf("core budget Remaining = %d, want 0", b.Remaining)
	}
	if b.Limit != 5000 {
		t.Errorf("core budget Limit = %d, want 5000", b.Limit)
	}
}

// A retry never sleeps past the caller's deadline.
func TestRetryStopsAtDeadline(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, sl := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) {
		o.RetryBaseDelay, o.RetryMaxDelay = 10*time.Second, 10*time.Second
		o.MaxRetryWait = time.Minute
	})
	em.fault(t, emulator.Fault{Kind: emulator.FaultStatus, Status: 503})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, _, err := c.GetIssue(ctx, owner, repo, 1)
	e := asError(t, err)
	if e.Code != UpstreamUnavailable {
		t.Fatalf("error code = %q, want %q (%v)", e.Code, UpstreamUnavailable, e)
	}
	if e.Status != 503 {
		t.Fatalf("Status = %d, want 503", e.Status)
	}
	if w := sl.recorded(); len(w) != 0 {
		t.Fatalf("slept %v with a deadline closer than the back-off", w)
	}
	if n := em.count("GET /api/v3" + issuePath(1)); n != 1 {
		t.Fatalf("%d requests, want 1", n)
	}
}

func TestRetryDisabled(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.MaxReadRetries = -1 })
	em.fault(t, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Times: 1})
	if _, _, err := c.GetIssue(context.Background(), owner, repo, 1); asError(t, err).Code != UpstreamUnavailable {
		t.Fatalf("a 502 with retries off: error = %v, want code %q", err, UpstreamUnavailable)
	}
}

func TestBackoffIsCappedAndJittered(t *testing.T) {
	p := retryPolicy{maxRetries: 10, base: 100 * time.Millisecond, maxDelay: time.Second, maxWait: time.Hour}
	for n := 1; n <= 40; n++ {
		want := min(100*time.Millisecond<<min(n-1, 20), time.Second)
		for range 20 {
			d := p.backoff(n)
			if d < want/2 || d > want {
				t.Fatalf("backoff(%d) = %v, want within [%v, %v]", n, d, want/2, want)
			}
		}
	}
}
