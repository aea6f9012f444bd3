package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// clock is a settable time source safe for concurrent reads.
type clock struct {
	mu    sync.Mutex
	t     time.Time
	start time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// elapsed is how far the clock was moved on.
func (c *clock) elapsed() time.Duration { return c.now().Sub(c.start) }

// options make the clock every handle's, and let Redis's server time pass
// with it: add moves a replica's clock and the shared one alike.
func (c *clock) options() []Option { return []Option{WithClock(c.now), withServerAhead(c.elapsed)} }

func newClock() *clock {
	t := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	return &clock{t: t, start: t}
}

// withServerAhead moves the Redis server's clock on by what ahead
// returns, as time passing would (SQLite has no server: its clock is
// WithClock's).
func withServerAhead(ahead func() time.Duration) Option {
	return func(s *Store) { s.serverAhead = ahead }
}

func TestIdempotencyFirstResultIsReplayed(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	scope := IdempotencyScope{Credential: s.CredentialKey("t"), Repo: "acme/widgets", Tool: "github_create_issue"}

	r, err := s.Reserve(ctx, scope, "k1", "fp")
	wantOutcome(t, "first Reserve", r, err, Reserved)
	if r.ExpiresAt.Sub(r.CreatedAt) != IdempotencyTTL {
		t.Fatalf("expiry window = %v, want %v", r.ExpiresAt.Sub(r.CreatedAt), IdempotencyTTL)
	}
	// A repeat while the first is in flight must not write.
	r, err = s.Reserve(ctx, scope, "k1", "fp")
	wantOutcome(t, "Reserve while pending", r, err, InProgress)
	result := json.RawMessage(`{"number":7}`)
	if err := s.Complete(ctx, scope, "k1", "fp", r.CreatedAt, result); err != nil {
		t.Fatal(err)
	}
	// The repository is matched case-insensitively.
	upper := scope
	upper.Repo = "ACME/Widgets"
	r, err = s.Reserve(ctx, upper, "k1", "fp")
	wantOutcome(t, "repeat", r, err, Replay)
	if string(r.Result) != `{"number":7}` {
		t.Fatalf("repeat: Result = %s, want %s", r.Result, `{"number":7}`)
	}
	e, ok, err := s.Lookup(ctx, scope, "k1")
	wantCompleted(t, e, ok, err, `{"number":7}`, "fp")
	// Same key, other request: refused.
	if _, err := s.Reserve(ctx, scope, "k1", "other"); !errors.Is(err, ErrKeyReused) {
		t.Fatalf("reuse with another fingerprint: %v", err)
	}
	// Same key under another tool, repository or credential is independent.
	for _, other := range []IdempotencyScope{
		{Credential: scope.Credential, Repo: scope.Repo, Tool: "github_add_comment"},
		{Credential: scope.Credential, Repo: "acme/gadgets", Tool: scope.Tool},
		{Credential: s.CredentialKey("t2"), Repo: scope.Repo, Tool: scope.Tool},
	} {
		r, err := s.Reserve(ctx, other, "k1", "other")
		if err != nil {
			t.Errorf("Reserve in scope %+v: %v", other, err)
			continue
		}
		if r.Outcome != Reserved {
			t.Errorf("Reserve in scope %+v: Outcome = %q, want %q", other, r.Outcome, Reserved)
		}
	}
	if err := s.Complete(ctx, scope, "k1", "fp", r.CreatedAt, json.RawMessage(`not json`)); err == nil {
		t.Fatal("Complete accepted a non-JSON result")
	}
}

func TestIdempotencyExpiry(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	s := openMem(t, WithClock(c.now))
	scope := IdempotencyScope{Credential: s.CredentialKey("t"), Repo: "o/r", Tool: "x"}
	first, err := s.Reserve(ctx, scope, "k", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(ctx, scope, "k", "fp", first.CreatedAt, json.RawMessage(`1`)); err != nil {
		t.Fatal(err)
	}
	c.add(IdempotencyTTL - time.Second)
	if r, _ := s.Reserve(ctx, scope, "k", "fp"); r.Outcome != Replay {
		t.Fatalf("just inside the window: Outcome = %q, want %q", r.Outcome, Replay)
	}
	c.add(time.Second)
	if _, ok, _ := s.Lookup(ctx, scope, "k"); ok {
		t.Fatal("Lookup found an expired key")
	}
	// An expired key is claimed afresh, even with another fingerprint.
	r, err := s.Reserve(ctx, scope, "k", "new-fp")
	wantOutcome(t, "Reserve after expiry", r, err, Reserved)
	if !r.CreatedAt.Equal(c.now()) {
		t.Fatalf("Reserve after expiry: CreatedAt = %v, want now, %v", r.CreatedAt, c.now())
	}
	// Pruning removes only what has expired.
	if _, err := s.Reserve(ctx, scope, "old", "fp"); err != nil {
		t.Fatal(err)
	}
	c.add(IdempotencyTTL)
	if _, err := s.Reserve(ctx, scope, "young", "fp"); err != nil {
		t.Fatal(err)
	}
	n, err := s.PruneIdempotency(ctx)
	if err != nil {
		t.Fatalf("PruneIdempotency: %v", err)
	}
	if n != 2 {
		t.Fatalf("pruned %d, want 2 (k and old)", n)
	}
	if _, ok, _ := s.Lookup(ctx, scope, "young"); !ok {
		t.Fatal("a live key was pruned")
	}
}

func TestIdempotencyRelease(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	scope := IdempotencyScope{Credential: s.CredentialKey("t"), Repo: "o/r", Tool: "x"}
	first, err := s.Reserve(ctx, scope, "k", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, scope, "k", "other", first.CreatedAt); !errors.Is(err, ErrNotReserved) {
		t.Fatalf("release with the wrong fingerprint: %v", err)
	}
	if err := s.Release(ctx, scope, "k", "fp", first.CreatedAt.Add(time.Millisecond)); !errors.Is(err, ErrNotReserved) {
		t.Fatalf("Release of a reservation made at another time: %v", err)
	}
	if err := s.Release(ctx, scope, "k", "fp", first.CreatedAt); err != nil {
		t.Fatal(err)
	}
	again, err := s.Reserve(ctx, scope, "k", "fp")
	wantOutcome(t, "Reserve after release", again, err, Reserved)
	if err := s.Complete(ctx, scope, "k", "fp", again.CreatedAt, json.RawMessage(`{}`)); err != nil {
		t.Fatal(err)
	}
	// A completed write can never be released.
	if err := s.Release(ctx, scope, "k", "fp", again.CreatedAt); !errors.Is(err, ErrNotReserved) {
		t.Fatalf("release of a completed key: %v", err)
	}
	if err := s.Complete(ctx, scope, "missing", "fp", again.CreatedAt, json.RawMessage(`{}`)); !errors.Is(err, ErrNotReserved) {
		t.Fatalf("complete without reserve: %v", err)
	}
	if _, err := s.Reserve(ctx, IdempotencyScope{}, "k", "fp"); err == nil {
		t.Fatal("an empty scope was accepted")
	}
}

// Concurrent callers racing for one key: exactly one may write. Run for
// both the in-memory pool (one connection) and a WAL file shared by two
// Store handles, as two processes would share it.
func TestIdempotencyConcurrentReserve(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if a.CredentialKey("t") != b.CredentialKey("t") {
		t.Fatal("two handles on one file disagree on the salt")
	}
	cases := map[string][]*Store{"memory": {openMem(t)}, "file": {a, b}}
	for name, stores := range cases {
		t.Run(name, func(t *testing.T) {
			const workers, keys = 16, 5
			var mu sync.Mutex
			reserved := map[string]int{}
			var wg sync.WaitGroup
			errs := make(chan error, workers*keys)
			for w := range workers {
				s := stores[w%len(stores)]
				wg.Add(1)
				go func() {
					defer wg.Done()
					scope := IdempotencyScope{Credential: s.CredentialKey("t"), Repo: "o/r", Tool: "x"}
					for k := range keys {
						key := fmt.Sprintf("k%d", k)
						r, err := s.Reserve(ctx, scope, key, "fp")
						if err != nil {
							errs <- err
							return
						}
						if r.Outcome == Reserved {
							mu.Lock()
							reserved[key]++
							mu.Unlock()
							if err := s.Complete(ctx, scope, key, "fp", r.CreatedAt, json.RawMessage(`true`)); err != nil {
								errs <- err
							}
						}
						// Unrelated traffic on the same database meanwhile.
						ek := ETagKey{Credential: scope.Credential, URL: fmt.Sprintf("u%d", w)}
						if err := s.PutETag(ctx, ek, CachedResponse{ETag: "e", Status: 200}); err != nil {
							errs <- err
						}
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			for k := range keys {
				if n := reserved[fmt.Sprintf("k%d", k)]; n != 1 {
					t.Errorf("key k%d reserved %d times, want exactly 1", k, n)
				}
			}
		})
	}
}
