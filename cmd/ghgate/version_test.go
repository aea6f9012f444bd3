package main

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A binary built as the release builds it (.goreleaser.yaml's ldflags)
// prints its version, commit and date, and reports the version as MCP's
// serverInfo.
func TestStampedVersion(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	const (
		pkg     = "github.com/ghgate/ghgate/internal/version"
		ver     = "v9.8.7-test"
		commit  = "0123456789abcdef0123456789abcdef01234567"
		date    = "2026-11-30T12:34:56Z"
		wantOut = "ghgate v9.8.7-test (commit 0123456789ab, 2026-11-30T12:34:56Z)"
	)
	bin := filepath.Join(t.TempDir(), "ghgate")
	ldflags := "-X " + pkg + ".Version=" + ver + " -X " + pkg + ".Commit=" + commit + " -X " + pkg + ".Date=" + date
	if out, err := exec.Command("go", "build", "-ldflags", ldflags, "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	out, err := exec.Command(bin, "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(out)); got != wantOut {
		t.Fatalf("version printed %q, want %q", got, wantOut)
	}
	cmd := exec.Command(bin, "serve", "--demo")
	cmd.Env = cleanEnv(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "version-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	info := cs.InitializeResult().ServerInfo
	if info.Name != "ghgate" {
		t.Errorf("serverInfo.Name = %q, want ghgate", info.Name)
	}
	if info.Version != ver {
		t.Errorf("serverInfo.Version = %q, want %q", info.Version, ver)
	}
}
