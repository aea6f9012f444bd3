package brokertest

import (
	"context"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Gate holds the answers to the requests it matches until it is opened,
// while the emulator behind it still counts them in flight: the emulator
// writes an answer only once its handler has let go of its state, so the
// write that blocks here is the last thing the request does there. A test
// uses it to count, without timing anything, how many requests a client
// has at GitHub at once, and to keep them there while it checks what
// else gets through.
type Gate struct {
	match func(*http.Request) bool

	open chan struct{}
	once sync.Once

	mu        sync.Mutex
	held      int
	peak      int
	changed   chan struct{} // closed (and replaced) whenever held changes
	requested atomic.Int64  // matched requests seen
}

// NewGate holds the requests match selects.
func NewGate(match func(*http.Request) bool) *Gate {
	return &Gate{match: match, open: make(chan struct{}), changed: make(chan struct{})}
}

// Wrap puts the gate in front of h.
func (g *Gate) Wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !g.match(r) {
			h.ServeHTTP(w, r)
			return
		}
		g.requested.Add(1)
		g.add(1)
		defer g.add(-1)
		h.ServeHTTP(&heldWriter{ResponseWriter: w, g: g, ctx: r.Context()}, r)
	})
}

func (g *Gate) add(d int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.held += d
	g.peak = max(g.peak, g.held)
	close(g.changed)
	g.changed = make(chan struct{})
}

// Open lets every held answer go, and every later one through at once.
func (g *Gate) Open() { g.once.Do(func() { close(g.open) }) }

// Held is how many matched requests are in flight now; Peak the most
// that ever were at once; Requested how many arrived in all.
func (g *Gate) Held() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.held
}

// Peak: see Held.
func (g *Gate) Peak() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peak
}

// Requested: see Held.
func (g *Gate) Requested() int { return int(g.requested.Load()) }

// AwaitHeld waits until at least n matched requests are in flight, and
// reports whether they were before within (a guard against a hang, not a
// measure of speed).
func (g *Gate) AwaitHeld(n int, within time.Duration) bool {
	deadline := time.NewTimer(within)
	defer deadline.Stop()
	for {
		g.mu.Lock()
		held, changed := g.held, g.changed
		g.mu.Unlock()
		if held >= n {
			return true
		}
		select {
		case <-changed:
		case <-deadline.C:
			return false
		}
	}
}

// heldWriter blocks the first byte of an answer until the gate opens or
// the request is given up.
type heldWriter struct {
	http.ResponseWriter
	g      *Gate
	ctx    context.Context
	waited bool
}

func (w *heldWriter) wait() {
	if w.waited {
		return
	}
	w.waited = true
	select {
	case <-w.g.open:
	case <-w.ctx.Done():
	}
}

func (w *heldWriter) WriteHeader(status int) {
	w.wait()
	w.ResponseWriter.WriteHeader(status)
}

func (w *heldWriter) Write(p []byte) (int, error) {
	w.wait()
	return w.ResponseWriter.Write(p)
}

func (w *heldWriter) Flush() {
	w.wait()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}
