package broker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
)

// syncCall calls github_sync_issues through the broker and returns the
// error code ("" for a success) and the result's JSON.
func syncCall(t *testing.T, d *brokertest.Daemon, args map[string]any) (string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Call(ctx, d.Connect(t), "github_sync_issues", args)
	if err != nil {
		t.Fatal(err)
	}
	text := brokertest.ResultText(res)
	if !res.IsError {
		return "", text
	}
	var e struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal([]byte(text), &e); err != nil {
		t.Fatalf("%v: %s", err, text)
	}
	return e.Code, text
}

// A broker serving the sync toolset without sync_root refuses the tool:
// nothing is read or written, and the audit line says why.
func TestBrokerRefusesSyncWithoutSyncRoot(t *testing.T) {
	t.Parallel()
	d := brokertest.Start(t, brokertest.Options{Tools: `toolsets = ["issues", "sync"]`})
	if code, text := syncCall(t, d, map[string]any{"owner": "acme", "repo": "widgets"}); code != "sync_not_configured" {
		t.Errorf("sync: code = %q, want sync_not_configured: %s", code, text)
	}
	for _, l := range brokertest.AuditLines(t, d.Audit) {
		wantAudit(t, "the sync's line", l, map[string]any{"Tool": "github_sync_issues", "Code": "sync_not_configured", "Upstream": int64(0)})
	}
}

// With sync_root, the broker writes a repository's mirror at
// sync_root/OWNER/REPO only: an agent cannot name another directory, and
// a link planted on the way out is refused.
func TestBrokerSyncStaysUnderSyncRoot(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "alice")); err != nil {
		t.Fatal(err)
	}
	d := brokertest.Start(t, brokertest.Options{Tools: fmt.Sprintf("toolsets = [\"issues\", \"sync\"]\nsync_root = %q", root)})
	if code, text := syncCall(t, d, map[string]any{"owner": "acme", "repo": "widgets", "dir": "../x"}); code != "invalid_field" {
		t.Errorf("dir: %s", text)
	}
	if code, text := syncCall(t, d, map[string]any{"owner": "alice", "repo": "notes"}); code != "sync_dir_refused" {
		t.Errorf("through a link: %s", text)
	}
	if code, text := syncCall(t, d, map[string]any{"owner": "Acme", "repo": "Widgets"}); code != "" {
		t.Fatalf("sync: %s", text)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "acme", "widgets")); len(ents) < 3 {
		t.Errorf("mirror under sync_root: %d entries", len(ents))
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside sync_root: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "x")); err == nil {
		t.Error("a directory was made outside sync_root")
	}
}

// syncRootConfig is a broker config (as brokertest writes it) with
// sync_root set to root.
func syncRootConfig(t *testing.T, root string) *broker.Config {
	t.Helper()
	up := brokertest.StartUpstream(t, 0, true)
	files := brokertest.WriteFiles(t, up, "")
	b, err := os.ReadFile(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "[tools]\n", fmt.Sprintf("[tools]\nsync_root = %q\n", root), 1))
	if err := os.WriteFile(files.Config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := broker.LoadConfig(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// The broker refuses to start on a sync_root that someone but its own
// user and root could change, or one below a directory they could: an
// agent could plant a mirror file that another agent reads as an issue.
// A sticky directory above it (as /tmp) renames nothing of the broker's.
func TestBrokerRefusesAnUnsafeSyncRoot(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name             string
		rootMode, parent os.FileMode
		says             string
	}{
		{"world-writable with the sticky bit", os.ModeSticky | 0o777, 0o755, "writable by group or others"},
		{"group-writable", 0o770, 0o755, "writable by group or others"},
		{"below a group-writable directory", 0o700, 0o775, "without the sticky bit"},
		{"below a world-writable directory", 0o700, 0o777, "without the sticky bit"},
		{"missing", 0, 0o755, "does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			parent := filepath.Join(t.TempDir(), "shared")
			root := filepath.Join(parent, "mirrors")
			if err := os.MkdirAll(parent, 0o700); err != nil {
				t.Fatal(err)
			}
			if c.rootMode != 0 {
				if err := os.Mkdir(root, 0o700); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(root, c.rootMode); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Chmod(parent, c.parent); err != nil {
				t.Fatal(err)
			}
			cfg := syncRootConfig(t, root)
			b, err := broker.New(cfg, broker.Options{})
			if err == nil {
				_ = b.Close()
				t.Fatal("the broker started")
			}
			for _, want := range []string{"sync_root", c.says} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("err = %q, want it to say %q", err, want)
				}
			}
		})
	}
	for _, parent := range []os.FileMode{0o755, os.ModeSticky | 0o777} {
		dir := filepath.Join(t.TempDir(), "shared")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, parent); err != nil {
			t.Fatal(err)
		}
		root := filepath.Join(dir, "mirrors")
		if err := os.Mkdir(root, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := broker.Check(syncRootConfig(t, root)); err != nil {
			t.Errorf("a private sync_root below a %v directory: %v", parent, err)
		}
	}
}

// A relative sync_root is a configuration error: the broker's working
// directory is no place to decide where agents' mirrors go.
func TestBrokerConfigRefusesRelativeSyncRoot(t *testing.T) {
	t.Parallel()
	up := brokertest.StartUpstream(t, 0, true)
	files := brokertest.WriteFiles(t, up, "")
	b, err := os.ReadFile(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	b = []byte(strings.Replace(string(b), "[tools]\n", "[tools]\nsync_root = \"mirrors\"\n", 1))
	if err := os.WriteFile(files.Config, b, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := broker.LoadConfig(files.Config); err == nil || !strings.Contains(err.Error(), "sync_root") {
		t.Fatalf("relative sync_root: error = %v, want one naming sync_root", err)
	}
}
