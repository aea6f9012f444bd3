// Package brokertest runs a whole credential broker for tests: an emulator
// whose only credential is a canary value, a broker serving a Unix socket
// in the test's temporary directory, MCP clients over that socket, and a
// scan of every frame, error, log and audit line for the canary.
package brokertest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"github.com/ghgate/ghgate/internal/testutil"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// CanaryWindow is the shortest piece of a credential that counts as a leak.
const CanaryWindow = 8

// Canary is a credential value no output may contain, nor any 8-character
// piece of it. Every output a test sees is fed to Scan or through a Stream.
type Canary struct {
	// Value is the credential.
	Value   string
	windows [][]byte

	mu      sync.Mutex
	leaks   []string
	scanned map[string]int64
}

// NewCanary makes a random token-shaped value.
func NewCanary(t testing.TB) *Canary {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	raw := make([]byte, 36)
	if _, err := rand.Read(raw); err != nil {
		t.Fatal(err)
	}
	for i, b := range raw {
		raw[i] = alphabet[int(b)%len(alphabet)]
	}
	return CanaryOf("ghp_" + string(raw))
}

// CanaryOf is a canary for a value the test did not make: a secret the
// emulator planted in GitHub's data, which no output may pass on either.
func CanaryOf(value string) *Canary {
	c := &Canary{Value: value, scanned: map[string]int64{}}
	for i := 0; i+CanaryWindow <= len(c.Value); i++ {
		c.windows = append(c.windows, []byte(c.Value[i:i+CanaryWindow]))
	}
	return c
}

// Scan checks one complete piece of output.
func (c *Canary) Scan(where string, data []byte) {
	for _, w := range c.windows {
		if bytes.Contains(data, w) {
			c.mu.Lock()
			c.leaks = append(c.leaks, where)
			c.mu.Unlock()
			return
		}
	}
	c.mu.Lock()
	c.scanned[where] += int64(len(data))
	c.mu.Unlock()
}

// Stream returns a writer that scans everything written to it, across
// write boundaries.
func (c *Canary) Stream(where string) *Stream { return &Stream{c: c, where: where} }

// Check fails the test for every leak seen so far.
func (c *Canary) Check(t testing.TB) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, where := range c.leaks {
		t.Errorf("the canary credential (or an 8+ character piece of it) appeared in %s", where)
	}
}

// BytesScanned is how much of a stream was scanned, to show the scan ran.
func (c *Canary) BytesScanned(where string) int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.scanned[where]
}

// Stream scans what is written to it.
type Stream struct {
	c     *Canary
	where string
	mu    sync.Mutex
	carry []byte
}

func (s *Stream) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	buf := append(s.carry, p...)
	s.c.Scan(s.where, buf)
	// Keep the tail a window could straddle into the next write.
	keep := min(len(buf), CanaryWindow-1)
	s.carry = append([]byte(nil), buf[len(buf)-keep:]...)
	return len(p), nil
}

// ScanConn scans every byte a client sends and receives on a connection:
// the raw MCP frames.
type ScanConn struct {
	net.Conn
	In, Out *Stream
}

func (c *ScanConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	_, _ = c.In.Write(p[:n])
	return n, err
}

func (c *ScanConn) Write(p []byte) (int, error) {
	_, _ = c.Out.Write(p)
	return c.Conn.Write(p)
}

// SyncBuffer collects log output tests read while it is written.
type SyncBuffer = testutil.SyncBuffer

// The secret names the test config routes to.
const (
	SecretAcmeRead  = "acme-read"
	SecretAcmeWrite = "acme-write"
	SecretFallback  = "fallback-read"
)

// Upstream is an emulator on loopback whose only extra credential is the
// canary, with alice's permissions.
type Upstream struct {
	URL    string
	Emu    *emulator.Emulator
	Client *http.Client
	Canary *Canary
}

// StartUpstream serves an emulator until the test ends. Without plain,
// every response is checked against GitHub's OpenAPI description through
// Client; plain skips that, for load whose thousands of responses the
// validator would dominate.
func StartUpstream(t testing.TB, latency time.Duration, plain bool) *Upstream {
	t.Helper()
	return startUpstream(t, Options{Latency: latency, Plain: plain})
}

// startUpstream is [StartUpstream] with the emulator o describes: its
// latency, the fleet organization, its concurrency limit, a gate in
// front (which implies plain).
func startUpstream(t testing.TB, o Options) *Upstream {
	t.Helper()
	up := &Upstream{Canary: NewCanary(t)}
	emuOpts := emulator.Options{Latency: o.Latency, CoreLimit: 1 << 30, SearchLimit: 1 << 30, GraphQLLimit: 1 << 30,
		FleetRepos: o.FleetRepos, MaxConcurrent: o.MaxConcurrent}
	if o.Plain || o.Gate != nil {
		emu, err := emulator.New(emuOpts)
		if err != nil {
			t.Fatal(err)
		}
		var h http.Handler = emu
		if o.Gate != nil {
			h = o.Gate.Wrap(emu)
		}
		srv := httptest.NewServer(h)
		t.Cleanup(srv.Close)
		if o.Gate != nil {
			// Held answers go before the server closes, which waits for
			// them (cleanups run last first).
			t.Cleanup(o.Gate.Open)
		}
		tr := &http.Transport{MaxIdleConnsPerHost: 64}
		t.Cleanup(tr.CloseIdleConnections)
		up.Emu, up.URL, up.Client = emu, srv.URL, &http.Client{Transport: tr, Timeout: time.Minute}
	} else {
		es := emulatortest.Start(t, emuOpts)
		up.Emu, up.URL, up.Client = es.Emu, es.URL, es.Client()
	}
	st := up.Emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: up.Canary.Value, Login: "alice", Perms: map[string]emulator.Permission{
		"acme/widgets": emulator.PermAdmin, "acme/gadgets": emulator.PermAdmin, "alice/notes": emulator.PermAdmin}})
	st.Unlock()
	return up
}

// Files are a broker's config and what it names.
type Files struct {
	Dir, Config, Secrets, Audit, Socket string
}

// WriteFiles writes a secrets file (0600) in which every secret is the
// canary, and a config routing acme to a read and a write secret and
// everything else to a read-only fallback. The socket goes in socketDir
// ("" for the test's temporary directory).
func WriteFiles(t testing.TB, up *Upstream, socketDir string) Files {
	t.Helper()
	dir := t.TempDir()
	if socketDir == "" {
		socketDir = dir
	}
	f := Files{Dir: dir, Config: filepath.Join(dir, "broker.toml"), Secrets: filepath.Join(dir, "secrets.toml"),
		Audit: filepath.Join(dir, "audit.jsonl"), Socket: filepath.Join(socketDir, "b.sock")}
	v := up.Canary.Value
	body := fmt.Sprintf("%s = %q\n%s = %q\n%s = %q\n", SecretAcmeRead, v, SecretAcmeWrite, v, SecretFallback, v)
	if err := os.WriteFile(f.Secrets, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := fmt.Sprintf(`
[listen]
socket = %q

[github]
url = %q

[secrets]
file = %q

[[route]]
owner = "acme"
read = %q
write = %q

[[route]]
owner = "*"
read = %q

[tools]
toolsets = ["issues"]

[audit]
file = %q
`, f.Socket, up.URL, f.Secrets, SecretAcmeRead, SecretAcmeWrite, SecretFallback, f.Audit)
	if err := os.WriteFile(f.Config, []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	return f
}

// Options shape a test broker.
type Options struct {
	// Latency is added to every emulator request.
	Latency time.Duration
	// Plain serves the emulator without OpenAPI validation.
	Plain bool
	// SocketDir is where the socket goes (default: a temporary directory).
	SocketDir string
	// Grace is the broker's shutdown grace (default: the broker's).
	Grace time.Duration
	// Config is appended to the config file, e.g. a [limits] table.
	Config string
	// Tools, when set, replaces the body of the [tools] table (default:
	// toolsets = ["issues"]).
	Tools string
	// FleetRepos adds the fleet organization with that many repositories
	// to the emulator (emulator.Options.FleetRepos).
	FleetRepos int
	// MaxConcurrent is the emulator's limit on one credential's requests
	// in flight (emulator.Options.MaxConcurrent; 0: GitHub's 100).
	MaxConcurrent int
	// Gate, when set, stands in front of the emulator (served plain).
	Gate *Gate
}

// Daemon is a broker serving its socket in-process.
type Daemon struct {
	Files
	Up     *Upstream
	Canary *Canary
	Config *broker.Config
	Broker *broker.Broker
	Socket *broker.Socket
	Log    *SyncBuffer

	cancel context.CancelFunc
	served chan error
}

// Start assembles and serves a broker. When the test ends it stops, and
// its log and audit file are scanned for the canary along with everything
// else the Canary saw.
func Start(t testing.TB, o Options) *Daemon {
	t.Helper()
	up := startUpstream(t, o)
	files := WriteFiles(t, up, o.SocketDir)
	if o.Tools != "" {
		b, err := os.ReadFile(files.Config)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.Replace(b, []byte("[tools]\ntoolsets = [\"issues\"]\n"), []byte("[tools]\n"+o.Tools+"\n"), 1)
		if err := os.WriteFile(files.Config, b, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if o.Config != "" {
		f, err := os.OpenFile(files.Config, os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		_, err = f.WriteString("\n" + o.Config + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	c := up.Canary
	cfg, err := broker.LoadConfig(files.Config)
	if err != nil {
		t.Fatal(err)
	}
	logBuf := &SyncBuffer{}
	log := slog.New(slog.NewTextHandler(logBuf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	b, err := broker.New(cfg, broker.Options{Log: log, HTTPClient: up.Client, ShutdownGrace: o.Grace})
	if err != nil {
		c.Scan("broker.New's error", []byte(err.Error()))
		c.Check(t)
		t.Fatalf("broker.New: %v", err)
	}
	sock, err := broker.OpenSocket(cfg.Listen)
	if err != nil {
		t.Fatalf("OpenSocket: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &Daemon{Files: files, Up: up, Canary: c, Config: cfg, Broker: b, Socket: sock, Log: logBuf,
		cancel: cancel, served: make(chan error, 1)}
	go func() { d.served <- b.Serve(ctx, sock) }()
	t.Cleanup(func() {
		if o.Gate != nil {
			// The calls the gate holds end before the broker is stopped.
			o.Gate.Open()
		}
		if err := d.Stop(); err != nil {
			t.Errorf("stopping the broker: %v", err)
		}
		if err := b.Close(); err != nil {
			t.Errorf("closing the broker: %v", err)
		}
		c.Scan("the broker's log", []byte(logBuf.String()))
		ScanAuditFiles(t, c, files.Dir)
		c.Check(t)
		if t.Failed() {
			t.Logf("broker log:\n%s", logBuf.String())
		}
	})
	return d
}

// ScanAuditFiles scans every audit file in dir (rotated ones too).
func ScanAuditFiles(t testing.TB, c *Canary, dir string) {
	t.Helper()
	matches, _ := filepath.Glob(filepath.Join(dir, "audit.jsonl*"))
	for _, m := range matches {
		if data, err := os.ReadFile(m); err == nil {
			c.Scan("the audit log "+filepath.Base(m), data)
		}
	}
}

// Shutdown begins the broker's shutdown (as SIGTERM does) without waiting
// for it.
func (d *Daemon) Shutdown() { d.cancel() }

// Stop ends Serve (the first call does; later ones return nil), bounded in
// time.
func (d *Daemon) Stop() error {
	d.cancel()
	select {
	case err, ok := <-d.served:
		if ok {
			close(d.served)
		}
		return err
	case <-time.After(time.Minute):
		return fmt.Errorf("Serve did not return within a minute of the shutdown")
	}
}

// Connect opens an MCP session over the socket at path, scanning every
// frame for the canary.
func Connect(t testing.TB, c *Canary, path string) *mcp.ClientSession {
	t.Helper()
	conn, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	sc := &ScanConn{Conn: conn, In: c.Stream("frames from the broker"), Out: c.Stream("frames to the broker")}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "broker-test", Version: "0"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: sc, Writer: sc}, nil)
	if err != nil {
		t.Fatalf("MCP connect over the socket: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// Connect opens an MCP session over the daemon's socket.
func (d *Daemon) Connect(t testing.TB) *mcp.ClientSession {
	return Connect(t, d.Canary, d.Socket.Path())
}

// Call calls a tool and scans the error, if any, for the canary.
func Call(ctx context.Context, c *Canary, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		c.Scan("a call's error", []byte(err.Error()))
	}
	return res, err
}

// MustCall calls a tool that must succeed.
func MustCall(t testing.TB, c *Canary, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := Call(ctx, c, cs, tool, args)
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	if res.IsError {
		t.Fatalf("%s: error result: %s", tool, ResultText(res))
	}
	return res
}

// Call calls a tool through the daemon's canary.
func (d *Daemon) Call(ctx context.Context, cs *mcp.ClientSession, tool string, args map[string]any) (*mcp.CallToolResult, error) {
	return Call(ctx, d.Canary, cs, tool, args)
}

// MustCall calls a tool that must succeed.
func (d *Daemon) MustCall(t testing.TB, cs *mcp.ClientSession, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	return MustCall(t, d.Canary, cs, tool, args)
}

// ResultText joins a result's text blocks.
func ResultText(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// AuditLines reads an audit file, one decoded line each; a field the
// AuditLine type does not know fails the test.
func AuditLines(t testing.TB, path string) []broker.AuditLine {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading the audit log: %v", err)
	}
	var out []broker.AuditLine
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		if l == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(l))
		dec.DisallowUnknownFields()
		var a broker.AuditLine
		if err := dec.Decode(&a); err != nil {
			t.Fatalf("audit line %d %q: %v", i+1, l, err)
		}
		out = append(out, a)
	}
	return out
}

// CommentBodies reads an issue's comments as the emulator holds them.
func (u *Upstream) CommentBodies(t testing.TB, owner, repo string, number int) []string {
	t.Helper()
	return emulatortest.CommentBodies(t, u.Client, u.URL, owner+"/"+repo, number)
}
