package faults

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// RateLimiter keeps a real per-token budget per resource, in fixed windows
// as GitHub's are: the budget refills at once when the window resets.
type RateLimiter struct {
	mu     sync.Mutex
	now    func() time.Time
	limits map[string]int
	window map[string]time.Duration
	used   map[string]*budget // by token + "\x00" + resource
}

type budget struct {
	used  int
	reset time.Time
}

// Snapshot is what the x-ratelimit-* headers report.
type Snapshot struct {
	Resource  string
	Limit     int
	Used      int
	Remaining int
	Reset     time.Time
}

// NewRateLimiter makes a limiter with the given budgets per window; zero
// takes GitHub's default for a token.
func NewRateLimiter(now func() time.Time, core, search, graphql int) *RateLimiter {
	if core <= 0 {
		core = 5000
	}
	if search <= 0 {
		search = 30
	}
	if graphql <= 0 {
		graphql = 5000
	}
	return &RateLimiter{now: now,
		limits: map[string]int{"core": core, "search": search, "graphql": graphql},
		window: map[string]time.Duration{"core": time.Hour, "search": time.Minute, "graphql": time.Hour},
		used:   map[string]*budget{}}
}

func (l *RateLimiter) budgetLocked(token, resource string) *budget {
	key := token + "\x00" + resource
	b := l.used[key]
	now := l.now()
	if b == nil || !now.Before(b.reset) {
		b = &budget{reset: now.Add(l.window[resource]).Truncate(time.Second)}
		l.used[key] = b
	}
	return b
}

func (l *RateLimiter) snapLocked(token, resource string) Snapshot {
	b := l.budgetLocked(token, resource)
	limit := l.limitFor(token, resource)
	return Snapshot{Resource: resource, Limit: limit, Used: b.used, Remaining: max(limit-b.used, 0), Reset: b.reset}
}

// Check reports whether a request may be served now.
func (l *RateLimiter) Check(token, resource string) (Snapshot, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.snapLocked(token, resource)
	return s, s.Remaining > 0
}

// Charge spends one unit of the budget.
func (l *RateLimiter) Charge(token, resource string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budgetLocked(token, resource).used++
}

// Snapshot reports a token's budget for a resource without spending it.
func (l *RateLimiter) Snapshot(token, resource string) Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snapLocked(token, resource)
}

// Exhaust spends a token's whole budget for a resource.
func (l *RateLimiter) Exhaust(token, resource string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budgetLocked(token, resource).used = l.limitFor(token, resource)
}

// All reports a token's budget for every resource.
func (l *RateLimiter) All(token string) map[string]Snapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]Snapshot{}
	for res := range l.limits {
		out[res] = l.snapLocked(token, res)
	}
	return out
}

// SetHeaders writes a budget as GitHub's x-ratelimit-* headers.
func SetHeaders(h http.Header, s Snapshot) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(s.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(s.Remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(s.Used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.Reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", s.Resource)
}

// AnonymousPrefix marks budgets kept for requests without a valid token,
// per client address, as GitHub keeps them.
const AnonymousPrefix = "anonymous:"

// anonymousLimit is GitHub's hourly budget for unauthenticated requests.
const anonymousLimit = 60

func (l *RateLimiter) limitFor(token, resource string) int {
	if strings.HasPrefix(token, AnonymousPrefix) {
		return anonymousLimit
	}
	return l.limits[resource]
}
