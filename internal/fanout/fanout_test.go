package fanout_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/github"
)

// client is a GitHub client against h, with retries off.
func client(t *testing.T, h http.HandlerFunc) *github.Client {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	c, err := github.New(github.Options{BaseURL: srv.URL, Token: "t", MaxReadRetries: -1})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func getRepo(c *github.Client) func(context.Context) (github.Meta, error) {
	return func(ctx context.Context) (github.Meta, error) {
		_, m, err := c.GetRepo(ctx, "o", "r")
		return m, err
	}
}

// A 403 or 404 that says "not permitted" or "feature off" is returned to
// the caller and stops nothing; a 403 with a spent budget, or a 429, is a
// rate limit and stops the run.
func TestRefusalIsNotRateLimit(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		header map[string]string
		body   string
		want   fanout.Reason
	}{
		{"403 not permitted", 403, nil, `{"message":"Resource not accessible by integration"}`, ""},
		{"404 hidden", 404, nil, `{"message":"Not Found"}`, ""},
		{"410 issues off", 410, nil, `{"message":"Issues are disabled for this repo"}`, ""},
		{"403 budget spent", 403, map[string]string{"X-RateLimit-Limit": "5000", "X-RateLimit-Remaining": "0",
			"X-RateLimit-Reset": strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10)}, `{"message":"API rate limit exceeded"}`, fanout.RateLimited},
		{"403 secondary message", 403, nil, `{"message":"You have exceeded a secondary rate limit."}`, fanout.RateLimited},
		{"429 retry-after", 429, map[string]string{"Retry-After": "120"}, `{"message":"slow down"}`, fanout.RateLimited},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := client(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = w.Write([]byte(tc.body))
			})
			run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 10})
			if err := run.Call(context.Background(), getRepo(c)); err == nil {
				t.Fatal("no error")
			}
			if got := run.Stopped(); got != tc.want {
				t.Errorf("stopped %q, want %q", got, tc.want)
			}
			if run.Calls() != 1 {
				t.Errorf("%d calls counted, want 1", run.Calls())
			}
		})
	}
}

// The budget is a hard cap: with units racing for it, no more calls are
// sent than max_api_calls, and the run says max_api_calls.
func TestBudgetIsHardCap(t *testing.T) {
	var sent atomic.Int64
	c := client(t, func(w http.ResponseWriter, r *http.Request) {
		sent.Add(1)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"name":"r"}`))
	})
	run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 7})
	if err := run.Each(50, func(ctx context.Context, i int) { _ = run.Call(ctx, getRepo(c)) }); err != nil {
		t.Fatal(err)
	}
	if n := sent.Load(); n != 7 {
		t.Errorf("sent %d calls, want 7", n)
	}
	if n := run.Calls(); n != 7 {
		t.Errorf("counted %d calls, want 7", n)
	}
	if got := run.Stopped(); got != fanout.MaxAPICalls {
		t.Errorf("Stopped() = %q, want %q", got, fanout.MaxAPICalls)
	}
}

// A run cancelled mid-way says cancelled, returns only when every unit
// has, and leaves no goroutine behind; never more than the bound ran at
// once.
func TestCancelLeavesNoGoroutine(t *testing.T) {
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	run := fanout.New(ctx, fanout.Options{Concurrency: 4})
	var started, now, peak atomic.Int64
	err := run.Each(100, func(ctx context.Context, i int) {
		n := now.Add(1)
		defer now.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		if started.Add(1) == 4 {
			cancel()
		}
		<-ctx.Done()
	})
	if err != nil {
		t.Fatal(err)
	}
	if run.Stopped() != fanout.Cancelled {
		t.Errorf("stopped %q, want cancelled", run.Stopped())
	}
	if s := started.Load(); s != 4 {
		t.Errorf("%d units started; the run should stop starting them at the cancel", s)
	}
	if peak.Load() > 4 {
		t.Errorf("%d units at once, over the bound of 4", peak.Load())
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the run, %d before", n, before)
	}
}

// A unit's panic comes back as an error, not a crash.
func TestUnitPanicIsAnError(t *testing.T) {
	run := fanout.New(context.Background(), fanout.Options{})
	err := run.Each(3, func(context.Context, int) { panic("boom") })
	if err == nil {
		t.Errorf("Each of panicking units: err = nil, want the panic's error")
	} else if errors.Is(err, fanout.ErrStopped) {
		t.Errorf("Each of panicking units: err = %v, want one that is not ErrStopped", err)
	}
}

// The floor is 2% of the limit, and never under the calls in flight.
func TestFloor(t *testing.T) {
	run := fanout.New(context.Background(), fanout.Options{})
	for limit, want := range map[int]int{5000: 100, 60: 8, 1000: 20} {
		if got := run.Floor(limit); got != want {
			t.Errorf("Floor(%d) = %d, want %d", limit, got, want)
		}
	}
}

// A group takes work as it is found: units given with Go count toward
// progress against the total expected so far, those given with Aside take
// a slot but no part of progress, and the bound holds across both.
func TestGroupProgressAndBound(t *testing.T) {
	type tick struct{ done, total int }
	var ticks []tick
	run := fanout.New(context.Background(), fanout.Options{Concurrency: 3,
		Progress: func(done, total int) { ticks = append(ticks, tick{done, total}) }})
	var now, peak, aside atomic.Int64
	work := func(context.Context) {
		n := now.Add(1)
		defer now.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		time.Sleep(time.Millisecond)
	}
	g := run.Group()
	g.Expect(4)
	for range 4 {
		g.Go(work)
	}
	for range 5 {
		g.Aside(func(ctx context.Context) { aside.Add(1); work(ctx) })
	}
	g.Expect(2)
	for range 2 {
		g.Go(work)
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	if aside.Load() != 5 {
		t.Errorf("%d aside units ran, want 5", aside.Load())
	}
	if peak.Load() > 3 {
		t.Errorf("%d units at once, over the bound of 3", peak.Load())
	}
	if len(ticks) != 6 {
		t.Fatalf("%d progress ticks, want 6 (one per counted unit): %v", len(ticks), ticks)
	}
	for i, tk := range ticks {
		if tk.done != i+1 {
			t.Errorf("tick %d: done = %d, want %d", i, tk.done, i+1)
		}
		if tk.total < tk.done {
			t.Errorf("tick %d: total = %d, want at least done, %d", i, tk.total, tk.done)
		}
		if i > 0 && tk.total < ticks[i-1].total {
			t.Errorf("tick %d: total = %d, want at least the previous tick's %d", i, tk.total, ticks[i-1].total)
		}
	}
	last := ticks[len(ticks)-1]
	if last.done != 6 {
		t.Errorf("last tick: done = %d, want 6", last.done)
	}
	if last.total != 6 {
		t.Errorf("last tick: total = %d, want 6", last.total)
	}
}

// A stopped run starts nothing more: Go and Aside say so.
func TestGroupAfterStop(t *testing.T) {
	run := fanout.New(context.Background(), fanout.Options{})
	g := run.Group()
	run.Stop(fanout.MaxRepos)
	if g.Go(func(context.Context) { t.Error("ran after the stop") }) {
		t.Error("Go after the run stopped = true, want the unit refused")
	}
	if g.Aside(func(context.Context) { t.Error("ran after the stop") }) {
		t.Error("Aside after the run stopped = true, want the unit refused")
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
}

// Calls set aside by Prepay are spent only by calls marked Prepaid: the
// others find the budget short by them, and a marked call beyond them
// spends the budget as any other.
func TestPrepay(t *testing.T) {
	c := client(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"name":"r"}`))
	})
	run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 5})
	if !run.Prepay(2) {
		t.Fatal("Prepay(2) of 5 = false, want true (it fits)")
	}
	if run.Prepay(4) {
		t.Fatal("Prepay(4) more = true, want false (2 + 4 is over 5)")
	}
	for i := range 3 {
		if err := run.Call(context.Background(), getRepo(c)); err != nil {
			t.Fatalf("unmarked call %d: %v", i, err)
		}
	}
	if err := run.Call(context.Background(), getRepo(c)); !errors.Is(err, fanout.ErrStopped) {
		t.Fatalf("a fourth unmarked call went past the calls set aside: %v", err)
	}
	// The run stopped at max_api_calls, but the calls set aside are still
	// there for the marked calls, and then no more.
	if got := run.Stopped(); got != fanout.MaxAPICalls {
		t.Errorf("Stopped() = %q, want %q", got, fanout.MaxAPICalls)
	}
	if n := run.Calls(); n != 3 {
		t.Errorf("counted %d calls, want 3", n)
	}
	marked := fanout.Prepaid(context.Background())
	for i := range 2 {
		if err := run.Call(marked, getRepo(c)); err != nil {
			t.Fatalf("marked call %d after the stop: %v", i, err)
		}
	}
	if err := run.Call(marked, getRepo(c)); !errors.Is(err, fanout.ErrStopped) {
		t.Errorf("a third marked call: err = %v, want ErrStopped", err)
	}
	if n := run.Calls(); n != 5 {
		t.Errorf("after a third marked call: counted %d calls, want 5", n)
	}
	fresh := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 3})
	fresh.Prepay(1)
	for i := range 3 {
		if err := fresh.Call(marked, getRepo(c)); err != nil {
			t.Fatalf("marked call %d: %v", i, err)
		}
	}
	if err := fresh.Call(marked, getRepo(c)); !errors.Is(err, fanout.ErrStopped) {
		t.Errorf("a marked call beyond the budget: err = %v, want ErrStopped", err)
	}
	if n := fresh.Calls(); n != 3 {
		t.Errorf("after a marked call beyond the budget: counted %d calls, want 3", n)
	}
}

// A search spends GitHub's separate search budget: CallOn watches that
// budget's floor, which the run's own (core) does not. An answer that
// brings the search budget to its floor stops no core call; the next
// search is refused before it is sent, and the run says rate_limited.
func TestCallOnWatchesItsResource(t *testing.T) {
	var searches atomic.Int64
	reset := strconv.FormatInt(time.Now().Add(time.Minute).Unix(), 10)
	c := client(t, func(w http.ResponseWriter, r *http.Request) {
		resource, remaining, body := "core", "4000", `{"name":"r"}`
		if strings.HasSuffix(r.URL.Path, "/search/issues") {
			// 30 a minute, 5 left: under the floor (the 8 calls in flight).
			resource, remaining, body = "search", strconv.Itoa(6-int(searches.Add(1))), `{"total_count":0,"items":[]}`
		}
		w.Header().Set("X-RateLimit-Resource", resource)
		w.Header().Set("X-RateLimit-Limit", map[string]string{"core": "5000", "search": "30"}[resource])
		w.Header().Set("X-RateLimit-Remaining", remaining)
		w.Header().Set("X-RateLimit-Reset", reset)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	})
	search := func(ctx context.Context) (github.Meta, error) {
		_, m, err := c.SearchIssues(ctx, "is:pr", github.SearchOptions{})
		return m, err
	}
	run := fanout.New(context.Background(), fanout.Options{Client: c, MaxCalls: 10})
	if err := run.CallOn(context.Background(), "search", search); err != nil {
		t.Fatalf("first search: %v", err)
	}
	if err := run.Call(context.Background(), getRepo(c)); err != nil {
		t.Fatalf("a core call after the search budget reached its floor: %v", err)
	}
	if got := run.Stopped(); got != "" {
		t.Fatalf("after a core call: Stopped() = %q, want not stopped", got)
	}
	if err := run.CallOn(context.Background(), "search", search); !errors.Is(err, fanout.ErrStopped) {
		t.Fatalf("second search: %v, want ErrStopped", err)
	}
	if n := searches.Load(); n != 1 {
		t.Errorf("%d searches sent, want 1", n)
	}
	if got := run.Stopped(); got != fanout.RateLimited {
		t.Errorf("Stopped() = %q, want %q", got, fanout.RateLimited)
	}
}

// Whenever the run is cancelled, every unit Go accepted runs exactly once
// and no unit it refused runs; Wait returns, and no goroutine is left.
func TestGroupAcceptedUnitsRunOnce(t *testing.T) {
	before := runtime.NumGoroutine()
	for round := range 200 {
		ctx, cancel := context.WithCancel(context.Background())
		run := fanout.New(ctx, fanout.Options{Concurrency: 3})
		g := run.Group()
		var ran atomic.Int64
		accepted := 0
		for i := range 40 {
			if i == round%40 {
				go cancel()
			}
			if g.Go(func(context.Context) { ran.Add(1) }) {
				accepted++
			}
		}
		if err := g.Wait(); err != nil {
			t.Fatal(err)
		}
		cancel()
		if int(ran.Load()) != accepted {
			t.Fatalf("round %d: %d units ran, want the %d accepted", round, ran.Load(), accepted)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the runs, %d before", n, before)
	}
}

// heldCalls counts the calls in flight of the runs it is given, and holds
// each until released.
type heldCalls struct {
	now, peak, done atomic.Int64
	entered         chan struct{}
	release         chan struct{}
}

func newHeldCalls() *heldCalls {
	return &heldCalls{entered: make(chan struct{}, 1000), release: make(chan struct{})}
}

func (h *heldCalls) do(ctx context.Context) (github.Meta, error) {
	n := h.now.Add(1)
	for p := h.peak.Load(); n > p && !h.peak.CompareAndSwap(p, n); p = h.peak.Load() {
	}
	h.entered <- struct{}{}
	defer h.now.Add(-1)
	defer h.done.Add(1)
	select {
	case <-h.release:
	case <-ctx.Done():
	}
	return github.Meta{}, nil
}

// await waits for n more calls to enter, failing after a minute (a hang
// guard, not a measure of speed).
func (h *heldCalls) await(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-h.entered:
		case <-time.After(time.Minute):
			t.Fatalf("calls in flight = %d, waiting for %d more to enter", h.now.Load(), n)
		}
	}
}

// offline is a client that is never asked to send: the calls held here
// stand for its requests.
func offline(t *testing.T) *github.Client {
	t.Helper()
	c, err := github.New(github.Options{BaseURL: "http://127.0.0.1:1", Token: "t"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Every run on one credential shares its Shared slots: four runs of
// eight calls each have five in flight in all, while a run on another
// credential is not held back by them, and a run whose context ends while
// it waits for a slot stops without sending.
func TestSharedBoundsEveryRunOnOneCredential(t *testing.T) {
	t.Parallel()
	shared := &fanout.Shared{Max: 5}
	a, b := offline(t), offline(t)
	onA := newHeldCalls()
	var runs []chan error
	for range 4 {
		run := fanout.New(context.Background(), fanout.Options{Client: a, Shared: shared})
		done := make(chan error, 1)
		go func() { done <- run.Each(8, func(ctx context.Context, _ int) { _ = run.Call(ctx, onA.do) }) }()
		runs = append(runs, done)
	}
	onA.await(t, 5)

	onB := newHeldCalls()
	other := fanout.New(context.Background(), fanout.Options{Client: b, Shared: shared})
	otherDone := make(chan error, 1)
	go func() { otherDone <- other.Call(context.Background(), onB.do) }()
	onB.await(t, 1)

	ctx, cancel := context.WithCancel(context.Background())
	late := fanout.New(ctx, fanout.Options{Client: a, Shared: shared})
	lateDone := make(chan error, 1)
	sent := atomic.Int64{}
	go func() {
		lateDone <- late.Call(ctx, func(context.Context) (github.Meta, error) { sent.Add(1); return github.Meta{}, nil })
	}()
	cancel()
	if err := <-lateDone; !errors.Is(err, fanout.ErrStopped) {
		t.Errorf("a call whose context ended while it waited: %v, want ErrStopped", err)
	}
	if got := sent.Load(); got != 0 {
		t.Errorf("calls sent after their context ended = %d, want 0", got)
	}
	if got, want := late.Stopped(), fanout.Cancelled; got != want {
		t.Errorf("stopped %q, want %q", got, want)
	}

	close(onA.release)
	close(onB.release)
	for _, done := range runs {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	if err := <-otherDone; err != nil {
		t.Errorf("the other credential's call: %v", err)
	}
	if got, want := onA.peak.Load(), int64(5); got != want {
		t.Errorf("calls in flight at once on one credential = %d, want %d", got, want)
	}
	if got, want := onA.done.Load(), int64(32); got != want {
		t.Errorf("calls made on one credential = %d, want %d", got, want)
	}
}

// Slots are handed out first come, first served: a run that keeps its
// credential's slots busy with many calls lets another run's call in
// once the calls queued ahead of it are through, not after all its own.
// (In a synctest bubble, so "queued" is a state the test can wait for.)
func TestSharedDoesNotLetOneRunStarveAnother(t *testing.T) {
	t.Parallel()
	c := offline(t)
	synctest.Test(t, func(t *testing.T) {
		shared := &fanout.Shared{Max: 2}
		busy := newHeldCalls()
		const concurrency = 8
		big := fanout.New(context.Background(), fanout.Options{Client: c, Shared: shared, Concurrency: concurrency})
		bigDone := make(chan error, 1)
		go func() { bigDone <- big.Each(100, func(ctx context.Context, _ int) { _ = big.Call(ctx, busy.do) }) }()
		synctest.Wait() // two calls hold the slots, six wait for one

		small := fanout.New(context.Background(), fanout.Options{Client: c, Shared: shared})
		in := make(chan struct{})
		go func() {
			_ = small.Call(context.Background(), func(context.Context) (github.Meta, error) {
				close(in)
				return github.Meta{}, nil
			})
		}()
		synctest.Wait() // the other run's call waits behind them
		released := 0
		for entered := false; !entered; {
			select {
			case <-in:
				entered = true
				continue
			default:
			}
			if released == 100 {
				t.Fatal("the other run's call never got a slot")
			}
			busy.release <- struct{}{}
			released++
			synctest.Wait()
		}
		if released > concurrency {
			t.Errorf("busy run's calls let go before the other's got in = %d, want at most %d (its calls queued ahead)", released, concurrency)
		}
		close(busy.release)
		if err := <-bigDone; err != nil {
			t.Fatal(err)
		}
	})
}
