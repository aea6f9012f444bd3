package broker_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// buildGhgate builds the binary the upstream child runs.
func buildGhgate(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..")
	bin := filepath.Join(t.TempDir(), "ghgate")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/ghgate")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// A broker fronting a second ghgate as an upstream MCP server: only the
// allowlisted tool is listed (in place of ghgate's own, which is denied),
// the call is forwarded with the routed credential injected into the
// child's environment by the broker, and the audit line counts it.
func TestBrokerFrontsAnUpstreamServer(t *testing.T) {
	bin := buildGhgate(t)
	up := brokertest.StartUpstream(t, 0, false)
	files := brokertest.WriteFiles(t, up, "")
	cfgText, err := os.ReadFile(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	extra := fmt.Sprintf(`
[[upstream]]
name = "second"
command = [%q, "serve", "--github-url", %q, "--state", %q]
token_env = "GITHUB_TOKEN"
owner = "acme"
allow = [{ tool = "github_get_issue", mode = "read" }]
`, bin, up.URL, filepath.Join(t.TempDir(), "state.db")) // never the user's own state file
	text := strings.Replace(string(cfgText), `toolsets = ["issues"]`, `toolsets = ["issues"]
deny = ["github_get_issue"]`, 1) + extra
	if err := os.WriteFile(files.Config, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := broker.LoadConfig(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	logBuf := &brokertest.SyncBuffer{}
	b, err := broker.New(cfg, broker.Options{Log: slog.New(slog.NewTextHandler(logBuf, nil)), HTTPClient: up.Client})
	if err != nil {
		up.Canary.Scan("broker.New", []byte(err.Error()))
		up.Canary.Check(t)
		t.Fatalf("broker.New: %v", err)
	}
	t.Cleanup(func() {
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		up.Canary.Scan("broker log", []byte(logBuf.String()))
		brokertest.ScanAuditFiles(t, up.Canary, files.Dir)
		up.Canary.Check(t)
	})
	sock, err := broker.OpenSocket(cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- b.Serve(ctx, sock) }()
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
	})

	cs := brokertest.Connect(t, up.Canary, sock.Path())
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	count := 0
	for _, tool := range list.Tools {
		if tool.Name == "github_get_issue" {
			count++
		}
	}
	if count != 1 {
		t.Fatalf("github_get_issue listed %d times", count)
	}
	res := brokertest.MustCall(t, up.Canary, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if res.IsError {
		t.Fatalf("forwarded call failed: %v", res.Content)
	}
	body := res.Content[0].(*mcp.TextContent).Text
	if !strings.Contains(body, `"number":1`) {
		t.Fatalf("unexpected result: %s", body)
	}

	f, err := os.Open(files.Audit)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var line struct {
		Tool       string `json:"tool"`
		Credential string `json:"credential"`
		Upstream   int    `json:"upstream"`
		Outcome    string `json:"outcome"`
	}
	found := false
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		if err := json.Unmarshal(lines.Bytes(), &line); err != nil {
			t.Fatalf("audit line: %v", err)
		}
		if line.Tool == "github_get_issue" {
			found = true
			if line.Credential != brokertest.SecretAcmeRead || line.Upstream != 1 || line.Outcome != "ok" {
				t.Fatalf("audit line for the forwarded call: %s", lines.Text())
			}
		}
	}
	if !found {
		t.Fatal("no audit line for the forwarded call")
	}
}
