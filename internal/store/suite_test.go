package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/testutil/redisserver"
)

// The behavioural suite: one set of tests, run against every backend. Each
// backend gives two handles on the same state, as two replicas (or two
// processes sharing a file) would have.

type backendCase struct {
	name string
	open func(t *testing.T, opts ...Option) (a, b Backend)
}

func backends(t *testing.T) []backendCase {
	return []backendCase{
		{"sqlite", func(t *testing.T, opts ...Option) (Backend, Backend) {
			path := filepath.Join(t.TempDir(), "state.db")
			return openBackend(t, path, opts...), openBackend(t, path, opts...)
		}},
		{"redis", func(t *testing.T, opts ...Option) (Backend, Backend) {
			srv := redisserver.Start(t)
			u := srv.URL("suite")
			return openBackend(t, u, opts...), openBackend(t, u, opts...)
		}},
	}
}

// openBackend opens the backend itself: the suite asks what one handle's
// write shows on another at once, which the write-behind OpenBackend adds
// in front of a backend only promises for its own handle (see
// writebehind_test.go).
func openBackend(t *testing.T, spec string, opts ...Option) Backend {
	t.Helper()
	b, err := openDirect(context.Background(), spec, opts...)
	if err != nil {
		t.Fatalf("openDirect(%s): %v", spec, err)
	}
	t.Cleanup(func() { _ = b.Close() })
	return b
}

func eachBackend(t *testing.T, fn func(t *testing.T, open func(t *testing.T, opts ...Option) (Backend, Backend))) {
	for _, bc := range backends(t) {
		t.Run(bc.name, func(t *testing.T) { fn(t, bc.open) })
	}
}

func TestSuiteIdempotencyReplayAcrossHandles(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		a, b := open(t, clk.options()...)
		if a.CredentialKey("tok") != b.CredentialKey("tok") {
			t.Fatal("two handles name one token differently")
		}
		if a.CredentialKey("tok") == a.CredentialKey("tok2") || strings.Contains(string(a.CredentialKey("tok")), "tok") {
			t.Fatal("credential keys do not separate tokens or reveal them")
		}
		scope := IdempotencyScope{Credential: a.CredentialKey("tok"), Repo: "acme/widgets", Tool: "github_create_issue"}
		r, err := a.Reserve(ctx, scope, "k1", "fp")
		if err != nil || r.Outcome != Reserved || !r.Live || r.ExpiresAt.Sub(r.CreatedAt) != IdempotencyTTL {
			t.Fatalf("first Reserve = %+v, %v", r, err)
		}
		// The other handle sees the key in flight, with a live marker.
		r2, err := b.Reserve(ctx, scope, "k1", "fp")
		if err != nil || r2.Outcome != InProgress || !r2.Live || !r2.CreatedAt.Equal(r.CreatedAt) {
			t.Fatalf("Reserve while pending = %+v, %v", r2, err)
		}
		if err := a.Complete(ctx, scope, "k1", "fp", r.CreatedAt, json.RawMessage(`{"number":7}`)); err != nil {
			t.Fatal(err)
		}
		upper := scope
		upper.Repo = "ACME/Widgets"
		r2, err = b.Reserve(ctx, upper, "k1", "fp")
		if err != nil || r2.Outcome != Replay || string(r2.Result) != `{"number":7}` {
			t.Fatalf("repeat on the other handle = %+v, %v", r2, err)
		}
		e, ok, err := b.Lookup(ctx, scope, "k1")
		if err != nil || !ok || !e.Complete || string(e.Result) != `{"number":7}` || e.Fingerprint != "fp" {
			t.Fatalf("Lookup = %+v %v %v", e, ok, err)
		}
		if _, err := b.Reserve(ctx, scope, "k1", "other"); !errors.Is(err, ErrKeyReused) {
			t.Fatalf("reuse with another fingerprint: %v", err)
		}
		if err := b.Complete(ctx, scope, "k1", "fp", r.CreatedAt, json.RawMessage(`{"number":8}`)); !errors.Is(err, ErrNotReserved) {
			t.Fatalf("second Complete: %v", err)
		}
		for _, other := range []IdempotencyScope{
			{Credential: scope.Credential, Repo: scope.Repo, Tool: "github_add_comment"},
			{Credential: scope.Credential, Repo: "acme/gadgets", Tool: scope.Tool},
			{Credential: a.CredentialKey("t2"), Repo: scope.Repo, Tool: scope.Tool},
		} {
			if r, err := b.Reserve(ctx, other, "k1", "other"); err != nil || r.Outcome != Reserved {
				t.Errorf("scope %+v: %+v, %v", other, r, err)
			}
		}
		// Ten minutes on, the key is forgotten and claimed afresh.
		clk.add(IdempotencyTTL)
		if _, ok, _ := a.Lookup(ctx, scope, "k1"); ok {
			t.Fatal("expired key still looked up")
		}
		r, err = b.Reserve(ctx, scope, "k1", "other")
		if err != nil || r.Outcome != Reserved {
			t.Fatalf("Reserve after expiry = %+v, %v", r, err)
		}
		if err := b.Release(ctx, scope, "k1", "other", r.CreatedAt); err != nil {
			t.Fatal(err)
		}
		if r, err := a.Reserve(ctx, scope, "k1", "fp"); err != nil || r.Outcome != Reserved {
			t.Fatalf("Reserve after release = %+v, %v", r, err)
		}
	})
}

func TestSuiteIdempotencyOneWinner(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		a, b := open(t)
		scope := IdempotencyScope{Credential: a.CredentialKey("tok"), Repo: "acme/widgets", Tool: "github_create_issue"}
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			outcomes = map[Outcome]int{}
		)
		for i := range 20 {
			h := a
			if i%2 == 1 {
				h = b
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := h.Reserve(ctx, scope, "race", "fp")
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				outcomes[r.Outcome]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if outcomes[Reserved] != 1 || outcomes[InProgress] != 19 {
			t.Fatalf("outcomes %v, want exactly one reserved", outcomes)
		}
	})
}

func TestSuiteIdempotencyLeaseAndTakeover(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		a, b := open(t, clk.options()...)
		scope := IdempotencyScope{Credential: a.CredentialKey("tok"), Repo: "acme/widgets", Tool: "github_create_issue"}
		first, err := a.Reserve(ctx, scope, "k", "fp")
		if err != nil || first.Outcome != Reserved {
			t.Fatalf("Reserve = %+v, %v", first, err)
		}
		// The holder renews while it writes: the marker stays live.
		clk.add(LeaseTTL / 2)
		if err := a.Renew(ctx, scope, "k", "fp", first.CreatedAt, LeaseTTL); err != nil {
			t.Fatal(err)
		}
		clk.add(LeaseTTL / 2)
		if r, _ := b.Reserve(ctx, scope, "k", "fp"); r.Outcome != InProgress || !r.Live {
			t.Fatalf("renewed key = %+v", r)
		}
		// A takeover of a live key is refused.
		if r, err := b.Takeover(ctx, scope, "k", "fp", first.CreatedAt); err != nil || r.Outcome != InProgress {
			t.Fatalf("Takeover of a live key = %+v, %v", r, err)
		}
		// The holder stops renewing (killed): the marker lapses.
		clk.add(LeaseTTL)
		r, _ := b.Reserve(ctx, scope, "k", "fp")
		if r.Outcome != InProgress || r.Live {
			t.Fatalf("lapsed key = %+v", r)
		}
		// A holder that gives up without a result ends its marker at once.
		second, _ := a.Reserve(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp")
		if err := a.Renew(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp", second.CreatedAt, 0); err != nil {
			t.Fatal(err)
		}
		if r, _ := b.Reserve(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp"); r.Outcome != InProgress || r.Live {
			t.Fatalf("abandoned key = %+v", r)
		}
		// Of concurrent takeovers exactly one wins; a stale since loses.
		if r, err := b.Takeover(ctx, scope, "k", "fp", first.CreatedAt.Add(-time.Second)); err != nil || r.Outcome == Reserved {
			t.Fatalf("Takeover with a stale since = %+v, %v", r, err)
		}
		var (
			wg     sync.WaitGroup
			mu     sync.Mutex
			wins   int
			winner Reservation
		)
		for i := range 10 {
			h := a
			if i%2 == 1 {
				h = b
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				r, err := h.Takeover(ctx, scope, "k", "fp", first.CreatedAt)
				if err != nil {
					t.Error(err)
					return
				}
				if r.Outcome == Reserved {
					mu.Lock()
					wins++
					winner = r
					mu.Unlock()
				}
			}()
		}
		wg.Wait()
		if wins != 1 {
			t.Fatalf("%d takeovers won, want 1", wins)
		}
		// The old holder's renewal no longer applies.
		if err := a.Renew(ctx, scope, "k", "fp", first.CreatedAt, LeaseTTL); !errors.Is(err, ErrNotReserved) {
			t.Fatalf("Renew by the old holder: %v", err)
		}
		// Nor does its release or its result: the key is the new holder's,
		// whose write is under way; clearing it would let a third write.
		if err := a.Release(ctx, scope, "k", "fp", first.CreatedAt); !errors.Is(err, ErrNotReserved) {
			t.Fatalf("Release by the old holder: %v", err)
		}
		if err := a.Complete(ctx, scope, "k", "fp", first.CreatedAt, json.RawMessage(`{"number":1}`)); !errors.Is(err, ErrNotReserved) {
			t.Fatalf("Complete by the old holder: %v", err)
		}
		if r, _ := b.Reserve(ctx, scope, "k", "fp"); r.Outcome != InProgress || !r.Live {
			t.Fatalf("the new holder's key after the old holder's attempts = %+v", r)
		}
		if err := b.Complete(ctx, scope, "k", "fp", winner.CreatedAt, json.RawMessage(`{"number":2}`)); err != nil {
			t.Fatalf("Complete by the new holder: %v", err)
		}
		if r, _ := a.Reserve(ctx, scope, "k", "fp"); r.Outcome != Replay || string(r.Result) != `{"number":2}` {
			t.Fatalf("after the new holder completed = %+v", r)
		}
		if _, err := b.Takeover(ctx, scope, "k", "other", first.CreatedAt); !errors.Is(err, ErrKeyReused) {
			t.Fatalf("Takeover with another fingerprint: %v", err)
		}
	})
}

func TestSuiteCachedResponses(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		// Each entry below costs 100 body bytes plus its header's JSON.
		a, b := open(t, append(clk.options(), WithETagBudget(350))...)
		cred := a.CredentialKey("tok")
		key := func(i int) ETagKey {
			return ETagKey{Credential: cred, URL: "https://api.example/repos/a/b/issues/" + string(rune('0'+i)), Accept: "application/json"}
		}
		body := bytes.Repeat([]byte("x"), 100)
		want := CachedResponse{ETag: `"e1"`, LastModified: "Mon, 01 Jan 2024 00:00:00 GMT", Status: 200,
			Header: map[string][]string{"Content-Type": {"application/json"}}, Body: body}
		if err := a.PutETag(ctx, key(1), want); err != nil {
			t.Fatal(err)
		}
		got, ok, err := b.GetETag(ctx, key(1))
		if err != nil || !ok || got.ETag != want.ETag || got.LastModified != want.LastModified || got.Status != 200 ||
			!bytes.Equal(got.Body, body) || got.Header.Get("Content-Type") != "application/json" || !got.StoredAt.Equal(clk.now()) {
			t.Fatalf("GetETag on the other handle = %+v %v %v", got, ok, err)
		}
		// PeekETag gives the validators without the header and body.
		peek, ok, err := b.PeekETag(ctx, key(1))
		if err != nil || !ok || !peek.Partial || peek.ETag != want.ETag || peek.LastModified != want.LastModified ||
			peek.Status != 200 || peek.Body != nil || peek.Header != nil {
			t.Fatalf("PeekETag on the other handle = %+v %v %v, want the validators only, marked partial", peek, ok, err)
		}
		// Another Accept is another entry; another credential sees nothing.
		other := key(1)
		other.Accept = "application/vnd.github.raw+json"
		if _, ok, _ := b.GetETag(ctx, other); ok {
			t.Fatal("another Accept header hit")
		}
		other = key(1)
		other.Credential = a.CredentialKey("tok2")
		if _, ok, _ := b.GetETag(ctx, other); ok {
			t.Fatal("another credential hit")
		}
		if _, ok, _ := b.PeekETag(ctx, other); ok {
			t.Fatal("PeekETag: another credential hit")
		}
		// Fill past the budget: the least recently used goes first.
		clk.add(2 * time.Minute)
		_ = a.PutETag(ctx, key(2), want)
		clk.add(2 * time.Minute)
		if _, ok, _ := a.GetETag(ctx, key(1)); !ok { // 1 is now newer than 2
			t.Fatal("entry 1 gone early")
		}
		clk.add(2 * time.Minute)
		if err := b.PutETag(ctx, key(3), want); err != nil {
			t.Fatal(err)
		}
		_, ok1, _ := a.GetETag(ctx, key(1))
		_, ok2, _ := a.GetETag(ctx, key(2))
		_, ok3, _ := a.GetETag(ctx, key(3))
		if !ok1 || ok2 || !ok3 {
			t.Fatalf("after eviction: 1=%v 2=%v 3=%v, want 2 evicted", ok1, ok2, ok3)
		}
		// A response larger than the whole budget is not kept, and drops
		// the older entry under its key.
		if err := a.PutETag(ctx, key(1), CachedResponse{ETag: `"big"`, Status: 200, Body: bytes.Repeat([]byte("y"), 400)}); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := b.GetETag(ctx, key(1)); ok {
			t.Fatal("oversized response kept or stale entry left")
		}
		if err := b.DeleteETag(ctx, key(3)); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := a.GetETag(ctx, key(3)); ok {
			t.Fatal("deleted entry still served")
		}
		if _, ok, _ := a.PeekETag(ctx, key(3)); ok {
			t.Fatal("PeekETag: deleted entry still found")
		}
		if err := a.PutETag(ctx, ETagKey{Credential: cred, URL: "u"}, CachedResponse{}); err == nil {
			t.Fatal("PutETag accepted an entry without an ETag")
		}
	})
}

func TestSuiteSecretIsShared(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		a, b := open(t)
		ka, err := a.Secret(ctx, "cursor-key", 32)
		if err != nil || len(ka) != 32 {
			t.Fatalf("Secret = %x, %v", ka, err)
		}
		kb, err := b.Secret(ctx, "cursor-key", 32)
		if err != nil || !bytes.Equal(ka, kb) {
			t.Fatalf("other handle's secret %x, %v; want %x", kb, err, ka)
		}
		other, _ := b.Secret(ctx, "another", 32)
		if bytes.Equal(other, ka) {
			t.Fatal("two names share one secret")
		}
	})
}

func TestSuiteRatePicture(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		a, b := open(t)
		cred := a.CredentialKey("tok")
		reset := time.Unix(1_900_000_000, 0)
		obs := RateObservation{Resource: "core", Limit: 5000, Remaining: 40, Used: 4960, Reset: reset}
		if err := a.ObserveRate(ctx, cred, obs); err != nil {
			t.Fatal(err)
		}
		// Out of order: a lower used count in the same window, and an older
		// window, change nothing.
		_ = b.ObserveRate(ctx, cred, RateObservation{Resource: "core", Limit: 5000, Remaining: 45, Used: 4955, Reset: reset})
		_ = b.ObserveRate(ctx, cred, RateObservation{Resource: "core", Limit: 5000, Remaining: 4999, Used: 1, Reset: reset.Add(-time.Hour)})
		_ = b.ObserveRate(ctx, cred, RateObservation{Resource: "search", Limit: 30, Remaining: 29, Used: 1, Reset: reset})
		p, err := b.Rate(ctx, cred)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.Resources["core"]; got.Remaining != 40 || got.Used != 4960 || got.Limit != 5000 || !got.Reset.Equal(reset) {
			t.Fatalf("core = %+v", got)
		}
		if got := p.Resources["search"]; got.Remaining != 29 {
			t.Fatalf("search = %+v", got)
		}
		// A new window replaces the old.
		_ = a.ObserveRate(ctx, cred, RateObservation{Resource: "core", Limit: 5000, Remaining: 4999, Used: 1, Reset: reset.Add(time.Hour)})
		if p, _ := b.Rate(ctx, cred); p.Resources["core"].Remaining != 4999 {
			t.Fatalf("new window not taken: %+v", p.Resources["core"])
		}
		// The secondary pause only grows. Redis keeps it in the server's
		// time and gives it back in the reader's, so it comes back within
		// the moments the calls took.
		until := time.Now().Add(time.Hour)
		_ = a.ObserveRate(ctx, cred, RateObservation{SecondaryUntil: until})
		_ = b.ObserveRate(ctx, cred, RateObservation{SecondaryUntil: until.Add(-time.Minute)})
		p, err = a.Rate(ctx, cred)
		if err != nil {
			t.Fatal(err)
		}
		if off := p.SecondaryUntil.Sub(until).Abs(); off > time.Second {
			t.Fatalf("secondary until %v is %v off, want %v", p.SecondaryUntil, off, until)
		}
		if p, _ := a.Rate(ctx, a.CredentialKey("other")); len(p.Resources) != 0 || !p.SecondaryUntil.IsZero() {
			t.Fatalf("another credential sees %+v", p)
		}
	})
}

func TestSuiteConfirmedNames(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		a, b := open(t, clk.options()...)
		const ttl = 5 * time.Minute
		key := string(a.CredentialKey("tok")) + "\x00acme/widgets"
		if err := a.AddNames(ctx, key, map[string]string{"l:bug": "Bug"}, ttl); err != nil {
			t.Fatal(err)
		}
		clk.add(3 * time.Minute)
		_ = b.AddNames(ctx, key, map[string]string{"m:3": "v1.0"}, ttl)
		got, ok, err := b.Names(ctx, key, ttl)
		if err != nil || !ok || got["l:bug"] != "Bug" || got["m:3"] != "v1.0" || len(got) != 2 {
			t.Fatalf("Names = %v %v %v", got, ok, err)
		}
		// Adding names does not extend trust in the first: the entry lapses
		// ttl after its first name.
		clk.add(3 * time.Minute)
		if got, ok, _ := a.Names(ctx, key, ttl); ok {
			t.Fatalf("expired entry returned %v", got)
		}
		_ = a.AddNames(ctx, key, map[string]string{"l:docs": "Docs"}, ttl)
		if got, _, _ := b.Names(ctx, key, ttl); len(got) != 1 || got["l:docs"] != "Docs" {
			t.Fatalf("fresh entry = %v", got)
		}
		if err := b.DropNames(ctx, key); err != nil {
			t.Fatal(err)
		}
		if _, ok, _ := a.Names(ctx, key, ttl); ok {
			t.Fatal("dropped entry returned")
		}
		if err := a.Ping(ctx); err != nil {
			t.Fatal(err)
		}
	})
}

func TestRedisNamespacesAreSeparate(t *testing.T) {
	ctx := context.Background()
	srv := redisserver.Start(t)
	a := openBackend(t, srv.URL("prod"))
	b := openBackend(t, srv.URL("staging"))
	ka, _ := a.Secret(ctx, "cursor-key", 32)
	kb, _ := b.Secret(ctx, "cursor-key", 32)
	if bytes.Equal(ka, kb) {
		t.Fatal("two namespaces share a cursor key")
	}
	if a.CredentialKey("tok") == b.CredentialKey("tok") {
		t.Fatal("two namespaces share a credential salt")
	}
	if d := a.Describe(); !strings.Contains(d, "namespace=prod") {
		t.Fatalf("Describe = %q", d)
	}
	if _, err := OpenRedis(ctx, srv.URL("bad:ns")); err == nil {
		t.Fatal("a namespace with ':' was accepted")
	}
}
