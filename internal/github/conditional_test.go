package github

import (
	"context"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The second identical read is answered 304 and served from the store: it
// costs no budget, and the caller sees the same issue, marked cached.
func TestRepeatedReadCostsNoBudget(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()

	first, m1, err := c.GetIssue(ctx, owner, repo, 5)
	if err != nil {
		t.Fatal(err)
	}
	if m1.Cached {
		t.Fatal("the first read claims a cache hit")
	}
	b1 := c.RateBudget("core")
	second, m2, err := c.GetIssue(ctx, owner, repo, 5)
	if err != nil {
		t.Fatal(err)
	}
	b2 := c.RateBudget("core")
	if !m2.Cached {
		t.Fatal("the second read was not served from the store")
	}
	if !b1.Known {
		t.Fatalf("core budget after the first read: Known = false, want true")
	}
	if b2.Used != b1.Used {
		t.Errorf("core budget Used after a cached read = %d, want %d as before", b2.Used, b1.Used)
	}
	if b2.Remaining != b1.Remaining {
		t.Errorf("core budget Remaining after a cached read = %d, want %d as before", b2.Remaining, b1.Remaining)
	}
	if second.GetTitle() != first.GetTitle() {
		t.Errorf("cached issue title = %q, want %q", second.GetTitle(), first.GetTitle())
	}
	if second.GetBody() != first.GetBody() {
		t.Errorf("cached issue body = %q, want %q", second.GetBody(), first.GetBody())
	}
	if second.GetNumber() != 5 {
		t.Errorf("cached issue number = %d, want 5", second.GetNumber())
	}
	if t.Failed() {
		t.FailNow()
	}
	if n := em.count("GET /api/v3" + issuePath(5)); n != 2 {
		t.Fatalf("%d requests, want 2 (the second conditional)", n)
	}

	// The response itself says so, for go-github calls made outside read and write too. (go-github's
	// Issues.Get sends its own Accept header, a separate cache entry, so
	// this request is made twice.)
	var raw [2]*http.Response
	for i := range raw {
		req, err := c.rest.NewRequest(ctx, "GET", "repos/acme/widgets/issues/5", nil)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := c.rest.Do(req, nil)
		if err != nil {
			t.Fatal(err)
		}
		raw[i] = resp.Response
	}
	if got := raw[0].Header.Get(CacheHeader); got != "" {
		t.Errorf("first raw response %s = %q, want none", CacheHeader, got)
	}
	if got := raw[1].Header.Get(CacheHeader); got != "hit" {
		t.Errorf("second raw response %s = %q, want hit", CacheHeader, got)
	}
	if raw[1].StatusCode != 200 {
		t.Errorf("second raw response status = %d, want 200", raw[1].StatusCode)
	}
	if got, want := raw[1].Header.Get("X-RateLimit-Used"), raw[0].Header.Get("X-RateLimit-Used"); got != want {
		t.Errorf("second raw response X-RateLimit-Used = %s, want %s as the first", got, want)
	}
	if t.Failed() {
		t.FailNow()
	}
	b2 = c.RateBudget("core")

	// After a change the ETag no longer matches: a full, charged read with
	// the new content.
	title := "Renamed by the test"
	if _, _, err := c.EditIssue(ctx, owner, repo, 5, IssueEdit{Title: &title}); err != nil {
		t.Fatal(err)
	}
	third, m3, err := c.GetIssue(ctx, owner, repo, 5)
	wantIssue(t, "read after the edit", third, m3, err, false, title)
	if used := c.RateBudget("core").Used; used <= b2.Used {
		t.Fatalf("core budget Used after the read after the edit = %d, want more than %d", used, b2.Used)
	}
}

// Pagination survives a cache hit: the Link header is stored with the body.
func TestCachedListKeepsPagination(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	opts := ListIssuesOptions{State: "all", PerPage: 10, Page: 2}
	a, m1, err := c.ListIssues(ctx, owner, repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 10 {
		t.Fatalf("first read of page 2 holds %d items, want 10", len(a))
	}
	if m1.NextPage != 3 {
		t.Fatalf("first read of page 2: NextPage = %d, want 3", m1.NextPage)
	}
	if m1.LastPage < 3 {
		t.Fatalf("first read of page 2: LastPage = %d, want at least 3", m1.LastPage)
	}
	b, m2, err := c.ListIssues(ctx, owner, repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !m2.Cached {
		t.Fatalf("second read of page 2: Cached = false, want true")
	}
	if m2.NextPage != m1.NextPage {
		t.Errorf("cached page: NextPage = %d, want %d", m2.NextPage, m1.NextPage)
	}
	if m2.LastPage != m1.LastPage {
		t.Errorf("cached page: LastPage = %d, want %d", m2.LastPage, m1.LastPage)
	}
	if len(b) != len(a) {
		t.Fatalf("cached page holds %d items, want %d", len(b), len(a))
	}
	if b[0].GetNumber() != a[0].GetNumber() {
		t.Errorf("cached page's first item = #%d, want #%d", b[0].GetNumber(), a[0].GetNumber())
	}
}

// One credential's cached responses are never served to another.
func TestCacheIsPerCredential(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	shared := memStore(t)
	ctx := context.Background()
	alice, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = shared })
	bob, _ := newClient(t, em.URL, emulator.DemoTokenBob, func(o *Options) { o.Store = shared })
	if _, _, err := alice.GetIssue(ctx, owner, repo, 1); err != nil {
		t.Fatal(err)
	}
	_, m, err := bob.GetIssue(ctx, owner, repo, 1)
	if err != nil {
		t.Fatal(err)
	}
	if m.Cached {
		t.Fatal("bob's read: Cached = true (alice's response), want false")
	}
	if _, m, _ := alice.GetIssue(ctx, owner, repo, 1); !m.Cached {
		t.Fatal("alice's second read: Cached = false (her entry lost), want true")
	}
}

func TestNoStoreNoCache(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = nil })
	ctx := context.Background()
	for range 2 {
		_, m, err := c.GetIssue(ctx, owner, repo, 1)
		if err != nil {
			t.Fatalf("GetIssue: %v", err)
		}
		if m.Cached {
			t.Fatalf("GetIssue without a store: Cached = true, want false")
		}
	}
}

// A search is charged to the search budget, tracked apart from core.
func TestSearchBudgetTrackedSeparately(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	res, _, err := c.SearchIssues(context.Background(), "repo:acme/widgets is:issue label:bug", SearchOptions{PerPage: 5})
	if err != nil {
		t.Fatal(err)
	}
	if res.GetTotal() == 0 {
		t.Fatalf("search total = 0, want some issues")
	}
	if len(res.Issues) == 0 {
		t.Fatalf("search returned no issues (total %d), want some", res.GetTotal())
	}
	s := c.RateBudget("search")
	if !s.Known {
		t.Fatalf("search budget Known = false, want true")
	}
	if s.Limit != 30 {
		t.Errorf("search budget Limit = %d, want 30", s.Limit)
	}
	if s.Used < 1 {
		t.Errorf("search budget Used = %d, want at least 1", s.Used)
	}
	if c.RateBudget("core").Known {
		t.Fatal("core budget Known = true after only a search, want false")
	}
}
