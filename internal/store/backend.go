package store

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"
)

// Backend is ghgate's state behind one interface: idempotency keys, the
// conditional-request cache, confirmed names, named secrets (the
// cursor-signing key) and the per-credential rate picture. Store (SQLite)
// serves one process, or a few on one host sharing a file; Redis serves
// many replicas behind a load balancer. Every key a Backend writes is
// scoped by a [CredentialKey] (a digest, never the token).
//
// Both implementations pass one behavioural suite (suite_test.go).
//
// Each consumer declares the part it uses, where it uses it (github.Store,
// toolkit.State, tasks.Store, server.PolicyStore); Backend is their union,
// what [OpenBackend] returns to the code that owns the backend.
type Backend interface {
	// CredentialKey names token in this backend without revealing it.
	CredentialKey(token string) CredentialKey

	// Reserve, Complete, Release, Renew, Takeover and Lookup are the
	// idempotency keys (see idempotency.go for the protocol).
	Reserve(ctx context.Context, scope IdempotencyScope, key, fingerprint string) (Reservation, error)
	Complete(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, result json.RawMessage) error
	Release(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) error
	Renew(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, lease time.Duration) error
	Takeover(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) (Reservation, error)
	Lookup(ctx context.Context, scope IdempotencyScope, key string) (IdempotencyEntry, bool, error)

	// PeekETag, GetETag, PutETag and DeleteETag are the bounded
	// conditional-request cache. PeekETag may leave the header and body
	// out (CachedResponse.Partial): a request is made conditional on the
	// validators, and the body read only when GitHub answers 304.
	PeekETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error)
	GetETag(ctx context.Context, key ETagKey) (CachedResponse, bool, error)
	PutETag(ctx context.Context, key ETagKey, r CachedResponse) error
	DeleteETag(ctx context.Context, key ETagKey) error

	// Secret returns the random secret stored under name, creating it with
	// size bytes on first use; every process sharing the backend gets the
	// same bytes.
	Secret(ctx context.Context, name string, size int) ([]byte, error)

	// Rate and ObserveRate are the credential's rate picture, shared by
	// every process using the backend.
	Rate(ctx context.Context, cred CredentialKey) (RatePicture, error)
	ObserveRate(ctx context.Context, cred CredentialKey, obs RateObservation) error

	// Names, AddNames and DropNames are the confirmed names of one
	// repository as one credential sees it (see shared.go; the tools' side
	// is internal/tools/toolkit's known.go).
	Names(ctx context.Context, key string, ttl time.Duration) (map[string]string, bool, error)
	AddNames(ctx context.Context, key string, names map[string]string, ttl time.Duration) error
	DropNames(ctx context.Context, key string) error

	// CreateTask, GetTask and SwapTask are MCP tasks' state (see
	// tasks.go), shared by every replica using the backend.
	CreateTask(ctx context.Context, t TaskRecord) error
	GetTask(ctx context.Context, owner, id string) (TaskRecord, bool, error)
	SwapTask(ctx context.Context, t TaskRecord) (bool, error)

	// Count is the write quotas' counter (see quota.go): it adds n to
	// key's count in the fixed window of length window that holds now,
	// unless the count would pass limit, and reports whether n fit and,
	// if not, how long until the window ends. commit false only asks.
	Count(ctx context.Context, key string, n, limit int, window time.Duration, commit bool) (ok bool, retryAfter time.Duration, err error)
	// NoteRead remembers that session read repo until ttl from now;
	// ReadsOf lists what session read that is still remembered (the
	// data-flow guard's memory for sessions served by any replica).
	NoteRead(ctx context.Context, session, repo string, ttl time.Duration) error
	ReadsOf(ctx context.Context, session string) ([]string, error)

	// Ping reports whether the backend answers, for readiness checks.
	Ping(ctx context.Context) error
	// Describe names the backend for logs and health output (no secret).
	Describe() string
	Close() error
}

var (
	_ Backend = (*Store)(nil)
	_ Backend = (*Redis)(nil)
)

// ErrUnavailable wraps every failure to reach a shared backend (Redis down,
// connection refused, timed out). A keyed write that cannot reserve its key
// is refused rather than performed without the guard; a read goes on
// without the cache.
var ErrUnavailable = errors.New("store: the state backend is unavailable")

// IsRedisSpec reports whether a --state / state= value names Redis.
func IsRedisSpec(spec string) bool {
	return strings.HasPrefix(spec, "redis://") || strings.HasPrefix(spec, "rediss://") || strings.HasPrefix(spec, "unix://")
}

// OpenBackend opens the backend spec names: a redis:// (or rediss://,
// unix://) URL opens Redis, anything else is a SQLite path ("" in memory).
// Its conditional-request cache is written behind the caller (see
// [WriteBehind]): storing a response never delays the next request; and
// its hot entries are kept in memory (see Memory): a repeat read needs no
// round trip to the backend before it is sent.
func OpenBackend(ctx context.Context, spec string, opts ...Option) (Backend, error) {
	b, err := openDirect(ctx, spec, opts...)
	if err != nil {
		return nil, err
	}
	return Memory(WriteBehind(b)), nil
}

// openDirect is [OpenBackend] without the write-behind: every write is made
// before it returns.
func openDirect(ctx context.Context, spec string, opts ...Option) (Backend, error) {
	if IsRedisSpec(spec) {
		return OpenRedis(ctx, spec, opts...)
	}
	return Open(ctx, spec, opts...)
}

// RateObservation is one response's rate figures, or a secondary-limit
// pause (SecondaryUntil set, the rest zero).
type RateObservation struct {
	Resource  string
	Limit     int
	Remaining int
	Used      int
	Reset     time.Time
	// SecondaryUntil, when set, holds every request until then.
	SecondaryUntil time.Time
}

// RatePicture is what every process sharing a backend knows of one
// credential's budget: the newest figures per resource and the secondary
// pause.
type RatePicture struct {
	Resources      map[string]RateObservation
	SecondaryUntil time.Time
}

// newerRate is the rule both backends apply: responses can arrive out of
// order, so an older window or a lower used count within the same window
// never overwrites a newer one.
func newerRate(old, obs RateObservation) bool {
	if obs.Reset.Before(old.Reset) {
		return false
	}
	return !(obs.Reset.Equal(old.Reset) && obs.Used < old.Used)
}
