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
	if cache1 != "" || peeks != 1 || gets != 0 {
		t.Fatalf("first read: cache %q, backend peeks %d gets %d; want a miss, 1 peek, 0 gets", cache1, peeks, gets)
	}
	cache2, body2 := rawIssue(t, c, 5)
	if cache2 != "hit" {
		t.Fatalf("second read: cache %q, want hit", cache2)
	}
	if body2 != body1 {
		t.Errorf("body served from memory differs from the stored one:\n got %s\nwant %s", body2, body1)
	}
	if p, g := under.reads(); p != peeks || g != gets {
		t.Errorf("second read reached the backend: peeks %d gets %d, want %d and %d", p, g, peeks, gets)
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
	if cache != "hit" || body2 != body1 {
		t.Fatalf("second read: cache %q, body equal %v; want a hit with the first body", cache, body2 == body1)
	}
	if p, g := under.reads(); p != 2 || g != 1 {
		t.Errorf("backend reads: peeks %d gets %d, want 2 peeks and 1 get (on the 304)", p, g)
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
	if got, m, err := b.GetIssue(ctx, owner, repo, 5); err != nil || m.Cached || got.GetTitle() != title {
		t.Fatalf("B's read: title %q cached %v err %v, want the new title, uncached", got.GetTitle(), m.Cached, err)
	}
	got, m, err := a.GetIssue(ctx, owner, repo, 5)
	if err != nil || m.Cached || got.GetTitle() != title {
		t.Fatalf("A's read with a stale memory entry: title %q cached %v err %v, want %q uncached", got.GetTitle(), m.Cached, err, title)
	}
	got, m, err = a.GetIssue(ctx, owner, repo, 5)
	if err != nil || !m.Cached || got.GetTitle() != title {
		t.Fatalf("A's next read: title %q cached %v err %v, want %q from the replaced entry", got.GetTitle(), m.Cached, err, title)
	}
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
			if m.Cached || got.GetTitle() != first.GetTitle() || got.GetBody() != first.GetBody() {
				t.Errorf("read after the entry went: cached %v title %q, want uncached %q", m.Cached, got.GetTitle(), first.GetTitle())
			}
			if n := em.count("GET /api/v3"+issuePath(5)) - before; n != 2 {
				t.Errorf("%d requests for the read, want 2 (the conditional one answered 304, then the full one)", n)
			}
			// The full answer was stored: the next read is a hit again.
			if again, m, err := c.GetIssue(ctx, owner, repo, 5); err != nil || !m.Cached || again.GetTitle() != first.GetTitle() {
				t.Errorf("next read: cached %v title %q err %v, want a hit with %q", m.Cached, again.GetTitle(), err, first.GetTitle())
			}
		})
	}
}
