package toolkit

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/store"
)

// How an idempotency key works for a create tool:
//
//  1. Reserve the key in the store (scope: credential, caller, repository,
//     tool) under a fingerprint of the request. A finished earlier use is
//     replayed; a use with another request is refused.
//  2. Write. Success (or a partial success: the object exists) completes
//     the key with the result. A failure that certainly wrote nothing
//     (not started, or a 4xx) releases it. Anything else (the connection
//     dropped after sending, a 5xx, an unreadable 2xx) leaves it pending.
//  3. A repeat that finds the key pending looks for the object the first
//     attempt may have created before sending again (the tool supplies the
//     search); found, it completes the key with it and replays it.
//
// A pending key is also what a concurrent repeat sees while the first call
// is still writing. The reservation's in-flight marker tells the two
// apart, in this process or any other sharing the store (replicas behind a
// load balancer on one Redis): while the holder writes it renews the
// marker, and a repeat that finds it live waits for the first result and
// returns it. The marker's times are the store's clock (the Redis
// server's), never a replica's, so a skewed replica sees it as every
// other does. A marker that lapsed (the holder was killed) or that the
// holder ended (its write's outcome is unknown) sends the repeat to step 3,
// and the key is taken over atomically, so of several repeats one writes.
// KeyGuard keeps two calls in this process from adopting at once.

// maxKeyLength bounds idempotency keys.
const maxKeyLength = 200

// KeyGuard marks the keys this process is working on.
type KeyGuard struct {
	mu   sync.Mutex
	busy map[string]bool
}

func (g *KeyGuard) take(k string) bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy[k] {
		return false
	}
	if g.busy == nil {
		g.busy = map[string]bool{}
	}
	g.busy[k] = true
	return true
}

func (g *KeyGuard) drop(k string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.busy, k)
}

// idemRecord is what a completed key replays: the output, or the
// partial-success envelope the first call returned.
type idemRecord struct {
	Out json.RawMessage `json:"out,omitempty"`
	Err *contract.Error `json:"error,omitempty"`
}

// IdemKey is one key in use by one call.
type IdemKey struct {
	s     *Service
	guard *KeyGuard
	scope store.IdempotencyScope
	key   string
	fp    string
	held  bool
	// since is when this call's reservation was made (the holder's
	// identity for renewing its marker).
	since time.Time
}

// Waiting for a live first attempt: how often to look, and for how long
// before answering "still running" (a write's HTTP call is bounded by a
// minute; an agent should not hang that long).
const (
	idemPollEvery = 50 * time.Millisecond
	idemMaxWait   = 30 * time.Second
)

// idemClaim is what claiming a key found.
type idemClaim struct {
	// replay is the earlier result, when the key completed.
	replay *idemRecord
	// reserved: this call owns the key and may write.
	reserved bool
	// since is when the pending earlier attempt reserved the key, when it
	// neither completed nor was released.
	since time.Time
	// live: that attempt's holder is still writing.
	live bool
}

// OpenKey prepares key for a call of tool on owner/repo with the given
// request (its fingerprint is what a repeat must match). The key is the
// caller's own ([caller.ID]): another caller on the same credential using
// the same key neither replays this one's result nor learns it was used.
func (s *Service) OpenKey(ctx context.Context, g *KeyGuard, owner, repo, tool, key string, request any) (*IdemKey, error) {
	if s.Store == nil || s.Credential == nil {
		return nil, contract.Errorf(contract.CodeInternal, "idempotency keys need the state store")
	}
	b, err := json.Marshal(request)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	return &IdemKey{s: s, guard: g, key: key, fp: hex.EncodeToString(sum[:]),
		scope: store.IdempotencyScope{Credential: store.CredentialKey(s.Credential(ctx, owner)), Caller: caller.ID(ctx),
			Repo: strings.ToLower(owner + "/" + repo), Tool: tool}}, nil
}

func (k *IdemKey) guardName() string {
	sc := k.scope
	return string(sc.Credential) + "\x00" + sc.Caller + "\x00" + sc.Repo + "\x00" + sc.Tool + "\x00" + k.key
}

// claim reserves the key or reports its earlier use.
func (k *IdemKey) claim(ctx context.Context) (idemClaim, error) {
	res, err := k.s.Store.Reserve(ctx, k.scope, k.key, k.fp)
	if errors.Is(err, store.ErrUnavailable) {
		k.s.Logger().Warn("keyed write refused: the state store is unavailable", "tool", k.scope.Tool, "err", err)
	}
	if errors.Is(err, store.ErrKeyReused) {
		e := contract.Errorf(contract.CodeIdempotencyKeyReused,
			"this idempotency_key was used in the last 10 minutes for a different request; nothing was written").
			WithField("idempotency_key", "already used for a different request")
		e.Settlement = contract.NotStarted
		return idemClaim{}, e.WithRepair(contract.Repair{NextStep: "call again with a new idempotency_key for a new request"})
	}
	if err != nil {
		return idemClaim{}, storeFailure(err)
	}
	return k.found(res)
}

// found turns a reservation into a claim.
func (k *IdemKey) found(res store.Reservation) (idemClaim, error) {
	switch res.Outcome {
	case store.Replay:
		var rec idemRecord
		if err := json.Unmarshal(res.Result, &rec); err != nil {
			return idemClaim{}, NotStarted(err)
		}
		return idemClaim{replay: &rec}, nil
	case store.Reserved:
		k.held = k.guard.take(k.guardName()) || k.held
		k.since = res.CreatedAt
		return idemClaim{reserved: true}, nil
	}
	return idemClaim{since: res.CreatedAt, live: res.Live}, nil
}

// storeFailure is the refusal when the store cannot guard a keyed write:
// an unreachable shared store refuses the write (it is never performed
// without the guard) as a temporary failure worth retrying.
func storeFailure(err error) error {
	if errors.Is(err, store.ErrUnavailable) {
		e := contract.Errorf(contract.CodeUpstreamUnavailable,
			"the state store that guards idempotency keys is unreachable; nothing was written")
		e.Temporary = true
		e.Settlement = contract.NotStarted
		return e.WithRetryAfter(2000).WithRepair(contract.Repair{NextStep: "wait retry_after_ms, then make the same call again with the same idempotency_key"})
	}
	return NotStarted(err)
}

// wait polls a key whose first attempt is still writing until it
// completes (replay), is released (this call may write) or its marker
// ends (look for what it wrote); after idemMaxWait it gives up with
// inProgress.
func (k *IdemKey) wait(ctx context.Context, cl idemClaim) (idemClaim, error) {
	deadline := time.Now().Add(idemMaxWait)
	for cl.live && !cl.reserved && cl.replay == nil {
		if time.Now().After(deadline) {
			return cl, inProgress()
		}
		t := time.NewTimer(idemPollEvery)
		select {
		case <-ctx.Done():
			t.Stop()
			return cl, NotStarted(ctx.Err())
		case <-t.C:
		}
		var err error
		if cl, err = k.claim(ctx); err != nil {
			return cl, err
		}
	}
	return cl, nil
}

// hold renews this call's in-flight marker while its write runs; the
// returned stop ends the renewals.
func (k *IdemKey) hold(ctx context.Context) (stop func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(store.LeaseTTL / 3)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := k.s.Store.Renew(ctx, k.scope, k.key, k.fp, k.since, store.LeaseTTL); err != nil && ctx.Err() == nil {
					k.s.Logger().Warn("idempotency key marker not renewed", "tool", k.scope.Tool, "err", err)
				}
			}
		}
	}()
	return func() { cancel(); <-done }
}

// lockPending takes this process's guard on a pending key before looking
// for what its first attempt wrote; false means that attempt is still
// running here, and the caller must not write.
func (k *IdemKey) lockPending() bool {
	k.held = k.guard.take(k.guardName())
	return k.held
}

// retake claims a pending key whose first attempt (reserved at since) is
// over and wrote nothing that can be found, so this call may write. Of
// several callers, in any process, one gets it.
func (k *IdemKey) retake(ctx context.Context, since time.Time) (idemClaim, error) {
	res, err := k.s.Store.Takeover(ctx, k.scope, k.key, k.fp, since)
	if err != nil {
		return idemClaim{}, storeFailure(err)
	}
	return k.found(res)
}

// inProgress is the refusal for a repeat that arrives while the first
// attempt is still writing.
func inProgress() *contract.Error {
	e := contract.Errorf(contract.CodeConflict,
		"a call with this idempotency_key is still running; nothing was written by this one")
	e.Temporary = true
	e.Settlement = contract.NotStarted
	return e.WithRetryAfter(2000).WithRepair(contract.Repair{NextStep: "wait retry_after_ms, then make the same call again with the same idempotency_key"})
}

// complete records the result for replay. A failure to record it is
// logged, not returned: the write itself succeeded.
func (k *IdemKey) complete(ctx context.Context, rec idemRecord) {
	defer k.release()
	b, err := json.Marshal(rec)
	if err == nil {
		err = k.s.Store.Complete(ctx, k.scope, k.key, k.fp, k.since, b)
	}
	if err != nil {
		k.s.Logger().Warn("idempotency key not recorded", "tool", k.scope.Tool, "err", err)
	}
}

// settle handles a failed write: keys whose write certainly did not
// happen are released; the rest stay pending for the next repeat to look.
func (k *IdemKey) settle(ctx context.Context, e *contract.Error) {
	defer k.release()
	if e == nil {
		return
	}
	clean := e.Settlement == contract.NotStarted || (e.Settlement == contract.NoRemoteSuccessKnown && !e.Temporary)
	if !clean {
		k.abandon(ctx)
		return
	}
	if err := k.s.Store.Release(ctx, k.scope, k.key, k.fp, k.since); err != nil && !errors.Is(err, store.ErrNotReserved) {
		k.s.Logger().Warn("idempotency key not released", "tool", k.scope.Tool, "err", err)
	}
}

// abandon ends this call's marker on a key it leaves pending (the write's
// outcome is unknown), so the next repeat looks for what was written at
// once instead of waiting for a result that will not come.
func (k *IdemKey) abandon(ctx context.Context) {
	if k.since.IsZero() {
		return
	}
	if err := k.s.Store.Renew(ctx, k.scope, k.key, k.fp, k.since, 0); err != nil && !errors.Is(err, store.ErrNotReserved) {
		k.s.Logger().Warn("idempotency key marker not ended", "tool", k.scope.Tool, "err", err)
	}
}

func (k *IdemKey) release() {
	if k.held {
		k.guard.drop(k.guardName())
		k.held = false
	}
}

// recordOutcome completes or settles an idempotency key with a write's
// outcome and returns the error to report. A success, or a partial success
// (the object exists), is stored for repeats to return. A failure that may
// have written something keeps the key pending, so the next repeat looks
// for what was written before writing again; one that wrote nothing frees
// the key.
func recordOutcome[Out any](ctx context.Context, k *IdemKey, out Out, err error, clear func(*Out)) error {
	if err == nil {
		clear(&out)
		b, mErr := json.Marshal(out)
		if mErr != nil {
			k.abandon(ctx)
			k.settle(ctx, nil)
			return nil
		}
		k.complete(ctx, idemRecord{Out: b})
		return nil
	}
	e := MapError(err)
	switch {
	case e != nil && e.Code == contract.CodePartialSuccess:
		k.complete(ctx, idemRecord{Err: e})
	case e == nil || MayHaveWritten(e):
		k.abandon(ctx)
		k.settle(ctx, nil)
	default:
		k.settle(ctx, &contract.Error{Settlement: contract.NotStarted})
	}
	if e == nil {
		return err
	}
	return e
}

// KeyedWrite is a write an idempotency key protects.
type KeyedWrite[Out any] struct {
	// Adopt looks for what an earlier attempt, which lost its answer, wrote
	// since the key was reserved. found reports that it did; out and err
	// are then this call's outcome.
	Adopt func(since time.Time) (out Out, found bool, err error)
	// Write performs the write.
	Write func() (Out, error)
	// Clear drops per-call fields before an outcome is stored; Replayed
	// marks an adopted result.
	Clear, Replayed func(*Out)
	// Again is this call's arguments with another key: the repair when the
	// key was used for a different request is that call, ready to send.
	Again func(key IdempotencyKey) any
}

// FreshKey is a new idempotency key, for a repair that needs one.
func FreshKey() IdempotencyKey {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return IdempotencyKey("key-" + hex.EncodeToString(b[:]))
}

// RunKeyed writes once per key: a completed key is replayed, an unfinished
// one first looks for what its earlier attempt wrote, and only a key that
// is free (or freed) writes.
func RunKeyed[Out any](ctx context.Context, k *IdemKey, w KeyedWrite[Out]) (Out, error) {
	var zero Out
	cl, err := k.claim(ctx)
	if err != nil {
		if e, ok := contract.AsError(err); ok && e.Code == contract.CodeIdempotencyKeyReused && w.Again != nil {
			e.Repair = &contract.Repair{NextStep: "call again with this new idempotency_key: it names this different request",
				Tool: k.scope.Tool, Arguments: w.Again(FreshKey())}
		}
		return zero, err
	}
	if cl, err = k.wait(ctx, cl); err != nil {
		return zero, err
	}
	if cl.replay != nil {
		return replayStored(cl.replay, w)
	}
	if !cl.reserved {
		// The key's first attempt ended without a result (its outcome is
		// unknown, or its holder was killed): look for what it wrote
		// before writing again.
		if !k.lockPending() {
			return zero, inProgress()
		}
		out, found, err := w.Adopt(cl.since)
		if found {
			if err == nil {
				w.Replayed(&out)
			}
			// Adopting completes the pending key the first attempt left.
			k.since = cl.since
			return out, recordOutcome(ctx, k, out, err, w.Clear)
		}
		if err != nil {
			k.release()
			return zero, NotStarted(err)
		}
		if cl, err = k.retake(ctx, cl.since); err != nil || !cl.reserved {
			k.release()
			if err == nil && cl.replay != nil {
				return replayStored(cl.replay, w)
			}
			if err == nil {
				err = inProgress()
			}
			return zero, err
		}
	}
	stop := k.hold(ctx)
	out, err := w.Write()
	stop()
	return out, recordOutcome(ctx, k, out, err, w.Clear)
}

// replayStored returns a completed key's outcome again: its result marked
// replayed, or its error saying nothing was written now.
func replayStored[Out any](rec *idemRecord, w KeyedWrite[Out]) (Out, error) {
	var out Out
	if rec.Err != nil {
		e := *rec.Err
		e.Message += " (replayed: an earlier call with this idempotency_key returned this; nothing was written now)"
		return out, &e
	}
	if err := json.Unmarshal(rec.Out, &out); err != nil {
		return out, NotStarted(err)
	}
	w.Clear(&out)
	w.Replayed(&out)
	return out, nil
}
