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

func (g *gatedBackend) PutETag(_ context.Context, key ETagKey, r CachedResponse) error {
	g.entered <- struct{}{}
	<-g.gate
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.fail != nil {
		return g.fail
	}
	g.entries[key] = r
	g.writes = append(g.writes, "put "+key.URL+" "+r.ETag)
	return nil
}

func (g *gatedBackend) DeleteETag(_ context.Context, key ETagKey) error {
	<-g.gate
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
	w := newWriteBehind(g, writeBehindBytes)
	if err := w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "a", Body: []byte("one")}); err != nil {
		t.Fatal(err)
	}
	if r, ok, err := w.GetETag(ctx, etagKey(1)); err != nil || !ok || r.ETag != "a" || string(r.Body) != "one" {
		t.Fatalf("GetETag before the backend wrote = %+v %v %v", r, ok, err)
	}
	if _, ok, _ := g.GetETag(ctx, etagKey(1)); ok {
		t.Fatal("the backend wrote before its gate opened: the test shows nothing")
	}
	_ = w.DeleteETag(ctx, etagKey(1))
	if _, ok, _ := w.GetETag(ctx, etagKey(1)); ok {
		t.Fatal("a queued deletion still answers with the entry")
	}
	_ = w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "b"})
	_ = w.PutETag(ctx, etagKey(2), CachedResponse{ETag: "c"})
	if r, ok, _ := w.GetETag(ctx, etagKey(1)); !ok || r.ETag != "b" {
		t.Fatalf("GetETag after put, delete, put = %+v %v; want the last put", r, ok)
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
	if r, ok, _ := w.GetETag(ctx, etagKey(1)); !ok || r.ETag != "b" {
		t.Fatalf("after Close GetETag = %+v %v; want the backend's entry", r, ok)
	}
}

// Once the queue holds its bound, a writer waits for the backend.
func TestWriteBehindBoundsWhatWaits(t *testing.T) {
	ctx := context.Background()
	g := newGated()
	w := newWriteBehind(g, 10)
	_ = w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "a", Body: bytes.Repeat([]byte("x"), 8)})
	<-g.entered // the queue is empty, the first write in the backend's hands
	third := make(chan struct{})
	go func() {
		// 8 in the backend's hands + 8 is past 10: waits.
		_ = w.PutETag(ctx, etagKey(2), CachedResponse{ETag: "b", Body: bytes.Repeat([]byte("y"), 8)})
		close(third)
	}()
	select {
	case <-third:
		t.Fatal("a write past the bound returned while the backend was stalled")
	case <-time.After(100 * time.Millisecond):
	}
	close(g.gate)
	select {
	case <-third:
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting write did not go on once the backend caught up")
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := len(g.written()); got != 2 {
		t.Fatalf("backend writes = %d, want 2", got)
	}
}

// A background write's failure reaches the caller on its next write, once.
func TestWriteBehindReportsAFailedWrite(t *testing.T) {
	ctx := context.Background()
	g := newGated()
	g.fail = fmt.Errorf("%w: connection refused", ErrUnavailable)
	close(g.gate)
	w := newWriteBehind(g, writeBehindBytes)
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
	if err := w.PutETag(ctx, etagKey(1), CachedResponse{ETag: "a", Body: []byte("x")}); err != nil {
		t.Fatalf("first PutETag = %v; its failure comes later", err)
	}
	drained()
	g.mu.Lock()
	g.fail = nil
	g.mu.Unlock()
	if err := w.PutETag(ctx, etagKey(2), CachedResponse{ETag: "b", Body: []byte("y")}); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("the next PutETag = %v, want the background failure", err)
	}
	drained()
	if err := w.PutETag(ctx, etagKey(3), CachedResponse{ETag: "c"}); err != nil {
		t.Fatalf("a PutETag after a good write = %v; a failure is reported once", err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if got := g.written(); len(got) != 2 {
		t.Fatalf("backend writes = %q, want the two after the failure", got)
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
			if _, ok, err := again.GetETag(ctx, etagKey(g*100+i)); err != nil || !ok {
				t.Fatalf("entry %d missing from the store after Close (%v)", g*100+i, err)
			}
		}
	}
}
