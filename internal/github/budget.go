package github

import (
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"
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
	old, ok := b.byResource[rb.Resource]
	if ok && (rb.Reset.Before(old.Reset) || rb.Reset.Equal(old.Reset) && rb.Used < old.Used) {
		return
	}
	b.byResource[rb.Resource] = rb
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
	if ok && rb.Limit > 0 && rb.Remaining <= 0 && now.Before(rb.Reset) {
		return &Error{Code: RateLimited, Temporary: true, RetryAfter: max(rb.Reset.Sub(now), time.Second),
			Message: fmt.Sprintf("the %s rate budget (%d requests) is spent until %s; request not sent", resource, rb.Limit, rb.Reset.UTC().Format(time.RFC3339))}
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
