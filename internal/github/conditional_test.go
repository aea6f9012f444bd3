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
	if !b1.Known || b2.Used != b1.Used || b2.Remaining != b1.Remaining {
		t.Fatalf("budget moved from %+v to %+v", b1, b2)
	}
	if second.GetTitle() != first.GetTitle() || second.GetBody() != first.GetBody() || second.GetNumber() != 5 {
		t.Fatalf("cached issue differs: %q vs %q", second.GetTitle(), first.GetTitle())
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
	if raw[0].Header.Get(CacheHeader) != "" || raw[1].Header.Get(CacheHeader) != "hit" || raw[1].StatusCode != 200 ||
		raw[1].Header.Get("X-RateLimit-Used") != raw[0].Header.Get("X-RateLimit-Used") {
		t.Fatalf("raw responses: cache %q then %q, x-ratelimit-used %s then %s",
			raw[0].Header.Get(CacheHeader), raw[1].Header.Get(CacheHeader),
			raw[0].Header.Get("X-RateLimit-Used"), raw[1].Header.Get("X-RateLimit-Used"))
	}
	b2 = c.RateBudget("core")

	// After a change the ETag no longer matches: a full, charged read with
	// the new content.
	title := "Renamed by the test"
	if _, _, err := c.EditIssue(ctx, owner, repo, 5, IssueEdit{Title: &title}); err != nil {
		t.Fatal(err)
	}
	third, m3, err := c.GetIssue(ctx, owner, repo, 5)
	if err != nil {
		t.Fatal(err)
	}
	if m3.Cached || third.GetTitle() != title {
		t.Fatalf("after edit: cached=%v title=%q", m3.Cached, third.GetTitle())
	}
	if c.RateBudget("core").Used <= b2.Used {
		t.Fatal("the read after the edit cost nothing")
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
	if len(a) != 10 || m1.NextPage != 3 || m1.LastPage < 3 {
		t.Fatalf("first page: %d items, next %d, last %d", len(a), m1.NextPage, m1.LastPage)
	}
	b, m2, err := c.ListIssues(ctx, owner, repo, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !m2.Cached || m2.NextPage != m1.NextPage || m2.LastPage != m1.LastPage || len(b) != len(a) || b[0].GetNumber() != a[0].GetNumber() {
		t.Fatalf("cached page: cached=%v next %d last %d items %d", m2.Cached, m2.NextPage, m2.LastPage, len(b))
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
		t.Fatal("bob was served alice's cached response")
	}
	if _, m, _ := alice.GetIssue(ctx, owner, repo, 1); !m.Cached {
		t.Fatal("alice's entry was lost")
	}
}

func TestNoStoreNoCache(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = nil })
	ctx := context.Background()
	for range 2 {
		if _, m, err := c.GetIssue(ctx, owner, repo, 1); err != nil || m.Cached {
			t.Fatalf("cached=%v err=%v", m.Cached, err)
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
	if res.GetTotal() == 0 || len(res.Issues) == 0 {
		t.Fatalf("search found nothing: %+v", res)
	}
	s := c.RateBudget("search")
	if !s.Known || s.Limit != 30 || s.Used < 1 {
		t.Fatalf("search budget %+v", s)
	}
	if c.RateBudget("core").Known {
		t.Fatal("a search was recorded against core")
	}
}
