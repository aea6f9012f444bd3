package peers

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What the scripted peer sessions share: each runs a real GitHub client
// against a fresh `ghgate emulator` on 127.0.0.1:80, inside private
// network, mount and PID namespaces (loopback up, a private /etc/hosts),
// because the clients reach a local API only on port 80 of a fixed name.
// The test binary re-executes itself inside the namespaces, where TestMain
// hands it to the named session; the session writes a JSON record of what
// the client did, and the test outside judges it against what GitHub would
// answer and against the session's expected-failures list, which only
// shrinks.

const (
	// Set only in the copy of the test binary that runs inside the
	// namespaces: which session it runs, and the file the records go to.
	envSession = "GHGATE_PEERS_SESSION"
	envInside  = "GHGATE_PEERS_SESSION_OUT"
	envGhgate  = "GHGATE_PEERS_GHGATE"
	// Bounds: the emulator's start and a whole session. The box is small
	// and may be busy, so they are generous; a hang still ends.
	startTimeout   = 30 * time.Second
	sessionTimeout = 15 * time.Minute
	// The emulator's address inside the namespaces.
	emulatorAddr = "127.0.0.1:80"
)

// insideSessions are the sessions a copy inside the namespaces can run:
// each gets a scratch directory and returns its records.
var insideSessions = map[string]func(work string) (any, error){
	"gh":           runGhSession,
	"mcp":          runMCPSession,
	"mcp-projects": runMCPProjectsSession,
}

func TestMain(m *testing.M) {
	if out := os.Getenv(envInside); out != "" {
		kind := os.Getenv(envSession)
		if err := runInside(kind, out); err != nil {
			fmt.Fprintf(os.Stderr, "%s session: %v\n", kind, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// needNamespaces skips a session when it cannot create namespaces and fails
// it when the tools to set them up are missing.
func needNamespaces(t *testing.T, client string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skipf("needs root: %s reaches a local API only on port 80, so the session runs in private network and mount namespaces (unshare --net --mount), which only root can create", client)
	}
	for _, tool := range []string{"unshare", "ip"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("%s is missing (Debian: unshare is in util-linux, ip in iproute2): %v", tool, err)
		}
	}
}

// readExpected reads an expected-failures list, "<name> <reason>" a line,
// and fails the test for a name the session does not have.
func readExpected(t *testing.T, file string, known map[string]bool) map[string]string {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for i, raw := range strings.Split(string(data), "\n") {
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, reason, ok := strings.Cut(line, " ")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s:%d: %q, want \"<name> <reason>\"", file, i+1, line)
		}
		if _, dup := out[name]; dup {
			t.Fatalf("%s:%d: %s is listed twice", file, i+1, name)
		}
		if !known[name] {
			t.Errorf("%s: %s lists it, but the session has no such case: remove it", name, file)
		}
		out[name] = reason
	}
	return out
}

// outcome is one case's verdict: reason is "" when it behaved as on GitHub.
type outcome struct {
	name   string
	what   string // the call, for the log
	reason string
	detail string // more of what the client got, for an unexpected failure
}

// judge compares the outcomes with the expected-failures list: a listed
// case that now behaves, or an unlisted one that fails, fails the test. It
// returns how many behaved and how many failed as listed.
func judge(t *testing.T, file string, expected map[string]string, outcomes []outcome) (passed, listed int) {
	t.Helper()
	var suggest []string
	for _, o := range outcomes {
		_, isListed := expected[o.name]
		switch {
		case o.reason == "" && isListed:
			t.Errorf("%s: behaves as on GitHub now (%s): remove it from %s", o.name, o.what, file)
		case o.reason == "":
			passed++
			t.Logf("ok      %-28s %s", o.name, o.what)
		case isListed:
			listed++
			t.Logf("listed  %-28s %s: %s", o.name, o.what, o.reason)
		default:
			t.Errorf("%s: unexpected failure: %s\n  %s\n%s", o.name, o.reason, o.what, o.detail)
			suggest = append(suggest, o.name+" "+clip(o.reason, 200))
		}
	}
	if len(suggest) > 0 {
		t.Logf("lines for %s, if these failures are the emulator's and expected:\n%s", file, strings.Join(suggest, "\n"))
	}
	return passed, listed
}

// peerBinary returns bin/<name>, built by `make peers`; when it is missing
// the test builds it (several minutes on a small machine, once).
func peerBinary(t *testing.T, name, pkg string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("bin", name))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	t.Logf("%s is missing: building %s (make peers does this ahead)", path, pkg)
	goBuild(t, ".", path, pkg)
	return path
}

// ghgateBinary returns $GHGATE_BIN when set (the Makefile's build), or
// builds ghgate from the repository this module sits in.
func ghgateBinary(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("GHGATE_BIN"); p != "" {
		return p
	}
	path := filepath.Join(t.TempDir(), "ghgate")
	goBuild(t, filepath.Join("..", ".."), path, "./cmd/ghgate")
	return path
}

func goBuild(t *testing.T, dir, out, pkg string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", "build", "-o", out, pkg)
	cmd.Dir = dir
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build %s (in %s): %v\n%s", pkg, dir, err, b)
	}
}

// runInNamespaces runs this test binary again inside new network, mount and
// PID namespaces, where TestMain hands it to the session named kind (env
// passes it the client's binary), and decodes the records it wrote into
// recs. The PID namespace makes the copy its init: when it ends, for
// whatever reason, the kernel ends the emulator and any client still
// running; --kill-child ends the copy when unshare itself is killed by the
// session's deadline. It returns the emulator's log.
func runInNamespaces(t *testing.T, kind string, recs any, env ...string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	results := filepath.Join(t.TempDir(), "records.json")
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "unshare", "--net", "--mount", "--pid", "--fork", "--kill-child", self, "-test.run=^$")
	cmd.Env = append(os.Environ(), envSession+"="+kind, envInside+"="+results, envGhgate+"="+ghgateBinary(t))
	cmd.Env = append(cmd.Env, env...)
	cmd.WaitDelay = 10 * time.Second
	out, err := cmd.CombinedOutput()
	emuLog, _ := os.ReadFile(results + ".emulator.log")
	if err != nil {
		t.Fatalf("the session in its namespaces failed: %v\n%s\nemulator log, last lines:\n%s", err, out, tail(string(emuLog), 30))
	}
	data, err := os.ReadFile(results)
	if err != nil {
		t.Fatalf("the session wrote no records: %v\n%s", err, out)
	}
	if err := json.Unmarshal(data, recs); err != nil {
		t.Fatal(err)
	}
	return string(emuLog)
}

// runInside runs inside the namespaces: it sets up loopback and the hosts
// file, starts the emulator on port 80, runs the session and writes its
// records to out.
func runInside(kind, out string) error {
	session, ok := insideSessions[kind]
	if !ok {
		return fmt.Errorf("no session %q", kind)
	}
	ghgate := os.Getenv(envGhgate)
	if ghgate == "" {
		return errors.New(envGhgate + " must name the ghgate binary")
	}
	work, err := os.MkdirTemp("", "ghgate-"+kind+"-session-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)

	if b, err := exec.Command("ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		return fmt.Errorf("ip link set lo up: %v: %s", err, b)
	}
	// The mount namespace is private (unshare's default propagation), so
	// this hosts file is seen only by the session. gh needs the names;
	// GitHub's MCP server is given the address.
	hosts := filepath.Join(work, "hosts")
	if err := os.WriteFile(hosts, []byte("127.0.0.1 localhost github.localhost api.github.localhost uploads.github.localhost\n::1 localhost\n"), 0o644); err != nil {
		return err
	}
	if err := syscall.Mount(hosts, "/etc/hosts", "", syscall.MS_BIND, ""); err != nil {
		return fmt.Errorf("bind-mount %s on /etc/hosts: %w", hosts, err)
	}

	logFile, err := os.Create(out + ".emulator.log")
	if err != nil {
		return err
	}
	defer logFile.Close()
	emu := exec.Command(ghgate, "emulator", "--listen", emulatorAddr)
	emu.Stdout, emu.Stderr = logFile, logFile
	if err := emu.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- emu.Wait() }()
	defer func() {
		_ = emu.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = emu.Process.Kill()
		}
	}()
	if err := waitForPort(emulatorAddr, exited); err != nil {
		return err
	}

	recs, err := session(work)
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(recs, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}

func waitForPort(addr string, exited <-chan error) error {
	deadline := time.Now().Add(startTimeout)
	for time.Now().Before(deadline) {
		select {
		case err := <-exited:
			return fmt.Errorf("the emulator exited before listening: %v", err)
		default:
		}
		if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return fmt.Errorf("the emulator did not listen on %s within %s", addr, startTimeout)
}

func lines(s string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(s))
	sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	for sc.Scan() {
		out = append(out, sc.Text())
	}
	return out
}

func tail(s string, n int) string {
	ls := lines(s)
	if len(ls) > n {
		ls = ls[len(ls)-n:]
	}
	return strings.Join(ls, "\n")
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
