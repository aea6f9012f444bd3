package emulator

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/graphql"
	"github.com/ghgate/ghgate/internal/emulator/rest"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Options configure an Emulator. The zero value serves the demo seed with
// GitHub's default budgets and no added latency.
type Options struct {
	// Seed names the initial world: "demo" (the default) or "empty".
	Seed string
	// FleetRepos, when positive, adds to the demo seed the fleet
	// organization with that many repositories (seed.DemoFleetRepos for
	// the demo, 200 for the reports bench).
	FleetRepos int
	// Latency is how long every request takes. A read (GET or HEAD) is
	// answered at once and its answer held until Latency has passed since
	// it arrived, so the time is the whole answer's, as GitHub's round
	// trip includes GitHub's own work; any other request waits Latency
	// before it is handled, so a write lands at the end of its time. A
	// request with a fault waits the fault's latency too, then is handled.
	Latency time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// CoreLimit, SearchLimit and GraphQLLimit are the per-token budgets per
	// window (one hour for core and GraphQL, one minute for search).
	// Zero means GitHub's defaults: 5000, 30 and 5000.
	CoreLimit, SearchLimit, GraphQLLimit int
	// Logger receives one line per request at debug level; nil discards.
	Logger *slog.Logger
	// SearchLag is how long a write takes to reach search's index, as
	// GitHub's trails by seconds; zero makes every write searchable at once.
	SearchLag time.Duration
	// GHESVersion, when set ("3.20"), makes requests through the GitHub
	// Enterprise Server prefix /api/v3 answer as that version does: REST
	// API version 2022-11-28 only (another answers 400), and so no related
	// issues. Unset, /api/v3 answers as GitHub.com does.
	GHESVersion string
	// MaxConcurrent is how many requests one credential may have in flight
	// before the next is refused with GitHub's secondary rate limit (403,
	// retry-after): zero means GitHub's 100, negative no limit.
	MaxConcurrent int
}

// Emulator is a stateful stand-in for GitHub's REST and GraphQL APIs.
type Emulator struct {
	state   *state.State
	opts    Options
	rest    http.Handler
	graphql http.Handler
	faults  *faults.Table
	limits  *faults.RateLimiter
	flight  *inflight
	devices deviceFlows
	reqSeq  atomic.Int64
	log     *slog.Logger
}

// New builds an emulator with the seed the options name.
func New(opts Options) (*Emulator, error) {
	st := state.NewState(opts.Now)
	switch opts.Seed {
	case "", "demo":
		if err := seed.SeedDemoWith(st, seed.DemoOptions{FleetRepos: opts.FleetRepos}); err != nil {
			return nil, err
		}
	case "empty":
	default:
		return nil, fmt.Errorf("emulator: unknown seed %q (known: demo, empty)", opts.Seed)
	}
	st.SetSearchLag(opts.SearchLag) // after the seed, which is indexed
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	maxConc := opts.MaxConcurrent
	if maxConc == 0 {
		maxConc = defaultMaxConcurrent
	}
	e := &Emulator{state: st, opts: opts, faults: &faults.Table{}, log: log, flight: &inflight{limit: maxConc},
		limits: faults.NewRateLimiter(st.Clock, opts.CoreLimit, opts.SearchLimit, opts.GraphQLLimit)}
	e.rest = rest.NewHandler(e.limits, log)
	gql, err := graphql.NewHandler(e.limits)
	if err != nil {
		return nil, err
	}
	e.graphql = gql
	return e, nil
}

// Routes lists the REST endpoints served, as "METHOD /openapi/{template}".
func (e *Emulator) Routes() []string { return rest.Routes() }

// DescribedRoutes are the Routes GitHub's OpenAPI description has: all
// but the related-issue endpoints of API version 2026-03-10, which it
// does not describe yet.
func (e *Emulator) DescribedRoutes() []string {
	return slices.DeleteFunc(rest.Routes(), func(r string) bool { return slices.Contains(rest.Undescribed(), r) })
}

// State exposes the world, for seeding and assertions in tests.
func (e *Emulator) State() *state.State { return e.state }

// Faults is the fault-injection table.
func (e *Emulator) Faults() *faults.Table { return e.faults }

// ExhaustRateLimit spends a token's whole budget for a resource
// ("core", "search" or "graphql").
func (e *Emulator) ExhaustRateLimit(token, resource string) { e.limits.Exhaust(token, resource) }

// GitHub's Vary headers. Every REST answer varies on the content
// negotiation headers; an answer that carries a resource (a 2xx with a
// body, and the 304 that stands in for one) also varies on the credential,
// so a shared cache keeps one copy per caller.
const (
	varyCredential = "Accept, Authorization, Cookie, X-GitHub-OTP"
	varyContent    = "Accept-Encoding, Accept, X-Requested-With"
)

// ServeHTTP implements [http.Handler].
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	arrival := time.Now()
	reqID := fmt.Sprintf("EMU0:%04X:%06X", 0xA1B2, e.reqSeq.Add(1))
	w.Header().Set("X-GitHub-Request-Id", reqID)
	path := r.URL.Path
	if strings.HasPrefix(path, "/_emulator/") {
		e.admin(w, r)
		return
	}
	if strings.HasPrefix(path, "/login/") {
		// The OAuth endpoints are on GitHub's web host, outside the API:
		// no API version, rate limit or token (device_flow.go).
		e.login(w, r)
		return
	}
	w.Header().Set("Vary", varyContent)
	// The Date header is on the same clock as the timestamps the answer
	// carries, as on GitHub (net/http would use the host's clock).
	w.Header().Set("Date", e.state.Now().UTC().Format(http.TimeFormat))
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	root := scheme + "://" + r.Host
	l := wire.Links{API: root, Web: root}
	// Reached as api.<host>, as github.com's API is, the web pages are at
	// <host>: GitHub's html_url and GraphQL url name github.com, not
	// api.github.com.
	if web, ok := strings.CutPrefix(r.Host, "api."); ok && web != "" {
		l.Web = scheme + "://" + web
	}
	// Release assets are uploaded to uploads.<host>, as to
	// uploads.github.com; what that host answers links to the API's.
	if web, ok := strings.CutPrefix(r.Host, "uploads."); ok && web != "" {
		l = wire.Links{API: scheme + "://api." + web, Web: scheme + "://" + web}
	}
	graphql := false
	versions := apiVersions
	ghes := ""
	switch {
	case path == "/graphql" || path == "/api/graphql":
		graphql = true
	case path == "/api/v3" || strings.HasPrefix(path, "/api/v3/"),
		strings.HasPrefix(path, "/api/uploads/"): // Enterprise Server's release-asset uploads
		if e.opts.GHESVersion != "" {
			versions, ghes = ghesAPIVersions, e.opts.GHESVersion
		}
		l.API = root + "/api/v3"
		prefix := "/api/v3"
		if strings.HasPrefix(path, "/api/uploads/") {
			prefix = "/api/uploads"
		}
		r = stripPrefix(r, prefix)
		path = r.URL.Path
	}
	resource := "core"
	switch {
	case graphql:
		resource = "graphql"
	case strings.HasPrefix(path, "/search/"):
		resource = "search"
	}

	routeKey := r.Method + " " + path
	concurrent, leave := e.flight.enter(r.Header.Get("Authorization"))
	defer leave()
	fault := e.faults.Take(r.Method, path)
	delay := e.opts.Latency
	if fault != nil {
		delay += fault.Latency
	}
	if fault == nil && delay > 0 && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
		held := &heldAnswer{ResponseWriter: w}
		defer held.release(r.Context(), arrival.Add(delay))
		w, delay = held, 0
	}
	if delay > 0 {
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
	}

	tok, authErr := e.authenticate(r)
	if authErr != "" {
		// Failed authentication is charged to the caller's address at the
		// unauthenticated budget, and says so in the usual headers.
		anon := faults.AnonymousPrefix + clientHost(r)
		e.limits.Charge(anon, "core")
		faults.SetHeaders(w.Header(), e.limits.Snapshot(anon, "core"))
		wire.WriteJSON(w, http.StatusUnauthorized, wire.ErrorBody{Message: authErr, DocumentationURL: wire.DocsURL("rest"), Status: "401"})
		return
	}
	if e.flight.limit > 0 && concurrent > e.flight.limit {
		e.writeConcurrencyLimited(w, tok.Value, resource, reqID)
		return
	}
	free := path == "/rate_limit" && !graphql // GitHub does not charge for reading the budget
	if fault != nil && fault.Kind == faults.RateLimit {
		e.limits.Exhaust(tok.Value, resource)
	}
	if !free {
		if snap, ok := e.limits.Check(tok.Value, resource); !ok {
			faults.SetHeaders(w.Header(), snap)
			if graphql {
				// GitHub reports an exhausted GraphQL budget inside a 200.
				wire.WriteJSON(w, http.StatusOK, map[string]any{"errors": []map[string]any{{
					"type": "RATE_LIMITED", "message": "API rate limit already exceeded for user ID " + strconv.FormatInt(e.viewerID(tok), 10) + ".",
				}}})
				return
			}
			wire.WriteJSON(w, http.StatusForbidden, wire.ErrorBody{
				Message:          "API rate limit exceeded for user ID " + strconv.FormatInt(e.viewerID(tok), 10) + ". If you reach out to GitHub Support for help, please include the request ID " + reqID + ".",
				DocumentationURL: wire.DocsURL("rest/using-the-rest-api/rate-limits-for-the-rest-api"), Status: "403"})
			return
		}
	}

	if fault != nil {
		switch fault.Kind {
		case faults.Status:
			e.limits.Charge(tok.Value, resource)
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			writeFaultStatus(w, fault.Status)
			return
		case faults.Secondary:
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			w.Header().Set("Retry-After", strconv.Itoa(fault.RetryAfterSeconds()))
			status := fault.Status
			if status == 0 {
				status = http.StatusForbidden
			}
			wire.WriteJSON(w, status, wire.ErrorBody{
				Message:          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID " + reqID + ".",
				DocumentationURL: wire.DocsURL("rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"), Status: strconv.Itoa(status)})
			return
		case faults.DropBefore:
			dropConnection(w)
			return
		}
	}

	rec := wire.NewRecorder()
	c := &wire.Call{State: e.state, Token: tok, Links: l, Resource: resource, W: rec, GHES: ghes,
		TimedOut: fault != nil && fault.Kind == faults.SearchTimeout}
	e.state.RLock()
	c.Viewer = e.state.Account(tok.Login)
	e.state.RUnlock()
	r = wire.WithCall(r, c)
	c.Req = r
	versionRejected := false
	switch {
	case graphql:
		// GitHub's GraphQL API is not versioned by this header.
		e.graphql.ServeHTTP(rec, r)
	case !supportedIn(r.Header, versions):
		// Answered like any other malformed request: after authentication,
		// and charged as one.
		versionRejected = true
		wire.WriteJSON(rec, http.StatusBadRequest, wire.ErrorBody{
			Message: unsupportedVersionMessage(requestedAPIVersion(r.Header), versions), DocumentationURL: wire.DocsURL("rest"), Status: "400"})
	default:
		e.rest.ServeHTTP(rec, r)
	}
	e.log.Debug("emulator request", "route", routeKey, "status", rec.Status, "request_id", reqID)

	if fault != nil {
		switch fault.Kind {
		case faults.DropAfter:
			dropConnection(w)
			return
		case faults.MalformedAfter:
			e.limits.Charge(tok.Value, resource)
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set(faults.Header, string(faults.MalformedAfter))
			w.WriteHeader(rec.Status)
			body := rec.Body.Bytes()
			_, _ = w.Write(body[:len(body)/2])
			return
		}
	}

	h := w.Header()
	for k, v := range rec.Header() {
		h[k] = v
	}
	rest.SetScopeHeaders(h, tok)
	status := rec.Status
	body := rec.Body.Bytes()
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && status == http.StatusOK && !graphql {
		sum := sha256.Sum256(body)
		etag := `W/"` + hex.EncodeToString(sum[:16]) + `"`
		h.Set("ETag", etag)
		if etagMatches(r.Header.Get("If-None-Match"), etag) {
			// A conditional hit costs no budget, as GitHub documents. It
			// carries the Vary the 200 would have (RFC 9110 section 15.4.5).
			h["Vary"] = []string{varyCredential, varyContent}
			faults.SetHeaders(h, e.limits.Snapshot(tok.Value, resource))
			h.Del("Content-Type")
			h.Del("Link")
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if !free {
		e.limits.Charge(tok.Value, resource)
	}
	faults.SetHeaders(h, e.limits.Snapshot(tok.Value, resource))
	if h.Get("Content-Type") == "" && len(body) > 0 {
		h.Set("Content-Type", "application/json; charset=utf-8")
	}
	if !graphql && status >= 200 && status < 300 && len(body) > 0 {
		h["Vary"] = []string{varyCredential, varyContent}
	}
	if h.Get("X-GitHub-Media-Type") == "" { // a diff or patch names its own
		h.Set("X-GitHub-Media-Type", "github.v3; format=json")
	}
	if !versionRejected {
		selected := defaultAPIVersion
		if v := strings.TrimSpace(r.Header.Get(apiVersionHeader)); v != "" {
			selected = v // supported, or it would have been rejected
		}
		h.Set("X-GitHub-Api-Version-Selected", selected)
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (e *Emulator) viewerID(t *state.Token) int64 {
	e.state.RLock()
	defer e.state.RUnlock()
	if a := e.state.Account(t.Login); a != nil {
		return a.ID
	}
	return 0
}

// authenticate reads "token X" or "Bearer X" and returns the token, or the
// message GitHub sends with its 401.
func (e *Emulator) authenticate(r *http.Request) (*state.Token, string) {
	h := r.Header.Get("Authorization")
	if h == "" {
		return nil, "Requires authentication"
	}
	scheme, value, ok := strings.Cut(h, " ")
	if !ok || (!strings.EqualFold(scheme, "token") && !strings.EqualFold(scheme, "bearer")) {
		return nil, "Bad credentials"
	}
	e.state.RLock()
	defer e.state.RUnlock()
	t := e.state.Token(strings.TrimSpace(value))
	if t == nil && isAppPath(r.URL.Path) {
		return e.state.AppIdentity(strings.TrimSpace(value)) // an App's JWT (state/apps_jwt.go)
	}
	if t == nil || (!t.ExpiresAt.IsZero() && !e.state.Clock().Before(t.ExpiresAt)) {
		return nil, "Bad credentials"
	}
	return t, ""
}

func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	weak := strings.TrimPrefix(etag, "W/")
	for _, part := range strings.Split(header, ",") {
		p := strings.TrimSpace(part)
		if p == "*" || p == etag || strings.TrimPrefix(p, "W/") == weak {
			return true
		}
	}
	return false
}

func stripPrefix(r *http.Request, prefix string) *http.Request {
	r2 := r.Clone(r.Context())
	r2.URL.Path = strings.TrimPrefix(r.URL.Path, prefix)
	if r2.URL.Path == "" {
		r2.URL.Path = "/"
	}
	// An escaped slash inside a segment (a label named "type/bug") must
	// stay escaped, or the route would see one segment more.
	r2.URL.RawPath = strings.TrimPrefix(r.URL.RawPath, prefix)
	return r2
}

// dropConnection closes the client's connection without a response, as a
// network failure would.
func dropConnection(w http.ResponseWriter) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		panic(http.ErrAbortHandler)
	}
	conn, _, err := hj.Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	_ = conn.Close()
}

func clientHost(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// isAppPath reports whether a REST path is one of the endpoints an App
// authenticates to with its JWT.
func isAppPath(path string) bool { return path == "/app" || strings.HasPrefix(path, "/app/") }

func writeFaultStatus(w http.ResponseWriter, status int) {
	msg := http.StatusText(status)
	switch status {
	case http.StatusBadGateway:
		msg = "Server Error"
	case http.StatusServiceUnavailable:
		msg = "Service Unavailable"
	}
	wire.WriteJSON(w, status, wire.ErrorBody{Message: msg, DocumentationURL: wire.DocsURL("rest"), Status: strconv.Itoa(status)})
}

// heldAnswer keeps a read's status and body until its latency is up; the
// headers go to the real writer's map as they are set ([wire.Recorder] keeps
// a map of its own, and the answers written before the handler, such as a
// 401, set headers on the real writer).
type heldAnswer struct {
	http.ResponseWriter
	status int
	body   bytes.Buffer
}

func (h *heldAnswer) WriteHeader(status int) {
	if h.status == 0 {
		h.status = status
	}
}

func (h *heldAnswer) Write(b []byte) (int, error) {
	if h.status == 0 {
		h.status = http.StatusOK
	}
	return h.body.Write(b)
}

// release writes the answer at due, or drops it when the caller has gone.
func (h *heldAnswer) release(ctx context.Context, due time.Time) {
	t := time.NewTimer(time.Until(due))
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
		return
	}
	if h.status != 0 {
		h.ResponseWriter.WriteHeader(h.status)
	}
	_, _ = h.ResponseWriter.Write(h.body.Bytes())
}
