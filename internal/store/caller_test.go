package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
)

// Two callers on one credential use the same key for the same repository
// and tool: each gets its own reservation, neither replays the other's
// result, and neither is told the other used the key (a different
// request is no reuse across callers).
func TestSuiteIdempotencyKeysAreEachCallersOwn(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		a, b := open(t)
		cred := a.CredentialKey("shared-token")
		alice := IdempotencyScope{Credential: cred, Caller: "http:alice", Repo: "acme/widgets", Tool: "github_create_issue"}
		bob := alice
		bob.Caller = "http:bob"
		first, err := a.Reserve(ctx, alice, "k", "fp")
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Complete(ctx, alice, "k", "fp", first.CreatedAt, json.RawMessage(`{"number":1}`)); err != nil {
			t.Fatal(err)
		}
		if _, ok, err := b.Lookup(ctx, bob, "k"); err != nil {
			t.Errorf("bob's Lookup: %v", err)
		} else if ok {
			t.Errorf("bob's Lookup found alice's key, want nothing")
		}
		r, err := b.Reserve(ctx, bob, "k", "fp")
		if err != nil {
			t.Fatal(err)
		}
		if r.Outcome != Reserved {
			t.Errorf("bob's Reserve of alice's key = %s, want %s", r.Outcome, Reserved)
		}
		carol := alice
		carol.Caller = "uid:1001"
		if _, err := b.Reserve(ctx, carol, "k", "another request"); errors.Is(err, ErrKeyReused) {
			t.Errorf("carol's Reserve with another request = %v, want no word of alice's use", err)
		}
		// alice's own repeat still replays hers.
		again, err := a.Reserve(ctx, alice, "k", "fp")
		if err != nil {
			t.Fatal(err)
		}
		if again.Outcome != Replay {
			t.Errorf("alice's repeat = %s, want %s", again.Outcome, Replay)
		}
		if string(again.Result) != `{"number":1}` {
			t.Errorf("alice's replay = %s, want {\"number\":1}", again.Result)
		}
	})
}

// A database written before keys were scoped to callers keeps its keys as
// the local user's: a repeat within the window still replays.
func TestMigrationKeepsKeysAsTheLocalUsers(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if err := migrate(ctx, db, migrations[:4]); err != nil {
		t.Fatal(err)
	}
	clk := newClock()
	if _, err := db.ExecContext(ctx, `INSERT INTO idempotency (credential, repo, tool, key, fingerprint, state, result, created_at, lease_until)
		VALUES ('cred', 'acme/widgets', 'github_create_issue', 'k', 'fp', 'complete', ?, ?, 0)`, []byte(`{"number":3}`), clk.now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, path, WithClock(clk.now))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	local := IdempotencyScope{Credential: "cred", Repo: "acme/widgets", Tool: "github_create_issue"}
	r, err := s.Reserve(ctx, local, "k", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != Replay {
		t.Errorf("the local user's repeat after the migration = %s, want %s", r.Outcome, Replay)
	}
	other := local
	other.Caller = "http:bob"
	r, err = s.Reserve(ctx, other, "k", "fp")
	wantOutcome(t, "another caller's Reserve after the migration", r, err, Reserved)
}
