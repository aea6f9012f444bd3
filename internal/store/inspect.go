package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
)

// Stats is what a state database holds, as deployment checks report it.
type Stats struct {
	// FileBytes is the database file plus its write-ahead log.
	FileBytes int64
	// ETags is the number of cached responses; ETagBodyBytes their bodies.
	ETags, ETagBodyBytes int64
	// IdempotencyKeys counts keys, expired ones not yet pruned included.
	IdempotencyKeys int64
}

// Inspect reports on the database at path without changing it: it opens
// the file read-only, creates nothing (a missing file is an error wrapping
// fs.ErrNotExist) and runs no migration or pruning, so it is safe beside a
// running ghgate and on a file from another version.
func Inspect(ctx context.Context, path string) (Stats, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Stats{}, fmt.Errorf("store: %w", err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return Stats{}, err
	}
	if !info.Mode().IsRegular() {
		return Stats{}, fmt.Errorf("store: %s is not a regular file", abs)
	}
	st := Stats{FileBytes: info.Size()}
	if wal, err := os.Stat(abs + "-wal"); err == nil {
		st.FileBytes += wal.Size()
	}
	// A file: URI, so the path is escaped and mode=ro reaches SQLite:
	// without it SQLite would create the file, or open it for writing.
	dsn := (&url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}).String() +
		fmt.Sprintf("&_pragma=busy_timeout(%d)&_pragma=query_only(1)", busyTimeout.Milliseconds())
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return Stats{}, fmt.Errorf("store: open %s: %w", abs, err)
	}
	defer db.Close()
	// Queries every schema version has, so an older file is reported too.
	err = db.QueryRowContext(ctx, `SELECT count(*), coalesce(sum(length(body)), 0) FROM etags`).Scan(&st.ETags, &st.ETagBodyBytes)
	if err == nil {
		err = db.QueryRowContext(ctx, `SELECT count(*) FROM idempotency`).Scan(&st.IdempotencyKeys)
	}
	if err != nil {
		return Stats{}, errors.Join(fmt.Errorf("store: read %s", abs), err)
	}
	return st, nil
}
