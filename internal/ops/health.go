package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/version"
)

// Probe is one readiness check: the state store answers, GitHub answers.
type Probe struct {
	Name  string
	Check func(ctx context.Context) error
}

// Options are what Mount serves.
type Options struct {
	// Probes decide /readyz; each runs with ProbeTimeout.
	Probes []Probe
	// Metrics, when set, is served at /metrics behind MetricsGate.
	Metrics     *Metrics
	MetricsGate Gate
	// ProbeTimeout bounds each probe (default 3 s); ProbeCache is how long
	// a readiness answer is reused (default 2 s), so a load balancer's
	// frequent checks do not each cost a GitHub request.
	ProbeTimeout, ProbeCache time.Duration
}

// Ops is the operations surface of one HTTP listener.
type Ops struct {
	opts     Options
	draining atomic.Bool

	// flight counts requests in flight; idle is closed when it drops to
	// zero while draining.
	flightMu sync.Mutex
	flight   int
	idle     chan struct{}

	mu      sync.Mutex
	lastAt  time.Time
	lastErr map[string]string
}

// Mount adds /healthz, /readyz and (with Metrics) /metrics to mux and
// returns the Ops whose Guard wraps the MCP handler and whose Drain starts
// a graceful shutdown. The handler names (HandleHealthz, HandleReadyz) are
// exported so another listener can mount them too.
func Mount(mux *http.ServeMux, o Options) *Ops {
	if o.ProbeTimeout <= 0 {
		o.ProbeTimeout = 3 * time.Second
	}
	if o.ProbeCache <= 0 {
		o.ProbeCache = 2 * time.Second
	}
	op := &Ops{opts: o}
	mux.HandleFunc("GET /healthz", op.HandleHealthz)
	mux.HandleFunc("GET /readyz", op.HandleReadyz)
	if o.Metrics != nil {
		mux.Handle("GET /metrics", o.MetricsGate.Wrap(o.Metrics.Handler()))
	}
	return op
}

// HandleHealthz answers 200 while the process serves HTTP at all, with
// the build that answers (ghgate healthcheck prints it).
func (op *Ops) HandleHealthz(w http.ResponseWriter, _ *http.Request) {
	writeStatus(w, http.StatusOK, map[string]any{"status": "ok", "version": version.Current()})
}

// HandleReadyz answers 200 when every probe passes and the server is not
// draining, else 503 with what failed (never a credential: probes report
// their error's text, which the store and GitHub client redact).
func (op *Ops) HandleReadyz(w http.ResponseWriter, r *http.Request) {
	if op.draining.Load() {
		w.Header().Set("Retry-After", "1")
		writeStatus(w, http.StatusServiceUnavailable, map[string]any{"status": "draining"})
		return
	}
	failed := op.check(r.Context())
	if len(failed) > 0 {
		writeStatus(w, http.StatusServiceUnavailable, map[string]any{"status": "not ready", "failed": failed})
		return
	}
	writeStatus(w, http.StatusOK, map[string]any{"status": "ready"})
}

func (op *Ops) check(ctx context.Context) map[string]string {
	op.mu.Lock()
	defer op.mu.Unlock()
	if !op.lastAt.IsZero() && time.Since(op.lastAt) < op.opts.ProbeCache {
		return op.lastErr
	}
	failed := map[string]string{}
	for _, p := range op.opts.Probes {
		pctx, cancel := context.WithTimeout(ctx, op.opts.ProbeTimeout)
		if err := p.Check(pctx); err != nil {
			failed[p.Name] = err.Error()
		}
		cancel()
	}
	op.lastAt, op.lastErr = time.Now(), failed
	return failed
}

// Guard wraps the MCP handler: while draining, a new request is refused
// with 503 and Retry-After (a balancer or client sends it to another
// replica); otherwise it is counted in flight until it returns.
func (op *Ops) Guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if op.draining.Load() {
			w.Header().Set("Retry-After", "1")
			w.Header().Set("Connection", "close")
			writeStatus(w, http.StatusServiceUnavailable, map[string]any{"status": "draining",
				"message": "this ghgate is shutting down; send the request again (another replica, or this one restarted)"})
			return
		}
		if !op.enter() {
			// Drain began between the check and here: refused, not started
			// after Drain stopped waiting.
			w.Header().Set("Retry-After", "1")
			writeStatus(w, http.StatusServiceUnavailable, map[string]any{"status": "draining"})
			return
		}
		defer op.leave()
		next.ServeHTTP(w, r)
	})
}

// Drain refuses new requests from now on and waits until the ones in
// flight have finished or ctx ends; it reports whether they all finished.
func (op *Ops) Drain(ctx context.Context) bool {
	op.flightMu.Lock()
	op.draining.Store(true)
	if op.idle == nil {
		op.idle = make(chan struct{})
		if op.flight == 0 {
			close(op.idle)
		}
	}
	idle := op.idle
	op.flightMu.Unlock()
	select {
	case <-idle:
		return true
	case <-ctx.Done():
		return false
	}
}

func (op *Ops) enter() bool {
	op.flightMu.Lock()
	defer op.flightMu.Unlock()
	if op.draining.Load() {
		return false
	}
	op.flight++
	return true
}

func (op *Ops) leave() {
	op.flightMu.Lock()
	defer op.flightMu.Unlock()
	op.flight--
	if op.flight == 0 && op.idle != nil {
		close(op.idle)
	}
}

// Draining reports whether Drain has begun.
func (op *Ops) Draining() bool { return op.draining.Load() }

func writeStatus(w http.ResponseWriter, status int, body any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(body)
}
