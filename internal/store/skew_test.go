package store

import (
	"context"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/testutil/redisserver"
)

// skewedPair opens two replicas' handles on one real Redis: a on clk, b
// on clk shifted by skew. Shared time passes with clk (withServerAhead).
func skewedPair(t *testing.T, clk *clock, skew time.Duration, opts ...Option) (a, b Backend) {
	t.Helper()
	u := redisserver.Start(t).URL("skew")
	a = openBackend(t, u, append(clk.options(), opts...)...)
	skewed := func() time.Time { return clk.now().Add(skew) }
	b = openBackend(t, u, append([]Option{WithClock(skewed), withServerAhead(clk.elapsed)}, opts...)...)
	return a, b
}

// A replica whose clock runs 20 s ahead, or behind, finds a key another
// replica is still writing live: it neither takes it over (and writes a
// second issue) nor stops waiting for the first result. The lease is the
// Redis server's time, which no replica's skew moves.
func TestRedisLeaseIgnoresReplicaClocks(t *testing.T) {
	for _, skew := range []time.Duration{20 * time.Second, -20 * time.Second} {
		t.Run(skew.String(), func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			clk := newClock()
			a, b := skewedPair(t, clk, skew)
			for _, tc := range []struct {
				name          string
				holder, other Backend
			}{{"the skewed replica repeats", a, b}, {"the skewed replica holds", b, a}} {
				scope := IdempotencyScope{Credential: a.CredentialKey("tok"), Repo: "acme/widgets", Tool: "github_create_issue"}
				key := tc.name
				first, err := tc.holder.Reserve(ctx, scope, key, "fp")
				if err != nil {
					t.Fatal(err)
				}
				if first.Outcome != Reserved {
					t.Fatalf("%s: first Reserve = %s, want %s", tc.name, first.Outcome, Reserved)
				}
				clk.add(LeaseTTL / 2)
				r, err := tc.other.Reserve(ctx, scope, key, "fp")
				if err != nil {
					t.Fatal(err)
				}
				if !r.Live {
					t.Errorf("%s: the key being written: Live = false, want true (%+v)", tc.name, r)
				}
				r, err = tc.other.Takeover(ctx, scope, key, "fp", first.CreatedAt)
				if err != nil {
					t.Fatal(err)
				}
				if r.Outcome == Reserved {
					t.Errorf("%s: Takeover of the key being written = %s, want it refused", tc.name, r.Outcome)
				}
				// Renewed by its holder, it stays live past the first lease.
				if err := tc.holder.Renew(ctx, scope, key, "fp", first.CreatedAt, LeaseTTL); err != nil {
					t.Fatal(err)
				}
				clk.add(LeaseTTL * 2 / 3)
				if r, _ := tc.other.Reserve(ctx, scope, key, "fp"); !r.Live {
					t.Errorf("%s: the renewed key: Live = false, want true (%+v)", tc.name, r)
				}
				// Left unrenewed, it lapses for everyone at the same moment.
				clk.add(LeaseTTL)
				if r, _ := tc.other.Reserve(ctx, scope, key, "fp"); r.Live {
					t.Errorf("%s: the lapsed key: Live = true, want false (%+v)", tc.name, r)
				}
			}
		})
	}
}

// Confirmed names, the secondary pause and the cache's recency are the
// server's time too: a skewed replica neither drops another's fresh names,
// nor shortens the pause, nor keeps its cached responses longest.
func TestRedisSharedTimesIgnoreReplicaClocks(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	clk := newClock()
	a, ahead := skewedPair(t, clk, time.Hour, WithETagBudget(350))

	if err := a.AddNames(ctx, "cred\x00acme/widgets", map[string]string{"label:bug": "bug"}, time.Minute); err != nil {
		t.Fatal(err)
	}
	names, ok, err := ahead.Names(ctx, "cred\x00acme/widgets", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Errorf("a replica an hour ahead found no names, want the ones just confirmed")
	} else if names["label:bug"] != "bug" {
		t.Errorf("names a replica an hour ahead reads = %v, want label:bug=bug just confirmed", names)
	}

	cred := a.CredentialKey("tok")
	if err := a.ObserveRate(ctx, cred, RateObservation{SecondaryUntil: clk.now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	p, err := ahead.Rate(ctx, cred)
	if err != nil {
		t.Fatal(err)
	}
	// The pause is a minute from now on every replica's own clock.
	if left := p.SecondaryUntil.Sub(clk.now().Add(time.Hour)); (left - time.Minute).Abs() > time.Second {
		t.Errorf("the pause a replica an hour ahead sees lasts %v, want a minute", left)
	}

	body := make([]byte, 100)
	put := func(b Backend, url string) {
		t.Helper()
		if err := b.PutETag(ctx, ETagKey{Credential: cred, URL: url}, CachedResponse{ETag: `"e"`, Status: 200, Body: body}); err != nil {
			t.Fatal(err)
		}
		clk.add(time.Second)
	}
	put(ahead, "oldest")
	for _, u := range []string{"second", "third", "fourth"} {
		put(a, u)
	}
	// Four entries pass the budget: the least recently used one goes.
	for url, want := range map[string]bool{"oldest": false, "second": true} {
		if _, ok, err := a.GetETag(ctx, ETagKey{Credential: cred, URL: url}); err != nil {
			t.Errorf("GetETag %s: %v", url, err)
		} else if ok != want {
			t.Errorf("%s cached = %v, want %v", url, ok, want)
		}
	}
}
