package issues_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Under every fault the emulator injects, each item settles as what
// happened to it, and the retry call finishes the job.
func TestBulkUpdateIssuesUnderFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		fault emulator.Fault
		// code and settlement of the faulted item's envelope.
		code       contract.Code
		settlement contract.Settlement
		// applied: the faulted write reached the issue anyway.
		applied bool
		// stops: the run stops even with continue_on_error.
		stops bool
	}{
		{emulator.Fault{Kind: emulator.FaultStatus, Status: 502}, contract.CodeUpstreamUnavailable, contract.NoRemoteSuccessKnown, false, false},
		{emulator.Fault{Kind: emulator.FaultStatus, Status: 503}, contract.CodeUpstreamUnavailable, contract.NoRemoteSuccessKnown, false, false},
		{emulator.Fault{Kind: emulator.FaultDropBefore}, contract.CodeUpstreamUnavailable, contract.Indeterminate, false, false},
		{emulator.Fault{Kind: emulator.FaultDropAfter}, contract.CodeUpstreamUnavailable, contract.Indeterminate, true, false},
		{emulator.Fault{Kind: emulator.FaultMalformedAfter}, "", contract.RemoteSuccessKnown, true, false},
		{emulator.Fault{Kind: emulator.FaultRateLimit}, contract.CodeRateLimited, "", false, true},
		{emulator.Fault{Kind: emulator.FaultSecondary, RetryAfter: 30}, contract.CodeRateLimited, contract.NoRemoteSuccessKnown, false, true},
	}
	for _, c := range cases {
		name := string(c.fault.Kind)
		if c.fault.Status != 0 {
			name += fmt.Sprint(c.fault.Status)
		}
		for _, cont := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/continue=%v", name, cont), func(t *testing.T) {
				t.Parallel()
				clock := newTestClock()
				env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{Now: clock.Now}})
				ns := bulkTargets(t, env, 8, "documentation")
				faulted := ns[0]
				f := c.fault
				f.Method, f.Path, f.Times = "POST", fmt.Sprintf("/repos/acme/widgets/issues/%d/labels", faulted), 1
				addFault(t, env, f)
				// The other items' writes are slow, so the fault is met
				// while they are in flight and a stop leaves some unstarted.
				addFault(t, env, emulator.Fault{Kind: emulator.FaultLatency, Method: "POST", Path: "/repos/acme/widgets/issues/*", LatencyMS: 300})

				out := bulkOK(t, env, addLabel(ns, "documentation", cont))
				st := settlements(t, out, ns)
				for i, it := range out.Items {
					labelled := hasLabel(env, it.IssueNumber, "documentation")
					switch it.Settlement {
					case issues.BulkApplied:
						if !labelled {
							t.Errorf("#%d applied but not labelled, want labelled", it.IssueNumber)
						}
					case issues.BulkNotStarted:
						if labelled {
							t.Errorf("#%d not_started but labelled, want unlabelled", it.IssueNumber)
						}
					case issues.BulkFailed:
						if i > 0 && !c.stops {
							t.Errorf("#%d failed without a fault, want it not failed: %+v", it.IssueNumber, it.Error)
						}
					default:
						t.Errorf("#%d: settlement = %q, want applied, not_started or failed", it.IssueNumber, it.Settlement)
					}
				}
				// The faulted item fails as github_update_issue would have:
				// a lost answer to an applied write is remote_success_known.
				e := out.Items[0].Error
				if st[faulted] != issues.BulkFailed {
					t.Fatalf("faulted item #%d: settlement = %s, want %s", faulted, st[faulted], issues.BulkFailed)
				}
				failed := false
				if c.code != "" && e.Code != c.code {
					t.Errorf("faulted item: code = %q (%q), want %q", e.Code, e.Message, c.code)
					failed = true
				}
				if c.settlement != "" && e.Settlement != c.settlement {
					t.Errorf("faulted item: settlement = %q, want %q", e.Settlement, c.settlement)
					failed = true
				}
				if failed {
					t.FailNow()
				}
				if c.code == contract.CodeRateLimited {
					// A rate limit says when to repeat.
					if !e.Temporary {
						t.Fatalf("faulted item: temporary = false, want true")
					}
					if e.RetryAfterMS == nil || *e.RetryAfterMS <= 0 {
						t.Fatalf("faulted item: retry_after_ms = %s, want > 0", ptr(e.RetryAfterMS))
					}
				}
				if got := hasLabel(env, faulted, "documentation"); got != c.applied {
					t.Fatalf("faulted write applied = %v, want %v", got, c.applied)
				}
				notStarted := 0
				for _, s := range st {
					if s == issues.BulkNotStarted {
						notStarted++
					}
				}
				stops := !cont || c.stops
				if stops != (out.Stopped != "") {
					t.Fatalf("stopped = %q, want it set = %v", out.Stopped, stops)
				}
				if stops && notStarted == 0 {
					t.Fatalf("a stopped run with no item not started, want some: %v", st)
				}
				if !stops && notStarted > 0 {
					t.Fatalf("%d items not started in a run that did not stop, want 0", notStarted)
				}
				// The retry names exactly the failed and not-started items.
				var want []toolkit.IssueNumber
				for _, it := range out.Items {
					if it.Settlement == issues.BulkFailed || it.Settlement == issues.BulkNotStarted {
						want = append(want, toolkit.IssueNumber(it.IssueNumber))
					}
				}
				if len(want) == 0 {
					if out.Retry != nil {
						t.Fatalf("retry = %+v with nothing to retry, want nil", out.Retry)
					}
					return
				}
				if out.Retry == nil {
					t.Fatalf("retry = nil, want a call for %v", want)
				}
				args, ok := out.Retry.Arguments.(map[string]any)
				if !ok {
					t.Fatalf("retry arguments = %#v, want an object", out.Retry.Arguments)
				}
				if got := fmt.Sprint(args["issue_numbers"]); got != fmt.Sprint(want) {
					t.Fatalf("retry issue_numbers = %s, want %v", got, want)
				}
				if c.stops {
					// After the rate limit's reset, from a fresh server (this
					// one rightly holds back until then).
					clock.Advance(61 * time.Minute)
					env = servertest.Start(t, servertest.Options{Emu: env.Emu})
				}
				again := retry(t, env, out)
				for _, it := range again.Items {
					if it.Settlement != issues.BulkApplied && it.Settlement != issues.BulkNoOp {
						t.Errorf("retry: #%d settlement = %s (%+v), want applied or no_op", it.IssueNumber, it.Settlement, it.Error)
					}
				}
				for _, n := range ns {
					if !hasLabel(env, n, "documentation") {
						t.Errorf("#%d unlabelled after the retry, want labelled", n)
					}
				}
			})
		}
	}
}

// The rate floor stops the run even with continue_on_error: the item that
// met it was not sent, the rest are not started, and after the reset the
// retry finishes the job.
func TestBulkUpdateIssuesStopsAtTheRateFloor(t *testing.T) {
	t.Parallel()
	clock := newTestClock()
	// Six core requests an hour, five kept back: the first answer puts the
	// budget at its floor. Writes sent before it arrived go through (at
	// most BulkConcurrency of them); every item started after it is refused
	// unsent, and the run stops.
	opts := servertest.Options{Emulator: emulator.Options{Now: clock.Now, CoreLimit: 6}, RateFloor: 5}
	env := servertest.Start(t, opts)
	// The last item can only start once a slot is free, after an answer.
	ns := bulkTargets(t, env, issues.BulkConcurrency+1, "documentation")
	out := bulkOK(t, env, addLabel(ns, "documentation", true))
	st := settlements(t, out, ns)
	count := map[issues.BulkSettlement]int{}
	var rest []int
	for i, it := range out.Items {
		count[it.Settlement]++
		if labelled := hasLabel(env, it.IssueNumber, "documentation"); labelled != (it.Settlement == issues.BulkApplied) {
			t.Errorf("#%d: settlement %s, labelled = %v, want labelled exactly when applied", it.IssueNumber, it.Settlement, labelled)
		}
		if it.Settlement == issues.BulkApplied {
			continue
		}
		rest = append(rest, ns[i])
		if e := it.Error; it.Settlement == issues.BulkFailed {
			// Refused at the floor.
			if e.Code != contract.CodeRateLimited {
				t.Errorf("#%d: code = %q (%q), want %q", it.IssueNumber, e.Code, e.Message, contract.CodeRateLimited)
			}
			if e.Settlement != contract.NotStarted {
				t.Errorf("#%d: settlement = %q, want %q", it.IssueNumber, e.Settlement, contract.NotStarted)
			}
			if e.RetryAfterMS == nil {
				t.Errorf("#%d: retry_after_ms = null, want when to repeat", it.IssueNumber)
			}
		}
	}
	failed := false
	if n := count[issues.BulkApplied]; n < 1 || n > issues.BulkConcurrency {
		t.Errorf("%d items applied, want 1..%d: %v", n, issues.BulkConcurrency, st)
		failed = true
	}
	if n := count[issues.BulkFailed]; n < 1 {
		t.Errorf("%d items failed, want at least 1: %v", n, st)
		failed = true
	}
	if out.Stopped == "" {
		t.Errorf("stopped is empty, want why the run stopped")
		failed = true
	}
	if failed {
		t.FailNow()
	}
	// After the reset the budget has room for the rest (at most
	// BulkConcurrency writes), without a floor.
	clock.Advance(61 * time.Minute)
	env = servertest.Start(t, servertest.Options{Emu: env.Emu})
	again := retry(t, env, out)
	st = settlements(t, again, rest)
	for _, n := range rest {
		if st[n] != issues.BulkApplied {
			t.Errorf("retry: #%d settlement = %s, want %s", n, st[n], issues.BulkApplied)
		}
	}
}

// testClock is the emulator's clock, moved on by the test.
type testClock struct {
	mu  sync.Mutex
	off time.Duration
}

func newTestClock() *testClock { return &testClock{} }

func (c *testClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return time.Now().Add(c.off)
}

func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.off += d
}
