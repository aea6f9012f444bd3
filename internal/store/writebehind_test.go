package store

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"
)

// gatedBackend is a conditional-request cache whose writes wait for the
// test to open the gate, and which records the order they were made in.
type gatedBackend struct {
	Backend // nil: only the cache and Close are used

	gate    chan struct{}
	entered chan struct{} // a write reached the backend
	fail    error
	mu      sync.Mutex
	entries map[ETagKey]CachedResponse
	writes  []string
	closed  bool
}

func newGated() *gatedBackend {
	return &gatedBackend{gate: make(chan struct{}), entered: make(chan struct{}, 100), entries: map[ETagKey]CachedResponse{}}
}

func (g *gatedBackend) GetETag(_ context.Context, key ETagKey) (CachedResponse, bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	r, ok := g.entries[key]
	return r, ok, nil
}

// wait holds a write until the gate opens or ctx ends.
func (g *gatedBackend) wait(ctx context.Context) error {
	select {
	case <-g.gate:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (g *gatedBackend) PutETag(ctx context.Context, key ETagKey, r CachedResponse) error {
	g.entered <- struct{}{}
	if err := g.wait(ctx); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return g.fail
	}
	g.entries[key] = r
	g.writes = append(g.writes, "put "+key.URL+" "+r.ETag)
	return nil
}

func (g *gatedBackend) DeleteETag(ctx context.Context, key ETagKey) error {
	if err := g.wait(ctx); err != nil {
		return err
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.entries, key)
	g.writes = append(g.writes, "delete "+key.URL)
	return nil
}

func (g *gatedBackend) Close() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.closed = true
	return nil
}

func (g *gatedBackend) written() []string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]string(nil), g.writes...)
}

func etagKey(i int) ETagKey {
	return ETagKey{Credential: "c", URL: fmt.Sprintf("https://api.example/r/%d", i)}
}

// The caller reads its own writes while the backend has not made them,
// the latest change to a key wins, and the backend gets every change in
// the order it was made.
func TestWriteBehindReadsItsOwnWrites(t *testing.T) {
	ctx := context.Background()
	g := newGated()
	w := newWriteBehind(g, writeBehindBytes, closeDrainLimit)
	if err := w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "a", Body: []byte("one")}); err != nil {
		t.Fatal(err)
	}
	r, ok, err := w.GetETag(ctx, etagKey(1))
	wantFound(t, "GetETag before the backend wrote", ok, err, true)
	if r.ETag != "a" {
		t.Fatalf("GetETag before the backend wrote: ETag = %q, want %q", r.ETag, "a")
	}
	if string(r.Body) != "one" {
		t.Fatalf("GetETag before the backend wrote: Body = %q, want %q", r.Body, "one")
	}
	r, ok, err = w.PeekETag(ctx, etagKey(1))
	wantFound(t, "PeekETag before the backend wrote", ok, err, true)
	if r.ETag != "a" {
		t.Fatalf("PeekETag before the backend wrote: ETag = %q, want the queued entry's %q", r.ETag, "a")
	}
	if _, ok, _ := g.GetETag(ctx, etagKey(1)); ok {
		t.Fatal("the backend wrote before its gate opened: the test shows nothing")
	}
	_ = w.DeleteETag(ctx, etagKey(1))
	if _, ok, _ := w.GetETag(ctx, etagKey(1)); ok {
		t.Fatal("a queued deletion still answers with the entry")
	}
	if _, ok, _ := w.PeekETag(ctx, etagKey(1)); ok {
		t.Fatal("PeekETag: a queued deletion still answers with the entry")
	}
	_ = w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "b"})
	_ = w.PutETag(ctx, etagKey(2), CachedResponse{ETag: "c"})
	r, ok, _ = w.GetETag(ctx, etagKey(1))
	if !ok {
		t.Fatalf("GetETag after put, delete, put found nothing, want the last put")
	}
	if r.ETag != "b" {
		t.Fatalf("GetETag after put, delete, put: ETag = %q, want the last put's %q", r.ETag, "b")
	}
	close(g.gate)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"put https://api.example/r/1 a", "delete https://api.example/r/1", "put https://api.example/r/1 b", "put https://api.example/r/2 c"}
	if got := g.written(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("backend writes = %q, want %q", got, want)
	}
	if !g.closed {
		t.Fatal("Close did not close the backend")
	}
	r, ok, _ = w.GetETag(ctx, etagKey(1))
	if !ok {
		t.Fatalf("GetETag after Close found nothing, want the backend's entry")
	}
	if r.ETag != "b" {
		t.Fatalf("GetETag after Close: ETag = %q, want the backend's %q", r.ETag, "b")
	}
}

// Past the bound a change is dropped, not waited on: a stalled backend
// never holds a caller.
func TestWriteBehindDropsPastTheBound(t *testing.T) {
	ctx := context.Background()
	g := newGated()
	w := newWriteBehind(g, 10, closeDrainLimit)
	_ = w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "a", Body: bytes.Repeat([]byte("x"), 8)})
	<-g.entered // the first write is in the backend's hands, and still counted
	_ = w.PutETag(ctx, etagKey(2), CachedResponse{ETag: "b", Body: bytes.Repeat([]byte("y"), 8)})
	if _, ok, _ := w.GetETag(ctx, etagKey(2)); ok {
		t.Fatal("a change past the bound was queued")
	}
	_ = w.PutETag(ctx, etagKey(3), CachedResponse{ETag: "c", Body: []byte("z")})
	if _, ok, _ := w.GetETag(ctx, etagKey(3)); !ok {
		t.Fatal("a change within the bound was dropped")
	}
	close(g.gate)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	want := []string{"put https://api.example/r/1 a", "put https://api.example/r/3 c"}
	if got := g.written(); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("backend writes = %q, want %q", got, want)
	}
}

// Close gives a stalled backend the drain limit, then abandons the queue
// and closes it; a change made after Close is dropped.
func TestWriteBehindCloseGivesUp(t *testing.T) {
	ctx := context.Background()
	g := newGated() // never opened
	w := newWriteBehind(g, writeBehindBytes, 50*time.Millisecond)
	for i := range 3 {
		_ = w.PutETag(ctx, etagKey(i), CachedResponse{ETag: "a"})
	}
	closed := make(chan error, 1)
	go func() { closed <- w.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("Close waited on a stalled backend past its drain limit")
	}
	if !g.closed {
		t.Fatalf("backend closed = false, want true")
	}
	if got := g.written(); len(got) != 0 {
		t.Fatalf("backend writes = %q, want none", got)
	}
	_ = w.PutETag(ctx, etagKey(9), CachedResponse{ETag: "late"})
	if _, ok, _ := w.GetETag(ctx, etagKey(9)); ok {
		t.Fatal("a change after Close was queued")
	}
}

// A background write's failure is reported by every write until a later
// background write succeeds: the caller's view follows the backend's.
func TestWriteBehindReportsFailuresUntilAWriteSucceeds(t *testing.T) {
	ctx := context.Background()
	g := newGated()
	g.fail = fmt.Errorf("%w: connection refused", ErrUnavailable)
	close(g.gate)
	w := newWriteBehind(g, writeBehindBytes, closeDrainLimit)
	drained := func() {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			w.mu.Lock()
			n := w.bytes + int64(len(w.pending))
			w.mu.Unlock()
			if n == 0 {
				return
			}
			if time.Now().After(deadline) {
				t.Fatal("the queue did not drain")
			}
		}
	}
	put := func(i int) error {
		err := w.PutETag(ctx, etagKey(i), CachedResponse{ETag: "e", Body: []byte("x")})
		drained()
		return err
	}
	if err := put(1); err != nil {
		t.Fatalf("first PutETag = %v; its failure comes later", err)
	}
	for i := 2; i <= 3; i++ {
		if err := put(i); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("PutETag %d during the outage = %v, want the background failure", i, err)
		}
	}
	g.mu.Lock()
	g.fail = nil
	g.mu.Unlock()
	if err := put(4); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("PutETag 4 = %v: no write has succeeded yet", err)
	}
	if err := put(5); err != nil {
		t.Fatalf("PutETag 5 = %v: write 4 succeeded", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := g.written(); len(got) != 2 {
		t.Fatalf("backend writes = %q, want writes 4 and 5", got)
	}
}

// Over a real SQLite store, many writers and readers at once: every entry
// written is read back whole, from the queue or the store, and all of
// them are in the store after Close.
func TestWriteBehindOverSQLite(t *testing.T) {
	ctx := context.Background()
	path := t.TempDir() + "/state.db"
	direct, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	w := WriteBehind(direct)
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 25; i++ {
				k := etagKey(g*100 + i)
				body := []byte(fmt.Sprintf(`{"n":%d}`, g*100+i))
				if err := w.PutETag(ctx, k, CachedResponse{ETag: "e", Status: 200, Body: body}); err != nil {
					errs <- err
					return
				}
				r, ok, err := w.GetETag(ctx, k)
				if err != nil || !ok || !bytes.Equal(r.Body, body) {
					errs <- fmt.Errorf("GetETag(%s) = %q %v %v", k.URL, r.Body, ok, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	again, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for g := 0; g < 8; g++ {
		for i := 0; i < 25; i++ {
			_, ok, err := again.GetETag(ctx, etagKey(g*100+i))
			wantFound(t, fmt.Sprintf("GetETag of entry %d after Close", g*100+i), ok, err, true)
		}
	}
}
