package main

import (
	"context"
	"errors"
	"github.com/ghgate/ghgate/internal/testutil"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// scanTransport records every frame a client sends and receives, encoded
// as on the wire, for the canary scan.
type scanTransport struct {
	next mcp.Transport
	c    *brokertest.Canary
}

func (t *scanTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.next.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return &scanConnection{Connection: conn, c: t.c}, nil
}

type scanConnection struct {
	mcp.Connection
	c *brokertest.Canary
}

func (s *scanConnection) Read(ctx context.Context) (jsonrpc.Message, error) {
	m, err := s.Connection.Read(ctx)
	if m != nil {
		if b, eerr := jsonrpc.EncodeMessage(m); eerr == nil {
			s.c.Scan("frames from ghgate connect", b)
		}
	}
	return m, err
}

func (s *scanConnection) Write(ctx context.Context, m jsonrpc.Message) error {
	if b, err := jsonrpc.EncodeMessage(m); err == nil {
		s.c.Scan("frames to ghgate connect", b)
	}
	return s.Connection.Write(ctx, m)
}

// TestConnectBridgesAnAgentToTheBroker runs `ghgate connect` as an agent's
// MCP server command: a Go MCP client over its stdio reaches an in-process
// broker through the socket.
func TestConnectBridgesAnAgentToTheBroker(t *testing.T) {
	bin := ghgateBinary(t)
	d := brokertest.Start(t, brokertest.Options{})
	stderr := d.Canary.Stream("ghgate connect's stderr")
	cmd := exec.Command(bin, "connect", "--socket", d.Socket.Path())
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "0"}, nil).
		Connect(ctx, &scanTransport{next: &mcp.CommandTransport{Command: cmd}, c: d.Canary}, nil)
	if err != nil {
		t.Fatalf("connecting through ghgate connect: %v", err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list through the bridge: %v", err)
	}
	if len(list.Tools) == 0 {
		t.Fatalf("tools/list through the bridge: 0 tools, want some")
	}
	d.MustCall(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	d.MustCall(t, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "Through the bridge"})
	d.MustCall(t, cs, "github_search_issues", map[string]any{"owner": "acme", "query": "bug"})
	// Closing the client closes the bridge's stdin; it must end the session
	// and exit 0.
	if err := cs.Close(); err != nil {
		t.Errorf("ghgate connect did not exit cleanly: %v", err)
	}
	lines := brokertest.AuditLines(t, d.Audit)
	if len(lines) != 3 {
		t.Fatalf("audit lines = %d, want 3 (one per call)", len(lines))
	}
	for _, l := range lines {
		// The client is the bridge process, whose uid is this test's.
		if l.Client == nil {
			t.Errorf("audit line %+v: no client uid, want %d", l, os.Getuid())
		} else if *l.Client != uint32(os.Getuid()) {
			t.Errorf("audit line client uid = %d, want %d", *l.Client, os.Getuid())
		}
		if l.ClientPID != int32(cmd.Process.Pid) {
			t.Errorf("audit line client pid = %d, want %d", l.ClientPID, cmd.Process.Pid)
		}
	}
	if d.Canary.BytesScanned("frames from ghgate connect") == 0 {
		t.Error("no frame was scanned")
	}
}

// runConnect runs `ghgate connect` with no input and returns its stderr
// and exit error.
func runConnect(t *testing.T, bin, socket string, attr *syscall.SysProcAttr) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "connect", "--socket", socket)
	cmd.SysProcAttr = attr
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	return stderr.String(), err
}

func TestConnectExplainsWhyItCannotOpenTheSocket(t *testing.T) {
	bin := ghgateBinary(t)
	dir := t.TempDir()
	out, err := runConnect(t, bin, filepath.Join(dir, "none.sock"), nil)
	if err == nil {
		t.Errorf("a missing socket: exit status 0, want a failure (stderr %q)", out)
	}
	if !strings.Contains(out, "no broker socket") {
		t.Errorf("a missing socket: stderr = %q, want one saying %q", out, "no broker socket")
	}

	stale := filepath.Join(dir, "stale.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: stale, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	ln.SetUnlinkOnClose(false)
	_ = ln.Close()
	out, err = runConnect(t, bin, stale, nil)
	if err == nil {
		t.Errorf("a stale socket: exit status 0, want a failure (stderr %q)", out)
	}
	if !strings.Contains(out, "not running") {
		t.Errorf("a stale socket: stderr = %q, want one saying %q", out, "not running")
	}
}

func TestConnectSaysPermissionDenied(t *testing.T) {
	bin := ghgateBinary(t)
	// The socket, and a copy of the binary, in a directory anyone may
	// enter, so that another user can try it.
	dir, err := os.MkdirTemp("", "ghgate-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(dir, "b.sock")
	ln, err := net.ListenUnix("unix", &net.UnixAddr{Name: sock, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var attr *syscall.SysProcAttr
	if os.Geteuid() == 0 {
		// root passes every permission check: try as nobody, outside the
		// socket's group.
		copyBin := filepath.Join(dir, "ghgate")
		data, err := os.ReadFile(bin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(copyBin, data, 0o755); err != nil {
			t.Fatal(err)
		}
		bin = copyBin
		if err := os.Chmod(sock, 0o660); err != nil {
			t.Fatal(err)
		}
		attr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	} else if err := os.Chmod(sock, 0); err != nil {
		t.Fatal(err)
	}
	out, err := runConnect(t, bin, sock, attr)
	var exit *exec.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("connect error = %v, want an exit status (stderr %q)", err, out)
	}
	if exit.ExitCode() == 0 {
		t.Fatalf("exit code = 0, want non-zero (stderr %q)", out)
	}
	for _, want := range []string{"permission denied", "group"} {
		if !strings.Contains(out, want) {
			t.Errorf("stderr = %q, want it to say %q (permission denied, the group as the way in)", out, want)
		}
	}
}

// TestBrokerCommandReopensTheAuditOnSIGHUPAndStopsOnSIGTERM runs the
// broker binary: it serves the socket, refuses to start a second time on
// the same socket, reopens its audit log on SIGHUP, and on SIGTERM exits 0
// and removes its socket.
func TestBrokerCommandReopensTheAuditOnSIGHUPAndStopsOnSIGTERM(t *testing.T) {
	bin := ghgateBinary(t)
	up := brokertest.StartUpstream(t, 0, false)
	files := brokertest.WriteFiles(t, up, "")
	c := up.Canary
	stderr := &testutil.SyncBuffer{}
	cmd := exec.Command(bin, "broker", "--config", files.Config)
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := watch(cmd)
	t.Cleanup(func() {
		select {
		case <-done.done:
		default:
			_ = cmd.Process.Kill()
			<-done.done
		}
		c.Scan("the broker's stderr", []byte(stderr.String()))
		brokertest.ScanAuditFiles(t, c, files.Dir)
		c.Check(t)
		if t.Failed() {
			t.Logf("broker stderr:\n%s", stderr.String())
		}
	})
	waitFor(t, done, "the socket to answer", func() bool {
		conn, err := net.Dial("unix", files.Socket)
		if err == nil {
			_ = conn.Close()
		}
		return err == nil
	})

	// A second broker on the same socket refuses to start.
	second := exec.Command(bin, "broker", "--config", files.Config)
	out, err := second.CombinedOutput()
	c.Scan("the second broker's output", out)
	if err == nil {
		t.Errorf("a second broker: exit status 0, want a failure (output %q)", out)
	}
	if !strings.Contains(string(out), "another broker is listening") {
		t.Errorf("a second broker: output = %q, want one saying %q", out, "another broker is listening")
	}

	cs := brokertest.Connect(t, c, files.Socket)
	brokertest.MustCall(t, c, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	rotated := files.Audit + ".1"
	if err := os.Rename(files.Audit, rotated); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	waitFor(t, done, "the audit log to be reopened", func() bool {
		return strings.Contains(stderr.String(), "audit log reopened")
	})
	brokertest.MustCall(t, c, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2})
	if n := len(brokertest.AuditLines(t, rotated)); n != 1 {
		t.Errorf("the rotated audit file has %d lines, want 1", n)
	}
	if n := len(brokertest.AuditLines(t, files.Audit)); n != 1 {
		t.Errorf("the reopened audit file has %d lines, want 1", n)
	}

	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done.done:
	case <-time.After(time.Minute):
		t.Fatal("the broker did not exit within a minute of SIGTERM")
	}
	if done.err != nil {
		t.Errorf("the broker exited with %v after SIGTERM", done.err)
	}
	if _, err := os.Lstat(files.Socket); !os.IsNotExist(err) {
		t.Errorf("the socket file is still there after SIGTERM: %v", err)
	}
	waited := make(chan error, 1)
	go func() { waited <- cs.Wait() }()
	select {
	case <-waited:
	case <-time.After(time.Minute):
		t.Error("the client's session outlived the broker")
	}
}

// waitFor polls cond every 20 ms for up to a minute, failing early if the
// process ends.
func waitFor(t *testing.T, proc *exited, what string, cond func() bool) {
	t.Helper()
	for i := 0; i < 3000; i++ {
		if cond() {
			return
		}
		select {
		case <-proc.done:
			t.Fatalf("the broker exited (%v) while waiting for %s", proc.err, what)
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}
