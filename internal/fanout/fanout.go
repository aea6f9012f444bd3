// Package fanout runs the many GitHub calls of a report (one or more per
// repository of an owner) within the bounds the caller set: a number of
// calls in flight, a hard budget of calls, the client's cancellation, and
// a floor under the credential's rate budget read from GitHub's own
// x-ratelimit headers. When a bound is reached it stops starting work,
// lets what is in flight finish, and says why, so the report can return
// what it found and the call that continues it.
//
// The engine sends nothing itself: every request goes through
// internal/github's client, whose transport already makes reads
// conditional (ETags kept per URL and credential in the store, a 304
// served from it), waits out GitHub's secondary limits (retry-after) and
// refuses to send below --rate-floor. The engine adds what a fan-out
// needs on top: the bound on concurrency that keeps it far from GitHub's
// 100-concurrent-requests rule, both per run and for every run on one
// credential together (Shared), the per-call budget, and counting.
package fanout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ghgate/ghgate/internal/github"
)

// Reason is why a report stopped before it was complete.
type Reason string

// The reasons a report is truncated (truncated_reason).
const (
	MaxAPICalls      Reason = "max_api_calls"
	MaxRepos         Reason = "max_repos"
	MaxItems         Reason = "max_items"
	MaxResults       Reason = "max_results"
	RateLimited      Reason = "rate_limited"
	IncompleteSearch Reason = "incomplete_search"
	Cancelled        Reason = "cancelled"
	// UpstreamError: a read failed in a way a later try may not (a 5xx
	// after the retries, a dropped connection); next_call reads it again.
	UpstreamError Reason = "upstream_error"
)

// Reasons lists every Reason, for output schemas.
func Reasons() []Reason {
	return []Reason{MaxAPICalls, MaxRepos, MaxItems, MaxResults, RateLimited, IncompleteSearch, Cancelled, UpstreamError}
}

const (
	// DefaultConcurrency is how many calls a report has in flight.
	DefaultConcurrency = 8
	// MaxConcurrency stays well under GitHub's 100 concurrent requests
	// per credential, which other clients of the same token share.
	MaxConcurrency = 32
	// DefaultShared is how many calls every run on one credential has in
	// flight together (Shared): a third of GitHub's 100 concurrent
	// requests, so the credential's other calls (an agent's inline reads,
	// its writes) always find room.
	DefaultShared = 32
	// floorPercent is the share of the rate limit a report leaves unspent.
	floorPercent = 2
)

// ErrStopped is returned by Call when the run has stopped (Reason says
// why) and the request was not sent.
var ErrStopped = errors.New("fanout: the report stopped before this call")

// Options bound one run.
type Options struct {
	// Client is the credential's GitHub client; its rate picture is the
	// one the floor is read from.
	Client *github.Client
	// Resource is the rate-limit resource the calls spend ("core").
	Resource string
	// MaxCalls is the hard budget of calls (each call is one request, or
	// one request and its retries after a secondary limit or a 5xx).
	MaxCalls int
	// Concurrency is how many calls are in flight at most: 0 means
	// DefaultConcurrency, and it is held to MaxConcurrency.
	Concurrency int
	// Progress is told units done of total after each unit; may be nil.
	Progress func(done, total int)
	// Shared, when set, is the budget of calls in flight this run shares
	// with every other run on Client's credential.
	Shared *Shared
}

// Shared bounds the calls in flight of every run on one credential
// together, whichever call, client or task started them: many reports
// running side by side cannot take more of a credential's room at
// GitHub than Max, and each waits its turn for a free slot (first come,
// first served), so none starves another. Its zero value is ready to use.
type Shared struct {
	// Max is the calls in flight per credential; 0 means DefaultShared.
	Max int

	mu    sync.Mutex
	slots map[*github.Client]chan struct{}
}

// of returns the credential's slots (one [github.Client] per credential).
func (s *Shared) of(c *github.Client) chan struct{} {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.slots == nil {
		s.slots = map[*github.Client]chan struct{}{}
	}
	ch, ok := s.slots[c]
	if !ok {
		n := s.Max
		if n <= 0 {
			n = DefaultShared
		}
		ch = make(chan struct{}, n)
		s.slots[c] = ch
	}
	return ch
}

// Run is one report's fan-out: its budget, counts and stop reason.
type Run struct {
	o   Options
	ctx context.Context
	// slots are the credential's shared ones (nil: no shared bound).
	slots    chan struct{}
	reserved atomic.Int64
	// prepaid are calls of reserved set aside by Prepay, spent by calls
	// whose context Prepaid marks.
	prepaid  atomic.Int64
	inFlight atomic.Int64
	calls    atomic.Int64
	hits     atomic.Int64

	mu     sync.Mutex
	reason Reason
	// panicked holds what a unit panicked with: Each returns it as an
	// error rather than let a goroutine's panic end the process.
	panicked any
}

// New starts a run bound to ctx: when ctx ends the run stops with
// Cancelled and the calls in flight end with it.
func New(ctx context.Context, o Options) *Run {
	if o.Concurrency <= 0 {
		o.Concurrency = DefaultConcurrency
	}
	o.Concurrency = min(o.Concurrency, MaxConcurrency)
	if o.Resource == "" {
		o.Resource = "core"
	}
	r := &Run{o: o, ctx: ctx}
	if o.Shared != nil {
		r.slots = o.Shared.of(o.Client)
	}
	return r
}

// Context is the run's context, for calls made outside Each.
func (r *Run) Context() context.Context { return r.ctx }

// Stop records why the run stops; the first reason holds.
func (r *Run) Stop(why Reason) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.reason == "" {
		r.reason = why
	}
}

// Stopped is why the run stopped, "" while it runs. A cancelled context
// stops it.
func (r *Run) Stopped() Reason {
	if r.ctx.Err() != nil {
		r.Stop(Cancelled)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.reason
}

// Calls is how many calls reached GitHub; ConditionalHits how many of
// them GitHub answered 304 Not Modified (served from the store, and not
// counted against GitHub's primary rate limit).
func (r *Run) Calls() int           { return int(r.calls.Load()) }
func (r *Run) ConditionalHits() int { return int(r.hits.Load()) }

// Floor is the remaining count at which the run stops for a rate limit:
// 2% of the limit, and never fewer than the calls that may be in flight
// (a low-limit token's 2% would otherwise be zero, and those calls all
// spend before any answer says the budget is low).
func (r *Run) Floor(limit int) int {
	return max(limit*floorPercent/100, r.o.Concurrency)
}

// belowFloor reports whether the credential's budget for resource, as
// its latest response said, less the calls in flight (sent, not yet
// counted in any answer), is at or under the floor and not yet reset.
func (r *Run) belowFloor(resource string) bool {
	if r.o.Client == nil {
		return false
	}
	b := r.o.Client.RateBudget(resource)
	return b.Known && b.Limit > 0 && b.Remaining-int(r.inFlight.Load()) <= r.Floor(b.Limit) &&
		r.o.Client.Now().Before(b.Reset)
}

// Call spends one call of the budget on do, which makes one request
// through the client. It returns [ErrStopped], without calling do, when the
// run has stopped or this call would pass the budget or the floor. A rate
// limit do meets stops the run ([RateLimited]) and is returned; so is any
// other failure, which is the caller's to judge (a 404 or 403 that says a
// feature is off or not permitted is not a rate limit and stops nothing).
func (r *Run) Call(ctx context.Context, do func(context.Context) (github.Meta, error)) error {
	return r.call(ctx, r.o.Resource, do)
}

// CallOn is Call for a request that spends another rate-limit resource
// than the run's: a search spends "search" (30 a minute), whose floor
// the run's own ("core") does not watch. That resource's floor is
// checked before the request is sent. An answer that brings it to the
// floor does not stop the run: the run's other calls spend another
// budget, and the next call on this one is refused before it is sent.
func (r *Run) CallOn(ctx context.Context, resource string, do func(context.Context) (github.Meta, error)) error {
	return r.call(ctx, resource, do)
}

func (r *Run) call(ctx context.Context, resource string, do func(context.Context) (github.Meta, error)) error {
	// The credential's shared slot comes first: a stop, or the budget
	// spent, while this call waited for it is seen below.
	release, ok := r.takeSlot(ctx)
	if !ok {
		r.Stop(Cancelled)
		return ErrStopped
	}
	defer release()
	// A call the budget set aside for goes on past a stop at the budget:
	// what it reads was paid for before the others spent the rest.
	prepaid := isPrepaid(ctx)
	if why := r.Stopped(); why != "" && (why != MaxAPICalls || !prepaid || r.prepaid.Load() <= 0) {
		return ErrStopped
	}
	if r.belowFloor(resource) {
		r.Stop(RateLimited)
		return ErrStopped
	}
	if !(prepaid && r.takePrepaid()) && r.o.MaxCalls > 0 && r.reserved.Add(1) > int64(r.o.MaxCalls) {
		r.Stop(MaxAPICalls)
		return ErrStopped
	}
	r.inFlight.Add(1)
	m, err := do(ctx)
	r.inFlight.Add(-1)
	var ge *github.Error
	switch {
	case err == nil:
		r.calls.Add(1)
		if m.Cached {
			r.hits.Add(1)
		}
	case errors.As(err, &ge):
		if ge.Status != 0 {
			r.calls.Add(1)
		}
		switch ge.Code {
		case github.RateLimited:
			r.Stop(RateLimited)
		case github.Cancelled:
			r.Stop(Cancelled)
		}
	case ctx.Err() != nil:
		r.Stop(Cancelled)
	}
	if err == nil && resource == r.o.Resource && r.belowFloor(resource) {
		// This answer brought the budget to the floor: what it carried is
		// kept, nothing more is sent.
		r.Stop(RateLimited)
	}
	return err
}

// takeSlot waits for one of the credential's shared slots and returns
// the function that frees it; false when ctx ended first.
func (r *Run) takeSlot(ctx context.Context) (func(), bool) {
	if r.slots == nil {
		return func() {}, true
	}
	select {
	case r.slots <- struct{}{}:
		return func() { <-r.slots }, true
	case <-ctx.Done():
		return nil, false
	}
}

// Prepay sets n calls of the budget aside for work that the calls beside
// it must not starve (a listing's later pages, which say what the report
// covers): a call whose context Prepaid marks spends one of them. It
// returns false, setting nothing aside, when they do not fit the budget.
func (r *Run) Prepay(n int) bool {
	if n <= 0 {
		return true
	}
	for {
		cur := r.reserved.Load()
		if r.o.MaxCalls > 0 && cur+int64(n) > int64(r.o.MaxCalls) {
			return false
		}
		if r.reserved.CompareAndSwap(cur, cur+int64(n)) {
			r.prepaid.Add(int64(n))
			return true
		}
	}
}

// takePrepaid spends one call Prepay set aside, if one is left.
func (r *Run) takePrepaid() bool {
	for {
		n := r.prepaid.Load()
		if n <= 0 {
			return false
		}
		if r.prepaid.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

type prepaidKey struct{}

// Prepaid marks ctx's calls as spending the calls Prepay set aside, while
// any are left.
func Prepaid(ctx context.Context) context.Context { return context.WithValue(ctx, prepaidKey{}, true) }

func isPrepaid(ctx context.Context) bool { v, _ := ctx.Value(prepaidKey{}).(bool); return v }

// Each runs unit(i) for i in [0, n) with at most Concurrency in flight,
// in order of i, and returns when every started unit has returned. It
// starts no unit once the run has stopped; a unit finds the run stopped
// through Call's [ErrStopped] and returns what it did. Progress is reported
// as units done of n.
func (r *Run) Each(n int, unit func(ctx context.Context, i int)) error {
	g := r.Group()
	g.Expect(n)
	for i := range n {
		if !g.Go(func(ctx context.Context) { unit(ctx, i) }) {
			break
		}
	}
	return g.Wait()
}

// Group runs units as the caller finds them, at most Concurrency at once:
// a report whose list of work arrives page by page starts on the first
// page while the next is read, rather than waiting for the whole list.
// Units given with Go count toward progress; those given with Aside (the
// reads that find more work) do not, but take a slot like any other call.
//
// Each slot is a worker goroutine that, when its unit returns, takes the
// next unit straight from a caller waiting to hand one over: the next
// call goes out without waiting for the caller, or a new goroutine, to be
// scheduled. A worker with nothing handed to it ends.
type Group struct {
	r *Run
	// work passes a unit from a caller of Go or Aside to a worker.
	work chan func()
	wg   sync.WaitGroup

	mu      sync.Mutex
	workers int // running
	// waiting counts callers blocked handing a unit over that no worker
	// has yet undertaken to take.
	waiting int

	// Progress is counted and sent under one lock, so each unit's
	// notification goes out in order: a count taken outside it could be
	// sent after a larger one and be dropped as going backwards.
	progressMu  sync.Mutex
	done, total int
}

// Group starts a group of units on the run.
func (r *Run) Group() *Group {
	return &Group{r: r, work: make(chan func())}
}

// Expect adds n to the units progress is reported against: call it as
// the work becomes known, before its units are given.
func (g *Group) Expect(n int) {
	g.progressMu.Lock()
	defer g.progressMu.Unlock()
	g.total += n
}

// Go starts unit once a slot is free and reports it done toward progress.
// It returns false, starting nothing, once the run has stopped, or when
// the run's context ends while it waits for a slot. A unit given before a
// stop runs, and finds the run stopped at its first call.
func (g *Group) Go(unit func(ctx context.Context)) bool { return g.start(unit, true) }

// Aside starts unit like Go but leaves it out of progress.
func (g *Group) Aside(unit func(ctx context.Context)) bool { return g.start(unit, false) }

func (g *Group) start(unit func(ctx context.Context), counted bool) bool {
	r := g.r
	if r.Stopped() != "" {
		return false
	}
	task := func() { g.run(unit, counted) }
	g.mu.Lock()
	if g.workers < r.o.Concurrency {
		g.workers++
		g.wg.Add(1)
		g.mu.Unlock()
		go g.worker(task)
		return true
	}
	g.waiting++
	g.mu.Unlock()
	select {
	case g.work <- task:
		return true
	case <-r.ctx.Done():
	}
	r.Stop(Cancelled)
	g.mu.Lock()
	if g.waiting > 0 {
		g.waiting-- // no worker is waiting on this unit
		g.mu.Unlock()
		return false
	}
	g.mu.Unlock()
	// A worker undertook to take a unit and is waiting for one: it gets
	// one that does nothing.
	g.work <- func() {}
	return false
}

// worker runs task, then each unit a waiting caller hands over, and ends
// when no caller is waiting.
func (g *Group) worker(task func()) {
	defer g.wg.Done()
	for {
		task()
		g.mu.Lock()
		if g.waiting == 0 {
			g.workers--
			g.mu.Unlock()
			return
		}
		g.waiting--
		g.mu.Unlock()
		task = <-g.work
	}
}

// run runs one unit, turning its panic into the run's error, and reports
// it done toward progress when counted.
func (g *Group) run(unit func(ctx context.Context), counted bool) {
	r := g.r
	defer func() {
		if v := recover(); v != nil {
			r.mu.Lock()
			r.panicked = v
			r.mu.Unlock()
		}
	}()
	unit(r.ctx)
	if counted {
		g.progressMu.Lock()
		defer g.progressMu.Unlock()
		g.done++
		if r.o.Progress != nil {
			r.o.Progress(g.done, max(g.total, g.done))
		}
	}
}

// Wait returns when every started unit has returned; a unit's panic is
// returned as an error rather than ending the process.
func (g *Group) Wait() error {
	g.wg.Wait()
	r := g.r
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.panicked != nil {
		return fmt.Errorf("fanout: a unit panicked: %v", r.panicked)
	}
	return nil
}
