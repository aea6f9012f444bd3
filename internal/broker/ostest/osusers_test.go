// Package ostest checks the broker's OS-user boundary with real users and
// groups: the broker runs as its service user, an agent in the bridge group
// calls tools through `ghgate connect`, and neither the agent nor a user
// outside the group reaches the credentials. It needs root (to create users
// and switch to them) and skips loudly otherwise; CI runs it as root.
package ostest

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"github.com/ghgate/ghgate/internal/testutil"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// childEnv is all a child process gets: no token, nothing of the test's.
var childEnv = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}

func requireRoot(t *testing.T) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("SKIPPED: OS-user boundary tests need root; CI runs them as root")
	}
	for _, tool := range []string{"useradd", "userdel", "groupadd", "groupdel", "usermod", "gpasswd", "setpriv", "runuser", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Fatalf("running as root but %s is missing: %v", tool, err)
		}
	}
}

func randomHex(t *testing.T, n int) string {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// run runs a command as root, failing the test on error.
func run(t *testing.T, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = append(append([]string{}, childEnv...), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return string(out)
}

// asUser wraps a command so it runs as user with that user's groups, as a
// login would give them.
func asUser(user string, argv ...string) *exec.Cmd {
	args := append([]string{"--reuid=" + user, "--regid=" + user, "--init-groups", "--"}, argv...)
	cmd := exec.Command("setpriv", args...)
	cmd.Env = childEnv
	cmd.Dir = "/"
	return cmd
}

// addUser creates a plain account (own group, no home, no shell) that the
// test removes.
func addUser(t *testing.T, name string) {
	t.Helper()
	run(t, nil, "useradd", "--no-create-home", "--home-dir", "/nonexistent", "--shell", "/usr/sbin/nologin", "--user-group", name)
	removeAccount(t, name)
}

// removeAccount deletes a user and its group when the test ends, whoever
// created them. Errors are reported, not fatal: cleanup must go on.
func removeAccount(t *testing.T, user string, groups ...string) {
	t.Cleanup(func() {
		if out, err := exec.Command("userdel", user).CombinedOutput(); err != nil {
			t.Errorf("userdel %s: %v %s", user, err, out)
		}
		for _, g := range append([]string{user}, groups...) {
			if exec.Command("getent", "group", g).Run() == nil {
				if out, err := exec.Command("groupdel", g).CombinedOutput(); err != nil {
					t.Errorf("groupdel %s: %v %s", g, err, out)
				}
			}
		}
	})
}

// inGroup reports whether the group database puts user in group.
func inGroup(t *testing.T, user, group string) bool {
	t.Helper()
	for _, g := range strings.Fields(run(t, nil, "id", "-nG", user)) {
		if g == group {
			return true
		}
	}
	return false
}

func uidOf(t *testing.T, user string) int {
	t.Helper()
	out := strings.TrimSpace(run(t, nil, "id", "-u", user))
	n, err := strconv.Atoi(out)
	if err != nil {
		t.Fatalf("id -u %s: %q", user, out)
	}
	return n
}

// moduleRoot is the repository's root (for deploy/ and the build).
func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}

// leaks reports whether text holds a token or any 8-character piece of it.
func leaks(text string, tokens ...string) string {
	for _, tok := range tokens {
		for i := 0; i+8 <= len(tok); i++ {
			if strings.Contains(text, tok[i:i+8]) {
				return tok[i : i+8]
			}
		}
	}
	return ""
}

// deployment is a provisioned scratch root with a running broker.
type deployment struct {
	root, bin, config, secrets, socket, audit string
	svc, clients, agent, outsider             string
	brokerPID                                 int
	brokerErr                                 *testutil.SyncBuffer
	tokens                                    []string
	// emu is the GitHub the broker talks to.
	emu *emulator.Emulator
}

// setup shapes a provisioned deployment beyond the defaults.
type setup struct {
	// toolsets is the config's [tools] toolsets value (default ["issues"]).
	toolsets string
	// fleetRepos adds the emulator's fleet organization.
	fleetRepos int
	// gate stands in front of the emulator.
	gate *brokertest.Gate
}

func TestOSUserBoundary(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	d.startBroker(t)

	t.Run("broker runs as the service user", func(t *testing.T) {
		status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", d.brokerPID))
		if err != nil {
			t.Fatal(err)
		}
		want := fmt.Sprintf("Uid:\t%d\t%d\t%d\t%d", uidOf(t, d.svc), uidOf(t, d.svc), uidOf(t, d.svc), uidOf(t, d.svc))
		if !strings.Contains(string(status), want) {
			t.Fatalf("broker pid %d is not running as %s (%s):\n%s", d.brokerPID, d.svc, want, status)
		}
		fi, err := os.Stat(d.socket)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o660 {
			t.Errorf("socket mode %04o, want 0660", perm)
		}
		gid := fi.Sys().(*syscall.Stat_t).Gid
		if g := strings.TrimSpace(run(t, nil, "getent", "group", d.clients)); !strings.Contains(g, fmt.Sprintf(":%d:", gid)) {
			t.Errorf("socket group %d is not %s (%s)", gid, d.clients, g)
		}
	})

	t.Run("agent in the bridge group calls tools through connect", func(t *testing.T) {
		d.agentSession(t)
	})

	t.Run("agent cannot read the secrets file", func(t *testing.T) {
		// Twice: as provisioned (/etc/ghgate is 0750 root:service), and
		// with the directory opened, so the file's own 0600 is what refuses.
		dir := filepath.Dir(d.secrets)
		for _, dirMode := range []string{"0750", "0755"} {
			run(t, nil, "chmod", dirMode, dir)
			out, err := exec.Command("runuser", "-u", d.agent, "--", "cat", d.secrets).CombinedOutput()
			if err == nil {
				t.Errorf("directory %s: runuser -u %s -- cat %s: exit status 0, want permission denied; output %q", dirMode, d.agent, d.secrets, out)
			}
			if !strings.Contains(string(out), "Permission denied") {
				t.Errorf("directory %s: runuser -u %s -- cat %s: output = %q, want one saying Permission denied", dirMode, d.agent, d.secrets, out)
			}
			if l := leaks(string(out), d.tokens...); l != "" {
				t.Errorf("the output holds a token piece %q", l)
			}
		}
		run(t, nil, "chmod", "0750", dir)
	})

	t.Run("agent cannot read the broker's environment", func(t *testing.T) {
		environ := fmt.Sprintf("/proc/%d/environ", d.brokerPID)
		out, err := exec.Command("runuser", "-u", d.agent, "--", "cat", environ).CombinedOutput()
		if err == nil {
			t.Fatalf("runuser -u %s -- cat %s: exit status 0, want permission denied; output %q", d.agent, environ, out)
		}
		if !strings.Contains(string(out), "Permission denied") {
			t.Fatalf("runuser -u %s -- cat %s: output = %q, want one saying Permission denied", d.agent, environ, out)
		}
		// The same read as root works, so the refusal is the boundary, not
		// a missing process.
		if _, err := os.ReadFile(environ); err != nil {
			t.Fatalf("root cannot read %s either: %v", environ, err)
		}
	})

	t.Run("a user outside the bridge group cannot connect", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cmd := asUser(d.outsider, d.bin, "connect", "--socket", d.socket)
		cmd = exec.CommandContext(ctx, cmd.Path, cmd.Args[1:]...)
		cmd.Env, cmd.Dir = childEnv, "/"
		cmd.Stdin = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"0"}}}` + "\n")
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if err == nil {
			t.Fatalf("connect as %s succeeded; stdout %q", d.outsider, stdout.String())
		}
		if !strings.Contains(strings.ToLower(stderr.String()), "permission denied") {
			t.Fatalf("connect as %s: %v, stderr %q; want permission denied", d.outsider, err, stderr.String())
		}
		if stdout.Len() != 0 {
			t.Fatalf("connect as %s wrote to stdout: %q", d.outsider, stdout.String())
		}
	})

	t.Run("doctor passes the setup and fails its breaches", func(t *testing.T) {
		d.doctor(t)
	})

	t.Run("no token in the broker's logs or the audit log", func(t *testing.T) {
		audit, err := os.ReadFile(d.audit)
		if err != nil {
			t.Fatal(err)
		}
		for name, text := range map[string]string{"broker stderr": d.brokerErr.String(), "audit log": string(audit)} {
			if l := leaks(text, d.tokens...); l != "" {
				t.Errorf("%s holds a token piece %q", name, l)
			}
		}
	})
}

// provision runs deploy/provision.sh for real accounts (unique names) into
// a scratch root, adds the agent, and lays out the broker's config.
func provision(t *testing.T) *deployment {
	t.Helper()
	return provisionWith(t, setup{})
}

// provisionWith is provision with the emulator and tools su describes.
func provisionWith(t *testing.T, su setup) *deployment {
	t.Helper()
	if su.toolsets == "" {
		su.toolsets = `["issues"]`
	}
	suffix := randomHex(t, 4)
	d := &deployment{svc: "ggsvc" + suffix, clients: "ggcli" + suffix, agent: "ggagt" + suffix, outsider: "ggout" + suffix}
	root, err := os.MkdirTemp("", "ghgate-osusers-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	// The service user and the agent must be able to reach the scratch root.
	if err := os.Chmod(root, 0o755); err != nil {
		t.Fatal(err)
	}
	d.root = root

	// Accounts are removed last (cleanups run in reverse): the broker,
	// stopped by a later cleanup, must be gone before userdel.
	removeAccount(t, d.svc, d.clients)
	addUser(t, d.agent)
	addUser(t, d.outsider)

	repo := moduleRoot(t)
	env := []string{"GHGATE_ROOT=" + root, "GHGATE_USER=" + d.svc, "GHGATE_CLIENTS_GROUP=" + d.clients}
	script := filepath.Join(repo, "deploy", "provision.sh")
	run(t, env, "bash", script)
	checkProvisioned(t, d)
	// Idempotent: a second run creates nothing and keeps the modes.
	if out := run(t, env, "bash", script); strings.Contains(out, "created") {
		t.Errorf("second provision run created something:\n%s", out)
	}
	checkProvisioned(t, d)
	run(t, env, "bash", script, "--agent-user", d.agent)
	if out := run(t, env, "bash", script, "--agent-user", d.agent); !strings.Contains(out, "already") {
		t.Errorf("second --agent-user run: output lacks \"already\":\n%s", out)
	}
	if !inGroup(t, d.agent, d.clients) {
		t.Fatalf("%s's groups after --agent-user = %s, want %s among them", d.agent, run(t, nil, "id", "-nG", d.agent), d.clients)
	}
	if inGroup(t, d.agent, d.svc) {
		t.Fatalf("%s's groups after --agent-user = %s, want no %s", d.agent, run(t, nil, "id", "-nG", d.agent), d.svc)
	}

	d.bin = filepath.Join(root, "usr", "local", "bin", "ghgate")
	build := exec.Command("go", "build", "-o", d.bin, "./cmd/ghgate")
	build.Dir = repo
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, dir := range []string{"usr", "usr/local", "usr/local/bin"} {
		if err := os.Chmod(filepath.Join(root, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}

	// The emulator on loopback, with tokens only this test knows.
	emu, err := emulator.New(emulator.Options{FleetRepos: su.fleetRepos})
	if err != nil {
		t.Fatal(err)
	}
	d.emu = emu
	var h http.Handler = emu
	if su.gate != nil {
		h = su.gate.Wrap(emu)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	if su.gate != nil {
		// Held answers go before the server closes, which waits for them
		// (cleanups run last first).
		t.Cleanup(su.gate.Open)
	}
	readTok, writeTok := "ghp_osr"+randomHex(t, 16), "ghp_osw"+randomHex(t, 16)
	d.tokens = []string{readTok, writeTok}
	st := emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: readTok, Login: "carol", Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermRead}})
	st.AddToken(&emulator.Token{Value: writeTok, Login: "bob", Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermWrite}})
	st.Unlock()

	// A socket directory the service user owns, as RuntimeDirectory= makes.
	runDir := filepath.Join(root, "run", "ghgate")
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.Chmod(filepath.Join(root, "run"), 0o755)
	run(t, nil, "chown", d.svc+":"+d.svc, runDir)
	d.socket = filepath.Join(runDir, "ghgate.sock")
	d.audit = filepath.Join(root, "var", "log", "ghgate", "audit.jsonl")

	// The secrets file: the service user's own, 0600.
	d.secrets = filepath.Join(root, "etc", "ghgate", "secrets.toml")
	if err := os.WriteFile(d.secrets, []byte(fmt.Sprintf("osread = %q\noswrite = %q\n", readTok, writeTok)), 0o600); err != nil {
		t.Fatal(err)
	}
	run(t, nil, "chown", d.svc+":"+d.svc, d.secrets)
	run(t, nil, "chmod", "0600", d.secrets)

	// The config provision.sh installed (root:svc 0640) gets this setup.
	d.config = filepath.Join(root, "etc", "ghgate", "broker.toml")
	cfg := fmt.Sprintf(`[listen]
socket = %q
group = %q
mode = "0660"

[github]
url = %q

[secrets]
file = %q

[[route]]
owner = "*"
read = "osread"
write = "oswrite"

[tools]
toolsets = %s

[audit]
file = %q
`, d.socket, d.clients, srv.URL, d.secrets, su.toolsets, d.audit)
	if err := os.WriteFile(d.config, []byte(cfg), 0o640); err != nil {
		t.Fatal(err)
	}
	return d
}

// checkProvisioned checks what provision.sh made, by real stat and getent.
func checkProvisioned(t *testing.T, d *deployment) {
	t.Helper()
	passwd := strings.Split(strings.TrimSpace(run(t, nil, "getent", "passwd", d.svc)), ":")
	if len(passwd) != 7 {
		t.Errorf("service user %s: passwd entry %v has %d fields, want 7", d.svc, passwd, len(passwd))
	} else if shell := passwd[6]; !strings.HasSuffix(shell, "nologin") && !strings.HasSuffix(shell, "false") {
		t.Errorf("service user %s: shell = %q, want no login shell (nologin or false)", d.svc, shell)
	}
	if len(passwd) == 7 {
		if _, err := os.Stat(passwd[5]); err == nil {
			t.Errorf("service user %s has a home directory %s", d.svc, passwd[5])
		}
		if uid, _ := strconv.Atoi(passwd[2]); uid == 0 || uid >= 1000 {
			t.Errorf("service user %s: uid = %d, want a system uid (1..999)", d.svc, uid)
		}
	}
	if !inGroup(t, d.svc, d.clients) {
		t.Errorf("%s is not in %s", d.svc, d.clients)
	}
	svcUID, clientsOut := uidOf(t, d.svc), run(t, nil, "getent", "group", d.svc)
	svcGID, _ := strconv.Atoi(strings.Split(clientsOut, ":")[2])
	for _, c := range []struct {
		rel      string
		mode     os.FileMode
		uid, gid int
	}{
		{"etc/ghgate", 0o750, 0, svcGID},
		{"etc/ghgate/broker.toml", 0o640, 0, svcGID},
		{"etc/ghgate/secrets.toml", 0o640, 0, svcGID},
		{"etc/credstore", 0o700, 0, 0},
		{"var/lib/ghgate", 0o750, svcUID, svcGID},
		{"var/log/ghgate", 0o750, svcUID, svcGID},
		{"etc/systemd/system/ghgate-broker.service", 0o644, 0, 0},
	} {
		fi, err := os.Stat(filepath.Join(d.root, c.rel))
		if err != nil {
			t.Errorf("%s: %v", c.rel, err)
			continue
		}
		st := fi.Sys().(*syscall.Stat_t)
		if fi.Mode().Perm() != c.mode {
			t.Errorf("%s: mode = %04o, want %04o", c.rel, fi.Mode().Perm(), c.mode)
		}
		if int(st.Uid) != c.uid {
			t.Errorf("%s: owner uid = %d, want %d", c.rel, st.Uid, c.uid)
		}
		if int(st.Gid) != c.gid {
			t.Errorf("%s: group gid = %d, want %d", c.rel, st.Gid, c.gid)
		}
	}
	unit, err := os.ReadFile(filepath.Join(d.root, "etc/systemd/system/ghgate-broker.service"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"User=" + d.svc + "\n", "Group=" + d.svc + "\n", "SupplementaryGroups=" + d.clients + "\n"} {
		if !strings.Contains(string(unit), want) {
			t.Errorf("installed unit lacks %q", want)
		}
	}
}

// startBroker runs `ghgate broker` as the service user until the test
// ends, with extra setpriv flags (capabilities) when given.
func (d *deployment) startBroker(t *testing.T, setpriv ...string) {
	t.Helper()
	args := append([]string{"--reuid=" + d.svc, "--regid=" + d.svc, "--init-groups"}, setpriv...)
	cmd := exec.Command("setpriv", append(args, "--", d.bin, "broker", "--config", d.config)...)
	cmd.Env, cmd.Dir = childEnv, "/"
	d.brokerErr = &testutil.SyncBuffer{}
	cmd.Stdout, cmd.Stderr = d.brokerErr, d.brokerErr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// setpriv execs the broker, so this pid is the broker's.
	d.brokerPID = cmd.Process.Pid
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
			t.Errorf("the broker did not stop on SIGTERM within 20s")
		}
	})
	deadline := time.Now().Add(30 * time.Second)
	for {
		if fi, err := os.Stat(d.socket); err == nil && fi.Mode().Type() == os.ModeSocket {
			return
		}
		select {
		case err := <-exited:
			t.Fatalf("the broker exited before listening: %v\n%s", err, d.brokerErr.String())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("no socket at %s after 30s; broker output:\n%s", d.socket, d.brokerErr.String())
		}
	}
}

// agentSession runs the agent's MCP client over `ghgate connect` as the
// agent user: a read and a write, each with its route's credential.
func (d *deployment) agentSession(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := asUser(d.agent, d.bin, "connect", "--socket", d.socket)
	var stderr testutil.SyncBuffer
	cmd.Stderr = &stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "osusers-test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect as %s: %v\nconnect stderr:\n%s\nbroker:\n%s", d.agent, err, stderr.String(), d.brokerErr.String())
	}
	var frames []string
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	if len(tools.Tools) == 0 {
		t.Fatal("tools/list: no tools")
	}
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}},
		{"github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "body": "from the OS-user boundary test"}},
	}
	for _, c := range calls {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
		if err != nil {
			t.Fatalf("%s: %v", c.tool, err)
		}
		raw, _ := json.Marshal(res)
		frames = append(frames, string(raw))
		if res.IsError {
			t.Fatalf("%s failed: %s", c.tool, raw)
		}
	}
	if err := cs.Close(); err != nil {
		t.Logf("closing the session: %v", err)
	}
	all := strings.Join(frames, "\n") + stderr.String()
	if l := leaks(all, d.tokens...); l != "" {
		t.Fatalf("the agent saw a token piece %q", l)
	}

	// The audit log attributes both calls to the agent's uid and names
	// each credential by its secret name.
	agentUID := uidOf(t, d.agent)
	want := map[string]string{"github_get_issue": "osread", "github_add_comment": "oswrite"}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := auditCredentials(t, d.audit, agentUID)
		ok := true
		for tool, cred := range want {
			if got[tool] != cred {
				ok = false
			}
		}
		if ok {
			return
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(d.audit)
			t.Fatalf("audit lines for uid %d: %v, want %v\n%s", agentUID, got, want, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// auditCredentials maps tool → credential name for uid's audit lines.
func auditCredentials(t *testing.T, path string, uid int) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	out := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Client     *int   `json:"client"`
			Tool       string `json:"tool"`
			Credential string `json:"credential"`
			Outcome    string `json:"outcome"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Client == nil || *rec.Client != uid {
			continue
		}
		out[rec.Tool] = rec.Credential
	}
	return out
}

// doctor runs `ghgate doctor` (as root, as an operator would) against the
// live setup, then breaks one gate at a time.
func (d *deployment) doctor(t *testing.T) {
	t.Helper()
	runDoctor := func(agent string) (string, error) {
		cmd := exec.Command(d.bin, "doctor", "--config", d.config, "--service-user", d.svc, "--agent-user", agent)
		cmd.Env = childEnv
		out, err := cmd.CombinedOutput()
		if l := leaks(string(out), d.tokens...); l != "" {
			t.Fatalf("doctor printed a token piece %q", l)
		}
		return string(out), err
	}
	verdict := func(out, gate string) string {
		for _, line := range strings.Split(out, "\n") {
			f := strings.Fields(line)
			if len(f) > 1 && strings.HasPrefix(strings.TrimSpace(line[len(f[0]):]), gate+"  ") {
				return f[0]
			}
		}
		return ""
	}
	// wantDoctorFail checks that doctor exited with an error and failed the gate.
	wantDoctorFail := func(what, out string, err error, gate string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: exit status 0, want a failure\n%s", what, out)
		}
		if got := verdict(out, gate); got != "FAIL" {
			t.Errorf("%s: gate %q = %q, want FAIL\n%s", what, gate, got, out)
		}
	}

	out, err := runDoctor(d.agent)
	if err != nil {
		t.Fatalf("doctor on the sound setup: %v\n%s", err, out)
	}
	if strings.Contains(out, "FAIL") {
		t.Fatalf("doctor on the sound setup reports a FAIL, want none:\n%s", out)
	}
	t.Logf("ghgate doctor on the sound setup:\n%s", out)
	for _, gate := range []string{"config file", "service user", "bridge group", "secrets file", "secrets directory", "route secrets",
		"socket", "agent user", "agent in bridge group", "agent not in service group", "agent cannot read secrets",
		"agent can reach socket", "agent without passwordless sudo", "agent without root-equivalent groups"} {
		if v := verdict(out, gate); v != "PASS" {
			t.Errorf("gate %q: %q, want PASS\n%s", gate, v, out)
		}
	}

	// The outsider is not in the bridge group.
	out, err = runDoctor(d.outsider)
	wantDoctorFail(fmt.Sprintf("doctor --agent-user %s", d.outsider), out, err, "agent in bridge group")

	// The agent joins the service user's group: it could read the secrets.
	run(t, nil, "usermod", "-a", "-G", d.svc, d.agent)
	out, err = runDoctor(d.agent)
	run(t, nil, "gpasswd", "-d", d.agent, d.svc)
	wantDoctorFail(fmt.Sprintf("doctor with %s in %s", d.agent, d.svc), out, err, "agent not in service group")

	// A world-readable secrets file fails its gate.
	run(t, nil, "chmod", "0644", d.secrets)
	out, err = runDoctor(d.agent)
	run(t, nil, "chmod", "0600", d.secrets)
	wantDoctorFail("doctor with a 0644 secrets file", out, err, "secrets file")
}
