package github

import (
	"context"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/store"
)

// countingBackend counts the conditional-request cache's reads that reach
// the backend, and can run a hook after each PeekETag (to change the
// entry between the lookup and GitHub's answer, as another process
// sharing the store could).
type countingBackend struct {
	store.Backend
	mu        sync.Mutex
	peeks     int
	gets      int
	afterPeek func(key store.ETagKey)
}

func (b *countingBackend) PeekETag(ctx context.Context, key store.ETagKey) (store.CachedResponse, bool, error) {
	r, ok, err := b.Backend.PeekETag(ctx, key)
	b.mu.Lock()
	b.peeks++
	hook := b.afterPeek
	b.mu.Unlock()
	if hook != nil {
		hook(key)
	}
	return r, ok, err
}

func (b *countingBackend) GetETag(ctx context.Context, key store.ETagKey) (store.CachedResponse, bool, error) {
	b.mu.Lock()
	b.gets++
	b.mu.Unlock()
	return b.Backend.GetETag(ctx, key)
}

func (b *countingBackend) reads() (peeks, gets int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.peeks, b.gets
}

// rawIssue reads issue n through the client's transport and returns the
// response's cache marker and body.
func rawIssue(t *testing.T, c *Client, n int) (cache string, body string) {
	t.Helper()
	req, err := c.rest.NewRequest(context.Background(), "GET", "repos/"+owner+"/"+repo+"/issues/"+strconv.Itoa(n), nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := c.rest.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET issue %d: status %d, want 200", n, resp.StatusCode)
	}
	return resp.Header.Get(CacheHeader), string(b)
}

// A repeat read answered 304 is served from memory: the body equals the
// first answer's, and no cache read reaches the backend.
func TestWarmReadServedFromMemory(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	under := &countingBackend{Backend: memStore(t)}
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = store.Memory(under) })

	cache1, body1 := rawIssue(t, c, 5)
	peeks, gets := under.reads()
	if cache1 != "" {
		t.Errorf("first read: cache %q, want a miss (empty)", cache1)
	}
	if peeks != 1 {
		t.Errorf("first read: backend peeks = %d, want 1", peeks)
	}
	if gets != 0 {
		t.Errorf("first read: backend gets = %d, want 0", gets)
	}
	if t.Failed() {
		t.FailNow()
	}
	cache2, body2 := rawIssue(t, c, 5)
	if cache2 != "hit" {
		t.Fatalf("second read: cache %q, want hit", cache2)
	}
	if body2 != body1 {
		t.Errorf("body served from memory differs from the stored one:\n got %s\nwant %s", body2, body1)
	}
	p, g := under.reads()
	if p != peeks {
		t.Errorf("backend peeks after the second read = %d, want %d as before", p, peeks)
	}
	if g != gets {
		t.Errorf("backend gets after the second read = %d, want %d as before", g, gets)
	}
	if n := em.count("GET /api/v3" + issuePath(5)); n != 2 {
		t.Errorf("%d requests, want 2 (the second conditional)", n)
	}
}

// Without the entry in memory, the lookup reads the validators only and
// the body is read once GitHub answers 304.
func TestWarmReadReadsBodyOnlyOn304(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	under := &countingBackend{Backend: memStore(t)}
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = under })

	_, body1 := rawIssue(t, c, 5)
	cache, body2 := rawIssue(t, c, 5)
	if cache != "hit" {
		t.Fatalf("second read: cache %q, want hit", cache)
	}
	if body2 != body1 {
		t.Fatalf("second read's body differs from the first:\n got %s\nwant %s", body2, body1)
	}
	p, g := under.reads()
	if p != 2 {
		t.Errorf("backend peeks = %d, want 2", p)
	}
	if g != 1 {
		t.Errorf("backend gets = %d, want 1 (on the 304)", g)
	}
}

// A memory entry gone stale, because another process sharing the store
// stored a newer answer, still gives the right answer: its ETag earns a
// full read, which replaces the memory entry.
func TestStaleMemoryEntryGivesFreshAnswer(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	open := func() store.Backend {
		b, err := store.OpenBackend(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = b.Close() })
		return b
	}
	a, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = open() })
	b, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = open() })

	if _, _, err := a.GetIssue(ctx, owner, repo, 5); err != nil {
		t.Fatal(err)
	}
	title := "Renamed while A held the old answer"
	if _, _, err := b.EditIssue(ctx, owner, repo, 5, IssueEdit{Title: &title}); err != nil {
		t.Fatal(err)
	}
	got, m, err := b.GetIssue(ctx, owner, repo, 5)
	wantIssue(t, "B's read", got, m, err, false, title)
	got, m, err = a.GetIssue(ctx, owner, repo, 5)
	wantIssue(t, "A's read with a stale memory entry", got, m, err, false, title)
	got, m, err = a.GetIssue(ctx, owner, repo, 5)
	wantIssue(t, "A's next read, from the replaced entry", got, m, err, true, title)
}

// When the entry whose ETag was sent is gone by the time GitHub answers
// 304 (evicted, or replaced by another process with another ETag and
// body), the read is sent again in full: the caller gets the issue as it
// is, never a missing or foreign body, and the fresh answer is stored.
func TestBodyGoneOn304ResendsInFull(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(ctx context.Context, b store.Backend, key store.ETagKey) error
	}{
		{"deleted", func(ctx context.Context, b store.Backend, key store.ETagKey) error { return b.DeleteETag(ctx, key) }},
		{"replaced", func(ctx context.Context, b store.Backend, key store.ETagKey) error {
			return b.PutETag(ctx, key, store.CachedResponse{ETag: `"another"`, Status: 200,
				Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"number":5,"title":"a foreign body"}`)})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			em := startEmu(t, emulator.Options{})
			ctx := context.Background()
			under := &countingBackend{Backend: memStore(t)}
			c, _ := newClient(t, em.URL, emulator.DemoTokenAlice, func(o *Options) { o.Store = under })
			first, _, err := c.GetIssue(ctx, owner, repo, 5)
			if err != nil {
				t.Fatal(err)
			}
			under.mu.Lock()
			under.afterPeek = func(key store.ETagKey) {
				under.mu.Lock()
				under.afterPeek = nil
				under.mu.Unlock()
				if err := tc.change(ctx, under.Backend, key); err != nil {
					t.Error(err)
				}
			}
			under.mu.Unlock()
			before := em.count("GET /api/v3" + issuePath(5))
			got, m, err := c.GetIssue(ctx, owner, repo, 5)
			if err != nil {
				t.Fatal(err)
			}
			if m.Cached {
				t.Errorf("read after the entry went: Cached = true, want false")
			}
			if got.GetTitle() != first.GetTitle() {
				t.Errorf("read after the entry went: title = %q, want %q", got.GetTitle(), first.GetTitle())
			}
			if got.GetBody() != first.GetBody() {
				t.Errorf("read after the entry went: body = %q, want %q", got.GetBody(), first.GetBody())
			}
			if n := em.count("GET /api/v3"+issuePath(5)) - before; n != 2 {
				t.Errorf("%d requests for the read, want 2 (the conditional one answered 304, then the full one)", n)
			}
			// The full answer was stored: the next read is a hit again.
			again, m, err := c.GetIssue(ctx, owner, repo, 5)
			wantIssue(t, "next read", again, m, err, true, first.GetTitle())
		})
	}
}
