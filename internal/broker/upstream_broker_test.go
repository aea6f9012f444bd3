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
	t.Parallel()
	up, files, cs := upstreamBroker(t, "github_get_issue", `{ tool = "github_get_issue", mode = "read" }`, "")
	ctx := context.Background()
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
			if line.Credential != brokertest.SecretAcmeRead {
				t.Fatalf("forwarded call's audit line: credential = %q, want %q", line.Credential, brokertest.SecretAcmeRead)
			}
			if line.Upstream != 1 {
				t.Fatalf("forwarded call's audit line: upstream = %d, want 1", line.Upstream)
			}
			if line.Outcome != "ok" {
				t.Fatalf("forwarded call's audit line: outcome = %q, want ok", line.Outcome)
			}
		}
	}
	if !found {
		t.Fatal("no audit line for the forwarded call")
	}
}

// An upstream write passes the broker's write path as ghgate's own do:
// its text is neutralised before it is forwarded (the child, a stdio
// ghgate, would leave mentions as they are), its quota is the broker's,
// and a refused call is never forwarded.
func TestUpstreamWritesPassTheWritePolicy(t *testing.T) {
	t.Parallel()
	up, _, cs := upstreamBroker(t, "github_add_comment", `{ tool = "github_add_comment", mode = "write", kind = "comment" }`, `
[policy.quotas]
comment = ["1/h"]
`)
	ctx := context.Background()
	comment := func(body string) map[string]any {
		t.Helper()
		res, err := brokertest.Call(ctx, up.Canary, cs, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 7, "body": body})
		if err != nil {
			t.Fatal(err)
		}
		var out map[string]any
		if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			out["is_error"] = true
		}
		return out
	}
	token := "ghp_" + strings.Repeat("Zq9", 12)
	if out := comment("the key is " + token); out["code"] != "secret_in_content" {
		t.Fatalf("a token through the upstream: %v, want secret_in_content", out)
	}
	if out := comment("cc @acme/everyone"); out["is_error"] == true {
		t.Fatalf("first comment: %v", out)
	}
	if out := comment("again @acme/everyone"); out["code"] != "quota_exceeded" {
		t.Fatalf("second comment in the hour: %v, want quota_exceeded", out)
	}
	bodies := up.CommentBodies(t, "acme", "widgets", 7)
	var mine []string
	for _, b := range bodies {
		if strings.Contains(b, "acme/everyone") || strings.Contains(b, "the key is") {
			mine = append(mine, b)
		}
	}
	if len(mine) != 1 {
		t.Fatalf("comments the upstream wrote = %q, want one", mine)
	}
	if strings.Contains(mine[0], "cc @acme/everyone") {
		t.Fatalf("comment the upstream wrote = %q, want its mention neutralised", mine[0])
	}
}

// upstreamBroker starts a broker fronting a second ghgate as the upstream
// "second": tool is denied among ghgate's own and served through the
// upstream as allow (a TOML inline table) says; more is appended to the
// configuration. When the test ends the broker is closed and its log,
// audit files and every frame are scanned for the upstream's canary.
func upstreamBroker(t *testing.T, tool, allow, more string) (*brokertest.Upstream, brokertest.Files, *mcp.ClientSession) {
	t.Helper()
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
allow = [%s]
`, bin, up.URL, filepath.Join(t.TempDir(), "state.db"), allow) // never the user's own state file
	text := strings.Replace(string(cfgText), `toolsets = ["issues"]`, fmt.Sprintf(`toolsets = ["issues"]
deny = [%q]`, tool), 1) + extra + more
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
	return up, files, brokertest.Connect(t, up.Canary, sock.Path())
}
