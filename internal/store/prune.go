package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// Prune drops what can no longer be used or no longer fits: idempotency
// keys past [IdempotencyTTL], quota counts of ended windows, cached
// responses older than [ETagMaxAge], and the least recently used cached
// responses while their bytes exceed the budget. Open runs it once and
// the schedule runs it every interval; it is safe to call at any time,
// from any process sharing the file.
func (s *Store) Prune(ctx context.Context) error {
	_, errKeys := s.PruneIdempotency(ctx)
	_, errQuotas := s.PruneQuotas(ctx)
	errReads := s.pruneReads(ctx, s.db)
	_, errAge := s.PruneETags(ctx, s.now().Add(-ETagMaxAge))
	errBudget := s.withTx(ctx, func(tx *sql.Tx) error { return s.evictETags(ctx, tx) })
	// Confirmed names are trusted for minutes and a rate window lasts an
	// hour: rows a day old are of no use to anyone.
	dayAgo := s.now().Add(-24 * time.Hour).UnixMilli()
	_, errNames := s.db.ExecContext(ctx, `DELETE FROM names WHERE born < ?`, dayAgo)
	_, errRate := s.db.ExecContext(ctx, `DELETE FROM rate WHERE reset < ?`, dayAgo)
	return errors.Join(errKeys, errQuotas, errReads, errAge, errBudget, errNames, errRate)
}

// pruneLoop prunes every interval until ctx ends. It closes s.done on
// return, which is what Close waits for.
func (s *Store) pruneLoop(ctx context.Context, every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			// A failed pass (the file busy past the busy timeout, say)
			// leaves only more to prune: the next tick tries again, and
			// writes keep the cache bounded meanwhile.
			_ = s.Prune(ctx)
		}
	}
}

// etagLowWater is the share of the budget eviction brings the cache down
// to. Freeing a tenth more than needed lets a cache at its budget evict
// once per many writes instead of on each one.
const etagLowWater = 0.9

// evictETags removes the least recently used cached responses while their
// bytes exceed the budget, down to etagLowWater of it. It runs inside the
// caller's transaction, so the total it reads is the one it changes.
func (s *Store) evictETags(ctx context.Context, tx *sql.Tx) error {
	var total int64
	if err := s.txStmt(ctx, tx, qETagTotal).QueryRowContext(ctx).Scan(&total); err != nil {
		return fmt.Errorf("store: read cached response bytes: %w", err)
	}
	if total <= s.etagBudget {
		return nil
	}
	excess := total - int64(float64(s.etagBudget)*etagLowWater)
	// Walk from the least recently used, through the used_at index, only as
	// far as the bytes to free; then delete that prefix in one statement.
	rows, err := tx.QueryContext(ctx, `SELECT used_at, rowid, size FROM etags ORDER BY used_at, rowid`)
	if err != nil {
		return fmt.Errorf("store: list cached responses: %w", err)
	}
	var freed, usedAt, rowid int64
	for freed < excess && rows.Next() {
		var size int64
		if err := rows.Scan(&usedAt, &rowid, &size); err != nil {
			_ = rows.Close()
			return fmt.Errorf("store: list cached responses: %w", err)
		}
		freed += size
	}
	if err := errors.Join(rows.Err(), rows.Close()); err != nil {
		return fmt.Errorf("store: list cached responses: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM etags WHERE (used_at, rowid) <= (?, ?)`, usedAt, rowid); err != nil {
		return fmt.Errorf("store: evict cached responses: %w", err)
	}
	return nil
}
