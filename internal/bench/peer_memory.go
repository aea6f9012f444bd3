package bench

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// [DefaultPeerSessions] is how many HTTP sessions the memory burst opens at
// once on each server.
const (
	DefaultPeerSessions = 200
	MaxPeerSessions     = 1000
)

// burstOpeners is how many sessions the burst opens at a time: the burst
// is of sessions open together, not of handshakes in flight together (and
// GitHub refuses more than 100 concurrent requests of one token).
const burstOpeners = 16

// burstSettle is how long the burst waits after closing its sessions
// before reading the server's RSS again.
const burstSettle = 2 * time.Second

// MemoryFigures are one server's resident set sizes; zero where not
// measured.
type MemoryFigures struct {
	StdioIdle  RSS   // one stdio session, initialized, tools listed, no call made
	HTTPIdle   RSS   // the HTTP server before the burst, one session made and closed
	HTTPOpen   RSS   // with every burst session open
	HTTPClosed RSS   // burstSettle after they all closed
	Err        error // why the HTTP figures are missing
}

// RSS is a process's resident set size in bytes (VmRSS), and the part of
// it that is the process's own memory (RssAnon): the rest is pages of
// files, mostly the executable's, which the kernel shares between the
// processes running it and can drop and read again.
type RSS struct {
	Total, Anon int64
}

// vmRSS reads the resident set size of a process from /proc (Linux).
func vmRSS(pid int) (RSS, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return RSS{}, err
	}
	return parseVmRSS(string(b))
}

// parseVmRSS finds the VmRSS and RssAnon lines of a /proc/PID/status text
// ("VmRSS:  38512 kB") and returns them in bytes.
func parseVmRSS(status string) (RSS, error) {
	total, err := statusKB(status, "VmRSS:")
	if err != nil {
		return RSS{}, err
	}
	anon, err := statusKB(status, "RssAnon:")
	if err != nil {
		return RSS{}, err
	}
	return RSS{Total: total, Anon: anon}, nil
}

// statusKB reads the line of a /proc/PID/status text that starts with key,
// a number of kB, in bytes.
func statusKB(status, key string) (int64, error) {
	name := strings.TrimSuffix(key, ":")
	for line := range strings.Lines(status) {
		rest, ok := strings.CutPrefix(line, key)
		if !ok {
			continue
		}
		f := strings.Fields(rest)
		if len(f) != 2 || f[1] != "kB" {
			return 0, fmt.Errorf("%s line %q: want a number of kB", name, strings.TrimSpace(line))
		}
		kb, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, fmt.Errorf("%s line %q: %w", name, strings.TrimSpace(line), err)
		}
		return kb << 10, nil
	}
	return 0, fmt.Errorf("no %s line", name)
}

// httpServer is how to run one server in its streamable HTTP mode.
type httpServer struct {
	name string
	bin  string
	args func(addr string) []string
	env  []string
	// ready is a URL that answers 200 once the server listens; "" to wait
	// for the port only.
	ready func(addr string) string
	call  func(ctx context.Context, cs *mcp.ClientSession, f benchFixtures) error
	path  string // the MCP endpoint's path
	// auth: send the fixtures' HTTP token as a bearer token with each
	// request (GitHub's server takes the GitHub token per request).
	auth bool
}

// burst starts the server on a loopback port, opens sessions MCP sessions
// at once (each initialized, listing the tools and making one tool call), and reads the
// process's RSS before, with all open, and burstSettle after they close.
func burst(ctx context.Context, hs httpServer, dir string, f benchFixtures, sessions int) (m MemoryFigures, err error) {
	port, err := freePort()
	if err != nil {
		return m, err
	}
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	p, err := startProcEnv(hs.bin, dir, hs.args(addr), hs.env)
	if err != nil {
		return m, fmt.Errorf("%s: %w", hs.name, err)
	}
	defer p.stop()
	if hs.ready != nil {
		err = waitHTTPOK(ctx, hs.ready(addr))
	} else {
		err = waitTCP(ctx, addr)
	}
	if err != nil {
		return m, fmt.Errorf("%s: %w\n%s", hs.name, err, truncate(p.log.String(), 2000))
	}
	tr := &http.Transport{MaxIdleConnsPerHost: sessions}
	defer tr.CloseIdleConnections()
	header := http.Header{}
	if hs.auth {
		header.Set("Authorization", "Bearer "+f.httpToken)
	}
	client := &http.Client{Transport: headerTransport{base: tr, header: header}}
	endpoint := "http://" + addr + hs.path
	pid := p.cmd.Process.Pid

	// One session first, so the idle figure is of a server that has
	// served a call, as the stdio one has listed its tools.
	first, err := openSession(ctx, client, endpoint, hs, f)
	if err != nil {
		return m, fmt.Errorf("%s: %w\n%s", hs.name, err, truncate(p.log.String(), 2000))
	}
	_ = first.Close()
	time.Sleep(burstSettle)
	if m.HTTPIdle, err = vmRSS(pid); err != nil {
		return m, err
	}

	open := make([]*mcp.ClientSession, sessions)
	errs := make([]error, sessions)
	var wg sync.WaitGroup
	gate := make(chan struct{}, burstOpeners)
	for i := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			gate <- struct{}{}
			defer func() { <-gate }()
			open[i], errs[i] = openSession(ctx, client, endpoint, hs, f)
		}()
	}
	wg.Wait()
	closeAll := func() {
		var cw sync.WaitGroup
		for _, cs := range open {
			if cs != nil {
				cw.Add(1)
				go func() { defer cw.Done(); _ = cs.Close() }()
			}
		}
		cw.Wait()
	}
	if err := errors.Join(errs...); err != nil {
		closeAll()
		return m, fmt.Errorf("%s: opening %d sessions: %w", hs.name, sessions, firstErr(errs))
	}
	if m.HTTPOpen, err = vmRSS(pid); err != nil {
		closeAll()
		return m, err
	}
	closeAll()
	tr.CloseIdleConnections()
	time.Sleep(burstSettle)
	if m.HTTPClosed, err = vmRSS(pid); err != nil {
		return m, err
	}
	return m, nil
}

func firstErr(errs []error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// openSession connects, initializes, lists the tools and makes the
// server's one call.
func openSession(ctx context.Context, client *http.Client, endpoint string, hs httpServer, f benchFixtures) (*mcp.ClientSession, error) {
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ghgate-bench-burst", Version: "0"}, nil).
		Connect(cctx, &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: client, MaxRetries: -1}, nil)
	if err != nil {
		return nil, fmt.Errorf("connect: %w", err)
	}
	// An agent lists the tools before calling one; the client also needs
	// the list to send the headers a tool's schema asks for (Mcp-Param-*).
	for _, err := range cs.Tools(cctx, nil) {
		if err != nil {
			_ = cs.Close()
			return nil, fmt.Errorf("tools/list: %w", err)
		}
	}
	if err := hs.call(cctx, cs, f); err != nil {
		_ = cs.Close()
		return nil, err
	}
	return cs, nil
}

// headerTransport adds fixed headers to every request.
type headerTransport struct {
	base   http.RoundTripper
	header http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if len(t.header) == 0 {
		return t.base.RoundTrip(r)
	}
	r = r.Clone(r.Context())
	for k, v := range t.header {
		r.Header[k] = v
	}
	return t.base.RoundTrip(r)
}

// callTool makes one tool call and turns a tool error into an error.
func callTool(ctx context.Context, cs *mcp.ClientSession, tool string, a args) error {
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
	if err != nil {
		return fmt.Errorf("%s: %w", tool, err)
	}
	if res.IsError {
		var msg string
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				msg += t.Text
			}
		}
		return fmt.Errorf("%s: %s", tool, truncate(msg, 300))
	}
	return nil
}

// startProcEnv is startProc with exactly the environment given, plus PATH
// and HOME.
func startProcEnv(bin, dir string, args, env []string) (*proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	p := &proc{cmd: cmd, log: &syncBuf{}, done: make(chan struct{})}
	cmd.Stdout, cmd.Stderr = p.log, p.log
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}, env...)
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = cmd.Wait(); close(p.done) }()
	return p, nil
}

// ghgateHTTP and peerHTTP are the two servers' HTTP modes, both reaching
// GitHub through the counting proxy.
func ghgateHTTP(bin, proxyURL, dir string) httpServer {
	return httpServer{name: "ghgate", bin: bin,
		args: func(addr string) []string {
			return []string{"serve", "--http", addr, "--github-url", proxyURL, "--state", filepath.Join(dir, "burst.db")}
		},
		env:   []string{"GITHUB_TOKEN=" + emulator.DemoTokenAlice, "XDG_STATE_HOME=" + dir},
		ready: func(addr string) string { return "http://" + addr + "/healthz" },
		path:  "/mcp",
		call: func(ctx context.Context, cs *mcp.ClientSession, f benchFixtures) error {
			return callTool(ctx, cs, "github_get_issue", f.in(args{"issue_number": f.readAgain}))
		}}
}

func peerHTTP(bin, proxyURL, dir string) httpServer {
	return httpServer{name: "github-mcp-server", bin: bin,
		args: func(addr string) []string {
			host, port, _ := net.SplitHostPort(addr)
			return []string{"http", "--listen-host", host, "--port", port, "--log-file", filepath.Join(dir, "peer-http.log")}
		},
		env: []string{"GITHUB_HOST=" + peerHost, "HTTP_PROXY=" + proxyURL, "http_proxy=" + proxyURL},
		call: func(ctx context.Context, cs *mcp.ClientSession, f benchFixtures) error {
			return callTool(ctx, cs, "issue_read", f.in(args{"method": "get", "issue_number": f.readAgain}))
		},
		path: "/",
		auth: true}
}
