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
	if first.Status != 200 || etag == "" {
		t.Fatalf("first GET: %d, ETag %q", first.Status, etag)
	}
	remaining := first.Header.Get("X-RateLimit-Remaining")
	again := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {etag}})
	if again.Status != http.StatusNotModified || len(again.Body) != 0 {
		t.Fatalf("conditional GET: %d with %d bytes, want an empty 304", again.Status, len(again.Body))
	}
	if got := again.Header.Get("X-RateLimit-Remaining"); got != remaining {
		t.Fatalf("a 304 spent budget: remaining %s -> %s", remaining, got)
	}
	w.do(t, "PATCH", path, tokBob, map[string]any{"body": "Updated steps."})
	changed := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {etag}})
	if changed.Status != 200 || changed.Header.Get("ETag") == etag {
		t.Fatalf("GET after a change: %d, ETag %q (was %q)", changed.Status, changed.Header.Get("ETag"), etag)
	}
	// A list answers 304 the same way.
	list := w.do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil)
	cond := w.srv.Do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil, http.Header{"If-None-Match": {list.Header.Get("ETag")}})
	if cond.Status != http.StatusNotModified {
		t.Fatalf("conditional list: %d", cond.Status)
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
		if got := ok.Header.Values("Vary"); ok.Status != 200 || !slices.Equal(got, want) {
			t.Errorf("GET %s: %d with Vary %q, want %q", path, ok.Status, got, want)
		}
		cond := w.srv.Do(t, "GET", path, tokCarol, nil, http.Header{"If-None-Match": {ok.Header.Get("ETag")}})
		if got := cond.Header.Values("Vary"); cond.Status != http.StatusNotModified || !slices.Equal(got, want) {
			t.Errorf("conditional GET %s: %d with Vary %q, want the 200's %q", path, cond.Status, got, want)
		}
	}
	created := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "Varies"})
	if got := created.Header.Values("Vary"); created.Status != 201 || !slices.Equal(got, want) {
		t.Errorf("POST issue: %d with Vary %q, want %q", created.Status, got, want)
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
			t.Fatalf("request %d: %d", i, res.Status)
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
	if over.Status != http.StatusForbidden || over.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Fatalf("over budget: %d remaining %q", over.Status, over.Header.Get("X-RateLimit-Remaining"))
	}
	var e apiError
	over.JSON(t, &e)
	if !strings.HasPrefix(e.Message, "API rate limit exceeded") {
		t.Errorf("message %q", e.Message)
	}
	// Another token and the search budget are untouched.
	if res := w.do(t, "GET", "/repos/acme/widgets", tokBob, nil); res.Status != 200 {
		t.Errorf("bob: %d", res.Status)
	}
	search := w.do(t, "GET", "/search/issues?q=rattles", tokCarol, nil)
	if search.Status != 200 || search.Header.Get("X-RateLimit-Resource") != "search" || search.Header.Get("X-RateLimit-Limit") != "2" {
		t.Errorf("search: %d resource %q limit %q", search.Status, search.Header.Get("X-RateLimit-Resource"), search.Header.Get("X-RateLimit-Limit"))
	}
	// Reading the budget is free even when it is spent.
	if res := w.do(t, "GET", "/rate_limit", tokCarol, nil); res.Status != 200 {
		t.Errorf("rate_limit while limited: %d", res.Status)
	}
	// Exhausting from the test side answers the same on a write.
	w.srv.Emu.ExhaustRateLimit(tokBob, "core")
	if res := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "x"}); res.Status != http.StatusForbidden || res.Header.Get("X-RateLimit-Remaining") != "0" {
		t.Errorf("exhausted write: %d remaining %q", res.Status, res.Header.Get("X-RateLimit-Remaining"))
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
	if res.Status != http.StatusForbidden || res.Header.Get("Retry-After") != "30" {
		t.Fatalf("secondary limit: %d retry-after %q", res.Status, res.Header.Get("Retry-After"))
	}
	var e apiError
	res.JSON(t, &e)
	if !strings.Contains(e.Message, "secondary rate limit") {
		t.Errorf("message %q", e.Message)
	}
	if res := w.do(t, "GET", "/repos/acme/widgets/issues/1", tokBob, nil); res.Status != http.StatusTooManyRequests || res.Header.Get("Retry-After") == "" {
		t.Errorf("429 secondary limit: %d retry-after %q", res.Status, res.Header.Get("Retry-After"))
	}
	if res := w.do(t, "POST", "/repos/acme/widgets/issues", tokBob, map[string]any{"title": "Slow down"}); res.Status != http.StatusCreated {
		t.Errorf("after the fault: %d", res.Status)
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
		if !ok || !strings.HasPrefix(target, "<") || !strings.HasSuffix(target, ">") {
			t.Fatalf("malformed link %q in %q", part, h)
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
			t.Fatalf("page %d: %d", page+1, res.Status)
		}
		l := links(t, res.Header.Get("Link"))
		if page < len(wantRels) && !slices.Equal(rels(l), wantRels[page]) {
			t.Errorf("page %d rels %v, want %v", page+1, rels(l), wantRels[page])
		}
		if last := l["last"]; last != nil && last.Query().Get("page") != "4" {
			t.Errorf("page %d: last is %s", page+1, last)
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
			if !strings.HasPrefix(next.String(), w.srv.URL+"/repos/acme/widgets/issues?") || next.Query().Get("per_page") != "10" {
				t.Fatalf("next link %s does not keep the query", next)
			}
			path = next.RequestURI()
		}
	}
	if len(seen) != 35 {
		t.Errorf("following next saw %d issues, want 35", len(seen))
	}
	fits := w.do(t, "GET", "/repos/acme/widgets/issues?state=all&per_page=100", tokCarol, nil)
	if fits.Header.Get("Link") != "" {
		t.Errorf("a list that fits has Link %q", fits.Header.Get("Link"))
	}
	small := w.do(t, "GET", "/repos/acme/widgets/labels", tokCarol, nil)
	if small.Header.Get("Link") != "" {
		t.Errorf("labels (4, default per_page 30) have Link %q", small.Header.Get("Link"))
	}
	// per_page above 100 is clamped to 100, as GitHub does.
	var many []any
	w.do(t, "GET", "/repos/acme/widgets/issues?state=all&per_page=500", tokCarol, nil).JSON(t, &many)
	if len(many) != 35 {
		t.Errorf("per_page=500 returned %d items", len(many))
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
		if plain.Status != 200 || ghes.Status != 200 {
			t.Fatalf("%s: %d plain, %d under /api/v3", path, plain.Status, ghes.Status)
		}
		if plain.Operation != ghes.Operation {
			t.Errorf("%s: validated as %q and %q", path, plain.Operation, ghes.Operation)
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
		t.Errorf("GHES next link %v", next)
	}
	if res := w.do(t, "GET", "/api/v3/repos/acme/vault", tokCarol, nil); res.Status != 404 {
		t.Errorf("GHES private repo: %d", res.Status)
	}
	if res := w.do(t, "GET", "/api/v3/user", "", nil); res.Status != 401 {
		t.Errorf("GHES without a token: %d", res.Status)
	}
}
