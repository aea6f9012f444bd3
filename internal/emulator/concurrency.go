package emulator

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// GitHub's secondary rate limits include "no more than 100 concurrent
// requests", shared by REST and GraphQL, per caller. The emulator counts
// each credential's requests in flight (from arrival, so added latency
// counts, as the network's would) and refuses the ones over the limit with
// GitHub's secondary-limit 403 and a retry-after.

// defaultMaxConcurrent is GitHub's documented concurrency limit.
const defaultMaxConcurrent = 100

// concurrencyRetryAfter is the retry-after (seconds) of a request refused
// for concurrency: in-flight requests finish within moments.
const concurrencyRetryAfter = 1

type inflight struct {
	limit   int // <= 0: no limit
	callers sync.Map
}

// callerFlight is one credential's requests in flight, and the most it
// ever had at once.
type callerFlight struct{ now, peak atomic.Int64 }

// enter counts a request of the caller with this Authorization header and
// returns the count with it, and the function that ends it.
func (f *inflight) enter(auth string) (int, func()) {
	// Keyed by the credential, whichever scheme carries it ("token" or
	// "Bearer"), as GitHub counts a token's requests.
	_, cred, ok := strings.Cut(auth, " ")
	if !ok {
		cred = auth
	}
	v, _ := f.callers.LoadOrStore(cred, new(callerFlight))
	c := v.(*callerFlight)
	n := c.now.Add(1)
	for p := c.peak.Load(); n > p && !c.peak.CompareAndSwap(p, n); p = c.peak.Load() {
	}
	return int(n), func() { c.now.Add(-1) }
}

func (f *inflight) caller(token string) *callerFlight {
	v, ok := f.callers.Load(token)
	if !ok {
		return &callerFlight{}
	}
	return v.(*callerFlight)
}

// InFlight is how many requests sent with "Authorization: token <token>" (or Bearer)
// the emulator is handling now; PeakInFlight the most it ever handled at
// once, so a test can check a client's concurrency bound.
func (e *Emulator) InFlight(token string) int { return int(e.flight.caller(token).now.Load()) }

// PeakInFlight: see InFlight.
func (e *Emulator) PeakInFlight(token string) int { return int(e.flight.caller(token).peak.Load()) }

// writeConcurrencyLimited answers a request over the limit. The budget
// headers are the caller's as they stand: the refusal costs nothing.
func (e *Emulator) writeConcurrencyLimited(w http.ResponseWriter, token, resource, reqID string) {
	faults.SetHeaders(w.Header(), e.limits.Snapshot(token, resource))
	w.Header().Set("Retry-After", strconv.Itoa(concurrencyRetryAfter))
	wire.WriteJSON(w, http.StatusForbidden, wire.ErrorBody{
		Message:          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID " + reqID + ".",
		DocumentationURL: wire.DocsURL("rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"), Status: "403"})
}
