package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"github.com/ghgate/ghgate/internal/testutil"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/pflag"
	"github.com/zalando/go-keyring"
)

// --- flags and config file ---

// parseServe resolves serve's settings from args, a config file body (""
// for none) and an environment.
func parseServe(t *testing.T, args []string, configBody string, env map[string]string) (serveConfig, error) {
	t.Helper()
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	if configBody != "" {
		path := filepath.Join(t.TempDir(), "ghgate.toml")
		if err := os.WriteFile(path, []byte(configBody), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append([]string{"--config", path}, args...)
	}
	var f serveFlags
	fs := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	f.register(fs)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("parsing %q: %v", args, err)
	}
	return f.resolve(fs, func(k string) string { return env[k] })
}

func TestServeUnknownToolsetListsKnownOnes(t *testing.T) {
	for _, args := range [][]string{{"--toolsets", "issues,bogus"}, {"--toolsets", "nope"}} {
		_, err := parseServe(t, args, "", nil)
		if err == nil {
			t.Fatalf("%q: no error", args)
		}
		for _, known := range append(server.ToolsetNames(), "all") {
			if !strings.Contains(err.Error(), known) {
				t.Errorf("%q: error %q does not list %q", args, err, known)
			}
		}
	}
	// The same check applies to the config file.
	_, err := parseServe(t, nil, `toolsets = ["bogus"]`, nil)
	wantErrorSaying(t, "config toolsets", err, `"bogus"`)
	c, err := parseServe(t, []string{"--toolsets", "all"}, "", nil)
	if err != nil {
		t.Fatalf("--toolsets all: %v", err)
	}
	if !slices.Equal(c.Toolsets, []string{"all"}) {
		t.Errorf("--toolsets all: Toolsets = %q, want [all]", c.Toolsets)
	}
}

func TestServeConfigUnknownKeyIsAnError(t *testing.T) {
	_, err := parseServe(t, nil, "read_onyl = true\ntoolsets = [\"issues\"]\n", nil)
	wantErrorSaying(t, "unknown key", err, "read_onyl", "read_only")
}

func TestServeFlagsOverrideConfigAndEnvOverridesFileToken(t *testing.T) {
	key := bytes.Repeat([]byte{7}, 32)
	body := `
github_url = "https://ghes.example/api/v3"
token = "file-token"
toolsets = ["issues"]
read_only = true
allowed_issue_creator = "bob"
state = "/tmp/from-config.db"
cursor_key = "` + base64.StdEncoding.EncodeToString(key) + `"
http = "127.0.0.1:9000"
`
	c, err := parseServe(t, nil, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.GitHubURL != "https://ghes.example/api/v3" {
		t.Errorf("config file: GitHubURL = %q, want %q", c.GitHubURL, "https://ghes.example/api/v3")
	}
	if c.Token != "file-token" {
		t.Errorf("config file: Token = %q, want %q", c.Token, "file-token")
	}
	if !c.ReadOnly {
		t.Errorf("config file: ReadOnly = false, want true")
	}
	if c.AllowedIssueCreator != "bob" {
		t.Errorf("config file: AllowedIssueCreator = %q, want %q", c.AllowedIssueCreator, "bob")
	}
	if c.State != "/tmp/from-config.db" {
		t.Errorf("config file: State = %q, want %q", c.State, "/tmp/from-config.db")
	}
	if !bytes.Equal(c.CursorKey, key) {
		t.Errorf("config file: CursorKey = %x, want %x", c.CursorKey, key)
	}
	if c.HTTP != "127.0.0.1:9000" {
		t.Errorf("config file: HTTP = %q, want %q", c.HTTP, "127.0.0.1:9000")
	}

	// A flag set to its zero value still overrides the file.
	c, err = parseServe(t, []string{"--read-only=false", "--github-url", "http://127.0.0.1:1", "--allowed-issue-creator", "",
		"--state", "/tmp/from-flag.db", "--http", "localhost:9001", "--toolsets", "all"}, body,
		map[string]string{"GH_TOKEN": "env-token"})
	if err != nil {
		t.Fatal(err)
	}
	if c.ReadOnly {
		t.Errorf("flags over file: ReadOnly = true, want false")
	}
	if c.GitHubURL != "http://127.0.0.1:1" {
		t.Errorf("flags over file: GitHubURL = %q, want %q", c.GitHubURL, "http://127.0.0.1:1")
	}
	if c.AllowedIssueCreator != "" {
		t.Errorf("flags over file: AllowedIssueCreator = %q, want empty", c.AllowedIssueCreator)
	}
	if c.State != "/tmp/from-flag.db" {
		t.Errorf("flags over file: State = %q, want %q", c.State, "/tmp/from-flag.db")
	}
	if c.HTTP != "localhost:9001" {
		t.Errorf("flags over file: HTTP = %q, want %q", c.HTTP, "localhost:9001")
	}
	if !slices.Equal(c.Toolsets, []string{"all"}) {
		t.Errorf("flags over file: Toolsets = %q, want [all]", c.Toolsets)
	}
	if c.Token != "env-token" {
		t.Errorf("env over file: Token = %q, want %q", c.Token, "env-token")
	}
	// GITHUB_TOKEN wins over GH_TOKEN.
	if c, _ := parseServe(t, nil, body, map[string]string{"GITHUB_TOKEN": "a", "GH_TOKEN": "b"}); c.Token != "a" {
		t.Fatalf("Token = %q, want GITHUB_TOKEN's %q", c.Token, "a")
	}
	// Without a state setting the default path is used.
	if c, _ := parseServe(t, nil, "", nil); !strings.HasSuffix(c.State, filepath.Join("ghgate", "state.db")) {
		t.Fatalf("default State = %q, want one ending in %q", c.State, filepath.Join("ghgate", "state.db"))
	}
}

func TestServeConfigErrorsNeverShowTheToken(t *testing.T) {
	const secret = "ghp_SECRETSECRETSECRET1234"
	for _, body := range []string{
		`token = "` + secret + ``,           // unterminated string
		`token = "` + secret + `" extra`,    // junk after the value
		`token = ` + secret,                 // bare value
		`token = SECRETSECRET`,              // bare value the parser quotes back
		`token = ["` + secret + `"]`,        // wrong type
		"token = '" + secret + "'\nx = = 1", // a later syntax error
		`token = "` + secret + `"` + "\nbogus = 1",
		`token = "` + secret + `"` + "\ncursor_key = \"" + secret + "\"",
	} {
		_, err := parseServe(t, nil, body, nil)
		if err == nil {
			t.Fatalf("%q: no error", body)
		}
		for what, leak := range map[string]string{"the token": secret, "a piece of the token": "SECRET"} {
			if strings.Contains(err.Error(), leak) {
				t.Fatalf("error = %v, want one without %s", err, what)
			}
		}
	}
}

func TestServeCursorKey(t *testing.T) {
	hexKey := strings.Repeat("ab", 32)
	c, err := parseServe(t, nil, `cursor_key = "`+hexKey+`"`, nil)
	if err != nil {
		t.Fatalf("hex key: %v", err)
	}
	if len(c.CursorKey) != 32 {
		t.Errorf("hex key: len(CursorKey) = %d, want 32", len(c.CursorKey))
	}
	_, err = parseServe(t, nil, `cursor_key = "`+strings.Repeat("ab", 16)+`"`, nil)
	wantErrorSaying(t, "short key", err, "at least 32")
	_, err = parseServe(t, nil, `cursor_key = "not a key!"`, nil)
	if err == nil {
		t.Fatalf("bad key: error = nil, want one")
	}
	if strings.Contains(err.Error(), "not a key") {
		t.Errorf("bad key: error = %v, want one without the key's text", err)
	}
}

func TestServeRefusesNonLoopbackHTTP(t *testing.T) {
	_, err := parseServe(t, []string{"--http", "0.0.0.0:8080"}, "", nil)
	wantErrorSaying(t, "non-loopback --http", err, "--auth", "loopback")
	// No flag turns the requirement off: --allow-remote is refused, and says what replaced it.
	_, err = parseServe(t, []string{"--http", "0.0.0.0:8080", "--allow-remote"}, "", nil)
	wantErrorSaying(t, "--allow-remote", err, "--auth")
	dir := t.TempDir()
	authFile := filepath.Join(dir, "auth.toml")
	body := "[[client]]\nname = \"ci\"\nkey_sha256 = \"" + strings.Repeat("ab", 32) + "\"\nread = [\"acme\"]\n"
	if err := os.WriteFile(authFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = parseServe(t, []string{"--http", "0.0.0.0:8080", "--auth", authFile}, "", nil)
	wantErrorSaying(t, "non-loopback --auth without resource", err, "resource")
	if err := os.WriteFile(authFile, []byte("resource = \"https://ghgate.example.com/mcp\"\n"+body), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := parseServe(t, []string{"--http", "0.0.0.0:8080", "--auth", authFile}, "", nil)
	if err != nil {
		t.Fatalf("non-loopback with --auth: %v", err)
	}
	if c.Auth == nil {
		t.Fatalf("non-loopback with --auth: Auth = nil, want the auth file's settings")
	}
	if len(c.Auth.Clients) != 1 {
		t.Errorf("non-loopback with --auth: %d clients, want 1", len(c.Auth.Clients))
	}
	if _, err := parseServe(t, []string{"--auth", authFile}, "", nil); err == nil {
		t.Fatal("--auth without --http: no error")
	}
	for _, ok := range []string{"127.0.0.1:0", "[::1]:8080", "localhost:8080"} {
		if _, err := parseServe(t, []string{"--http", ok}, "", nil); err != nil {
			t.Fatalf("%s: %v", ok, err)
		}
	}
	if _, err := parseServe(t, []string{"--demo", "--github-url", "http://127.0.0.1:1"}, "", nil); err == nil {
		t.Fatal("--demo with --github-url: no error")
	}
}

// --- the built binary ---

var (
	buildOnce sync.Once
	builtBin  string
	buildErr  error
	buildOut  []byte
)

// ghgateBinary builds ghgate once per test run.
func ghgateBinary(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "ghgate-serve-test-")
		if err != nil {
			buildErr = err
			return
		}
		builtBin = filepath.Join(dir, "ghgate")
		buildOut, buildErr = exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOut)
	}
	return builtBin
}

func TestMain(m *testing.M) {
	// serve and auth reach the OS keyring through go-keyring: here, its
	// in-memory mock, so no test reads or writes the user's keyring.
	keyring.MockInit()
	code := m.Run()
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// exited is a started process's end, observable any number of times.
type exited struct {
	done chan struct{}
	err  error
}

// watch waits for cmd in the background.
func watch(cmd *exec.Cmd) *exited {
	e := &exited{done: make(chan struct{})}
	go func() { e.err = cmd.Wait(); close(e.done) }()
	return e
}

// wait returns the exit error, or false if cmd has not ended within d.
func (e *exited) wait(d time.Duration) (error, bool) {
	select {
	case <-e.done:
		return e.err, true
	case <-time.After(d):
		return nil, false
	}
}

// stop ends cmd: sig first, SIGKILL if it lingers.
func (e *exited) stop(cmd *exec.Cmd, sig os.Signal) {
	_ = cmd.Process.Signal(sig)
	if _, ok := e.wait(10 * time.Second); !ok {
		_ = cmd.Process.Kill()
		<-e.done
	}
}

// cleanEnv is the environment for the child: no token of the developer's
// reaches it, neither from the environment nor stored by ghgate or gh
// (config directories of its own, and a session bus that is not there,
// so no keyring answers).
func cleanEnv(t *testing.T) []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case "GITHUB_TOKEN", "GH_TOKEN", "XDG_STATE_HOME", "XDG_CONFIG_HOME", "GH_CONFIG_DIR", "DBUS_SESSION_BUS_ADDRESS":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_STATE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "GH_CONFIG_DIR="+t.TempDir(),
		"DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(t.TempDir(), "no-bus"))
}

func callJSON(t *testing.T, cs *mcp.ClientSession, tool string, args any) (bool, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(*mcp.TextContent).Text), &out); err != nil {
		t.Fatalf("%s: text block is not JSON: %v", tool, err)
	}
	return res.IsError, out
}

func toolNames(t *testing.T, cs *mcp.ClientSession) []string {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range res.Tools {
		if tl.OutputSchema == nil {
			t.Errorf("%s has no outputSchema", tl.Name)
		}
		names = append(names, tl.Name)
	}
	return names
}

// TestServeStdioDemo runs `ghgate serve --demo` and speaks MCP over its
// stdin and stdout. The client fails on any stdout line that is not a
// JSON-RPC message, so a successful session shows stdout carries only
// protocol; the logs must be on stderr.
func TestServeStdioDemo(t *testing.T) {
	stdin, stdout, stderr, proc := startStdioServe(t, "--demo")
	// Every stdout byte passes through here on its way to the client, and
	// each line is checked to be one JSON-RPC 2.0 message.
	pr, pw := io.Pipe()
	var badLines []string
	var linesMu sync.Mutex
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			var msg struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if json.Unmarshal(sc.Bytes(), &msg) != nil || msg.JSONRPC != "2.0" {
				linesMu.Lock()
				badLines = append(badLines, sc.Text())
				linesMu.Unlock()
			}
			if _, err := pw.Write(append(sc.Bytes(), '\n')); err != nil {
				break
			}
		}
		pw.CloseWithError(sc.Err())
	}()

	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: pr, Writer: stdin}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	names := toolNames(t, cs)
	if len(names) == 0 {
		t.Fatalf("tools/list is empty, want the demo's tools")
	}
	for _, want := range []string{"github_search_issues", "github_create_issue"} {
		if !slices.Contains(names, want) {
			t.Fatalf("tools/list = %v, want it to hold %s", names, want)
		}
	}
	isErr, out := callJSON(t, cs, "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "page_size": 3})
	if isErr {
		t.Fatalf("search failed: %v", out)
	}
	if items, _ := out["items"].([]any); len(items) == 0 {
		t.Fatalf("search returned no items, want some: %v", out)
	}
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	_ = stdin.Close()
	if err, ok := proc.wait(10 * time.Second); !ok {
		t.Fatal("ghgate did not exit after stdin closed")
	} else if err != nil {
		t.Fatalf("ghgate exited with %v when stdin closed\nstderr:\n%s", err, stderr.String())
	}
	linesMu.Lock()
	defer linesMu.Unlock()
	if len(badLines) > 0 {
		t.Fatalf("stdout carried non-protocol lines: %q", badLines)
	}
	logs := stderr.String()
	for _, want := range []string{"ghgate serving", "demo"} {
		if !strings.Contains(logs, want) {
			t.Errorf("stderr lacks %q; stderr:\n%s", want, logs)
		}
	}
}

// TestServeStdioThroughCommandTransport is the same session through the
// SDK's CommandTransport, as an MCP host would launch ghgate.
func TestServeStdioThroughCommandTransport(t *testing.T) {
	bin := ghgateBinary(t)
	cmd := exec.Command(bin, "serve", "--demo", "--read-only")
	cmd.Env = cleanEnv(t)
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect: %v\nstderr:\n%s", err, stderr.String())
	}
	defer cs.Close()
	names := toolNames(t, cs)
	for _, n := range names {
		if slices.Contains([]string{"github_create_issue", "github_update_issue", "github_add_comment"}, n) {
			t.Fatalf("--read-only lists write tool %s: %v", n, names)
		}
	}
	if !slices.Contains(names, "github_get_issue") {
		t.Fatalf("--read-only tools/list = %v, want github_get_issue in it", names)
	}
	isErr, out := callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if isErr {
		t.Fatalf("get_issue failed: %v", out)
	}
	// A hidden write tool is not callable either.
	if res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_create_issue",
		Arguments: map[string]any{"owner": "acme", "repo": "widgets", "title": "x"}}); err == nil && !res.IsError {
		t.Fatal("--read-only: github_create_issue was callable")
	}
}

var listenURL = regexp.MustCompile(`url"?[=:]"?(http://127\.0\.0\.1:\d+/mcp)`)

// startHTTPServe runs `ghgate serve <args> --http 127.0.0.1:0` (the kernel
// picks the port; ghgate logs the URL) and returns the URL and the process.
func startHTTPServe(t *testing.T, args ...string) (string, *exec.Cmd, *testutil.SyncBuffer, *exited) {
	t.Helper()
	bin := ghgateBinary(t)
	cmd := exec.Command(bin, append(append([]string{"serve"}, args...), "--http", "127.0.0.1:0")...)
	cmd.Env = cleanEnv(t)
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc := watch(cmd)
	t.Cleanup(func() { proc.stop(cmd, syscall.SIGTERM) })
	for i := 0; i < 200; i++ { // up to 10 s for the listener
		if m := listenURL.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], cmd, stderr, proc
		}
		if err, ok := proc.wait(50 * time.Millisecond); ok {
			t.Fatalf("ghgate exited: %v\n%s", err, stderr.String())
		}
	}
	t.Fatalf("ghgate did not report its URL:\n%s", stderr.String())
	return "", nil, nil, nil
}

func TestServeHTTPDemo(t *testing.T) {
	url, cmd, stderr, proc := startHTTPServe(t, "--demo")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	names := toolNames(t, cs)
	if !slices.Contains(names, "github_update_issue") {
		t.Fatalf("tools/list = %v, want github_update_issue in it", names)
	}
	isErr, out := callJSON(t, cs, "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "query": "widget"})
	if isErr {
		t.Fatalf("search failed: %v", out)
	}
	// A forced error arrives as an envelope.
	isErr, out = callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 999999})
	if !isErr {
		t.Fatalf("get_issue 999999: isError = false, want true; out %v", out)
	}
	if out["code"] != "issue_not_found" {
		t.Errorf("get_issue 999999: code = %v, want issue_not_found", out["code"])
	}
	_ = cs.Close()

	// SIGTERM is a clean shutdown.
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err, ok := proc.wait(10 * time.Second); !ok {
		t.Fatal("ghgate did not stop on SIGTERM")
	} else if err != nil {
		t.Fatalf("exit after SIGTERM: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "shutting down") {
		t.Fatalf("no shutdown log:\n%s", stderr.String())
	}
}

func TestServeHTTPReadOnly(t *testing.T) {
	url, _, stderr, _ := startHTTPServe(t, "--demo", "--read-only")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	defer cs.Close()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range res.Tools {
		if tl.Annotations == nil {
			t.Errorf("--read-only lists %s with no annotations, want ReadOnlyHint", tl.Name)
			continue
		}
		if !tl.Annotations.ReadOnlyHint {
			t.Errorf("--read-only lists %s: ReadOnlyHint = false, want true", tl.Name)
		}
	}
	if len(res.Tools) == 0 {
		t.Fatal("--read-only lists no tools")
	}
}

// TestServeNeverLogsTheToken starts a real (non-demo) server with a canary
// token from the environment and a config file, and checks neither the
// log nor the protocol stream shows it.
func TestServeNeverLogsTheToken(t *testing.T) {
	const canary = "ghp_CANARYcanaryCANARY0123456789"
	cfg := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(cfg, []byte(`token = "`+canary+`"`+"\n"+`github_url = "http://127.0.0.1:1"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	bin := ghgateBinary(t)
	cmd := exec.Command(bin, "serve", "--config", cfg, "--state", filepath.Join(t.TempDir(), "s.db"), "-v")
	cmd.Env = cleanEnv(t)
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	var stdout testutil.SyncBuffer
	stdoutTee := func(r io.Reader) io.Reader { return io.TeeReader(r, &stdout) }
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc := watch(cmd)
	defer func() { _ = in.Close(); proc.stop(cmd, syscall.SIGTERM) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: io.NopCloser(stdoutTee(out)), Writer: in}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr.String())
	}
	// The upstream is unreachable: the call fails, and says so without the
	// token.
	isErr, _ := callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if !isErr {
		t.Fatal("a call against an unreachable upstream succeeded")
	}
	_ = cs.Close()
	_ = in.Close()
	if _, ok := proc.wait(10 * time.Second); !ok {
		t.Fatal("ghgate did not exit after stdin closed")
	}
	for name, s := range map[string]string{"stderr": stderr.String(), "stdout": stdout.String()} {
		for what, leak := range map[string]string{"the token": canary, "a piece of the token": "CANARY"} {
			if strings.Contains(s, leak) {
				t.Fatalf("%s holds %s, want no trace of it", name, what)
			}
		}
	}
}

// TestServeStdioParseError sends `ghgate serve --demo` a line that is not
// JSON: it answers JSON-RPC's Parse error and the session goes on.
func TestServeStdioParseError(t *testing.T) {
	stdin, stdout, stderr, _ := startStdioServe(t, "--demo")
	lines := bufio.NewScanner(stdout)
	lines.Buffer(make([]byte, 1<<20), 16<<20)
	var reply struct {
		ID    any `json:"id"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
		Result json.RawMessage `json:"result"`
	}
	next := func() {
		t.Helper()
		reply.ID, reply.Error, reply.Result = nil, nil, nil
		if !lines.Scan() {
			t.Fatalf("no reply; stderr:\n%s", stderr.String())
		}
		if err := json.Unmarshal(lines.Bytes(), &reply); err != nil {
			t.Fatalf("reply %q: %v", lines.Text(), err)
		}
	}
	if _, err := io.WriteString(stdin, "not json\n"); err != nil {
		t.Fatal(err)
	}
	next()
	if reply.Error == nil {
		t.Fatalf("reply to a non-JSON line has no error, want a Parse error: %s", lines.Text())
	}
	if reply.Error.Code != -32700 {
		t.Fatalf("error code = %d, want -32700 (Parse error): %s", reply.Error.Code, lines.Text())
	}
	if reply.ID != nil {
		t.Fatalf("Parse error id = %v, want null: %s", reply.ID, lines.Text())
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n"
	if _, err := io.WriteString(stdin, init); err != nil {
		t.Fatal(err)
	}
	next()
	if reply.Error != nil {
		t.Fatalf("initialize after the bad line: error %+v, want none: %s", *reply.Error, lines.Text())
	}
	if len(reply.Result) == 0 {
		t.Fatalf("initialize after the bad line: no result: %s", lines.Text())
	}
	if reply.ID != float64(1) {
		t.Fatalf("initialize after the bad line: id = %v, want 1: %s", reply.ID, lines.Text())
	}
}

// startStdioServe starts `ghgate serve args...` with pipes on its stdin and
// stdout; its stderr is collected. The process is stopped when the test
// ends.
func startStdioServe(t *testing.T, args ...string) (io.WriteCloser, io.Reader, *testutil.SyncBuffer, *exited) {
	t.Helper()
	cmd := exec.Command(ghgateBinary(t), append([]string{"serve"}, args...)...)
	cmd.Env = cleanEnv(t)
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	proc := watch(cmd)
	t.Cleanup(func() { _ = stdin.Close(); proc.stop(cmd, syscall.SIGTERM) })
	return stdin, stdout, stderr, proc
}

// TestServeHTTPRefusesOtherOrigins: a request a browser page on another
// site sends (its Origin names that site) is refused with 403 before it
// reaches a tool; the same request without an Origin, or from the
// server's own origin, is served.
func TestServeHTTPRefusesOtherOrigins(t *testing.T) {
	url, _, _, _ := startHTTPServe(t, "--demo")
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`
	post := func(origin string) int {
		t.Helper()
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := post("http://evil.example"); got != http.StatusForbidden {
		t.Fatalf("another site's origin: %d, want 403", got)
	}
	if got := post(""); got != http.StatusOK {
		t.Fatalf("no origin: %d, want 200", got)
	}
	own := strings.TrimSuffix(url, "/mcp")
	if got := post(own); got != http.StatusOK {
		t.Fatalf("the server's own origin: %d, want 200", got)
	}
}

// startBoundedHTTPServe runs `ghgate serve --demo --http 127.0.0.1:0` with
// a config file that sets a 1 s read timeout and a 64 KiB body limit.
func startBoundedHTTPServe(t *testing.T) string {
	t.Helper()
	cfg := filepath.Join(t.TempDir(), "c.toml")
	if err := os.WriteFile(cfg, []byte("http_read_timeout = \"1s\"\nhttp_max_body_bytes = 65536\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, _, _ := startHTTPServe(t, "--demo", "--config", cfg)
	return url
}

// TestServeHTTPBoundsRequestBodies: a body over http_max_body_bytes is
// answered 413, whether its length is declared or not, and a normal MCP
// session still works under the limits.
func TestServeHTTPBoundsRequestBodies(t *testing.T) {
	url := startBoundedHTTPServe(t)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatalf("initialize under the limits: %v", err)
	}
	defer cs.Close()
	if names := toolNames(t, cs); !slices.Contains(names, "github_get_issue") {
		t.Fatalf("tools/list under the limits = %v, want github_get_issue in it", names)
	}

	// A JSON-RPC ping padded past the limit.
	big := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"pad":"` + strings.Repeat("x", 65536) + `"}}}`
	for _, declared := range []bool{true, false} {
		var body io.Reader = strings.NewReader(big)
		if !declared {
			body = io.MultiReader(body) // hides the length: sent chunked
		}
		req, err := http.NewRequest(http.MethodPost, url, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("length declared %v: %v", declared, err)
		}
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusRequestEntityTooLarge {
			t.Fatalf("a %d-byte body, length declared %v: status %d, want 413", len(big), declared, resp.StatusCode)
		}
	}
}

// TestServeHTTPCutsOffSlowBodies: a client that sends its headers and then
// its body a byte every 100 ms is disconnected once http_read_timeout
// passes, instead of holding the connection for as long as it trickles.
func TestServeHTTPCutsOffSlowBodies(t *testing.T) {
	url := startBoundedHTTPServe(t)
	host := strings.TrimSuffix(strings.TrimPrefix(url, "http://"), mcpPath)
	conn, err := net.Dial("tcp", host)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// 1,000 bytes at 10 a second would take 100 s to arrive.
	head := "POST " + mcpPath + " HTTP/1.1\r\nHost: " + host + "\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\nContent-Length: 1000\r\n\r\n"
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		_, _ = io.Copy(io.Discard, conn) // returns when the server closes
	}()
	// A bound on correctness, not speed: far above the 1 s timeout, far
	// below the 100 s the body would take.
	bound := time.After(20 * time.Second)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return
		case <-bound:
			t.Fatal("the server still holds a slow-body connection after 20 s")
		case <-tick.C:
			// Once the server has closed, a write may fail; the read
			// side reports the close.
			_, _ = conn.Write([]byte(" "))
		}
	}
}

// TestServeSettingsDocumentEveryKey: each config file key has a row in
// docs/configuration.md's serve settings table (generated from
// serveSettingDocs; TestDocPagesFresh keeps the page current).
func TestServeSettingsDocumentEveryKey(t *testing.T) {
	if err := checkSettingDocs("serveSettingDocs", configKeys(), serveSettingDocs); err != nil {
		t.Error(err)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "configuration.md"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	start := strings.Index(page, "## Serve settings")
	if start < 0 {
		t.Fatal(`docs/configuration.md has no "## Serve settings" section`)
	}
	section := page[start:]
	if end := strings.Index(section[3:], "\n## "); end >= 0 {
		section = section[:end+3]
	}
	for _, key := range configKeys() {
		if !strings.Contains(section, "| `"+key+"`") {
			t.Errorf("docs/configuration.md's serve settings table lacks `%s`", key)
		}
	}
}

// TestServeHTTPLimitsSettings: the HTTP limits have safe defaults, come
// from the config file (durations as Go duration strings), yield to flags,
// and refuse values that would disable them.
func TestServeHTTPLimitsSettings(t *testing.T) {
	c, err := parseServe(t, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := httpLimits{ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: 64 << 10, MaxBodyBytes: 1 << 20}
	if c.HTTPLimits != want {
		t.Fatalf("defaults %+v, want %+v", c.HTTPLimits, want)
	}

	body := `
http_read_header_timeout = "5s"
http_read_timeout = "1m"
http_write_timeout = "10m"
http_idle_timeout = "90s"
http_max_header_bytes = 8192
http_max_body_bytes = 65536
`
	c, err = parseServe(t, nil, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = httpLimits{ReadHeaderTimeout: 5 * time.Second, ReadTimeout: time.Minute, WriteTimeout: 10 * time.Minute,
		IdleTimeout: 90 * time.Second, MaxHeaderBytes: 8192, MaxBodyBytes: 65536}
	if c.HTTPLimits != want {
		t.Fatalf("from the file %+v, want %+v", c.HTTPLimits, want)
	}

	c, err = parseServe(t, []string{"--http-read-header-timeout", "2s", "--http-read-timeout", "3s", "--http-write-timeout", "0",
		"--http-idle-timeout", "4s", "--http-max-header-bytes", "4096", "--http-max-body-bytes", "1024"}, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	want = httpLimits{ReadHeaderTimeout: 2 * time.Second, ReadTimeout: 3 * time.Second, IdleTimeout: 4 * time.Second,
		MaxHeaderBytes: 4096, MaxBodyBytes: 1024}
	if c.HTTPLimits != want {
		t.Fatalf("from flags %+v, want %+v", c.HTTPLimits, want)
	}

	for _, bad := range []string{
		`http_read_timeout = 30`, // a bare number: its unit would be a guess
		`http_read_timeout = "soon"`,
		`http_read_timeout = "0s"`,
		`http_read_header_timeout = "-1s"`,
		`http_idle_timeout = "0s"`,
		`http_write_timeout = "-1s"`,
		`http_max_body_bytes = 0`,
		`http_max_header_bytes = -1`,
	} {
		key := strings.Fields(bad)[0]
		_, err := parseServe(t, nil, bad, nil)
		wantErrorSaying(t, bad, err, key)
	}
	_, err = parseServe(t, []string{"--http-max-body-bytes", "0"}, "", nil)
	wantErrorSaying(t, "--http-max-body-bytes 0", err, "http-max-body-bytes")
}

func TestServeHTTPHealthReadinessAndMetrics(t *testing.T) {
	mcpURL, _, stderr, _ := startHTTPServe(t, "--demo", "--log-json")
	base := strings.TrimSuffix(mcpURL, mcpPath)
	get := func(path string) (int, string) {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	code, body := get("/healthz")
	if code != 200 {
		t.Fatalf("/healthz status = %d, want 200; body %s", code, body)
	}
	if !strings.Contains(body, `"ok"`) {
		t.Fatalf("/healthz body = %s, want one holding \"ok\"", body)
	}
	// Ready: the state store and the (demo) GitHub answer.
	code, body = get("/readyz")
	if code != 200 {
		t.Fatalf("/readyz status = %d, want 200; body %s\n%s", code, body, stderr.String())
	}
	if !strings.Contains(body, `"ready"`) {
		t.Fatalf("/readyz body = %s, want one holding \"ready\"\n%s", body, stderr.String())
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "serve-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: mcpURL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for range 2 { // the second read is answered 304 from the cache
		if isErr, out := callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}); isErr {
			t.Fatalf("get_issue: %v", out)
		}
	}
	isErr, envelope := callJSON(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 999999})
	if !isErr {
		t.Fatal("missing issue did not fail")
	}
	// The log is JSON lines, and the failure's line carries the envelope's
	// request id. The line may be written just after the answer is sent:
	// look again until it is there (the wait only stops a hung server).
	found := false
	for wait := time.Now().Add(30 * time.Second); !found && time.Now().Before(wait); time.Sleep(20 * time.Millisecond) {
		for _, line := range strings.Split(strings.TrimSpace(stderr.String()), "\n") {
			var rec map[string]any
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatalf("log line is not JSON: %q", line)
			}
			if rec["msg"] == "tool call failed" && rec["request_id"] == envelope["request_id"] && rec["code"] == "issue_not_found" {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("no log line for request %v:\n%s", envelope["request_id"], stderr.String())
	}
	code, metrics := get("/metrics")
	if code != 200 {
		t.Fatalf("/metrics status = %d, want 200", code)
	}
	for _, want := range []string{
		`ghgate_tool_calls_total{outcome="ok",tool="github_get_issue"} 2`,
		`ghgate_tool_calls_total{outcome="issue_not_found",tool="github_get_issue"} 1`,
		`ghgate_cache_hits_total 2`, // the issue and its comments
		`ghgate_upstream_requests_total{route="GET /repos/{x}/{x}/issues/{x}",status="304"} 1`,
		`ghgate_rate_budget_remaining{resource="core"}`,
		`ghgate_tool_call_duration_seconds_count{tool="github_get_issue"} 3`,
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if t.Failed() {
		t.Logf("metrics:\n%s", grepLines(metrics, "ghgate_"))
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) && !strings.HasPrefix(l, "#") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
