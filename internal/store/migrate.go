package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migration is one schema step. Steps are applied in order, each set of
// pending steps in one transaction, and the number applied is recorded in
// PRAGMA user_version (which SQLite keeps in the file header and rolls back
// with the transaction). Never edit a released step: append a new one.
type migration []string

var migrations = []migration{
	// 1: meta (the credential salt), conditional-request cache, idempotency keys.
	{
		`CREATE TABLE meta (
			key   TEXT PRIMARY KEY,
			value BLOB NOT NULL
		) STRICT`,
		// One cached GET response per credential, URL and Accept header:
		// the validator to send back and the body to serve on a 304.
		`CREATE TABLE etags (
			credential    TEXT    NOT NULL,
			url           TEXT    NOT NULL,
			accept        TEXT    NOT NULL,
			etag          TEXT    NOT NULL,
			last_modified TEXT    NOT NULL DEFAULT '',
			status        INTEGER NOT NULL,
			header        TEXT    NOT NULL DEFAULT '{}',
			body          BLOB    NOT NULL,
			stored_at     INTEGER NOT NULL,
			PRIMARY KEY (credential, url, accept)
		) STRICT`,
		`CREATE INDEX etags_stored_at ON etags (stored_at)`,
		// An idempotency key is scoped to a credential, a repository and a
		// tool; the fingerprint is of the request it first came with.
		`CREATE TABLE idempotency (
			credential  TEXT    NOT NULL,
			repo        TEXT    NOT NULL,
			tool        TEXT    NOT NULL,
			key         TEXT    NOT NULL,
			fingerprint TEXT    NOT NULL,
			state       TEXT    NOT NULL CHECK (state IN ('pending', 'complete')),
			result      BLOB,
			created_at  INTEGER NOT NULL,
			PRIMARY KEY (credential, repo, tool, key)
		) STRICT`,
		`CREATE INDEX idempotency_created_at ON idempotency (created_at)`,
	},
	// 2: the conditional-request cache is bounded by size, least recently
	// used first. used_at is when an entry was last stored or looked up;
	// size is what it costs (body and kept headers). etag_bytes holds the
	// running total, kept by triggers so every process sharing the file
	// sees the same figure without summing the table on each write.
	{
		`ALTER TABLE etags ADD COLUMN used_at INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE etags ADD COLUMN size INTEGER NOT NULL DEFAULT 0`,
		`UPDATE etags SET used_at = stored_at, size = length(body) + length(CAST(header AS BLOB))`,
		`CREATE INDEX etags_used_at ON etags (used_at)`,
		`CREATE TABLE etag_bytes (
			id    INTEGER PRIMARY KEY CHECK (id = 1),
			total INTEGER NOT NULL
		) STRICT`,
		`INSERT INTO etag_bytes (id, total) SELECT 1, coalesce(sum(size), 0) FROM etags`,
		`CREATE TRIGGER etags_bytes_insert AFTER INSERT ON etags BEGIN
			UPDATE etag_bytes SET total = total + new.size;
		END`,
		`CREATE TRIGGER etags_bytes_delete AFTER DELETE ON etags BEGIN
			UPDATE etag_bytes SET total = total - old.size;
		END`,
		`CREATE TRIGGER etags_bytes_update AFTER UPDATE OF size ON etags BEGIN
			UPDATE etag_bytes SET total = total - old.size + new.size;
		END`,
	},
	// 3: what several processes sharing the file must agree on: the
	// in-flight marker of a pending idempotency key (lease_until, renewed
	// by its holder while it writes), the credential's rate picture, and
	// confirmed names.
	{
		`ALTER TABLE idempotency ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0`,
		// One row per credential and resource; resource '' holds the
		// secondary-limit pause in reset.
		`CREATE TABLE rate (
			credential TEXT    NOT NULL,
			resource   TEXT    NOT NULL,
			lim        INTEGER NOT NULL,
			remaining  INTEGER NOT NULL,
			used       INTEGER NOT NULL,
			reset      INTEGER NOT NULL,
			PRIMARY KEY (credential, resource)
		) STRICT`,
		// Confirmed names: one row per repository key and name; born is the
		// entry's first name's time, so adding names never extends trust.
		`CREATE TABLE names (
			key   TEXT    NOT NULL,
			field TEXT    NOT NULL,
			value TEXT    NOT NULL,
			born  INTEGER NOT NULL,
			PRIMARY KEY (key, field)
		) STRICT`,
	},
	// 4: MCP tasks (the io.modelcontextprotocol/tasks extension): one row
	// per task, bound to the client that created it; data is the tasks
	// package's record, version the count of its writes (a write names
	// the version it read, so two replicas never both settle a task).
	{
		`CREATE TABLE tasks (
			id      TEXT    PRIMARY KEY,
			owner   TEXT    NOT NULL,
			version INTEGER NOT NULL,
			data    BLOB    NOT NULL,
			expires INTEGER NOT NULL
		) STRICT`,
		`CREATE INDEX tasks_expires ON tasks (expires)`,
	},
	// 5: an idempotency key is scoped to its caller too (caller.ID: an
	// HTTP client, a broker peer's uid; '' for the local user), so callers
	// sharing a credential never see each other's keys. SQLite cannot
	// change a primary key in place: the table is rebuilt, its keys kept
	// as the local user's.
	{
		`CREATE TABLE idempotency_v5 (
			credential  TEXT    NOT NULL,
			caller      TEXT    NOT NULL DEFAULT '',
			repo        TEXT    NOT NULL,
			tool        TEXT    NOT NULL,
			key         TEXT    NOT NULL,
			fingerprint TEXT    NOT NULL,
			state       TEXT    NOT NULL CHECK (state IN ('pending', 'complete')),
			result      BLOB,
			created_at  INTEGER NOT NULL,
			lease_until INTEGER NOT NULL DEFAULT 0,
			PRIMARY KEY (credential, caller, repo, tool, key)
		) STRICT`,
		`INSERT INTO idempotency_v5 (credential, caller, repo, tool, key, fingerprint, state, result, created_at, lease_until)
		 SELECT credential, '', repo, tool, key, fingerprint, state, result, created_at, lease_until FROM idempotency`,
		`DROP TABLE idempotency`,
		`ALTER TABLE idempotency_v5 RENAME TO idempotency`,
		`CREATE INDEX idempotency_created_at ON idempotency (created_at)`,
	},
	// 6: write quotas (see quota.go): one row per key, window length
	// (span, ms) and window start (Unix ms), holding the writes counted
	// in that window; ends (start + span) is what pruning drops by.
	// Windows are keyed by their start, not replaced in place, so a
	// process a moment behind another never resets a count the other
	// has moved on from.
	{
		`CREATE TABLE quota (
			key   TEXT    NOT NULL,
			span  INTEGER NOT NULL,
			start INTEGER NOT NULL,
			used  INTEGER NOT NULL,
			ends  INTEGER NOT NULL,
			PRIMARY KEY (key, span, start)
		) STRICT`,
		`CREATE INDEX quota_ends ON quota (ends)`,
	},
	// 7: the data-flow guard's reads (see reads.go): which repositories a
	// session read, each until a time (Unix ms).
	{
		`CREATE TABLE flow_reads (
			session TEXT    NOT NULL,
			repo    TEXT    NOT NULL,
			until   INTEGER NOT NULL,
			PRIMARY KEY (session, repo)
		) STRICT`,
		`CREATE INDEX flow_reads_until ON flow_reads (until)`,
	},
}

// SchemaVersion is the schema version this build writes.
func SchemaVersion() int { return len(migrations) }

// migrate applies the steps the database has not seen yet. Reopening an
// up-to-date database changes nothing; a database written by a newer
// ghgate is refused rather than misread.
func migrate(ctx context.Context, db *sql.DB, steps []migration) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin migration: %w", err)
	}
	defer func() { _ = tx.Rollback() }()
	var version int
	if err := tx.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fmt.Errorf("store: read schema version: %w", err)
	}
	if version > len(steps) {
		return fmt.Errorf("store: database schema version %d is newer than this ghgate understands (%d); upgrade ghgate", version, len(steps))
	}
	if version == len(steps) {
		return nil
	}
	for i := version; i < len(steps); i++ {
		for _, stmt := range steps[i] {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store: migration %d: %w", i+1, err)
			}
		}
	}
	// PRAGMA takes no bound parameters; the value is an int we control.
	if _, err := tx.ExecContext(ctx, fmt.Sprintf(`PRAGMA user_version = %d`, len(steps))); err != nil {
		return fmt.Errorf("store: record schema version: %w", err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit migration: %w", err)
	}
	return nil
}

// schemaVersion reads the recorded version.
func (s *Store) schemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v)
	return v, err
}
