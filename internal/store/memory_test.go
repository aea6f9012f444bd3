package store

import (
	"bytes"
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

func memKey(cred CredentialKey, n int) ETagKey {
	return ETagKey{Credential: cred, URL: "https://h/api/v3/repos/o/r/issues/" + string(rune('a'+n)), Accept: "application/json"}
}

// inMemory reports whether m holds key itself, without asking its backend.
func (m *memory) inMemory(key ETagKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	_, ok := m.entries[key]
	return ok
}

// The memory layer evicts the least recently used by bytes, keeps nothing
// larger than its whole budget (dropping the older entry under that key),
// and the backend still holds what memory dropped.
func TestMemoryBoundByBytes(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openMem(t)
	cred := s.CredentialKey("t")
	entry := func(etag string, n int) CachedResponse {
		return CachedResponse{ETag: etag, Status: 200, Body: bytes.Repeat([]byte("x"), n)}
	}
	one := memorySize(memKey(cred, 0), entry(`"e"`, 1000))
	m := newMemory(s, 3*one, time.Now) // room for three entries of 1000 body bytes
	for i := range 3 {
		if err := m.PutETag(ctx, memKey(cred, i), entry(`"e"`, 1000)); err != nil {
			t.Fatal(err)
		}
	}
	if _, ok, _ := m.GetETag(ctx, memKey(cred, 0)); !ok { // 0 is now the most recent
		t.Fatal("entry 0 missing before the budget was passed")
	}
	if err := m.PutETag(ctx, memKey(cred, 3), entry(`"e"`, 1000)); err != nil {
		t.Fatal(err)
	}
	for i, want := range []bool{true, false, true, true} {
		if got := m.inMemory(memKey(cred, i)); got != want {
			t.Errorf("entry %d in memory = %v, want %v (1 was least recently used)", i, got, want)
		}
	}
	if m.bytes > m.budget {
		t.Errorf("memory bytes = %d, want at most the budget %d", m.bytes, m.budget)
	}
	if _, ok, _ := s.GetETag(ctx, memKey(cred, 1)); !ok {
		t.Error("the backend lost the entry memory evicted")
	}
	// Larger than the whole budget: not kept, and the old entry for the
	// key goes from memory (its validator is stale).
	if err := m.PutETag(ctx, memKey(cred, 0), entry(`"big"`, int(4*one))); err != nil {
		t.Fatal(err)
	}
	if m.inMemory(memKey(cred, 0)) {
		t.Error("a response larger than the memory budget was kept in memory")
	}
	got, ok, err := m.PeekETag(ctx, memKey(cred, 0))
	wantFound(t, "PeekETag after an oversized put", ok, err, true)
	if got.ETag != `"big"` {
		t.Errorf("PeekETag after an oversized put: ETag = %s, want the backend's %s", got.ETag, `"big"`)
	}
	if !got.Partial {
		t.Errorf("PeekETag after an oversized put: Partial = false, want true (the backend's validators)")
	}
}

// One credential is never served another's entry from memory.
func TestMemoryKeepsCredentialsApart(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openMem(t)
	m := newMemory(s, DefaultMemoryBudget, time.Now)
	alice, bob := s.CredentialKey("alice"), s.CredentialKey("bob")
	if err := m.PutETag(ctx, memKey(alice, 0), CachedResponse{ETag: `"a"`, Status: 200, Body: []byte(`{"private":true}`)}); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := m.PeekETag(ctx, memKey(bob, 0)); err != nil {
		t.Errorf("bob's PeekETag: %v", err)
	} else if ok {
		t.Errorf("bob's PeekETag found %+v, want nothing", r)
	}
	if r, ok, err := m.GetETag(ctx, memKey(bob, 0)); err != nil {
		t.Errorf("bob's GetETag: %v", err)
	} else if ok {
		t.Errorf("bob's GetETag found %+v, want nothing", r)
	}
	r, ok, _ := m.PeekETag(ctx, memKey(alice, 0))
	if !ok {
		t.Fatalf("alice's PeekETag found nothing, want her whole entry from memory")
	}
	if r.Partial {
		t.Errorf("alice's PeekETag: Partial = true, want her whole entry from memory")
	}
	if string(r.Body) != `{"private":true}` {
		t.Errorf("alice's PeekETag: Body = %s, want %s", r.Body, `{"private":true}`)
	}
}

// Two processes sharing a file each keep their own memory. A's memory can
// be stale after B replaced the entry (the transport copes: the stale ETag
// earns a full read); A's own write replaces its memory entry, and a
// backend read fills memory without overwriting a newer write.
func TestMemoryOverSharedFile(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	sa, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sa.Close() })
	sb, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sb.Close() })
	a, b := newMemory(sa, DefaultMemoryBudget, time.Now), newMemory(sb, DefaultMemoryBudget, time.Now)
	key := memKey(sa.CredentialKey("t"), 0)

	if err := a.PutETag(ctx, key, CachedResponse{ETag: `"1"`, Status: 200, Body: []byte(`"one"`)}); err != nil {
		t.Fatal(err)
	}
	if err := b.PutETag(ctx, key, CachedResponse{ETag: `"2"`, Status: 200, Body: []byte(`"two"`)}); err != nil {
		t.Fatal(err)
	}
	if r, _, _ := a.PeekETag(ctx, key); r.ETag != `"1"` {
		t.Fatalf("A's PeekETag = %q, want its own (stale) memory entry \"1\"", r.ETag)
	}
	if err := a.PutETag(ctx, key, CachedResponse{ETag: `"3"`, Status: 200, Body: []byte(`"three"`)}); err != nil {
		t.Fatal(err)
	}
	r, _, _ := a.PeekETag(ctx, key)
	if r.ETag != `"3"` {
		t.Fatalf("A's PeekETag after its write: ETag = %s, want %s", r.ETag, `"3"`)
	}
	if string(r.Body) != `"three"` {
		t.Fatalf("A's PeekETag after its write: Body = %s, want %s", r.Body, `"three"`)
	}
	// B's memory still holds "2"; a fresh layer over B's handle reads the
	// file, and keeps the whole entry it read.
	c := newMemory(sb, DefaultMemoryBudget, time.Now)
	r, ok, _ := c.PeekETag(ctx, key)
	if !ok {
		t.Fatalf("fresh layer's PeekETag found nothing, want the file's validators")
	}
	if !r.Partial {
		t.Fatalf("fresh layer's PeekETag: Partial = false, want true (the file's validators)")
	}
	if r.ETag != `"3"` {
		t.Fatalf("fresh layer's PeekETag: ETag = %s, want the file's %s", r.ETag, `"3"`)
	}
	r, ok, _ = c.GetETag(ctx, key)
	if !ok {
		t.Fatalf("fresh layer's GetETag found nothing, want the file's entry")
	}
	if string(r.Body) != `"three"` {
		t.Fatalf("fresh layer's GetETag: Body = %s, want %s", r.Body, `"three"`)
	}
	if !c.inMemory(key) {
		t.Fatal("GetETag from the backend did not fill memory")
	}
	c.put(key, CachedResponse{ETag: `"0"`, Status: 200}, false)
	if r, _, _ := c.PeekETag(ctx, key); r.ETag != `"3"` {
		t.Fatalf("a backend read replaced the memory entry: ETag %q, want \"3\"", r.ETag)
	}
}

// peekCounter counts the PeekETag calls that reach a backend.
type peekCounter struct {
	Backend
	mu    sync.Mutex
	peeks int
}

func (p *peekCounter) PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error) {
	p.mu.Lock()
	p.peeks++
	p.mu.Unlock()
	return p.Backend.PeekETag(ctx, key)
}

// A memory hit marks the entry used in the backend at most once per
// etagTouchEvery, so the backend's eviction still sees it as hot.
func TestMemoryHitTouchesBackend(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	s := openMem(t, clk.options()...)
	under := &peekCounter{Backend: s}
	m := newMemory(under, DefaultMemoryBudget, clk.now)
	key := memKey(s.CredentialKey("t"), 0)
	if err := m.PutETag(ctx, key, CachedResponse{ETag: `"e"`, Status: 200, Body: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, ok, _ := m.PeekETag(ctx, key); !ok {
			t.Fatal("entry missing from memory")
		}
	}
	m.touches.Wait()
	if under.peeks != 0 {
		t.Fatalf("backend touched %d times within a minute of the write, want 0", under.peeks)
	}
	clk.add(2 * etagTouchEvery)
	for range 3 {
		_, _, _ = m.PeekETag(ctx, key)
	}
	m.touches.Wait()
	if under.peeks != 1 {
		t.Fatalf("backend touched %d times after the interval, want 1", under.peeks)
	}
	var usedAt int64
	if err := s.db.QueryRowContext(ctx, `SELECT used_at FROM etags WHERE url = ?`, key.URL).Scan(&usedAt); err != nil {
		t.Fatal(err)
	}
	if want := clk.now().UnixMilli(); usedAt != want {
		t.Errorf("backend used_at = %d, want the touch's time %d", usedAt, want)
	}
}
