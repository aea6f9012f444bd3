package github

import (
	"context"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/store"
)

// RateBudget is what GitHub last said about one rate-limit resource
// ("core", "search", "graphql", ...) for this client's credential.
type RateBudget struct {
	Resource  string
	Limit     int
	Remaining int
	Used      int
	Reset     time.Time
	// Known is false until a response for the resource carried
	// x-ratelimit-* headers.
	Known bool
}

// budgets tracks the rate budget per resource from response headers, and
// a secondary-limit pause that applies to every request.
type budgets struct {
	mu             sync.Mutex
	byResource     map[string]RateBudget
	secondaryUntil time.Time
	// clockOffset is GitHub's clock minus this host's, from the Date
	// header of the latest response; clockKnown says whether one came.
	clockOffset time.Duration
	clockKnown  bool
	// floor is the remaining count at which requests stop (0: when the
	// budget is spent). Replicas sharing one credential set it to at least
	// how many calls they may have in flight together, so none of them
	// runs the budget to zero.
	floor int
}

// observeClock records how far GitHub's clock (a response's Date header,
// to the second) is from this host's at receipt.
func (b *budgets) observeClock(h http.Header, receivedAt time.Time) {
	date, err := http.ParseTime(h.Get("Date"))
	if err != nil {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.clockOffset, b.clockKnown = date.Sub(receivedAt), true
}

func newBudgets() *budgets { return &budgets{byResource: map[string]RateBudget{}} }

// observe records the x-ratelimit-* headers of a response. Responses can
// arrive out of order, so an older window or a lower used count within the
// same window never overwrites a newer one.
func (b *budgets) observe(h http.Header, fallback string) {
	limit, err := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	if err != nil {
		return
	}
	rb := RateBudget{Resource: h.Get("X-RateLimit-Resource"), Limit: limit, Known: true}
	if rb.Resource == "" {
		rb.Resource = fallback
	}
	rb.Remaining, _ = strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	rb.Used, _ = strconv.Atoi(h.Get("X-RateLimit-Used"))
	if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		rb.Reset = time.Unix(reset, 0)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.take(rb)
}

// observed is what observe recorded from h, for sharing; ok is false when
// h carried no rate figures.
func observed(h http.Header, fallback string) (store.RateObservation, bool) {
	limit, err := strconv.Atoi(h.Get("X-RateLimit-Limit"))
	if err != nil {
		return store.RateObservation{}, false
	}
	o := store.RateObservation{Resource: h.Get("X-RateLimit-Resource"), Limit: limit}
	if o.Resource == "" {
		o.Resource = fallback
	}
	o.Remaining, _ = strconv.Atoi(h.Get("X-RateLimit-Remaining"))
	o.Used, _ = strconv.Atoi(h.Get("X-RateLimit-Used"))
	if reset, err := strconv.ParseInt(h.Get("X-RateLimit-Reset"), 10, 64); err == nil {
		o.Reset = time.Unix(reset, 0)
	}
	return o, true
}

// take records rb unless what is held is newer. The lock is held.
func (b *budgets) take(rb RateBudget) {
	old, ok := b.byResource[rb.Resource]
	if ok && (rb.Reset.Before(old.Reset) || rb.Reset.Equal(old.Reset) && rb.Used < old.Used) {
		return
	}
	b.byResource[rb.Resource] = rb
}

// merge takes in the shared picture other processes using the same
// credential reported, newest figures winning as they do locally.
func (b *budgets) merge(p store.RatePicture) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, o := range p.Resources {
		b.take(RateBudget{Resource: o.Resource, Limit: o.Limit, Remaining: o.Remaining, Used: o.Used, Reset: o.Reset, Known: true})
	}
	if p.SecondaryUntil.After(b.secondaryUntil) {
		b.secondaryUntil = p.SecondaryUntil
	}
}

// pullShared merges the store's rate picture for this credential before a
// request, so a replica knows what the others spent. A store that cannot
// answer leaves the local picture, which is still this process's truth.
func (c *Client) pullShared(ctx context.Context) {
	if c.store == nil || !c.shareRate {
		return
	}
	p, err := c.store.Rate(ctx, c.cred)
	c.storeResult(err)
	if err != nil {
		return
	}
	c.budget.merge(p)
}

// pushShared reports a response's figures (or a secondary pause) to the
// store for the other processes.
func (c *Client) pushShared(ctx context.Context, o store.RateObservation) {
	if c.store == nil || !c.shareRate {
		return
	}
	_ = c.store.ObserveRate(context.WithoutCancel(ctx), c.cred, o)
}

// pauseSecondary holds every request until until, after GitHub answered a
// secondary limit that ghgate did not wait out.
func (b *budgets) pauseSecondary(until time.Time) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if until.After(b.secondaryUntil) {
		b.secondaryUntil = until
	}
}

func (b *budgets) get(resource string) RateBudget {
	b.mu.Lock()
	defer b.mu.Unlock()
	if rb, ok := b.byResource[resource]; ok {
		return rb
	}
	return RateBudget{Resource: resource}
}

// refusal returns the error for a request that must not be sent because
// the budget is known to be spent, or nil. Sending it would only earn
// another 403 and, for GitHub, count against the integration.
func (b *budgets) refusal(resource string, now time.Time) *Error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if now.Before(b.secondaryUntil) {
		return &Error{Code: RateLimited, Temporary: true, RetryAfter: b.secondaryUntil.Sub(now),
			Message: fmt.Sprintf("GitHub's secondary rate limit is in force until %s; request not sent", b.secondaryUntil.UTC().Format(time.RFC3339))}
	}
	rb, ok := b.byResource[resource]
	if ok && rb.Limit > 0 && rb.Remaining <= b.floor && now.Before(rb.Reset) {
		what := "is spent"
		if b.floor > 0 {
			what = fmt.Sprintf("is down to its floor (%d left)", rb.Remaining)
		}
		return &Error{Code: RateLimited, Temporary: true, RetryAfter: max(rb.Reset.Sub(now), time.Second),
			Message: fmt.Sprintf("the %s rate budget (%d requests) %s until %s; request not sent", resource, rb.Limit, what, rb.Reset.UTC().Format(time.RFC3339))}
	}
	return nil
}

// GitHubTime is local, a time by this host's clock, on GitHub's clock as
// the Date headers of its responses show it (accurate to about a second).
// ok is false until a response carried a Date.
func (c *Client) GitHubTime(local time.Time) (t time.Time, ok bool) {
	c.budget.mu.Lock()
	defer c.budget.mu.Unlock()
	if !c.budget.clockKnown {
		return local, false
	}
	return local.Add(c.budget.clockOffset), true
}

// Now is this client's clock, the one GitHubTime's offset is measured on.
func (c *Client) Now() time.Time { return c.now() }
