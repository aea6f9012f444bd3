package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func openMem(t *testing.T, opts ...Option) *Store {
	t.Helper()
	s, err := Open(context.Background(), "", opts...)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s
}

func TestMigrationsCreateSchema(t *testing.T) {
	ctx := context.Background()
	s := openMem(t)
	v, err := s.schemaVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if v != SchemaVersion() {
		t.Fatalf("user_version = %d, want %d", v, SchemaVersion())
	}
	if v == 0 {
		t.Fatalf("user_version = 0, want a migrated schema")
	}
	for _, table := range []string{"meta", "etags", "idempotency"} {
		var name string
		err := s.db.QueryRowContext(ctx, `SELECT name FROM sqlite_schema WHERE type = 'table' AND name = ?`, table).Scan(&name)
		if err != nil {
			t.Errorf("table %s: %v", table, err)
		}
	}
}

func TestMigrateIsIdempotentAndRollsBack(t *testing.T) {
	ctx := context.Background()
	db, err := sql.Open("sqlite", ":memory:")
	if err != nil {
		t.Fatal(err)
	}
	db.SetMaxOpenConns(1)
	defer db.Close()
	steps := []migration{{`CREATE TABLE a (x INTEGER)`}}
	if err := migrate(ctx, db, steps); err != nil {
		t.Fatal(err)
	}
	// Running the same steps again must not re-create table a.
	if err := migrate(ctx, db, steps); err != nil {
		t.Fatalf("second migrate: %v", err)
	}
	// A failing step leaves neither its own changes nor a new version.
	bad := append(steps, migration{`CREATE TABLE b (x INTEGER)`, `CREATE TABLE a (x INTEGER)`})
	if err := migrate(ctx, db, bad); err == nil {
		t.Fatal("migrate with a failing step succeeded")
	}
	var v int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&v); err != nil {
		t.Fatalf("read user_version: %v", err)
	}
	if v != 1 {
		t.Fatalf("user_version after failed step = %d, want 1", v)
	}
	var n int
	_ = db.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_schema WHERE name = 'b'`).Scan(&n)
	if n != 0 {
		t.Fatalf("tables named b after a rolled-back migration = %d, want 0", n)
	}
	// A database from a newer schema is refused.
	if _, err := db.ExecContext(ctx, `PRAGMA user_version = 9`); err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, steps); err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("migrate on a newer database: error = %v, want one saying %q", err, "newer")
	}
}

func TestFileReopenKeepsDataAndPermissions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "nested", "state", "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	key := ETagKey{Credential: s.CredentialKey("tok"), URL: "https://api.example/repos/a/b", Accept: "application/json"}
	if err := s.PutETag(ctx, key, CachedResponse{ETag: `"x"`, Status: 200, Body: []byte(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	var mode string
	if err := s.db.QueryRowContext(ctx, `PRAGMA journal_mode`).Scan(&mode); err != nil {
		t.Errorf("read journal_mode: %v", err)
	} else if mode != "wal" {
		t.Errorf("journal_mode = %q, want wal", mode)
	}
	var busy int
	if err := s.db.QueryRowContext(ctx, `PRAGMA busy_timeout`).Scan(&busy); err != nil {
		t.Errorf("read busy_timeout: %v", err)
	} else if busy <= 0 {
		t.Errorf("busy_timeout = %d, want > 0", busy)
	}
	// SQLite gives its side files the database file's mode.
	for _, side := range []string{"-wal", "-shm"} {
		if info, err := os.Stat(path + side); err != nil {
			t.Errorf("%s: %v", side, err)
		} else if perm := info.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s file mode %o, want 600", side, perm)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("database file mode %o, want 600", perm)
	}
	dir, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if perm := dir.Mode().Perm(); perm != 0o700 {
		t.Errorf("state directory mode %o, want 700", perm)
	}

	s2, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("reopen: %v", err)
	}
	defer s2.Close()
	if v, _ := s2.schemaVersion(ctx); v != SchemaVersion() {
		t.Errorf("schema version after reopen = %d, want %d", v, SchemaVersion())
	}
	// The salt survives, so the same token finds its rows again.
	if got := s2.CredentialKey("tok"); got != key.Credential {
		t.Fatalf("credential key after reopen = %q, want %q as before", got, key.Credential)
	}
	got, ok, err := s2.GetETag(ctx, key)
	wantFound(t, "GetETag after reopen", ok, err, true)
	if string(got.Body) != `{"a":1}` {
		t.Errorf("Body after reopen = %s, want %s", got.Body, `{"a":1}`)
	}
	if got.ETag != `"x"` {
		t.Errorf("ETag after reopen = %s, want %s", got.ETag, `"x"`)
	}
}

func TestCredentialKeysDifferPerDatabase(t *testing.T) {
	a, b := openMem(t), openMem(t)
	if a.CredentialKey("tok") == b.CredentialKey("tok") {
		t.Fatalf("two databases both derived key %q for one token, want different keys: the salt is not random", a.CredentialKey("tok"))
	}
	if a.CredentialKey("tok") == a.CredentialKey("tok2") {
		t.Fatalf("two tokens both have key %q, want different keys", a.CredentialKey("tok"))
	}
	if len(a.CredentialKey("tok")) != 64 {
		t.Fatalf("key %q is %d characters, want 64 (a hex SHA-256)", a.CredentialKey("tok"), len(a.CredentialKey("tok")))
	}
}

func TestDefaultPath(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_STATE_HOME", dir)
	p, err := DefaultPath()
	if err != nil {
		t.Fatalf("DefaultPath with XDG_STATE_HOME: %v", err)
	}
	if want := filepath.Join(dir, "ghgate", "state.db"); p != want {
		t.Fatalf("DefaultPath with XDG_STATE_HOME = %q, want %q", p, want)
	}
	home := t.TempDir()
	t.Setenv("XDG_STATE_HOME", "relative/ignored")
	t.Setenv("HOME", home)
	p, err = DefaultPath()
	if err != nil {
		t.Fatalf("DefaultPath with HOME: %v", err)
	}
	if want := filepath.Join(home, ".local", "state", "ghgate", "state.db"); p != want {
		t.Fatalf("DefaultPath with HOME = %q, want %q", p, want)
	}
}

func TestPathWithQueryIsRefused(t *testing.T) {
	if _, err := Open(context.Background(), filepath.Join(t.TempDir(), "a?mode=ro")); err == nil {
		t.Fatal("a path with '?' was accepted")
	}
}

// Open drops what can no longer be used: expired idempotency keys and
// cached responses older than ETagMaxAge.
func TestOpenPrunes(t *testing.T) {
	ctx := context.Background()
	c := newClock()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := Open(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	cred := s.CredentialKey("t")
	scope := IdempotencyScope{Credential: cred, Repo: "o/r", Tool: "x"}
	if _, err := s.Reserve(ctx, scope, "k", "fp"); err != nil {
		t.Fatal(err)
	}
	if err := s.PutETag(ctx, ETagKey{Credential: cred, URL: "u"}, CachedResponse{ETag: "e", Status: 200}); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	c.add(ETagMaxAge + time.Hour)
	s, err = Open(ctx, path, WithClock(c.now))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, table := range []string{"idempotency", "etags"} {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil {
			t.Errorf("count %s: %v", table, err)
		} else if n != 0 {
			t.Errorf("%s holds %d rows after reopen, want 0", table, n)
		}
	}
}
