package fidelity

import (
	"bytes"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// A conditional GET with the ETag answers 304 with no body and spends no
// rate budget; a changed resource answers 200 with a new ETag.
func TestConditionalRequests(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const path = "/repos/acme/widgets/issues/2"
	first := w.do(t, "GET", path, tokCarol, nil)
	etag := first.Header.Get("ETag")
	if first.Status != 200 {
		t.Fatalf("first GET: status %d, want 200", first.Status)
	}
	if etag == "" {
		t.Fatalf("first GET: no ETag, want one")
	}
	remaining := first.Header.Get("X-RateLimit-Remaining")
	again := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {etag}})
	if again.Status != http.StatusNotModified {
		t.Fatalf("conditional GET: status %d, want %d", again.Status, http.StatusNotModified)
	}
	if len(again.Body) != 0 {
		t.Fatalf("conditional GET: %d body bytes, want none", len(again.Body))
	}
	if got := again.Header.Get("X-RateLimit-Remaining"); got != remaining {
		t.Fatalf("after a 304: X-RateLimit-Remaining = %s, want unchanged %s", got, remaining)
	}
	w.do(t, "PATCH", path, tokBob, map[string]any{"body": "Updated steps."})
	changed := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {etag}})
	if changed.Status != 200 {
		t.Fatalf("GET after a change: status %d, want 200", changed.Status)
	}
	if changed.Header.Get("ETag") == etag {
		t.Fatalf("GET after a change: ETag %q, want a new one", etag)
	}
	// A list answers 304 the same way.
	list := w.do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil)
	cond := w.srv.Do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil, http.Header{"If-None-Match": {list.Header.Get("ETag")}})
	if cond.Status != http.StatusNotModified {
		t.Fatalf("conditional list: status %d, want %d", cond.Status, http.StatusNotModified)
	}
}

// A 304 carries the Vary its 200 carries, which names the credential, as
// GitHub's do: a shared cache keyed by it keeps one copy per caller. An
// answer without a resource varies on content negotiation alone.
func TestVaryHeaders(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	want := []string{"Accept, Authorization, Cookie, X-GitHub-OTP", "Accept-Encoding, Accept, X-Requested-With"}
	for _, path := range []string{"/repos/acme/widgets/issues/2", "/repos/acme/widgets/labels", "/api/v3/repos/acme/widgets"} {
		ok := w.do(t, "GET", path, tokCarol, nil)
		if ok.Status != 200 {
			t.Errorf("GET %s: status %d, want 200", path, ok.Status)
		}
		if got := ok.Header.Values("Vary"); !slices.Equal(got, want) {
			t.Errorf("GET %s: Vary %q, want %q", path, got, want)
		}
		cond := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {ok.Header.Get("ETag")}})
		if cond.Status != http.StatusNotModified {
			t.Errorf("conditional GET %s: status %d, want %d", path, cond.Status, http.StatusNotModified)
		}
		if got := cond.Header.Values("Vary"); !slices.Equal(got, want) {
			t.Errorf("conditional GET %s: Vary %q, want the 200's %q", path, got, want)
		}
	}
	created := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "Varies"})
	if created.Status != 201 {
		t.Errorf("POST issue: status %d, want 201", created.Status)
	}
	if got := created.Header.Values("Vary"); !slices.Equal(got, want) {
		t.Errorf("POST issue: Vary %q, want %q", got, want)
	}
	content := []string{"Accept-Encoding, Accept, X-Requested-With"}
	for name, res := range map[string]*emulatortest.Response{
		"404":           w.do(t, "GET", "/repos/acme/vault", tokCarol, nil),
		"401":           w.do(t, "GET", "/repos/acme/widgets", "", nil),
		"204 (a check)": w.do(t, "GET", "/repos/acme/widgets/assignees/bob", tokCarol, nil),
	} {
		if got := res.Header.Values("Vary"); !slices.Equal(got, content) {
			t.Errorf("%s (%d): Vary %q, want %q", name, res.Status, got, content)
		}
	}
}

// Every response reports the budget; a spent budget answers 403 with
// x-ratelimit-remaining 0 until it resets, and search has a budget of its own.
func TestPrimaryRateLimit(t *testing.T) {
	w := newWorld(t, emulator.Options{CoreLimit: 3, SearchLimit: 2})
	for i := 1; i <= 3; i++ {
		res := w.do(t, "GET", "/repos/acme/widgets", tokCarol, nil)
		if res.Status != 200 {
			t.Fatalf("request %d: status %d, want 200", i, res.Status)
		}
		for _, h := range []string{"Limit", "Remaining", "Used", "Reset", "Resource"} {
			if res.Header.Get("X-RateLimit-"+h) == "" {
				t.Errorf("request %d: no x-ratelimit-%s", i, strings.ToLower(h))
			}
		}
		if got := res.Header.Get("X-RateLimit-Remaining"); got != strconv.Itoa(3-i) {
			t.Errorf("request %d: remaining %s, want %d", i, got, 3-i)
		}
	}
	over := w.do(t, "GET", "/repos/acme/widgets/issues/1", tokCarol, nil)
	if over.Status != http.StatusForbidden {
		t.Fatalf("over budget: status %d, want %d", over.Status, http.StatusForbidden)
	}
	if got := over.Header.Get("X-RateLimit-Remaining"); got != "0" {
		t.Fatalf("over budget: X-RateLimit-Remaining %q, want \"0\"", got)
	}
	var e apiError
	over.JSON(t, &e)
	if !strings.HasPrefix(e.Message, "API rate limit exceeded") {
		t.Errorf("over budget: message %q, want one starting %q", e.Message, "API rate limit exceeded")
	}
	// Another token and the search budget are untouched.
	if res := w.do(t, "GET", "/repos/acme/widgets", tokBob, nil); res.Status != 200 {
		t.Errorf("bob: status %d, want 200", res.Status)
	}
	search := w.do(t, "GET", "/search/issues?q=rattles", tokCarol, nil)
	if search.Status != 200 {
		t.Errorf("search: status %d, want 200", search.Status)
	}
	if got := search.Header.Get("X-RateLimit-Resource"); got != "search" {
		t.Errorf("search: X-RateLimit-Resource %q, want %q", got, "search")
	}
	if got := search.Header.Get("X-RateLimit-Limit"); got != "2" {
		t.Errorf("search: X-RateLimit-Limit %q, want %q", got, "2")
	}
	// Reading the budget is free even when it is spent.
	if res := w.do(t, "GET", "/rate_limit", tokCarol, nil); res.Status != 200 {
		t.Errorf("rate_limit while limited: status %d, want 200", res.Status)
	}
	// Exhausting from the test side answers the same on a write.
	w.srv.Emu.ExhaustRateLimit(tokBob, "core")
	exhausted := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "x"})
	if exhausted.Status != http.StatusForbidden {
		t.Errorf("exhausted write: status %d, want %d", exhausted.Status, http.StatusForbidden)
	}
	if got := exhausted.Header.Get("X-RateLimit-Remaining"); got != "0" {
		t.Errorf("exhausted write: X-RateLimit-Remaining %q, want \"0\"", got)
	}
}

// A secondary limit answers 403 (or 429) with retry-after and the basic
// error body, and is gone once the fault is spent.
func TestSecondaryRateLimit(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	faults := w.srv.Emu.Faults()
	mustNil(t, faults.Add(emulator.Fault{Kind: emulator.FaultSecondary, Method: "POST", Path: "/repos/acme/widgets/issues", RetryAfter: 30, Times: 1}))
	mustNil(t, faults.Add(emulator.Fault{Kind: emulator.FaultSecondary, Status: 429, Method: "GET", Path: "/repos/acme/widgets/issues/1", Times: 1}))

	res := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "Slow down"})
	if res.Status != http.StatusForbidden {
		t.Fatalf("secondary limit: status %d, want %d", res.Status, http.StatusForbidden)
	}
	if got := res.Header.Get("Retry-After"); got != "30" {
		t.Fatalf("secondary limit: Retry-After %q, want \"30\"", got)
	}
	var e apiError
	res.JSON(t, &e)
	if !strings.Contains(e.Message, "secondary rate limit") {
		t.Errorf("secondary limit: message %q, want one saying %q", e.Message, "secondary rate limit")
	}
	limited := w.do(t, "GET", "/repos/acme/widgets/issues/1", tokBob, nil)
	if limited.Status != http.StatusTooManyRequests {
		t.Errorf("429 secondary limit: status %d, want %d", limited.Status, http.StatusTooManyRequests)
	}
	if limited.Header.Get("Retry-After") == "" {
		t.Errorf("429 secondary limit: no Retry-After, want one")
	}
	if res := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "Slow down"}); res.Status != http.StatusCreated {
		t.Errorf("after the fault: status %d, want %d", res.Status, http.StatusCreated)
	}
}

// links parses a Link header into rel -> URL.
func links(t *testing.T, h string) map[string]*url.URL {
	t.Helper()
	out := map[string]*url.URL{}
	if h == "" {
		return out
	}
	for _, part := range strings.Split(h, ",") {
		target, rel, ok := strings.Cut(strings.TrimSpace(part), ";")
		target = strings.TrimSpace(target)
		if !ok {
			t.Fatalf("link %q in %q has no \";\", want <url>; rel=...", part, h)
		}
		if !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			t.Fatalf("link target %q in %q, want it in <>", target, h)
		}
		u, err := url.Parse(strings.Trim(target, "<>"))
		if err != nil {
			t.Fatalf("link %q: %v", target, err)
		}
		name := strings.Trim(strings.TrimPrefix(strings.TrimSpace(rel), "rel="), `"`)
		out[name] = u
	}
	return out
}

func rels(m map[string]*url.URL) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// Pagination: Link rels as GitHub sends them per page, following next
// visits every issue once, and a list that fits has no Link at all.
func TestPagination(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	// 35 issues at 10 a page: 4 pages.
	const first = "/repos/acme/widgets/issues?state=all&per_page=10"
	wantRels := [][]string{
		{"last", "next"},
		{"first", "last", "next", "prev"},
		{"first", "last", "next", "prev"},
		{"first", "prev"},
	}
	seen := map[int]bool{}
	path := first
	for page := 0; page < 10 && path != ""; page++ { // bounded: 4 pages expected
		res := w.do(t, "GET", path, tokCarol, nil)
		if res.Status != 200 {
			t.Fatalf("page %d: status %d, want 200", page+1, res.Status)
		}
		l := links(t, res.Header.Get("Link"))
		if page < len(wantRels) && !slices.Equal(rels(l), wantRels[page]) {
			t.Errorf("page %d rels %v, want %v", page+1, rels(l), wantRels[page])
		}
		if last := l["last"]; last != nil && last.Query().Get("page") != "4" {
			t.Errorf("page %d: last link %s, want page=4", page+1, last)
		}
		var items []struct {
			Number int `json:"number"`
		}
		res.JSON(t, &items)
		for _, it := range items {
			if seen[it.Number] {
				t.Errorf("issue %d seen twice", it.Number)
			}
			seen[it.Number] = true
		}
		path = ""
		if next := l["next"]; next != nil {
			if want := w.srv.URL + "/repos/acme/widgets/issues?"; !strings.HasPrefix(next.String(), want) {
				t.Fatalf("next link %s, want one starting %s", next, want)
			}
			if got := next.Query().Get("per_page"); got != "10" {
				t.Fatalf("next link %s: per_page %q, want the query's \"10\"", next, got)
			}
			path = next.RequestURI()
		}
	}
	if len(seen) != 35 {
		t.Errorf("following next saw %d issues, want 35", len(seen))
	}
	fits := w.do(t, "GET", "/repos/acme/widgets/issues?state=all&per_page=100", tokCarol, nil)
	if fits.Header.Get("Link") != "" {
		t.Errorf("a list that fits: Link %q, want none", fits.Header.Get("Link"))
	}
	small := w.do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil)
	if small.Header.Get("Link") != "" {
		t.Errorf("labels (4, default per_page 30): Link %q, want none", small.Header.Get("Link"))
	}
	// per_page above 100 is clamped to 100, as GitHub does.
	var many []any
	w.do(t, "GET", "/repos/acme/widgets/issues?state=all&per_page=500", tokCarol, nil).JSON(t, &many)
	if len(many) != 35 {
		t.Errorf("per_page=500 returned %d items, want all 35", len(many))
	}
}

// The GHES prefix serves the same API: the same body with /api/v3 in its
// API URLs, and links that keep the prefix.
func TestEnterprisePrefix(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	for _, path := range []string{
		"/",
		"/repos/acme/widgets/issues/3",
		"/repos/acme/widgets",
		"/repos/acme/widgets/issues/1/timeline",
		"/user",
	} {
		plain := w.do(t, "GET", path, tokAlice, nil)
		ghes := w.do(t, "GET", "/api/v3"+path, tokAlice, nil)
		if plain.Status != 200 {
			t.Fatalf("GET %s: status %d, want 200", path, plain.Status)
		}
		if ghes.Status != 200 {
			t.Fatalf("GET /api/v3%s: status %d, want 200", path, ghes.Status)
		}
		if plain.Operation != ghes.Operation {
			t.Errorf("%s: validated under /api/v3 as %q, want the plain path's %q", path, ghes.Operation, plain.Operation)
		}
		if !bytes.Contains(ghes.Body, []byte(w.srv.URL+"/api/v3/")) {
			t.Errorf("%s: no /api/v3 URL in the GHES body", path)
		}
		back := bytes.ReplaceAll(ghes.Body, []byte(w.srv.URL+"/api/v3/"), []byte(w.srv.URL+"/"))
		if !bytes.Equal(back, plain.Body) {
			t.Errorf("%s: the GHES body differs beyond the prefix:\n%s\n%s", path, plain.Body, ghes.Body)
		}
	}
	res := w.do(t, "GET", "/api/v3/repos/acme/widgets/issues?per_page=5", tokCarol, nil)
	next := links(t, res.Header.Get("Link"))["next"]
	if next == nil || !strings.HasPrefix(next.Path, "/api/v3/repos/acme/widgets/issues") {
		t.Errorf("GHES next link %v, want a path under /api/v3/repos/acme/widgets/issues", next)
	}
	if res := w.do(t, "GET", "/api/v3/repos/acme/vault", tokCarol, nil); res.Status != 404 {
		t.Errorf("GHES private repo: status %d, want 404", res.Status)
	}
	if res := w.do(t, "GET", "/api/v3/user", "", nil); res.Status != 401 {
		t.Errorf("GHES without a token: status %d, want 401", res.Status)
	}
}
