package emulator

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// rateLimiter keeps a real per-token budget per resource, in fixed windows
// as GitHub's are: the budget refills at once when the window resets.
type rateLimiter struct {
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

// rateSnapshot is what the x-ratelimit-* headers report.
type rateSnapshot struct {
	Resource  string
	Limit     int
	Used      int
	Remaining int
	Reset     time.Time
}

func newRateLimiter(now func() time.Time, core, search, graphql int) *rateLimiter {
	if core <= 0 {
		core = 5000
	}
	if search <= 0 {
		search = 30
	}
	if graphql <= 0 {
		graphql = 5000
	}
	return &rateLimiter{now: now,
		limits: map[string]int{"core": core, "search": search, "graphql": graphql},
		window: map[string]time.Duration{"core": time.Hour, "search": time.Minute, "graphql": time.Hour},
		used:   map[string]*budget{}}
}

func (l *rateLimiter) budgetLocked(token, resource string) *budget {
	key := token + "\x00" + resource
	b := l.used[key]
	now := l.now()
	if b == nil || !now.Before(b.reset) {
		b = &budget{reset: now.Add(l.window[resource]).Truncate(time.Second)}
		l.used[key] = b
	}
	return b
}

func (l *rateLimiter) snapLocked(token, resource string) rateSnapshot {
	b := l.budgetLocked(token, resource)
	limit := l.limitFor(token, resource)
	return rateSnapshot{Resource: resource, Limit: limit, Used: b.used, Remaining: max(limit-b.used, 0), Reset: b.reset}
}

// check reports whether a request may be served now.
func (l *rateLimiter) check(token, resource string) (rateSnapshot, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	s := l.snapLocked(token, resource)
	return s, s.Remaining > 0
}

// charge spends one unit of the budget.
func (l *rateLimiter) charge(token, resource string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budgetLocked(token, resource).used++
}

func (l *rateLimiter) snapshot(token, resource string) rateSnapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.snapLocked(token, resource)
}

func (l *rateLimiter) exhaust(token, resource string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.budgetLocked(token, resource).used = l.limitFor(token, resource)
}

func (l *rateLimiter) all(token string) map[string]rateSnapshot {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]rateSnapshot{}
	for res := range l.limits {
		out[res] = l.snapLocked(token, res)
	}
	return out
}

func setRateHeaders(h http.Header, s rateSnapshot) {
	h.Set("X-RateLimit-Limit", strconv.Itoa(s.Limit))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(s.Remaining))
	h.Set("X-RateLimit-Used", strconv.Itoa(s.Used))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(s.Reset.Unix(), 10))
	h.Set("X-RateLimit-Resource", s.Resource)
}

// anonymousPrefix marks budgets kept for requests without a valid token,
// per client address, as GitHub keeps them.
const anonymousPrefix = "anonymous:"

// anonymousLimit is GitHub's hourly budget for unauthenticated requests.
const anonymousLimit = 60

func (l *rateLimiter) limitFor(token, resource string) int {
	if strings.HasPrefix(token, anonymousPrefix) {
		return anonymousLimit
	}
	return l.limits[resource]
}
