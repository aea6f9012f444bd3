package github

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"mime"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/store"
)

const (
	// CacheHeader is set to "hit" on a response that ghgate served from its
	// store after GitHub answered 304 Not Modified.
	CacheHeader = "X-Ghgate-Cache"
	// APIVersion is the REST API version ghgate is written against.
	APIVersion = "2022-11-28"

	maxCachedBody = 8 << 20 // larger bodies pass through uncached
	maxErrorBody  = 1 << 20 // error bodies read to tell limits apart
)

// cachedHeaders are the response headers a 304 does not repeat but a
// caller of the served 200 needs.
var cachedHeaders = []string{"Content-Type", "Link", "Last-Modified", "X-GitHub-Media-Type"}

// transport is the [http.RoundTripper] beneath go-github and the GraphQL
// client. For each call it refuses to send when the rate budget is known to
// be spent; attaches the credential (to GitHub's hosts only) and GitHub's
// headers; for GETs, sends If-None-Match from the store and serves the
// stored body when GitHub answers 304; retries reads within the policy;
// and records the rate budget every response reports.
type transport struct {
	c    *Client
	base http.RoundTripper
}

// attempt is one response and, when it was read in full, its body.
type attempt struct {
	resp     *http.Response
	body     []byte
	buffered bool
	readErr  error // the body broke off while buffering
	// validJSON: the buffered body was checked and is whole JSON.
	validJSON bool
}

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	c := t.c
	rec := callFrom(req)
	rec.reached.Store(true)
	resource := c.ep.resource(req.URL)
	c.pullShared(req.Context())
	e := c.budget.refusal(resource, c.now())
	if e == nil && !rec.read {
		e = unadmitted(req)
	}
	if e != nil {
		rec.refused.Store(e)
		if req.Body != nil {
			_ = req.Body.Close()
		}
		return nil, e
	}
	out := req.Clone(req.Context())
	t.decorate(out)
	cached, key := t.conditional(out)
	start := c.now()
	a, err := t.send(out, rec, resource)
	if err == nil {
		a, cached, err = t.whole(out, a, cached, key, rec, resource)
	}
	tally := tallyFrom(req.Context())
	if err != nil {
		tally.count(rec.attempts.Load(), 0, 0)
		if c.observer != nil {
			c.observer.Upstream(out.Method, out.URL.Path, 0, c.now().Sub(start), false)
		}
		return nil, err
	}
	status := a.resp.StatusCode
	body := a.resp.ContentLength
	if a.buffered {
		body = int64(len(a.body))
	}
	tally.count(rec.attempts.Load(), status, body)
	if rec.read && status < 400 {
		noteRead(req)
	}
	resp := t.finish(out, a, cached, key, rec)
	if c.observer != nil {
		c.observer.Upstream(out.Method, out.URL.Path, status, c.now().Sub(start), rec.cacheHit.Load())
		if o, ok := observed(resp.Header, resource); ok {
			c.observer.RateBudget(o.Resource, o.Remaining)
		}
	}
	return resp, nil
}

// decorate adds the credential and GitHub's request headers.
func (t *transport) decorate(r *http.Request) {
	c := t.c
	if c.ep.owns(r.URL) && c.token != "" {
		r.Header.Set("Authorization", "Bearer "+c.token)
	} else {
		r.Header.Del("Authorization")
	}
	if r.Header.Get("User-Agent") == "" {
		r.Header.Set("User-Agent", c.userAgent)
	}
	if r.Header.Get("X-GitHub-Api-Version") == "" {
		r.Header.Set("X-GitHub-Api-Version", APIVersion)
	}
}

type noStoreKey struct{}

// withoutStore marks the reads made with ctx as ones whose answers must
// not be written to the conditional-request store, which may be a file on
// disk: they are sent unconditionally and their bodies are not kept.
func withoutStore(ctx context.Context) context.Context {
	return context.WithValue(ctx, noStoreKey{}, true)
}

// conditional looks up the stored response for a GET and, when there is
// one, makes the request conditional on it. The lookup reads the
// validators only, unless the whole entry is at hand in memory: the body
// is read (by whole) only if GitHub answers 304. A zero key (no store, not
// a GET, or withoutStore) also keeps finish from storing the answer.
func (t *transport) conditional(r *http.Request) (*store.CachedResponse, store.ETagKey) {
	c := t.c
	if r.Method != http.MethodGet || c.store == nil || r.Header.Get("If-None-Match") != "" || r.Header.Get("If-Modified-Since") != "" ||
		r.Context().Value(noStoreKey{}) != nil {
		return nil, store.ETagKey{}
	}
	key := store.ETagKey{Credential: c.cred, URL: r.URL.String(), Accept: r.Header.Get("Accept")}
	cr, ok, err := c.store.PeekETag(r.Context(), key)
	c.storeResult(err)
	if err != nil || !ok {
		// A store failure costs a full read, never the request.
		return nil, key
	}
	r.Header.Set("If-None-Match", cr.ETag)
	return &cr, key
}

// whole readies a 304 to be answered from the store: when conditional
// read only the validators, it reads the whole entry now. If the entry
// went meanwhile (evicted, pruned) or was replaced by another process
// sharing the store (its ETag no longer the one GitHub matched), the 304
// cannot be answered from it, so the request is sent again without the
// condition: a full read, whose answer finish stores as any other's. The
// returned entry is the one to answer a 304 with, nil after a resend.
func (t *transport) whole(req *http.Request, a attempt, cached *store.CachedResponse, key store.ETagKey, rec *call, resource string) (attempt, *store.CachedResponse, error) {
	if a.resp.StatusCode != http.StatusNotModified || cached == nil || !cached.Partial {
		return a, cached, nil
	}
	cr, ok, err := t.c.store.GetETag(req.Context(), key)
	t.c.storeResult(err)
	if err == nil && ok && !cr.Partial && cr.ETag == cached.ETag {
		return a, &cr, nil
	}
	drain(a.resp)
	req.Header.Del("If-None-Match")
	a, err = t.send(req, rec, resource)
	return a, nil, err
}

// send puts the request on the wire, retrying a read while the failure is
// one a retry can fix and the policy allows the wait. A write gets exactly
// one attempt.
func (t *transport) send(req *http.Request, rec *call, resource string) (attempt, error) {
	c := t.c
	ctx := req.Context()
	maxAttempts := 1
	if rec.read && (req.Body == nil || req.Body == http.NoBody || req.GetBody != nil) {
		maxAttempts += c.retry.maxRetries
	}
	var waited time.Duration
	for n := 1; ; n++ {
		r := req
		if n > 1 {
			r = req.Clone(ctx)
			if req.GetBody != nil {
				body, err := req.GetBody()
				if err != nil {
					return attempt{}, err
				}
				r.Body = body
			}
		}
		a, err := t.once(r, rec)
		var wait time.Duration
		retry := false
		if err != nil {
			retry, wait = ctx.Err() == nil, c.retry.backoff(n)
		} else {
			c.budget.observe(a.resp.Header, resource)
			c.budget.observeClock(a.resp.Header, c.now())
			if o, ok := observed(a.resp.Header, resource); ok {
				c.pushShared(ctx, o)
			}
			retry, wait = t.retryable(&a, rec, n)
		}
		if n >= maxAttempts || !retry || !c.retry.allows(ctx, waited, wait) {
			return a, err
		}
		if a.resp != nil {
			drain(a.resp)
		}
		if err := c.sleep(ctx, wait); err != nil {
			return attempt{}, err
		}
		waited += wait
	}
}

// once sends one attempt, noting through httptrace whether the request
// reached the connection.
func (t *transport) once(r *http.Request, rec *call) (attempt, error) {
	trace := &httptrace.ClientTrace{
		WroteHeaders: func() { rec.sent.Store(true) },
		WroteRequest: func(httptrace.WroteRequestInfo) { rec.sent.Store(true) },
	}
	r = r.WithContext(httptrace.WithClientTrace(r.Context(), trace))
	rec.attempts.Add(1)
	resp, err := t.base.RoundTrip(r)
	if err != nil {
		return attempt{}, err
	}
	return attempt{resp: resp}, nil
}

// retryable decides whether a response is worth another attempt and how
// long to wait first. It reads the bodies it needs to judge (error bodies,
// and JSON bodies of reads, which a truncated answer leaves invalid).
func (t *transport) retryable(a *attempt, rec *call, n int) (bool, time.Duration) {
	c := t.c
	resp := a.resp
	status := resp.StatusCode
	switch {
	case status >= 500:
		return true, max(retryAfter(resp.Header, c.now()), c.retry.backoff(n))
	case status == http.StatusForbidden || status == http.StatusTooManyRequests:
		buffer(a, maxErrorBody)
		if isPrimaryLimit(status, resp.Header) {
			// A spent budget refills at the reset, usually far away: report
			// it rather than wait.
			return false, 0
		}
		if isSecondaryLimit(status, resp.Header, errorMessage(a.body)) {
			wait := retryAfter(resp.Header, c.now())
			if wait <= 0 {
				wait = secondaryDefaultWait
			}
			// At least retry-after, as GitHub asks, plus a growing jittered
			// back-off: the calls one burst had in flight were refused
			// together, and waking them all at the same instant would meet
			// the same limit again.
			return true, wait + c.retry.backoff(n)
		}
		return false, 0
	case status >= 200 && status < 300 && rec.read && isJSON(resp.Header):
		buffer(a, maxCachedBody)
		if a.readErr != nil || a.buffered && len(a.body) > 0 && !validJSON(a.body) {
			return true, c.retry.backoff(n)
		}
		a.validJSON = a.buffered && len(a.body) > 0
	}
	return false, 0
}

// finish turns the last attempt into the caller's response: a 304 for a
// stored entry becomes that entry as a 200, a fresh 200 with an ETag is
// stored, and a secondary limit that was not waited out pauses the client.
func (t *transport) finish(req *http.Request, a attempt, cached *store.CachedResponse, key store.ETagKey, rec *call) *http.Response {
	c := t.c
	resp := a.resp
	switch {
	case resp.StatusCode == http.StatusNotModified && cached != nil:
		drain(resp)
		rec.cacheHit.Store(true)
		return fromCache(resp, cached)
	case resp.StatusCode == http.StatusOK && req.Method == http.MethodGet && key.URL != "" && resp.Header.Get("ETag") != "":
		if !a.buffered {
			buffer(&a, maxCachedBody)
		}
		if a.buffered && (!isJSON(resp.Header) || a.validJSON || validJSON(a.body)) {
			h := http.Header{}
			for _, name := range cachedHeaders {
				if vs := resp.Header.Values(name); len(vs) > 0 {
					h[http.CanonicalHeaderKey(name)] = vs
				}
			}
			c.storeResult(c.store.PutETag(req.Context(), key, store.CachedResponse{
				ETag: resp.Header.Get("ETag"), LastModified: resp.Header.Get("Last-Modified"),
				Status: resp.StatusCode, Header: h, Body: a.body,
			}))
		}
	case (resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusTooManyRequests) &&
		!isPrimaryLimit(resp.StatusCode, resp.Header):
		buffer(&a, maxErrorBody)
		if isSecondaryLimit(resp.StatusCode, resp.Header, errorMessage(a.body)) {
			wait := retryAfter(resp.Header, c.now())
			if wait <= 0 {
				wait = secondaryDefaultWait
			}
			c.budget.pauseSecondary(c.now().Add(wait))
			c.pushShared(req.Context(), store.RateObservation{SecondaryUntil: c.now().Add(wait)})
		}
	}
	return resp
}

// fromCache answers a 304 with the stored response: the 304's own headers
// (fresh rate-limit figures, request id) plus the stored ones it lacks.
func fromCache(notModified *http.Response, cr *store.CachedResponse) *http.Response {
	r := *notModified
	r.Header = notModified.Header.Clone()
	for k, vs := range cr.Header {
		if r.Header.Get(k) == "" {
			// A copy: the stored entry may be shared (the store's memory
			// layer), and the caller may add to its headers.
			r.Header[k] = append([]string(nil), vs...)
		}
	}
	r.Header.Set(CacheHeader, "hit")
	r.Header.Set("Content-Length", strconv.Itoa(len(cr.Body)))
	r.StatusCode = cr.Status
	r.Status = strconv.Itoa(cr.Status) + " " + http.StatusText(cr.Status)
	r.ContentLength = int64(len(cr.Body))
	r.Body = io.NopCloser(bytes.NewReader(cr.Body))
	return &r
}

// buffer reads the body into memory when it fits in limit, leaving an
// equivalent body in place either way.
func buffer(a *attempt, limit int64) {
	if a.buffered || a.resp.Body == nil {
		return
	}
	body := a.resp.Body
	data, err := io.ReadAll(io.LimitReader(body, limit+1))
	switch {
	case err != nil:
		// Hand back what arrived followed by the error, as the wire did.
		a.readErr = err
		a.resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), errReader{err}), body}
	case int64(len(data)) > limit:
		a.resp.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(data), body), body}
	default:
		_ = body.Close()
		a.body, a.buffered = data, true
		a.resp.Body = io.NopCloser(bytes.NewReader(data))
	}
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

func drain(resp *http.Response) {
	if resp == nil || resp.Body == nil {
		return
	}
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	_ = resp.Body.Close()
}

func isJSON(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// errorMessage pulls "message" out of GitHub's error shape, or "".
func errorMessage(body []byte) string {
	var e struct {
		Message string `json:"message"`
	}
	_ = json.Unmarshal(body, &e)
	return e.Message
}
