package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/testutil/redisserver"
)

// quotaCase is one backend under the quota tests: two handles on one
// state (two Stores on one file, two replicas on one Redis) whose windows
// follow clk.
type quotaCase struct {
	name string
	open func(t *testing.T, clk *clock) (a, b Backend)
	// slack bounds how far the backend's clock has run past clk, since
	// open: nothing for SQLite, whose clock is clk; for Redis the real
	// time that passed, as the server's clock runs on under the test's.
	slack func() time.Duration
	// margin is how close to a window's end a check can be placed and
	// still land before it: a millisecond where the clock is clk's alone.
	margin time.Duration
}

func quotaBackends(t *testing.T) []*quotaCase {
	sqlite := &quotaCase{name: "sqlite", slack: func() time.Duration { return 0 }, margin: time.Millisecond}
	sqlite.open = func(t *testing.T, clk *clock) (Backend, Backend) {
		path := filepath.Join(t.TempDir(), "state.db")
		return openBackend(t, path, WithClock(clk.now)), openBackend(t, path, WithClock(clk.now))
	}
	rds := &quotaCase{name: "redis", margin: time.Minute}
	rds.open = func(t *testing.T, clk *clock) (Backend, Backend) {
		u := redisserver.Start(t).URL("quota")
		a := openBackend(t, u)
		// Set the server's clock to clk's, as far as one reading can: its
		// clock then runs ahead of clk by the real time since the reading
		// (and up to a millisecond of rounding), which slack bounds.
		read := time.Now()
		srv, err := a.(*Redis).rdb.Time(context.Background()).Result()
		if err != nil {
			t.Fatal(err)
		}
		base := time.Duration(clk.start.UnixMilli()-srv.UnixMilli()) * time.Millisecond
		rds.slack = func() time.Duration { return time.Since(read) + time.Millisecond }
		ahead := withServerAhead(func() time.Duration { return base + clk.elapsed() })
		return openBackend(t, u, WithClock(clk.now), ahead), openBackend(t, u, WithClock(clk.now), ahead)
	}
	return []*quotaCase{sqlite, rds}
}

func eachQuotaBackend(t *testing.T, fn func(t *testing.T, qc *quotaCase)) {
	for _, qc := range quotaBackends(t) {
		t.Run(qc.name, func(t *testing.T) { fn(t, qc) })
	}
}

// count calls b.Count, failing the test on an error.
func count(t *testing.T, b Backend, key string, n, limit int, window time.Duration, commit bool) (bool, time.Duration) {
	t.Helper()
	ok, left, err := b.Count(context.Background(), key, n, limit, window, commit)
	if err != nil {
		t.Fatalf("Count(%q, %d, %d, %v, %v): %v", key, n, limit, window, commit, err)
	}
	return ok, left
}

// mustFit and mustRefuse check one Count; mustRefuse also checks the time
// it reports left in the window: want exactly, or up to the backend's
// slack less.
func mustFit(t *testing.T, b Backend, key string, n, limit int, window time.Duration, commit bool) {
	t.Helper()
	ok, left := count(t, b, key, n, limit, window, commit)
	if !ok {
		t.Fatalf("Count(%q, %d, limit %d, commit %v) refused (retry after %v), want it to fit", key, n, limit, commit, left)
	}
	if left != 0 {
		t.Errorf("Count(%q, %d) fit with retry after %v, want 0", key, n, left)
	}
}

func mustRefuse(t *testing.T, qc *quotaCase, b Backend, key string, n, limit int, window time.Duration, commit bool, want time.Duration) {
	t.Helper()
	ok, left := count(t, b, key, n, limit, window, commit)
	if ok {
		t.Fatalf("Count(%q, %d, limit %d, commit %v) fit, want it refused", key, n, limit, commit)
	}
	if slack := qc.slack(); left > want || left < want-slack {
		t.Errorf("Count(%q, %d) retry after %v, want %v (less at most %v)", key, n, left, want, slack)
	}
}

// A full window refuses until it ends, saying how long that is, then
// allows again; the count is one for both handles.
func TestCountRefusesAFullWindowUntilItEnds(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		clk := newClock() // 12:00:00, the start of an hour
		a, b := qc.open(t, clk)
		const key, limit = "client:c1/comment", 3
		clk.add(10 * time.Minute)
		mustFit(t, a, key, 2, limit, time.Hour, true)
		mustFit(t, b, key, 1, limit, time.Hour, true)
		mustRefuse(t, qc, a, key, 1, limit, time.Hour, true, 50*time.Minute)
		mustRefuse(t, qc, b, key, 1, limit, time.Hour, true, 50*time.Minute)

		clk.add(50*time.Minute - qc.margin)
		mustRefuse(t, qc, b, key, 1, limit, time.Hour, true, qc.margin)

		// 13:00: a new window, counted from nothing.
		clk.add(qc.margin)
		mustFit(t, b, key, 3, limit, time.Hour, true)
		mustRefuse(t, qc, a, key, 1, limit, time.Hour, true, time.Hour)

		// Minute windows begin on the minute, whatever the first write's
		// time.
		clk.add(90 * time.Second)
		mustFit(t, a, "minute", 1, 1, time.Minute, true)
		mustRefuse(t, qc, b, "minute", 1, 1, time.Minute, true, 30*time.Second)
		clk.add(30 * time.Second)
		mustFit(t, b, "minute", 1, 1, time.Minute, true)
	})
}

// Asking (commit false) answers as counting would and never counts.
func TestCountAskingNeverCounts(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		clk := newClock()
		a, b := qc.open(t, clk)
		const key, limit = "client:c1/label", 3
		for range 5 {
			mustFit(t, a, key, 3, limit, time.Hour, false)
		}
		mustFit(t, b, key, 2, limit, time.Hour, true)
		for range 5 {
			mustFit(t, a, key, 1, limit, time.Hour, false)
			mustRefuse(t, qc, b, key, 2, limit, time.Hour, false, time.Hour)
		}
		mustFit(t, a, key, 1, limit, time.Hour, true)
		mustRefuse(t, qc, b, key, 1, limit, time.Hour, false, time.Hour)
		mustRefuse(t, qc, a, key, 1, limit, time.Hour, true, time.Hour)
	})
}

// A bulk write counts each item: n that would pass the limit is refused
// whole, and counts nothing; n past the limit itself is always refused.
func TestCountTakesABulkWriteWholeOrNotAtAll(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		clk := newClock()
		a, b := qc.open(t, clk)
		const key, limit = "client:c1/close", 10
		clk.add(45 * time.Minute)
		mustRefuse(t, qc, a, key, 11, limit, time.Hour, true, 15*time.Minute)
		mustRefuse(t, qc, a, key, 1<<62, limit, time.Hour, true, 15*time.Minute)
		mustFit(t, b, key, 7, limit, time.Hour, true)
		mustRefuse(t, qc, a, key, 4, limit, time.Hour, true, 15*time.Minute)
		mustFit(t, a, key, 3, limit, time.Hour, true)
		mustFit(t, b, key, 0, limit, time.Hour, true)
		mustRefuse(t, qc, b, key, 1, limit, time.Hour, true, 15*time.Minute)
		// A limit of zero lets nothing through.
		mustRefuse(t, qc, a, "client:c1/delete", 1, 0, time.Hour, true, 15*time.Minute)
	})
}

// Keys, and window lengths under one key, are counted apart; a key too
// long to store as given is stored as its digest and still kept apart
// from its neighbours.
func TestCountKeepsKeysAndWindowsApart(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		clk := newClock()
		a, b := qc.open(t, clk)
		long := strings.Repeat("x", 300)
		keys := []string{
			"client:c1/comment", "client:c2/comment", "client:c1/comment/acme/widgets#1",
			long + "1", long + "2",
			// A short key that spells a long one's stored form.
			quotaKey(long + "1"),
		}
		for _, k := range keys {
			mustFit(t, a, k, 1, 1, time.Hour, true)
		}
		for _, k := range keys {
			mustRefuse(t, qc, b, k, 1, 1, time.Hour, true, time.Hour)
		}
		// Another window length under a key is another count, even where
		// the windows start together (12:00 begins the hour and the
		// minute), and counting in one leaves the other as it was.
		clk.add(30 * time.Second)
		mustFit(t, b, keys[0], 1, 1, time.Minute, true)
		mustRefuse(t, qc, a, keys[0], 1, 1, time.Minute, true, 30*time.Second)
		mustFit(t, a, keys[0], 1, 1, 24*time.Hour, true)
		mustRefuse(t, qc, b, keys[0], 1, 1, 24*time.Hour, true, 12*time.Hour-30*time.Second)
		mustRefuse(t, qc, b, keys[0], 1, 1, time.Hour, true, time.Hour-30*time.Second)
	})
}

func TestQuotaKeyIsBounded(t *testing.T) {
	for _, tc := range []struct {
		key  string
		want string
	}{
		{"client:c1/comment", "k:client:c1/comment"},
		{strings.Repeat("a", maxQuotaKey), "k:" + strings.Repeat("a", maxQuotaKey)},
		{strings.Repeat("a", maxQuotaKey+1), "h:" + digestOf(strings.Repeat("a", maxQuotaKey+1))},
	} {
		if got := quotaKey(tc.key); got != tc.want {
			t.Errorf("quotaKey(%d bytes) = %q, want %q", len(tc.key), got, tc.want)
		}
	}
	if got := len(quotaKey(strings.Repeat("a", 1<<20))); got > maxQuotaKey+2 {
		t.Errorf("a 1 MiB key is stored in %d bytes, want at most %d", got, maxQuotaKey+2)
	}
}

// Replicas racing for the last units never both get one: of 80 calls
// from 8 goroutines over two handles, exactly the limit's worth fit.
func TestCountIsSharedByConcurrentReplicas(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		clk := newClock()
		clk.add(10 * time.Minute)
		a, b := qc.open(t, clk)
		for _, tc := range []struct {
			key      string
			n, limit int
			want     int64
		}{
			{"one at a time", 1, 20, 20},
			{"three at a time", 3, 20, 6},
		} {
			var (
				wg   sync.WaitGroup
				fits atomic.Int64
			)
			for g := range 8 {
				h := a
				if g%2 == 1 {
					h = b
				}
				wg.Go(func() {
					for range 10 {
						ok, _, err := h.Count(context.Background(), tc.key, tc.n, tc.limit, time.Hour, true)
						if err != nil {
							t.Error(err)
							return
						}
						if ok {
							fits.Add(1)
						}
					}
				})
			}
			wg.Wait()
			if got := fits.Load(); got != tc.want {
				t.Errorf("%s: %d of 80 calls fit, want %d", tc.key, got, tc.want)
			}
			// What is left: limit - want·n, which one more ask confirms.
			left := tc.limit - int(tc.want)*tc.n
			mustFit(t, a, tc.key, left, tc.limit, time.Hour, false)
			mustRefuse(t, qc, b, tc.key, left+1, tc.limit, time.Hour, false, 50*time.Minute)
		}
	})
}

func TestCountRejectsWhatNoQuotaMeans(t *testing.T) {
	eachQuotaBackend(t, func(t *testing.T, qc *quotaCase) {
		a, _ := qc.open(t, newClock())
		for _, tc := range []struct {
			name     string
			key      string
			n, limit int
			window   time.Duration
		}{
			{"no key", "", 1, 1, time.Hour},
			{"negative count", "k", -1, 1, time.Hour},
			{"negative limit", "k", 1, -1, time.Hour},
			{"limit too large", "k", 1, MaxQuotaLimit + 1, time.Hour},
			{"no window", "k", 1, 1, 0},
			{"negative window", "k", 1, 1, -time.Hour},
			{"window of part of a millisecond", "k", 1, 1, 1500 * time.Microsecond},
		} {
			ok, _, err := a.Count(context.Background(), tc.key, tc.n, tc.limit, tc.window, true)
			if err == nil {
				t.Errorf("%s: Count = %v with no error, want an error", tc.name, ok)
			}
		}
		// An error counted nothing: the first real count still fits whole.
		mustFit(t, a, "k", 1, 1, time.Hour, true)
	})
}

// A backend that cannot answer is an error, never a count that fits: the
// caller refuses the write.
func TestCountReportsABackendFailure(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) {
		s := openMem(t)
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		for _, commit := range []bool{true, false} {
			ok, _, err := s.Count(context.Background(), "k", 1, 5, time.Hour, commit)
			if err == nil {
				t.Errorf("Count (commit %v) on a closed store = %v, want an error", commit, ok)
			}
		}
	})
	t.Run("redis", func(t *testing.T) {
		srv := redisserver.Start(t)
		r := openBackend(t, srv.URL("down"))
		mustFit(t, r, "k", 1, 5, time.Hour, true)
		srv.Stop()
		for _, commit := range []bool{true, false} {
			ok, _, err := r.Count(context.Background(), "k", 1, 5, time.Hour, commit)
			if !errors.Is(err, ErrUnavailable) {
				t.Errorf("Count (commit %v) with Redis down = %v, %v; want an error wrapping ErrUnavailable", commit, ok, err)
			}
		}
	})
}

// SQLite keeps a window's count until the window ends, then Prune drops
// it; asking writes no row at all.
func TestCountPruneDropsEndedWindows(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	s := openMem(t, WithClock(clk.now), WithPruneEvery(0))
	clk.add(30 * time.Second)
	mustFit(t, s, "ask", 1, 5, time.Minute, false)
	if got := countRows(t, s, "quota"); got != 0 {
		t.Fatalf("after an ask the quota table holds %d rows, want 0", got)
	}
	mustFit(t, s, "minute", 1, 5, time.Minute, true)
	mustFit(t, s, "hour", 1, 5, time.Hour, true)
	clk.add(30*time.Second - time.Millisecond)
	if err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	if got := countRows(t, s, "quota"); got != 2 {
		t.Fatalf("before the minute ends the quota table holds %d rows, want 2", got)
	}
	clk.add(time.Millisecond)
	if err := s.Prune(ctx); err != nil {
		t.Fatal(err)
	}
	if got := countRows(t, s, "quota"); got != 1 {
		t.Fatalf("once the minute ended the quota table holds %d rows, want 1 (the hour's)", got)
	}
	mustRefuse(t, &quotaCase{slack: func() time.Duration { return 0 }}, s, "hour", 5, 5, time.Hour, true, 59*time.Minute)
}

// Redis expires a count when its window ends, by the server's clock.
func TestCountExpiresInRedisWhenTheWindowEnds(t *testing.T) {
	var qc *quotaCase
	for _, c := range quotaBackends(t) {
		if c.name == "redis" {
			qc = c
		}
	}
	clk := newClock()
	clk.add(20 * time.Minute)
	a, _ := qc.open(t, clk)
	mustFit(t, a, "k", 1, 5, time.Hour, false)
	r := a.(*Redis)
	key := r.prefix + "quota:3600000:" + quotaKey("k")
	n, err := r.rdb.Exists(context.Background(), key).Result()
	if err != nil {
		t.Fatalf("EXISTS %s: %v", key, err)
	}
	if n != 0 {
		t.Fatalf("after an ask Redis holds %d quota keys, want 0", n)
	}
	mustFit(t, a, "k", 1, 5, time.Hour, true)
	ttl, err := r.rdb.PTTL(context.Background(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	if want, slack := 40*time.Minute, qc.slack(); ttl > want || ttl < want-slack {
		t.Errorf("the count expires in %v, want %v (less at most %v)", ttl, want, slack)
	}
}

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
