package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// markerEnv is set in the test process (the broker): a child must not see it.
const markerEnv = "GHGATE_UPSTREAM_TEST_MARKER"

// childConfig fronts a second `ghgate serve` over stdio, pointed at w's
// emulator; its token comes from GITHUB_TOKEN.
func childConfig(t *testing.T, w *world) Config {
	return Config{
		Name:     "hosted",
		Command:  []string{ghgateBinary(t), "serve", "--github-url", w.emu.URL, "--state", filepath.Join(t.TempDir(), "state.db")},
		TokenEnv: "GITHUB_TOKEN",
		Allow: []Allowed{
			{Tool: "github_get_issue", Mode: tooldef.Read},
			{Tool: "github_create_issue", Mode: tooldef.Write},
		},
	}
}

func connect(t *testing.T, cfg Config, tokens TokenSource, tr *transcript, opts Options) *Proxy {
	t.Helper()
	opts.Tokens = tokens
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := Connect(ctx, cfg, opts)
	if err != nil {
		tr.add(err)
		t.Fatalf("Connect: %v\n%s", err, tr.log.String())
	}
	t.Cleanup(func() { _ = p.Close() })
	return p
}

func TestChildProxy(t *testing.T) {
	t.Setenv(markerEnv, "broker-only")
	t.Setenv("HOME", t.TempDir())
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	tokens := newFakeTokens(w.readTok, w.writeTok)
	var forwarded atomic.Int64
	p := connect(t, childConfig(t, w), tokens, tr, Options{Log: log, Forwarded: func(context.Context) { forwarded.Add(1) }})
	cs := serve(t, p)

	// Listed: the allowlist, nothing else.
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"github_create_issue", "github_get_issue"}) {
		t.Fatalf("listed %v, want the allowlist only", names)
	}

	// A read is forwarded and works, with structuredContent exact.
	isErr, out := call(t, tr, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if isErr {
		t.Fatalf("get_issue failed: %v", out)
	}
	issue, _ := out["issue"].(map[string]any)
	if issue == nil {
		t.Fatalf("get_issue: no issue object in %v", out)
	}
	if issue["number"] != float64(1) {
		t.Fatalf("get_issue: issue.number = %v, want 1", issue["number"])
	}
	// structuredContent is forwarded as the upstream's bytes, so large
	// integers stay exact.
	direct, err := p.Tools()[0].Handler(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{
		Name: "github_get_issue", Arguments: json.RawMessage(`{"owner":"acme","repo":"widgets","issue_number":1}`)}})
	if err != nil {
		t.Fatal(err)
	}
	tr.add(direct)
	raw, ok := direct.StructuredContent.(json.RawMessage)
	if !ok {
		t.Fatalf("structuredContent is a %T, want json.RawMessage (forwarded as bytes)", direct.StructuredContent)
	}
	if direct.IsError {
		t.Fatalf("direct get_issue: isError = true, want a result: %s", raw)
	}
	if text := direct.Content[0].(*mcp.TextContent).Text; string(raw) != text {
		t.Fatalf("structuredContent = %s, want the text content's bytes %s", raw, text)
	}
	// An upstream isError result comes back unchanged.
	isErr, out = call(t, tr, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 999999})
	wantEnvelope(t, "upstream isError result", isErr, out, map[string]any{"code": "issue_not_found"})

	// The read child has only the minimal environment, with the read token.
	reader := p.current(tooldef.Read)
	if reader == nil {
		t.Fatal("no read child")
	}
	if reader.pid == 0 {
		t.Fatal("read child pid = 0, want a process")
	}
	env := procEnviron(t, reader.pid)
	if env != nil {
		for k := range env {
			if !slices.Contains([]string{"PATH", "HOME", "LANG", "GITHUB_TOKEN"}, k) {
				t.Errorf("the child's environment holds %s", k)
			}
		}
		if _, ok := env[markerEnv]; ok {
			t.Errorf("the child sees the broker's %s", markerEnv)
		}
		if env["GITHUB_TOKEN"] != w.readTok {
			t.Error("the read child does not hold the read token")
		}
		if env["HOME"] != os.Getenv("HOME") {
			t.Errorf("the child's HOME is %q", env["HOME"])
		}
	}
	if p.current(tooldef.Write) != nil {
		t.Fatal("a write child was started before any write")
	}

	// A write goes through a second child holding the write token: the
	// issue's author is bob, whose token that is, not carol.
	title := "created through the upstream proxy"
	isErr, out = call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": title})
	if isErr {
		t.Fatalf("create_issue failed: %v", out)
	}
	if got := w.author(title); got != "bob" {
		t.Fatalf("the issue was opened by %q, want bob (the write token's user)", got)
	}
	writer := p.current(tooldef.Write)
	if writer == nil {
		t.Fatal("no write child after a write")
	}
	if writer.pid == reader.pid {
		t.Fatalf("write child pid = %d, the read child's; want its own child", writer.pid)
	}
	if env := procEnviron(t, writer.pid); env != nil && env["GITHUB_TOKEN"] != w.writeTok {
		t.Error("the write child does not hold the write token")
	}

	// A tool off the allowlist is not callable.
	res2, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_update_issue",
		Arguments: map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "title": "nope"}})
	if err == nil && !res2.IsError {
		t.Fatal("github_update_issue, not allowlisted, was callable")
	}
	if n := forwarded.Load(); n != 4 {
		t.Errorf("Forwarded called %d times, want 4", n)
	}
}

// procEnviron reads a process's environment; nil where /proc is missing.
func procEnviron(t *testing.T, pid int) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
	if errors.Is(err, os.ErrNotExist) {
		t.Log("no /proc: the child's environment is not checked")
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{}
	for _, kv := range strings.Split(strings.TrimRight(string(raw), "\x00"), "\x00") {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env
}

func TestChildRestartAndFailure(t *testing.T) {
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	p := connect(t, childConfig(t, w), newFakeTokens(w.readTok, w.writeTok), tr, Options{Log: log})
	cs := serve(t, p)
	args := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}

	// A dead child is restarted on the next call, which works.
	first := p.current(tooldef.Read)
	if err := syscall.Kill(first.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, first)
	if isErr, out := call(t, tr, cs, "github_get_issue", args); isErr {
		t.Fatalf("call after the child died: %v", out)
	}
	second := p.current(tooldef.Read)
	if second == first {
		t.Fatal("the read child is still the dead one, want a replacement")
	}
	if second.pid == first.pid {
		t.Fatalf("replacement child pid = %d, the dead child's; want a new process", second.pid)
	}

	// When the restart fails the call is an upstream_unavailable envelope,
	// not a protocol error: the agent's session lives on.
	command := p.cfg.Command[0]
	p.cfg.Command[0] = filepath.Join(t.TempDir(), "missing-binary")
	if err := syscall.Kill(second.pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitDead(t, second)
	isErr, out := call(t, tr, cs, "github_get_issue", args)
	wantEnvelope(t, "a read while the child is dead", isErr, out, map[string]any{"code": string(contract.CodeUpstreamUnavailable), "temporary": true})
	if _, ok := out["settlement"]; ok {
		t.Errorf("a read's envelope carries a settlement: %v", out)
	}
	isErr, out = call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "never"})
	wantEnvelope(t, "a write whose child cannot start", isErr, out, map[string]any{"code": string(contract.CodeUpstreamUnavailable), "settlement": string(contract.NotStarted)})
	// The upstream is back: the next call starts it again.
	p.cfg.Command[0] = command
	if isErr, out := call(t, tr, cs, "github_get_issue", args); isErr {
		t.Fatalf("call after the upstream came back: %v", out)
	}
}

func TestChildCredentials(t *testing.T) {
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	rotated := canaryToken(t, "rt")
	w.addToken(rotated, "carol", emulator.PermRead)
	tokens := newFakeTokens(w.readTok, "")
	p := connect(t, childConfig(t, w), tokens, tr, Options{Log: log})
	cs := serve(t, p)

	// No write credential routed: the write fails before anything starts,
	// with the router's envelope.
	isErr, out := call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "x"})
	wantEnvelope(t, "a write with no write credential", isErr, out, map[string]any{"code": string(contract.CodeMissingCredential), "settlement": string(contract.NotStarted)})
	tokens.set(tooldef.Write, "", contract.Errorf(contract.CodeInsufficientScope, "route %q has no write secret", "*"))
	isErr, out = call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "x"})
	wantEnvelope(t, "a write on a route without a write secret", isErr, out, map[string]any{"code": string(contract.CodeInsufficientScope)})
	if p.current(tooldef.Write) != nil {
		t.Fatal("a write child was started without a write credential")
	}

	// A refreshed credential replaces the child; the old one is stopped.
	old := p.current(tooldef.Read)
	tokens.set(tooldef.Read, rotated, nil)
	if isErr, out := call(t, tr, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}); isErr {
		t.Fatalf("call with the rotated token: %v", out)
	}
	cur := p.current(tooldef.Read)
	if cur == old {
		t.Fatal("the read child is the old one after the credential changed, want a replacement")
	}
	if cur.token != rotated {
		t.Fatal("the read child does not hold the rotated token, want it to")
	}
	if env := procEnviron(t, cur.pid); env != nil && env["GITHUB_TOKEN"] != rotated {
		t.Error("the new child does not hold the rotated token")
	}
	waitDead(t, old)
}

func TestConnectErrors(t *testing.T) {
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	cfg := childConfig(t, w)
	cfg.Allow = append(cfg.Allow, Allowed{Tool: "pull_request_read", Mode: tooldef.Read})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	_, err := Connect(ctx, cfg, Options{Tokens: newFakeTokens(w.readTok, w.writeTok), Log: log})
	tr.add(err)
	if want := "allowlisted tools pull_request_read (it offers: github_add_comment"; err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("Connect error = %v, want one naming the missing tool: %q", err, want)
	}

	// No credential at all: the error names the router's reasons.
	cfg = childConfig(t, w)
	_, err = Connect(ctx, cfg, Options{Tokens: newFakeTokens("", ""), Log: log})
	tr.add(err)
	if err == nil || !strings.Contains(err.Error(), "missing_credential") {
		t.Fatalf("Connect error = %v, want one saying missing_credential", err)
	}

	// A command that is not an MCP server.
	cfg.Command = []string{filepath.Join(t.TempDir(), "nothing-here")}
	_, err = Connect(ctx, cfg, Options{Tokens: newFakeTokens(w.readTok, w.writeTok), Log: log})
	tr.add(err)
	if err == nil {
		t.Fatal("Connect to a missing command succeeded")
	}
}
