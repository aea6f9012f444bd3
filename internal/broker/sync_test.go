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
	d := brokertest.Start(t, brokertest.Options{Tools: `toolsets = ["issues", "sync"]`})
	cwd, _ := os.Getwd()
	for _, dir := range []string{"", "m", filepath.Join(cwd, "m")} {
		code, text := syncCall(t, d, map[string]any{"owner": "acme", "repo": "widgets", "dir": dir})
		if code != "sync_not_configured" {
			t.Errorf("dir %q: %s", dir, text)
		}
	}
	for _, l := range brokertest.AuditLines(t, d.Audit) {
		if l.Tool != "github_sync_issues" || l.Code != "sync_not_configured" || l.Upstream != 0 {
			t.Errorf("audit: %+v", l)
		}
	}
	if _, err := os.Stat(filepath.Join(cwd, "m")); err == nil {
		t.Error("a directory was made")
	}
}

// With sync_root, the broker writes mirrors under it only: an agent's
// "..", an absolute path elsewhere or a link out are refused.
func TestBrokerSyncStaysUnderSyncRoot(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "out")); err != nil {
		t.Fatal(err)
	}
	d := brokertest.Start(t, brokertest.Options{Tools: fmt.Sprintf("toolsets = [\"issues\", \"sync\"]\nsync_root = %q", root)})
	for _, dir := range []string{"../x", outside, filepath.Join(root, "..", "x"), "out", "out/x", "a/.git"} {
		if code, text := syncCall(t, d, map[string]any{"owner": "acme", "repo": "widgets", "dir": dir}); code != "sync_dir_refused" {
			t.Errorf("dir %q: %s", dir, text)
		}
	}
	if code, text := syncCall(t, d, map[string]any{"owner": "acme", "repo": "widgets"}); code != "" {
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

// A relative sync_root is a configuration error: the broker's working
// directory is no place to decide where agents' mirrors go.
func TestBrokerConfigRefusesRelativeSyncRoot(t *testing.T) {
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
		t.Fatalf("relative sync_root: %v", err)
	}
}
