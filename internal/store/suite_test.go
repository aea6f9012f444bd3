package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"maps"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/google/go-cmp/cmp"
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
		if a.CredentialKey("tok") == a.CredentialKey("tok2") {
			t.Fatalf("CredentialKey(tok) = CredentialKey(tok2) = %q, want two keys", a.CredentialKey("tok"))
		}
		if k := a.CredentialKey("tok"); strings.Contains(string(k), "tok") {
			t.Fatalf("CredentialKey(tok) = %q, want one that does not contain the token", k)
		}
		scope := IdempotencyScope{Credential: a.CredentialKey("tok"), Repo: "acme/widgets", Tool: "github_create_issue"}
		r, err := a.Reserve(ctx, scope, "k1", "fp")
		wantOutcome(t, "first Reserve", r, err, Reserved)
		if !r.Live {
			t.Fatalf("first Reserve: Live = false, want true")
		}
		if ttl := r.ExpiresAt.Sub(r.CreatedAt); ttl != IdempotencyTTL {
			t.Fatalf("first Reserve: ExpiresAt - CreatedAt = %v, want %v", ttl, IdempotencyTTL)
		}
		// The other handle sees the key in flight, with a live marker.
		r2, err := b.Reserve(ctx, scope, "k1", "fp")
		wantOutcome(t, "Reserve while pending", r2, err, InProgress)
		if !r2.Live {
			t.Fatalf("Reserve while pending: Live = false, want true")
		}
		if !r2.CreatedAt.Equal(r.CreatedAt) {
			t.Fatalf("Reserve while pending: CreatedAt = %v, want the first Reserve's %v", r2.CreatedAt, r.CreatedAt)
		}
		if err := a.Complete(ctx, scope, "k1", "fp", r.CreatedAt, json.RawMessage(`{"number":7}`)); err != nil {
			t.Fatal(err)
		}
		upper := scope
		upper.Repo = "ACME/Widgets"
		r2, err = b.Reserve(ctx, upper, "k1", "fp")
		wantOutcome(t, "repeat on the other handle", r2, err, Replay)
		if string(r2.Result) != `{"number":7}` {
			t.Fatalf("repeat on the other handle: Result = %s, want %s", r2.Result, `{"number":7}`)
		}
		e, ok, err := b.Lookup(ctx, scope, "k1")
		wantCompleted(t, e, ok, err, `{"number":7}`, "fp")
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
			r, err := b.Reserve(ctx, other, "k1", "other")
			if err != nil {
				t.Errorf("Reserve in scope %+v: %v", other, err)
				continue
			}
			if r.Outcome != Reserved {
				t.Errorf("Reserve in scope %+v: Outcome = %q, want %q", other, r.Outcome, Reserved)
			}
		}
		// Ten minutes on, the key is forgotten and claimed afresh.
		clk.add(IdempotencyTTL)
		if _, ok, _ := a.Lookup(ctx, scope, "k1"); ok {
			t.Fatal("expired key still looked up")
		}
		r, err = b.Reserve(ctx, scope, "k1", "other")
		wantOutcome(t, "Reserve after expiry", r, err, Reserved)
		if err := b.Release(ctx, scope, "k1", "other", r.CreatedAt); err != nil {
			t.Fatal(err)
		}
		r, err = a.Reserve(ctx, scope, "k1", "fp")
		wantOutcome(t, "Reserve after release", r, err, Reserved)
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
		if outcomes[Reserved] != 1 {
			t.Errorf("%d of 20 Reserves got %q, want 1 (outcomes %v)", outcomes[Reserved], Reserved, outcomes)
		}
		if outcomes[InProgress] != 19 {
			t.Errorf("%d of 20 Reserves got %q, want 19 (outcomes %v)", outcomes[InProgress], InProgress, outcomes)
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
		wantOutcome(t, "Reserve", first, err, Reserved)
		// The holder renews while it writes: the marker stays live.
		clk.add(LeaseTTL / 2)
		if err := a.Renew(ctx, scope, "k", "fp", first.CreatedAt, LeaseTTL); err != nil {
			t.Fatal(err)
		}
		clk.add(LeaseTTL / 2)
		r, _ := b.Reserve(ctx, scope, "k", "fp")
		wantLease(t, "renewed key", r, true)
		// A takeover of a live key is refused.
		r, err = b.Takeover(ctx, scope, "k", "fp", first.CreatedAt)
		wantOutcome(t, "Takeover of a live key", r, err, InProgress)
		// The holder stops renewing (killed): the marker lapses.
		clk.add(LeaseTTL)
		r, _ = b.Reserve(ctx, scope, "k", "fp")
		wantLease(t, "lapsed key", r, false)
		// A holder that gives up without a result ends its marker at once.
		second, _ := a.Reserve(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp")
		if err := a.Renew(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp", second.CreatedAt, 0); err != nil {
			t.Fatal(err)
		}
		r, _ = b.Reserve(ctx, IdempotencyScope{Credential: scope.Credential, Repo: scope.Repo, Tool: "t2"}, "k", "fp")
		wantLease(t, "abandoned key", r, false)
		// Of concurrent takeovers exactly one wins; a stale since loses.
		r, err = b.Takeover(ctx, scope, "k", "fp", first.CreatedAt.Add(-time.Second))
		if err != nil {
			t.Fatalf("Takeover with a stale since: %v", err)
		}
		if r.Outcome == Reserved {
			t.Fatalf("Takeover with a stale since: Outcome = %q, want anything else", r.Outcome)
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
		r, _ = b.Reserve(ctx, scope, "k", "fp")
		wantLease(t, "the new holder's key after the old holder's attempts", r, true)
		if err := b.Complete(ctx, scope, "k", "fp", winner.CreatedAt, json.RawMessage(`{"number":2}`)); err != nil {
			t.Fatalf("Complete by the new holder: %v", err)
		}
		r, _ = a.Reserve(ctx, scope, "k", "fp")
		if r.Outcome != Replay {
			t.Fatalf("after the new holder completed: Outcome = %q, want %q", r.Outcome, Replay)
		}
		if string(r.Result) != `{"number":2}` {
			t.Fatalf("after the new holder completed: Result = %s, want %s", r.Result, `{"number":2}`)
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
		wantFound(t, "GetETag on the other handle", ok, err, true)
		if got.ETag != want.ETag {
			t.Errorf("GetETag on the other handle: ETag = %s, want %s", got.ETag, want.ETag)
		}
		if got.LastModified != want.LastModified {
			t.Errorf("GetETag on the other handle: LastModified = %q, want %q", got.LastModified, want.LastModified)
		}
		if got.Status != 200 {
			t.Errorf("GetETag on the other handle: Status = %d, want 200", got.Status)
		}
		if !bytes.Equal(got.Body, body) {
			t.Errorf("GetETag on the other handle: Body = %q, want %q", got.Body, body)
		}
		if ct := got.Header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("GetETag on the other handle: Content-Type = %q, want application/json", ct)
		}
		if !got.StoredAt.Equal(clk.now()) {
			t.Errorf("GetETag on the other handle: StoredAt = %v, want %v", got.StoredAt, clk.now())
		}
		if t.Failed() {
			t.FailNow()
		}
		// PeekETag gives the validators without the header and body.
		peek, ok, err := b.PeekETag(ctx, key(1))
		wantFound(t, "PeekETag on the other handle", ok, err, true)
		if !peek.Partial {
			t.Errorf("PeekETag on the other handle: Partial = false, want true")
		}
		if peek.ETag != want.ETag {
			t.Errorf("PeekETag on the other handle: ETag = %s, want %s", peek.ETag, want.ETag)
		}
		if peek.LastModified != want.LastModified {
			t.Errorf("PeekETag on the other handle: LastModified = %q, want %q", peek.LastModified, want.LastModified)
		}
		if peek.Status != 200 {
			t.Errorf("PeekETag on the other handle: Status = %d, want 200", peek.Status)
		}
		if peek.Body != nil {
			t.Errorf("PeekETag on the other handle: Body = %q, want nil", peek.Body)
		}
		if peek.Header != nil {
			t.Errorf("PeekETag on the other handle: Header = %v, want nil", peek.Header)
		}
		if t.Failed() {
			t.FailNow()
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
		if got, want := [3]bool{ok1, ok2, ok3}, [3]bool{true, false, true}; got != want {
			t.Fatalf("after eviction entries 1, 2, 3 found = %v, want %v (2 evicted)", got, want)
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
		if err != nil {
			t.Fatalf("Secret: %v", err)
		}
		if len(ka) != 32 {
			t.Fatalf("Secret is %d bytes, want 32", len(ka))
		}
		kb, err := b.Secret(ctx, "cursor-key", 32)
		if err != nil {
			t.Fatalf("other handle's Secret: %v", err)
		}
		if !bytes.Equal(ka, kb) {
			t.Fatalf("other handle's secret = %x, want %x", kb, ka)
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
		core := p.Resources["core"]
		if core.Remaining != 40 {
			t.Errorf("core Remaining = %d, want 40", core.Remaining)
		}
		if core.Used != 4960 {
			t.Errorf("core Used = %d, want 4960", core.Used)
		}
		if core.Limit != 5000 {
			t.Errorf("core Limit = %d, want 5000", core.Limit)
		}
		if !core.Reset.Equal(reset) {
			t.Errorf("core Reset = %v, want %v", core.Reset, reset)
		}
		if t.Failed() {
			t.FailNow()
		}
		if got := p.Resources["search"]; got.Remaining != 29 {
			t.Fatalf("search Remaining = %d, want 29", got.Remaining)
		}
		// A new window replaces the old.
		_ = a.ObserveRate(ctx, cred, RateObservation{Resource: "core", Limit: 5000, Remaining: 4999, Used: 1, Reset: reset.Add(time.Hour)})
		if p, _ := b.Rate(ctx, cred); p.Resources["core"].Remaining != 4999 {
			t.Fatalf("core Remaining after a new window = %d, want 4999 (%+v)", p.Resources["core"].Remaining, p.Resources["core"])
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
		p, _ = a.Rate(ctx, a.CredentialKey("other"))
		if len(p.Resources) != 0 {
			t.Errorf("another credential's Resources = %v, want none", p.Resources)
		}
		if !p.SecondaryUntil.IsZero() {
			t.Errorf("another credential's SecondaryUntil = %v, want zero", p.SecondaryUntil)
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
		wantFound(t, "Names", ok, err, true)
		if diff := cmp.Diff(map[string]string{"l:bug": "Bug", "m:3": "v1.0"}, got); diff != "" {
			t.Fatalf("Names mismatch (-want +got):\n%s", diff)
		}
		// Adding names does not extend trust in the first: the entry lapses
		// ttl after its first name.
		clk.add(3 * time.Minute)
		if got, ok, _ := a.Names(ctx, key, ttl); ok {
			t.Fatalf("expired entry returned %v", got)
		}
		_ = a.AddNames(ctx, key, map[string]string{"l:docs": "Docs"}, ttl)
		if got, _, _ := b.Names(ctx, key, ttl); !maps.Equal(got, map[string]string{"l:docs": "Docs"}) {
			t.Fatalf("fresh entry = %v, want only l:docs=Docs", got)
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
		t.Fatalf("Describe = %q, want it to name namespace=prod", d)
	}
	if _, err := OpenRedis(ctx, srv.URL("bad:ns")); err == nil {
		t.Fatal("a namespace with ':' was accepted")
	}
}
