// Package store is ghgate's state, behind one interface ([Backend]):
// idempotency keys, the conditional-request cache, confirmed names, named
// secrets (the cursor-signing key), the per-credential rate picture, MCP
// tasks, the write quotas' counters and the repositories each session
// read. It has two implementations, chosen by [OpenBackend]'s spec:
// [Store], a SQLite database (through the pure-Go modernc.org/sqlite
// driver) for one process or a few on one host sharing a file, kept by
// default under the user's state directory, or in memory for tests; and
// [Redis], shared by many replicas behind a load balancer.
//
// Neither holds a credential: rows and keys are scoped by [CredentialKey],
// an HMAC of the token under a random salt that is created with the state.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// busyTimeout is how long a connection waits for another writer (in this
// process or another ghgate on the same file) before failing with SQLITE_BUSY.
const busyTimeout = 5 * time.Second

// DefaultETagBudget bounds the bytes of cached responses (bodies and the
// headers kept with them). The largest body the GitHub client caches is
// 8 MiB, so the budget holds at least eight of those; a typical issue or
// list page is 5-100 KiB, so it holds thousands, more than an agent's
// working set. An evicted entry costs one full read, never a wrong answer.
const DefaultETagBudget int64 = 64 << 20

// DefaultPruneEvery is how often an open Store prunes. Idempotency keys
// live 10 minutes, so an expired key waits at most one more interval, and
// the cache is also bounded on every write, so this pass only catches what
// other processes sharing the file left over the budget and entries past
// [ETagMaxAge].
const DefaultPruneEvery = 10 * time.Minute

// Store is an open state database. It is safe for concurrent use.
type Store struct {
	db   *sql.DB
	path string // "" for an in-memory database
	salt []byte
	now  func() time.Time

	// stmts are the hot queries, prepared by Open (see stmts.go).
	stmts []*sql.Stmt

	etagBudget int64
	pruneEvery time.Duration
	// serverAhead, for Redis, moves the server's clock on by what it
	// returns: a test's way to let shared time pass. nil in production.
	serverAhead func() time.Duration

	// stop ends the pruning loop; done is closed when it has returned.
	// Both are nil when no loop runs.
	stop      context.CancelFunc
	done      chan struct{}
	closeOnce sync.Once
	closeErr  error
}

// Option adjusts how Open builds a Store.
type Option func(*Store)

// WithClock replaces [time.Now], so tests can move time forward. For
// Redis it is the replica's clock, which decides nothing shared: leases,
// expiries and recency there are the Redis server's clock.
func WithClock(now func() time.Time) Option {
	return func(s *Store) { s.now = now }
}

// WithETagBudget bounds the bytes of cached responses (default
// [DefaultETagBudget]); past it the least recently used are evicted. A
// non-positive value keeps the default: the cache is never unbounded.
func WithETagBudget(bytes int64) Option {
	return func(s *Store) {
		if bytes > 0 {
			s.etagBudget = bytes
		}
	}
}

// WithPruneEvery sets how often the open Store prunes (default
// [DefaultPruneEvery]). Zero or less runs no schedule: Open still prunes
// once, and the cache is still bounded on every write.
func WithPruneEvery(d time.Duration) Option {
	return func(s *Store) { s.pruneEvery = d }
}

// Open opens (creating when needed) the database at path and brings its
// schema up to date. An empty path or ":memory:" opens a private in-memory
// database that disappears on Close.
//
// A file database is created 0600 in a directory created 0700, and runs in
// WAL mode with a busy timeout so several processes can share it.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	s := &Store{now: time.Now, etagBudget: DefaultETagBudget, pruneEvery: DefaultPruneEvery}
	for _, o := range opts {
		o(s)
	}
	db, err := openDB(path)
	if err != nil {
		return nil, err
	}
	s.db = db
	if path != ":memory:" {
		s.path = path
	}
	if err := migrate(ctx, db, migrations); err != nil {
		_ = db.Close()
		return nil, err
	}
	if s.salt, err = loadSalt(ctx, db); err != nil {
		_ = db.Close()
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		_ = db.Close()
		return nil, err
	}
	// Keep the file from growing without bound: expired keys are useless,
	// a month-old cached response is rarely still current, and the budget
	// may be smaller than the last process's.
	if err := s.Prune(ctx); err != nil {
		_ = s.closeStmts()
		_ = db.Close()
		return nil, err
	}
	if s.pruneEvery > 0 {
		loopCtx, stop := context.WithCancel(context.Background())
		s.stop, s.done = stop, make(chan struct{})
		go s.pruneLoop(loopCtx, s.pruneEvery)
	}
	return s, nil
}

// ETagMaxAge is how long a cached response is kept; Prune (on Open and on
// the schedule) drops older ones.
const ETagMaxAge = 30 * 24 * time.Hour

func openDB(path string) (*sql.DB, error) {
	if path == "" || path == ":memory:" {
		db, err := sql.Open("sqlite", ":memory:")
		if err != nil {
			return nil, fmt.Errorf("store: open in-memory database: %w", err)
		}
		// Every connection to ":memory:" is a separate database, so the
		// pool must hold exactly one connection and never retire it.
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
		db.SetConnMaxIdleTime(0)
		return db, nil
	}
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store: database path %q must not contain '?' or '#'", path)
	}
	if err := prepareFile(path); err != nil {
		return nil, err
	}
	// _txlock=immediate takes the write lock at BEGIN: a transaction that
	// reads and then writes cannot deadlock against another writer, it
	// waits for it under busy_timeout instead.
	dsn := path + "?_txlock=immediate" +
		fmt.Sprintf("&_pragma=busy_timeout(%d)", busyTimeout.Milliseconds()) +
		"&_pragma=journal_mode(WAL)&_pragma=synchronous(NORMAL)"
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %w", path, err)
	}
	return db, nil
}

// prepareFile creates the database's directory (0700) and the file itself
// (0600) before SQLite opens it; SQLite gives its -wal and -shm files the
// database file's permissions.
func prepareFile(path string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("store: create state directory: %w", err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("store: create database file: %w", err)
	}
	return f.Close()
}

// Path is the database file, or "" for an in-memory database.
func (s *Store) Path() string { return s.path }

// Close stops the pruning schedule, waiting for a pass under way to give
// up, and releases the database. Later calls return the first one's result.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		if s.stop != nil {
			s.stop()
			<-s.done
		}
		s.closeErr = errors.Join(s.closeStmts(), s.db.Close())
	})
	return s.closeErr
}

// withTx runs fn in a transaction, committing when it returns nil.
func (s *Store) withTx(ctx context.Context, fn func(*sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		return errors.Join(err, tx.Rollback())
	}
	return tx.Commit()
}
