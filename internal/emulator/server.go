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
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/faults"
)

// Options configure an Emulator. The zero value serves the demo seed with
// GitHub's default budgets and no added latency.
type Options struct {
	// Seed names the initial world: "demo" (the default) or "empty".
	Seed string
	// Latency is added to every request before it is handled.
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
}

// Emulator is a stateful stand-in for GitHub's REST and GraphQL APIs.
type Emulator struct {
	state   *State
	opts    Options
	rest    *http.ServeMux
	graphql http.Handler
	faults  *Faults
	limits  *faults.RateLimiter
	reqSeq  atomic.Int64
	log     *slog.Logger
}

// New builds an emulator with the seed the options name.
func New(opts Options) (*Emulator, error) {
	st := NewState(opts.Now)
	switch opts.Seed {
	case "", "demo":
		if err := SeedDemo(st); err != nil {
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
	e := &Emulator{state: st, opts: opts, faults: &Faults{}, log: log,
		limits: faults.NewRateLimiter(st.Clock, opts.CoreLimit, opts.SearchLimit, opts.GraphQLLimit)}
	e.rest = http.NewServeMux()
	e.routes(e.rest)
	graphql, err := e.graphQLHandler()
	if err != nil {
		return nil, err
	}
	e.graphql = graphql
	return e, nil
}

// State exposes the world, for seeding and assertions in tests.
func (e *Emulator) State() *State { return e.state }

// Faults is the fault-injection table.
func (e *Emulator) Faults() *Faults { return e.faults }

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

// ctxKey carries the per-request call through the context.
type ctxKey struct{}

// call is what every handler gets: who is asking and how to address them.
type call struct {
	e        *Emulator
	st       *State
	token    *Token
	viewer   *Account
	links    links
	resource string
	req      *http.Request
	w        http.ResponseWriter
	// timedOut is set when an injected fault makes a search run out of
	// time (rest_search.go).
	timedOut bool
}

func callFrom(r *http.Request) *call { return r.Context().Value(ctxKey{}).(*call) }

// ServeHTTP implements http.Handler.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	reqID := fmt.Sprintf("EMU0:%04X:%06X", 0xA1B2, e.reqSeq.Add(1))
	w.Header().Set("X-GitHub-Request-Id", reqID)
	path := r.URL.Path
	if strings.HasPrefix(path, "/_emulator/") {
		e.admin(w, r)
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
	l := links{api: root, web: root}
	// Reached as api.<host>, as github.com's API is, the web pages are at
	// <host>: GitHub's html_url and GraphQL url name github.com, not
	// api.github.com.
	if web, ok := strings.CutPrefix(r.Host, "api."); ok && web != "" {
		l.web = scheme + "://" + web
	}
	graphql := false
	switch {
	case path == "/graphql" || path == "/api/graphql":
		graphql = true
	case path == "/api/v3" || strings.HasPrefix(path, "/api/v3/"):
		l.api = root + "/api/v3"
		r = stripPrefix(r, "/api/v3")
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
	fault := e.faults.Take(r.Method, path)
	delay := e.opts.Latency
	if fault != nil {
		delay += fault.Latency
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
		writeJSON(w, http.StatusUnauthorized, errorBody{Message: authErr, DocumentationURL: docsURL("rest"), Status: "401"})
		return
	}
	free := path == "/rate_limit" && !graphql // GitHub does not charge for reading the budget
	if fault != nil && fault.Kind == FaultRateLimit {
		e.limits.Exhaust(tok.Value, resource)
	}
	if !free {
		if snap, ok := e.limits.Check(tok.Value, resource); !ok {
			faults.SetHeaders(w.Header(), snap)
			if graphql {
				// GitHub reports an exhausted GraphQL budget inside a 200.
				writeJSON(w, http.StatusOK, map[string]any{"errors": []map[string]any{{
					"type": "RATE_LIMITED", "message": "API rate limit already exceeded for user ID " + strconv.FormatInt(e.viewerID(tok), 10) + ".",
				}}})
				return
			}
			writeJSON(w, http.StatusForbidden, errorBody{
				Message:          "API rate limit exceeded for user ID " + strconv.FormatInt(e.viewerID(tok), 10) + ". If you reach out to GitHub Support for help, please include the request ID " + reqID + ".",
				DocumentationURL: docsURL("rest/using-the-rest-api/rate-limits-for-the-rest-api"), Status: "403"})
			return
		}
	}

	if fault != nil {
		switch fault.Kind {
		case FaultStatus:
			e.limits.Charge(tok.Value, resource)
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			writeFaultStatus(w, fault.Status)
			return
		case FaultSecondary:
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			w.Header().Set("Retry-After", strconv.Itoa(fault.RetryAfterSeconds()))
			status := fault.Status
			if status == 0 {
				status = http.StatusForbidden
			}
			writeJSON(w, status, errorBody{
				Message:          "You have exceeded a secondary rate limit. Please wait a few minutes before you try again. If you reach out to GitHub Support for help, please include the request ID " + reqID + ".",
				DocumentationURL: docsURL("rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"), Status: strconv.Itoa(status)})
			return
		case FaultDropBefore:
			dropConnection(w)
			return
		}
	}

	rec := newRecorder()
	c := &call{e: e, st: e.state, token: tok, links: l, resource: resource, w: rec,
		timedOut: fault != nil && fault.Kind == faults.SearchTimeout}
	e.state.RLock()
	c.viewer = e.state.Account(tok.Login)
	e.state.RUnlock()
	r = r.WithContext(context.WithValue(r.Context(), ctxKey{}, c))
	c.req = r
	versionRejected := false
	switch {
	case graphql:
		// GitHub's GraphQL API is not versioned by this header.
		e.graphql.ServeHTTP(rec, r)
	case !SupportedAPIVersion(r.Header):
		// Answered like any other malformed request: after authentication,
		// and charged as one.
		versionRejected = true
		writeJSON(rec, http.StatusBadRequest, errorBody{
			Message: unsupportedVersionMessage(requestedAPIVersion(r.Header)), DocumentationURL: docsURL("rest"), Status: "400"})
	default:
		e.rest.ServeHTTP(rec, r)
	}
	e.log.Debug("emulator request", "route", routeKey, "status", rec.status, "request_id", reqID)

	if fault != nil {
		switch fault.Kind {
		case FaultDropAfter:
			dropConnection(w)
			return
		case FaultMalformedAfter:
			e.limits.Charge(tok.Value, resource)
			faults.SetHeaders(w.Header(), e.limits.Snapshot(tok.Value, resource))
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.Header().Set(FaultHeader, string(FaultMalformedAfter))
			w.WriteHeader(rec.status)
			body := rec.body.Bytes()
			_, _ = w.Write(body[:len(body)/2])
			return
		}
	}

	h := w.Header()
	for k, v := range rec.header {
		h[k] = v
	}
	setScopeHeaders(h, tok)
	status := rec.status
	body := rec.body.Bytes()
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
		h.Set("X-GitHub-Api-Version-Selected", defaultAPIVersion)
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		_, _ = w.Write(body)
	}
}

func (e *Emulator) viewerID(t *Token) int64 {
	e.state.RLock()
	defer e.state.RUnlock()
	if a := e.state.Account(t.Login); a != nil {
		return a.ID
	}
	return 0
}

// authenticate reads "token X" or "Bearer X" and returns the token, or the
// message GitHub sends with its 401.
func (e *Emulator) authenticate(r *http.Request) (*Token, string) {
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

// recorder buffers a handler's response so the emulator can add ETags,
// answer 304s and inject faults after the handler has run.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}, status: http.StatusOK} }

func (r *recorder) Header() http.Header         { return r.header }
func (r *recorder) Write(b []byte) (int, error) { return r.body.Write(b) }
func (r *recorder) WriteHeader(status int)      { r.status = status }

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
