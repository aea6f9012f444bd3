package ostest

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A hostile agent, as its own OS user in the bridge group, opens every
// connection it may and fills each with a line that never ends. The
// broker answers the connection over its cap with an error, buffers at
// most a line's limit of each, and another agent user still gets in and
// calls a tool.
func TestAgentCannotExhaustTheBroker(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	other := "ggag2" + randomHex(t, 4)
	addUser(t, other)
	run(t, nil, "usermod", "-a", "-G", d.clients, other)
	const perClient = 16
	appendConfig(t, d.config, fmt.Sprintf("\n[limits]\nmax_connections = 40\nmax_connections_per_client = %d\n", perClient))
	d.startBroker(t)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// Each hostile connection is a `ghgate connect` run as the agent, fed
	// 15 MiB with no newline.
	const flood = 15 << 20
	var conns []*bridge
	for range perClient {
		conns = append(conns, startBridge(ctx, t, d, d.agent))
	}
	head := []byte(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"`)
	pad := []byte(strings.Repeat("x", 1<<20))
	var wg sync.WaitGroup
	for _, b := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := b.stdin.Write(head); err != nil {
				return
			}
			for sent := len(head); sent < flood; sent += len(pad) {
				if _, err := b.stdin.Write(pad); err != nil {
					return
				}
			}
		}()
	}
	// Every flooded connection is told its line is too long; none closes.
	for i, b := range conns {
		line, err := b.readLine(ctx)
		if err != nil {
			t.Fatalf("flooded connection %d: %v; want a line-too-long error\nbroker:\n%s", i, err, d.brokerErr.String())
		}
		if !strings.Contains(line, "exceeds") {
			t.Fatalf("flooded connection %d: line = %q, want a line-too-long error saying exceeds\nbroker:\n%s", i, line, d.brokerErr.String())
		}
	}
	wg.Wait()

	// One more connection of the same uid is over its cap.
	extra := startBridge(ctx, t, d, d.agent)
	line, _ := extra.readLine(ctx)
	if !strings.Contains(line, "max_connections_per_client") {
		t.Fatalf("the connection over the agent's cap got %q", line)
	}
	if err := extra.wait(); err != nil {
		t.Logf("connect over the cap exited: %v", err)
	}

	// Another agent user is not locked out.
	cmd := asUser(other, d.bin, "connect", "--socket", d.socket)
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "second-agent", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("a second agent could not connect: %v\n%s", err, stderr.String())
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "github_get_issue",
		Arguments: map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}})
	if err != nil {
		t.Fatalf("the second agent's call: %v", err)
	}
	if res.IsError {
		t.Fatalf("the second agent's call: isError = true, want a result: %+v", res.Content)
	}
	_ = cs.Close()

	// The flood never cost the broker more than its line limit a
	// connection: 16 × 15 MiB held whole would be over 240 MiB.
	peak := vmHWM(t, d.brokerPID)
	t.Logf("broker peak resident memory: %d MiB for %d connections flooded with %d MiB each", peak>>20, perClient, flood>>20)
	if peak > 192<<20 {
		t.Errorf("the broker peaked at %d MiB", peak>>20)
	}
	for _, b := range conns {
		_ = b.stdin.Close()
	}
}

// bridge is a `ghgate connect` run as a user, its stdin held open.
type bridge struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startBridge(ctx context.Context, t *testing.T, d *deployment, user string) *bridge {
	t.Helper()
	base := asUser(user, d.bin, "connect", "--socket", d.socket)
	cmd := exec.CommandContext(ctx, base.Path, base.Args[1:]...)
	cmd.Env, cmd.Dir = base.Env, base.Dir
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = stdin.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	return &bridge{cmd: cmd, stdin: stdin, out: bufio.NewReader(stdout)}
}

// readLine reads one line the broker sent, bounded by ctx.
func (b *bridge) readLine(ctx context.Context) (string, error) {
	type result struct {
		line string
		err  error
	}
	got := make(chan result, 1)
	go func() {
		line, err := b.out.ReadString('\n')
		got <- result{line, err}
	}()
	select {
	case r := <-got:
		return r.line, r.err
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

func (b *bridge) wait() error { return b.cmd.Wait() }

// vmHWM is a process's peak resident set, in bytes.
func vmHWM(t *testing.T, pid int) int64 {
	t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(status), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, err := strconv.ParseInt(f[1], 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no VmHWM in /proc/%d/status", pid)
	return 0
}

func appendConfig(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// An agent that can write the socket's directory could move the socket
// aside and answer other agents in its place: the broker refuses such a
// directory, and doctor fails an agent-owned or symlinked socket.
func TestSocketDirectoryTheAgentCanWrite(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	runDir := filepath.Dir(d.socket)
	// Writable by everyone, the agent included, but still the service
	// user's: the broker could create its socket there.
	run(t, nil, "chmod", "0777", runDir)
	// A broker that starts serves until stopped: bounded, it counts as
	// started.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	base := asUser(d.svc, d.bin, "broker", "--config", d.config)
	cmd := exec.CommandContext(ctx, base.Path, base.Args[1:]...)
	cmd.Env, cmd.Dir = base.Env, base.Dir
	out, err := cmd.CombinedOutput()
	if ctx.Err() != nil {
		t.Fatalf("the broker served until the deadline (%v), want a refusal: its socket is in a directory %s can write\n%s", ctx.Err(), d.agent, out)
	}
	if err == nil {
		t.Fatalf("the broker exited 0, want a refusal: its socket is in a directory %s can write\n%s", d.agent, out)
	}
	for _, want := range []string{runDir, "writ"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("the broker's refusal lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Lstat(d.socket); err == nil {
		t.Fatal("a socket was created in the agent's directory")
	}

	// With the directory the service user's again, the broker serves; a
	// socket path that is a symbolic link fails doctor's socket gate.
	run(t, nil, "chmod", "0755", runDir)
	d.startBroker(t)
	link := filepath.Join(d.root, "run", "impostor.sock")
	if err := os.Symlink(d.socket, link); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(d.root, "etc", "ghgate", "linked.toml")
	cfg, err := os.ReadFile(d.config)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(linked, []byte(strings.Replace(string(cfg), d.socket, link, 1)), 0o640); err != nil {
		t.Fatal(err)
	}
	doc := exec.Command(d.bin, "doctor", "--config", linked, "--service-user", d.svc)
	doc.Env = childEnv
	out, err = doc.CombinedOutput()
	if err == nil {
		t.Fatalf("doctor on a symlinked socket: exit status 0, want a failure\n%s", out)
	}
	for _, want := range []string{"FAIL", "symbolic link"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("doctor on a symlinked socket: output lacks %q:\n%s", want, out)
		}
	}
}
