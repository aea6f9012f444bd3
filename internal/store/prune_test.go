package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// etagBodyBytes is what the cached responses' bodies hold in all.
func etagBodyBytes(t *testing.T, s *Store) int64 {
	t.Helper()
	var n int64
	if err := s.db.QueryRow(`SELECT coalesce(sum(length(body)), 0) FROM etags`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func countRows(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT count(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// Caching 10,000 reads keeps the cache within its byte budget: the least
// recently used entries go first, so the newest stay, and so does an old
// one that keeps being read.
func TestETagCacheStaysWithinBudget(t *testing.T) {
	ctx := context.Background()
	const budget = 100 << 10
	c := newClock()
	s := openMem(t, WithClock(c.now), WithETagBudget(budget), WithPruneEvery(0))
	cred := s.CredentialKey("t")
	key := func(i int) ETagKey {
		return ETagKey{Credential: cred, URL: fmt.Sprintf("https://api.github.com/repos/o/r/issues/%d", i), Accept: "application/json"}
	}
	body := bytes.Repeat([]byte("x"), 1000)
	hot := key(-1)
	if err := s.PutETag(ctx, hot, CachedResponse{ETag: `"hot"`, Status: 200, Body: body}); err != nil {
		t.Fatal(err)
	}
	const reads = 10_000
	for i := range reads {
		c.add(2 * time.Second)
		if err := s.PutETag(ctx, key(i), CachedResponse{ETag: `"e"`, Status: 200, Body: body}); err != nil {
			t.Fatal(err)
		}
		// Every 100 s the hot entry is looked up again, as a conditional
		// request would.
		if i%50 == 0 {
			_, ok, err := s.GetETag(ctx, hot)
			wantFound(t, fmt.Sprintf("GetETag of the entry in use after %d reads", i), ok, err, true)
		}
		if i%1000 == 999 {
			if n := etagBodyBytes(t, s); n > budget {
				t.Fatalf("after %d reads the cache holds %d body bytes, over the %d budget", i+1, n, budget)
			}
		}
	}
	for _, i := range []int{0, 1, reads / 2} {
		if _, ok, _ := s.GetETag(ctx, key(i)); ok {
			t.Errorf("entry %d of %d survived", i, reads)
		}
	}
	for i := reads - 50; i < reads; i++ {
		_, ok, err := s.GetETag(ctx, key(i))
		wantFound(t, fmt.Sprintf("GetETag of recent entry %d", i), ok, err, true)
	}
	if _, ok, _ := s.GetETag(ctx, hot); !ok {
		t.Fatal("the entry in use was evicted before idle ones")
	}
	// The running total the budget is checked against matches the rows.
	var total, sum int64
	if err := s.db.QueryRow(`SELECT total FROM etag_bytes`).Scan(&total); err != nil {
		t.Fatal(err)
	}
	if err := s.db.QueryRow(`SELECT coalesce(sum(length(body) + length(CAST(header AS BLOB))), 0) FROM etags`).Scan(&sum); err != nil {
		t.Fatal(err)
	}
	if total != sum {
		t.Fatalf("running total = %d, want %d, what the rows hold", total, sum)
	}
}

// A response larger than the whole budget is not kept, and does not push
// out what is.
func TestETagLargerThanBudgetIsNotKept(t *testing.T) {
	ctx := context.Background()
	s := openMem(t, WithETagBudget(1000), WithPruneEvery(0))
	cred := s.CredentialKey("t")
	small := ETagKey{Credential: cred, URL: "small"}
	big := ETagKey{Credential: cred, URL: "big"}
	if err := s.PutETag(ctx, small, CachedResponse{ETag: "s", Status: 200, Body: []byte("[]")}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutETag(ctx, big, CachedResponse{ETag: "b", Status: 200, Body: bytes.Repeat([]byte("x"), 2000)}); err != nil {
		t.Fatal(err)
	}
	if _, ok, _ := s.GetETag(ctx, big); ok {
		t.Fatal("a response over the budget was kept")
	}
	if _, ok, _ := s.GetETag(ctx, small); !ok {
		t.Fatal("an oversized response pushed out the others")
	}
}

// 10,000 expired idempotency keys are gone after a pruning tick, and a
// key still inside its window replays its first result.
func TestScheduledPruneDropsExpiredKeys(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	s := openMem(t, WithClock(c.now), WithPruneEvery(10*time.Millisecond))
	scope := IdempotencyScope{Credential: s.CredentialKey("t"), Repo: "o/r", Tool: "github_create_issue"}
	const keys = 10_000
	// Written in one transaction: the API would take one per key.
	tx, err := s.db.Begin()
	if err != nil {
		t.Fatal(err)
	}
	for i := range keys {
		if _, err := tx.Exec(`INSERT INTO idempotency (credential, repo, tool, key, fingerprint, state, result, created_at)
			VALUES (?, ?, ?, ?, 'fp', 'complete', ?, ?)`, string(scope.Credential), scope.Repo, scope.Tool, fmt.Sprint("old-", i), []byte(`{}`), c.now().UnixMilli()); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Commit(); err != nil {
		t.Fatal(err)
	}
	c.add(IdempotencyTTL)
	fresh, err := s.Reserve(ctx, scope, "fresh", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(ctx, scope, "fresh", "fp", fresh.CreatedAt, json.RawMessage(`{"number":42}`)); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for countRows(t, s, "idempotency") > 1 {
		if time.Now().After(deadline) {
			t.Fatalf("%d idempotency keys left after 10 s of pruning ticks, want 1", countRows(t, s, "idempotency"))
		}
		time.Sleep(5 * time.Millisecond)
	}
	r, err := s.Reserve(ctx, scope, "fresh", "fp")
	wantOutcome(t, "the live key after pruning", r, err, Replay)
	if string(r.Result) != `{"number":42}` {
		t.Fatalf("the live key after pruning: Result = %s, want %s", r.Result, `{"number":42}`)
	}
}

// Open evicts down to the budget it is given, as it drops expired keys
// and old responses (TestOpenPrunes).
func TestOpenEnforcesTheBudget(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	cred := s.CredentialKey("t")
	body := bytes.Repeat([]byte("x"), 1000)
	for i := range 20 {
		c.add(time.Second)
		if err := s.PutETag(ctx, ETagKey{Credential: cred, URL: fmt.Sprint(i)}, CachedResponse{ETag: "e", Status: 200, Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s, err = Open(ctx, path, WithClock(c.now), WithETagBudget(5000))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if n := etagBodyBytes(t, s); n > 5000 || n == 0 {
		t.Fatalf("after reopening with a 5000-byte budget the cache holds %d body bytes, want 1..5000", n)
	}
	if _, ok, _ := s.GetETag(ctx, ETagKey{Credential: cred, URL: "19"}); !ok {
		t.Fatal("the newest entry was evicted")
	}
	if _, ok, _ := s.GetETag(ctx, ETagKey{Credential: cred, URL: "0"}); ok {
		t.Fatal("the oldest entry survived")
	}
}

// The pruning schedule belongs to the Store: Close stops it, and no
// goroutine of the Store's is left behind.
func TestCloseStopsTheSchedule(t *testing.T) {
	before := runtime.NumGoroutine()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "state.db"), WithPruneEvery(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(20 * time.Millisecond) // some ticks
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-s.done:
	default:
		t.Fatal("Close returned while the pruning loop still runs")
	}
	if err := s.Close(); err != nil {
		t.Fatalf("a second Close: %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines after Close, %d before Open", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Inspect reads a database without creating, migrating or changing it.
func TestInspect(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	if _, err := Inspect(ctx, path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v, want not-exist", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("Inspect created the file")
	}
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	cred := s.CredentialKey("t")
	for i := range 3 {
		if err := s.PutETag(ctx, ETagKey{Credential: cred, URL: fmt.Sprint(i)}, CachedResponse{ETag: "e", Status: 200, Body: []byte("12345")}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Reserve(ctx, IdempotencyScope{Credential: cred, Repo: "o/r", Tool: "x"}, "k", "fp"); err != nil {
		t.Fatal(err)
	}
	// While the file is open, as beside a running broker.
	st, err := Inspect(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if st.ETags != 3 {
		t.Errorf("Inspect: ETags = %d, want 3", st.ETags)
	}
	if st.ETagBodyBytes != 15 {
		t.Errorf("Inspect: ETagBodyBytes = %d, want 15", st.ETagBodyBytes)
	}
	if st.IdempotencyKeys != 1 {
		t.Errorf("Inspect: IdempotencyKeys = %d, want 1", st.IdempotencyKeys)
	}
	if st.FileBytes == 0 {
		t.Errorf("Inspect: FileBytes = 0, want the file's size")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	if st, err = Inspect(ctx, path); err != nil {
		t.Fatalf("Inspect of the closed file: %v", err)
	}
	if st.ETags != 3 {
		t.Fatalf("Inspect of the closed file: ETags = %d, want 3", st.ETags)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Fatal("Inspect changed the file")
	}
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 100), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Inspect(ctx, garbage); err == nil {
		t.Fatal("a file that is not a database was inspected")
	}
}

// A database from schema 1 gains the size bookkeeping with its rows
// counted, the least recently used order starting from when each was
// stored.
func TestMigrationCountsExistingCache(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := openDB(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, migrations[:1]); err != nil {
		t.Fatal(err)
	}
	for i, body := range []string{"[1]", "[1,2]"} {
		if _, err := db.Exec(`INSERT INTO etags (credential, url, accept, etag, status, header, body, stored_at) VALUES ('c', ?, '', 'e', 200, '{}', ?, ?)`,
			fmt.Sprint(i), []byte(body), int64(1000+i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, WithPruneEvery(0), WithClock(func() time.Time { return time.UnixMilli(2000) }))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var total int64
	if err := s.db.QueryRow(`SELECT total FROM etag_bytes`).Scan(&total); err != nil {
		t.Fatalf("read etag_bytes total: %v", err)
	}
	if total != 3+2+5+2 {
		t.Fatalf("total after migration = %d, want 12", total)
	}
	var used int64
	if err := s.db.QueryRow(`SELECT used_at FROM etags WHERE url = '1'`).Scan(&used); err != nil {
		t.Fatalf("read used_at: %v", err)
	}
	if used != 1001 {
		t.Fatalf("used_at after migration = %d, want stored_at 1001", used)
	}
}
