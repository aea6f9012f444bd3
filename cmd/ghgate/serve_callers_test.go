package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Static keys of the clients callersServe configures.
const (
	triageKey = "ghgate-static-key-for-triage-0123456789abcdef"
	helperKey = "ghgate-static-key-for-helper-0123456789abcdef"
	notesKey  = "ghgate-static-key-for-notes-0123456789abcdef0"
)

// callersServe starts the built binary over HTTP with --auth and three
// static-key clients on one GitHub token: triage and helper may read and
// write acme/widgets, notes may read alice/notes. It returns the URL and
// the sync_root.
func callersServe(t *testing.T) (url, syncRoot string) {
	t.Helper()
	emu, _ := countingEmulator(t)
	dir := t.TempDir()
	syncRoot = filepath.Join(dir, "mirrors")
	if err := os.Mkdir(syncRoot, 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "ghgate.toml")
	body := fmt.Sprintf("token = %q\ngithub_url = %q\ntoolsets = [\"issues\", \"sync\"]\nsync_root = %q\n", emulator.DemoTokenAlice, emu.URL, syncRoot)
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	authFile := filepath.Join(dir, "auth.toml")
	auth := fmt.Sprintf(`
[[client]]
name = "triage"
key_sha256 = %q
read = ["acme/widgets"]
write = ["acme/widgets"]

[[client]]
name = "helper"
key_sha256 = %q
read = ["acme/widgets"]
write = ["acme/widgets"]

[[client]]
name = "notes"
key_sha256 = %q
read = ["alice/notes"]
`, httpauth.KeyDigest(triageKey), httpauth.KeyDigest(helperKey), httpauth.KeyDigest(notesKey))
	if err := os.WriteFile(authFile, []byte(auth), 0o600); err != nil {
		t.Fatal(err)
	}
	u, _, _, _ := startHTTPServe(t, "--config", cfg, "--auth", authFile)
	return u, syncRoot
}

// created is what github_create_issue says of the issue.
func created(t *testing.T, who string, cs *mcp.ClientSession, title, key string) (number int, replayed bool) {
	t.Helper()
	isErr, out := callJSON(t, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": title, "idempotency_key": key})
	if isErr {
		t.Fatalf("%s: create refused: %v", who, out)
	}
	issue, _ := out["issue"].(map[string]any)
	n, _ := issue["number"].(float64)
	r, _ := out["replayed"].(bool)
	return int(n), r
}

// Two HTTP clients on one GitHub token use the same idempotency key: each
// key is its client's own, so both creates happen, neither is handed the
// other's result, and neither learns the other used the key.
func TestServeIdempotencyKeysAreEachClientsOwn(t *testing.T) {
	t.Parallel()
	url, _ := callersServe(t)
	triage, helper := connectAs(t, url, triageKey), connectAs(t, url, helperKey)

	first, _ := created(t, "triage", triage, "Flaky build", "k-shared")
	second, replayed := created(t, "helper", helper, "Flaky build", "k-shared")
	if second == first {
		t.Errorf("helper's create returned triage's issue #%d, want an issue of its own", first)
	}
	if replayed {
		t.Errorf("helper's create was replayed from triage's key")
	}
	// A different request under a key only the other client used is no
	// reuse: it is created, not refused with idempotency_key_reused.
	third, _ := created(t, "helper", helper, "Another report", "k-other")
	if isErr, env := callEnvelope(t, triage, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets",
		"title": "Not the same request", "idempotency_key": "k-other"}); isErr {
		t.Errorf("triage's create under a key only helper used: refused %s, want created", env.Code)
	}
	// Each client's own repeat still replays its own issue.
	again, replayed := created(t, "triage", triage, "Flaky build", "k-shared")
	if again != first {
		t.Errorf("triage's repeat = #%d, want #%d", again, first)
	}
	if !replayed {
		t.Errorf("triage's repeat was not replayed")
	}
	if again, _ := created(t, "helper", helper, "Another report", "k-other"); again != third {
		t.Errorf("helper's repeat = #%d, want #%d", again, third)
	}
}

// A client limited to acme/widgets cannot put a mirror where another
// repository's belongs: the directory is not its to name, and a
// repository it may not read it may not sync. The client that reads
// alice/notes then syncs it at sync_root/alice/notes.
func TestServeSyncKeepsEachRepositorysMirrorInItsPlace(t *testing.T) {
	t.Parallel()
	url, root := callersServe(t)
	triage, notes := connectAs(t, url, triageKey), connectAs(t, url, notesKey)

	isErr, env := callEnvelope(t, triage, "github_sync_issues", map[string]any{"owner": "acme", "repo": "widgets", "dir": "alice/notes"})
	switch {
	case !isErr:
		t.Error("triage's sync of acme/widgets into alice/notes ran")
	case env.Code != "invalid_field":
		t.Errorf("dir alice/notes: code = %s, want invalid_field", env.Code)
	case env.Settlement != "not_started":
		t.Errorf("dir alice/notes: settlement = %q, want not_started", env.Settlement)
	}
	isErr, env = callEnvelope(t, triage, "github_sync_issues", map[string]any{"owner": "alice", "repo": "notes"})
	if !isErr {
		t.Fatal("triage synced alice/notes, which it may not read")
	}
	if env.Code != "insufficient_scope" {
		t.Errorf("alice/notes by triage: code = %s, want insufficient_scope", env.Code)
	}
	if !slices.Equal(env.Details.RequiredScopes, []string{"read:alice/notes"}) {
		t.Errorf("alice/notes by triage: required scopes = %v, want [read:alice/notes]", env.Details.RequiredScopes)
	}
	if _, err := os.Stat(filepath.Join(root, "alice", "notes")); err == nil {
		t.Error("triage's calls made sync_root/alice/notes")
	}

	isErr, out := callJSON(t, notes, "github_sync_issues", map[string]any{"owner": "alice", "repo": "notes"})
	if isErr {
		t.Fatalf("notes' own sync of alice/notes refused: %v", out)
	}
	if want := filepath.Join(root, "alice", "notes"); out["dir"] != want {
		t.Errorf("notes' mirror dir = %v, want %s", out["dir"], want)
	}
	isErr, out = callJSON(t, triage, "github_sync_issues", map[string]any{"owner": "acme", "repo": "widgets"})
	if isErr {
		t.Fatalf("triage's own sync of acme/widgets refused: %v", out)
	}
	if want := filepath.Join(root, "acme", "widgets"); out["dir"] != want {
		t.Errorf("triage's mirror dir = %v, want %s", out["dir"], want)
	}
}
