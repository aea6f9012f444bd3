package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

var (
	qKeyRead = hotQuery(`SELECT fingerprint, state, result, created_at, lease_until FROM idempotency
		WHERE credential = ? AND caller = ? AND repo = ? AND tool = ? AND key = ?`)
	qKeyClaim = hotQuery(`INSERT INTO idempotency (credential, caller, repo, tool, key, fingerprint, state, result, created_at, lease_until)
		VALUES (?, ?, ?, ?, ?, ?, 'pending', NULL, ?, ?)
		ON CONFLICT (credential, caller, repo, tool, key) DO UPDATE SET
		  fingerprint = excluded.fingerprint, state = 'pending', result = NULL,
		  created_at = excluded.created_at, lease_until = excluded.lease_until`)
	qKeyRenew = hotQuery(`UPDATE idempotency SET lease_until = ?
		WHERE credential = ? AND caller = ? AND repo = ? AND tool = ? AND key = ? AND fingerprint = ? AND state = 'pending' AND created_at = ?`)
	qKeyComplete = hotQuery(`UPDATE idempotency SET state = 'complete', result = ?
		WHERE credential = ? AND caller = ? AND repo = ? AND tool = ? AND key = ? AND fingerprint = ? AND state = 'pending' AND created_at = ?`)
	qKeyRelease = hotQuery(`DELETE FROM idempotency
		WHERE credential = ? AND caller = ? AND repo = ? AND tool = ? AND key = ? AND fingerprint = ? AND state = 'pending' AND created_at = ?`)
	qKeyLookup = hotQuery(`SELECT fingerprint, state, result, created_at FROM idempotency
		WHERE credential = ? AND caller = ? AND repo = ? AND tool = ? AND key = ?`)
)

// IdempotencyTTL is how long an idempotency key holds: a repeat of a write
// within this window returns the first result instead of writing again.
const IdempotencyTTL = 10 * time.Minute

// LeaseTTL is how long a reservation's in-flight marker lasts unless its
// holder renews it. While it is fresh a duplicate waits for the first
// result; once it lapses (the holder stopped, a replica was killed) a
// duplicate looks for what the first attempt wrote and may take the key
// over. The holder renews it every LeaseTTL/3 while it writes.
const LeaseTTL = 6 * time.Second

// IdempotencyScope is where a key is unique: one credential, one caller,
// one repository ("owner/name", compared case-insensitively as GitHub
// does) and one tool. Two callers sharing a credential (HTTP clients, a
// broker's agent users) never see each other's keys: neither a replay of
// the other's result nor a sign that the other used the key.
type IdempotencyScope struct {
	Credential CredentialKey
	// Caller is caller.ID of whoever used the key ("" for the one local
	// user).
	Caller string
	Repo   string
	Tool   string
}

func (sc IdempotencyScope) args(key string) []any {
	return []any{string(sc.Credential), sc.Caller, strings.ToLower(sc.Repo), sc.Tool, key}
}

func (sc IdempotencyScope) valid(key string) error {
	if sc.Credential == "" || sc.Repo == "" || sc.Tool == "" || key == "" {
		return errors.New("store: an idempotency key needs a credential, a repository, a tool and a key")
	}
	return nil
}

// Outcome says what Reserve found.
type Outcome string

const (
	// Reserved: no live entry held the key, so the caller now owns it and
	// must Complete it with the write's result or Release it.
	Reserved Outcome = "reserved"
	// Replay: the key's first request finished; Reservation.Result is what
	// it returned, to be returned again without writing.
	Replay Outcome = "replay"
	// InProgress: the key's first request has not finished, or finished
	// without recording a result (the process stopped). Whether it wrote
	// anything is unknown until the entry expires.
	InProgress Outcome = "in_progress"
)

// Reservation is Reserve's answer.
type Reservation struct {
	Outcome   Outcome
	Result    json.RawMessage // set for Replay
	CreatedAt time.Time       // when the key was first used
	ExpiresAt time.Time       // when a repeat stops being recognised
	// Live, for InProgress, says the first request's holder is still
	// renewing its in-flight marker: wait for its result, do not write.
	Live bool
}

// ErrKeyReused means a live key was first used with a different request
// (another fingerprint): replaying its result would answer the wrong call.
var ErrKeyReused = errors.New("store: idempotency key was already used with a different request")

// ErrNotReserved means Complete or Release found no pending entry for the
// key and fingerprint.
var ErrNotReserved = errors.New("store: no pending reservation for this idempotency key")

// Reserve claims key for a write whose request has the given fingerprint,
// or reports the earlier use of the key within [IdempotencyTTL]. The check
// and the claim are one transaction, so of concurrent callers exactly one
// gets Reserved.
func (s *Store) Reserve(ctx context.Context, scope IdempotencyScope, key, fingerprint string) (Reservation, error) {
	return s.reserve(ctx, scope, key, fingerprint, nil)
}

// reserve is Reserve, and with since Takeover: one transaction reads the
// key and claims it when it is absent or expired, or (with since) when it
// is the pending reservation made at since whose marker has lapsed.
// Otherwise it reports the key's earlier use.
func (s *Store) reserve(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since *time.Time) (Reservation, error) {
	if err := scope.valid(key); err != nil {
		return Reservation{}, err
	}
	var out Reservation
	err := s.withTx(ctx, func(tx *sql.Tx) error {
		now := s.now()
		var (
			fp, state      string
			result         []byte
			created, lease int64
		)
		err := s.txStmt(ctx, tx, qKeyRead).QueryRowContext(ctx, scope.args(key)...).Scan(&fp, &state, &result, &created, &lease)
		switch {
		case err == nil && now.Before(time.UnixMilli(created).Add(IdempotencyTTL)):
			if fp != fingerprint {
				return ErrKeyReused
			}
			if since != nil && state == "pending" && created == since.UnixMilli() && now.UnixMilli() >= lease {
				return s.claimKey(ctx, tx, scope, key, fingerprint, now, &out)
			}
			out = Reservation{Outcome: InProgress, CreatedAt: time.UnixMilli(created), Live: now.UnixMilli() < lease}
			if state == "complete" {
				out.Outcome, out.Result = Replay, json.RawMessage(result)
			}
			out.ExpiresAt = out.CreatedAt.Add(IdempotencyTTL)
			return nil
		case err != nil && !errors.Is(err, sql.ErrNoRows):
			return fmt.Errorf("store: read idempotency key: %w", err)
		}
		// Absent or expired: claim it afresh.
		return s.claimKey(ctx, tx, scope, key, fingerprint, now, &out)
	})
	return out, err
}

// claimKey writes a fresh reservation for key, replacing whatever row was
// there, with a fresh in-flight marker.
func (s *Store) claimKey(ctx context.Context, tx *sql.Tx, scope IdempotencyScope, key, fingerprint string, now time.Time, out *Reservation) error {
	_, err := s.txStmt(ctx, tx, qKeyClaim).ExecContext(ctx,
		append(scope.args(key), fingerprint, now.UnixMilli(), now.Add(LeaseTTL).UnixMilli())...)
	if err != nil {
		return fmt.Errorf("store: reserve idempotency key: %w", err)
	}
	created := time.UnixMilli(now.UnixMilli())
	*out = Reservation{Outcome: Reserved, CreatedAt: created, ExpiresAt: created.Add(IdempotencyTTL), Live: true}
	return nil
}

// Renew moves the in-flight marker of the pending reservation made at
// since to lease past the store's now: the holder renews it ([LeaseTTL])
// while its write runs so duplicates keep waiting, and a holder that
// leaves the key pending without a result (the write's outcome is
// unknown) ends it (a lease of zero or less), so the next repeat looks
// for what was written at once. The store's clock, not the holder's,
// sets the time, as it does for every lease. It fails with
// [ErrNotReserved] when the reservation is no longer this holder's.
func (s *Store) Renew(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, lease time.Duration) error {
	if err := scope.valid(key); err != nil {
		return err
	}
	var until int64
	if lease > 0 {
		until = s.now().Add(lease).UnixMilli()
	}
	res, err := s.stmt(qKeyRenew).ExecContext(ctx,
		append(append([]any{until}, scope.args(key)...), fingerprint, since.UnixMilli())...)
	return oneRow(res, err, "renew")
}

// Takeover claims a pending key whose holder is gone: the reservation made
// at since, whose in-flight marker has lapsed. Exactly one of concurrent
// callers gets Reserved; the others get what Reserve would tell them now.
// An absent or expired key is claimed as Reserve would.
func (s *Store) Takeover(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) (Reservation, error) {
	return s.reserve(ctx, scope, key, fingerprint, &since)
}

// Complete records the result of the write that Reserve (or Takeover) let
// through at since, so repeats replay it. result must be JSON. A holder
// whose reservation another has taken over completes nothing: the key is
// the new holder's.
func (s *Store) Complete(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time, result json.RawMessage) error {
	if err := scope.valid(key); err != nil {
		return err
	}
	if !json.Valid(result) {
		return errors.New("store: an idempotency result must be JSON")
	}
	res, err := s.stmt(qKeyComplete).ExecContext(ctx,
		append(append([]any{[]byte(result)}, scope.args(key)...), fingerprint, since.UnixMilli())...)
	return oneRow(res, err, "complete")
}

// Release gives up a reservation whose write certainly did not happen, so
// a retry with the same key may write. A write that may have happened must
// be completed (with whatever is known) instead, never released. Only the
// reservation made at since is released, never one another has taken over.
func (s *Store) Release(ctx context.Context, scope IdempotencyScope, key, fingerprint string, since time.Time) error {
	if err := scope.valid(key); err != nil {
		return err
	}
	res, err := s.stmt(qKeyRelease).ExecContext(ctx,
		append(scope.args(key), fingerprint, since.UnixMilli())...)
	return oneRow(res, err, "release")
}

func oneRow(res sql.Result, err error, verb string) error {
	if err != nil {
		return fmt.Errorf("store: %s idempotency key: %w", verb, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return fmt.Errorf("store: %s idempotency key: %w", verb, err)
	}
	if n == 0 {
		return ErrNotReserved
	}
	return nil
}

// IdempotencyEntry is a live key as Lookup reports it.
type IdempotencyEntry struct {
	Fingerprint string
	Complete    bool
	Result      json.RawMessage
	CreatedAt   time.Time
	ExpiresAt   time.Time
}

// Lookup reports the live entry for key, if any, without claiming it.
func (s *Store) Lookup(ctx context.Context, scope IdempotencyScope, key string) (IdempotencyEntry, bool, error) {
	if err := scope.valid(key); err != nil {
		return IdempotencyEntry{}, false, err
	}
	var (
		e       IdempotencyEntry
		state   string
		result  []byte
		created int64
	)
	err := s.stmt(qKeyLookup).QueryRowContext(ctx, scope.args(key)...).Scan(&e.Fingerprint, &state, &result, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return IdempotencyEntry{}, false, nil
	}
	if err != nil {
		return IdempotencyEntry{}, false, fmt.Errorf("store: read idempotency key: %w", err)
	}
	e.CreatedAt = time.UnixMilli(created)
	e.ExpiresAt = e.CreatedAt.Add(IdempotencyTTL)
	if !s.now().Before(e.ExpiresAt) {
		return IdempotencyEntry{}, false, nil
	}
	e.Complete = state == "complete"
	if e.Complete {
		e.Result = json.RawMessage(result)
	}
	return e, true, nil
}

// PruneIdempotency deletes expired keys and reports how many went.
func (s *Store) PruneIdempotency(ctx context.Context) (int64, error) {
	cutoff := s.now().Add(-IdempotencyTTL).UnixMilli()
	res, err := s.db.ExecContext(ctx, `DELETE FROM idempotency WHERE created_at <= ?`, cutoff)
	if err != nil {
		return 0, fmt.Errorf("store: prune idempotency keys: %w", err)
	}
	return res.RowsAffected()
}
