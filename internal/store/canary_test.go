package store

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// The database must never hold a credential. Write through every API that
// takes one (as a key), then look for the raw token in every file SQLite
// wrote.
func TestNoTokenInDatabaseFiles(t *testing.T) {
	ctx := context.Background()
	const canary = "ghp_CANARYcanary0123456789abcdefABCDEF01"
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	cred := s.CredentialKey(canary)
	if bytes.Contains([]byte(cred), []byte(canary)) {
		t.Fatal("the credential key contains the token")
	}
	if err := s.PutETag(ctx, ETagKey{Credential: cred, URL: "https://api.github.com/user", Accept: "application/json"},
		CachedResponse{ETag: `"e"`, Status: 200, Body: []byte(`{"login":"alice"}`)}); err != nil {
		t.Fatal(err)
	}
	scope := IdempotencyScope{Credential: cred, Repo: "acme/widgets", Tool: "github_create_issue"}
	res, err := s.Reserve(ctx, scope, "key-1", "fp")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Complete(ctx, scope, "key-1", "fp", res.CreatedAt, json.RawMessage(`{"number":1}`)); err != nil {
		t.Fatal(err)
	}
	// Check the WAL before the checkpoint on close folds it into the file,
	// and the file after.
	scan := func(when string) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		scanned := 0
		for _, e := range entries {
			b, err := os.ReadFile(filepath.Join(dir, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			scanned += len(b)
			if bytes.Contains(b, []byte(canary)) {
				t.Errorf("%s: the raw token is in %s", when, e.Name())
			}
		}
		if scanned == 0 {
			t.Fatalf("%s: nothing on disk to scan", when)
		}
	}
	scan("open")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	scan("closed")
	// The check can fail: the rows are on disk under the derived key.
	b, _ := os.ReadFile(path)
	if !bytes.Contains(b, []byte(cred)) {
		t.Fatal("the derived key is not in the file either: the scan looked at the wrong bytes")
	}
}
