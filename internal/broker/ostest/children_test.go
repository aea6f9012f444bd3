package ostest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/ostest/spyreport"
	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The upstream children's boundary: a broker run as its service user with
// CAP_SETUID and CAP_SETGID (as the unit drop-in gives them) fronts the spy
// upstream (./spy) with `user` and `write_user`, and what each child can
// reach is asked of the child itself.

// switchCaps are the setpriv flags that give the service user the two
// capabilities as ambient ones, as AmbientCapabilities= does.
var switchCaps = []string{"--inh-caps=+setuid,+setgid", "--ambient-caps=+setuid,+setgid"}

const spyTokenEnv = "SPY_TOKEN"

// childSetup is a provisioned deployment with the spy installed and two
// child users: reader for the read children, writer for the write ones.
type childSetup struct {
	*deployment
	spy, reader, writer string
	// baseConfig is the provisioned config without an [[upstream]].
	baseConfig string
}

func provisionChildren(t *testing.T) *childSetup {
	t.Helper()
	d := provision(t)
	suffix := randomHex(t, 4)
	c := &childSetup{deployment: d, reader: "ggrd" + suffix, writer: "ggwr" + suffix}
	addUser(t, c.reader)
	addUser(t, c.writer)

	c.spy = filepath.Join(d.root, "usr", "local", "bin", "spy")
	build := exec.Command("go", "build", "-o", c.spy, "./internal/broker/ostest/spy")
	build.Dir = moduleRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build spy: %v\n%s", err, out)
	}
	if err := os.Chmod(c.spy, 0o755); err != nil {
		t.Fatal(err)
	}
	// Open the config directory, so the secrets file's own owner, group and
	// mode are what must keep a child out.
	if err := os.Chmod(filepath.Dir(d.secrets), 0o755); err != nil {
		t.Fatal(err)
	}
	base, err := os.ReadFile(d.config)
	if err != nil {
		t.Fatal(err)
	}
	c.baseConfig = string(base)
	return c
}

// writeConfig replaces the broker's config with the base one plus an
// [[upstream]] for the spy running as user and writeUser ("" omits the key).
func (c *childSetup) writeConfig(t *testing.T, user, writeUser string) {
	t.Helper()
	up := fmt.Sprintf(`
[[upstream]]
name = "spy"
command = [%q, "-token-env", %q, "-secrets", %q]
token_env = %q
allow = [{ tool = "spy_probe_read", mode = "read" }, { tool = "spy_probe_write", mode = "write" }]
`, c.spy, spyTokenEnv, c.secrets, spyTokenEnv)
	if user != "" {
		up += fmt.Sprintf("user = %q\n", user)
	}
	if writeUser != "" {
		up += fmt.Sprintf("write_user = %q\n", writeUser)
	}
	// The file keeps provision.sh's root:service 0640.
	if err := os.WriteFile(c.config, []byte(c.baseConfig+up), 0o640); err != nil {
		t.Fatal(err)
	}
}

// brokerCmd is `ghgate broker` as the service user with its groups, and
// with extra setpriv flags (the capabilities) when given.
func (c *childSetup) brokerCmd(ctx context.Context, setpriv ...string) *exec.Cmd {
	args := append([]string{"--reuid=" + c.svc, "--regid=" + c.svc, "--init-groups"}, setpriv...)
	args = append(args, "--", c.bin, "broker", "--config", c.config)
	cmd := exec.CommandContext(ctx, "setpriv", args...)
	cmd.Env, cmd.Dir = childEnv, "/"
	return cmd
}

// refusal runs the broker, which must refuse to start; it returns what it
// said.
func (c *childSetup) refusal(t *testing.T, setpriv ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	out, err := c.brokerCmd(ctx, setpriv...).CombinedOutput()
	if l := leaks(string(out), c.tokens...); l != "" {
		t.Errorf("the broker's output holds a token piece %q", l)
	}
	if err == nil {
		t.Fatalf("the broker exited 0, want a refusal to start:\n%s", out)
	}
	if ctx.Err() != nil {
		t.Fatalf("the broker ran until the deadline (%v), want a refusal to start:\n%s", ctx.Err(), out)
	}
	return string(out)
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func gidOf(t *testing.T, user string) int {
	t.Helper()
	out := strings.TrimSpace(run(t, nil, "id", "-g", user))
	n, err := strconv.Atoi(out)
	if err != nil {
		t.Fatalf("id -g %s: %q", user, out)
	}
	return n
}

// spyProbe runs the spy's one-shot probe of pid's /proc entries as user
// (root when user is "").
func (c *childSetup) spyProbe(t *testing.T, user string, pid int) spyreport.Report {
	t.Helper()
	argv := []string{c.spy, "-probe", "-pid", strconv.Itoa(pid), "-secrets", c.secrets}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env, cmd.Dir = childEnv, "/"
	if user != "" {
		cmd = asUser(user, argv...)
	}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("spy -probe as %q: %v", user, err)
	}
	var r spyreport.Report
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("spy -probe: %v\n%s", err, out)
	}
	return r
}

func TestUpstreamChildIsolation(t *testing.T) {
	requireRoot(t)
	c := provisionChildren(t)
	c.writeConfig(t, c.reader, c.writer)
	c.startBroker(t, switchCaps...)
	readTok, writeTok := c.tokens[0], c.tokens[1]

	session := c.agentSpySession(t)
	call := session.call
	// The read child lists the tools at start; the write child starts on
	// the first write. Each then tries the other's environment.
	read := call("spy_probe_read", 0)
	write := call("spy_probe_write", read.PID)
	readAgain := call("spy_probe_read", write.PID)
	t.Logf("read child: %+v", read)
	t.Logf("write child: %+v", write)

	children := []struct {
		name      string
		r         spyreport.Report
		user      string
		token     string
		sibling   spyreport.Access
		siblingOf string
	}{
		{"read child", readAgain, c.reader, readTok, readAgain.SiblingEnviron, "the write child"},
		{"write child", write, c.writer, writeTok, write.SiblingEnviron, "the read child"},
	}

	t.Run("each child runs as its user, with no other group and no capability", func(t *testing.T) {
		if read.PID != readAgain.PID {
			t.Fatalf("read child pid = %d then %d, want one read child", read.PID, readAgain.PID)
		}
		if read.PID == write.PID {
			t.Fatalf("write child pid = %d, the read child's; want another child", write.PID)
		}
		for _, ch := range children {
			uid, gid := uidOf(t, ch.user), gidOf(t, ch.user)
			got := [4]int{int(ch.r.UID), int(ch.r.EUID), int(ch.r.GID), int(ch.r.EGID)}
			if want := [4]int{int(uid), int(uid), int(gid), int(gid)}; got != want {
				t.Errorf("%s: uid/euid/gid/egid = %v, want %v (%s)", ch.name, got, want, ch.user)
			}
			if len(ch.r.Groups) != 0 {
				t.Errorf("%s: supplementary groups %v, want none", ch.name, ch.r.Groups)
			}
			for _, set := range []string{"CapInh", "CapPrm", "CapEff", "CapAmb"} {
				if v := ch.r.Caps[set]; v != "0000000000000000" {
					t.Errorf("%s: %s = %q, want none (the broker's CAP_SETUID must not reach it)", ch.name, set, v)
				}
			}
			if ch.r.PPID != c.brokerPID {
				t.Errorf("%s: parent %d, want the broker %d", ch.name, ch.r.PPID, c.brokerPID)
			}
		}
	})

	t.Run("children cannot read the broker's memory or environment", func(t *testing.T) {
		for _, ch := range children {
			refusedBroker(t, ch.name, ch.r)
		}
		// The same probe as root works: the refusals are the boundary.
		root := c.spyProbe(t, "", c.brokerPID)
		wantRootReads(t, root)
	})

	t.Run("children cannot read the secrets file", func(t *testing.T) {
		for _, ch := range children {
			if a := ch.r.Secrets; a.Readable {
				t.Errorf("%s read the secrets file (%+v), want permission denied", ch.name, a)
			} else if !strings.Contains(a.Error, "permission denied") {
				t.Errorf("%s and the secrets file: error = %q, want permission denied", ch.name, a.Error)
			}
		}
	})

	t.Run("a child cannot read the other child's environment", func(t *testing.T) {
		for _, ch := range children {
			wantRefusedAccess(t, fmt.Sprintf("%s and %s's environment", ch.name, ch.siblingOf), ch.sibling)
		}
	})

	t.Run("each child holds only its own token", func(t *testing.T) {
		for _, ch := range children {
			if ch.r.TokenSHA256 != sha(ch.token) {
				t.Errorf("%s: $%s is not its own token (sha256 %q)", ch.name, spyTokenEnv, ch.r.TokenSHA256)
			}
			names := slices.Sorted(slices.Values(ch.r.EnvNames))
			if want := []string{"HOME", "LANG", "PATH", spyTokenEnv}; !slices.Equal(names, want) {
				t.Errorf("%s: environment %v, want %v", ch.name, names, want)
			}
			if ch.r.Home != "/" {
				t.Errorf("%s: HOME %q, want / (its user has no home)", ch.name, ch.r.Home)
			}
		}
		// Root reads both environments: each holds its token, not the other.
		for _, ch := range []struct {
			pid        int
			own, other string
		}{{read.PID, readTok, writeTok}, {write.PID, writeTok, readTok}} {
			env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", ch.pid))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(env), spyTokenEnv+"="+ch.own+"\x00") {
				t.Errorf("child %d: environment lacks its own token in %s, want it", ch.pid, spyTokenEnv)
			}
			if strings.Contains(string(env), ch.other) {
				t.Errorf("child %d: environment holds the other child's token, want only its own", ch.pid)
			}
		}
	})

	t.Run("the agent's arguments naming an owner two ways reach no child", func(t *testing.T) {
		for _, args := range []string{
			`{"sibling_pid":0,"owner":"acme","Owner":"other"}`,
			`{"sibling_pid":0,"OWNER":"acme"}`,
			`{"sibling_pid":0,"sibling_pid":1}`,
		} {
			res, err := session.cs.CallTool(session.ctx, &mcp.CallToolParams{Name: "spy_probe_write", Arguments: json.RawMessage(args)})
			if err != nil {
				t.Fatalf("%s: %v", args, err)
			}
			raw, _ := json.Marshal(res)
			session.frames = append(session.frames, string(raw))
			if !res.IsError {
				t.Errorf("%s: isError = false, want a refusal: %s", args, raw)
			}
			for _, want := range []string{`"invalid_field"`, `"not_started"`} {
				if !strings.Contains(string(raw), want) {
					t.Errorf("%s: result = %s, want it to hold %s", args, raw, want)
				}
			}
		}
		got := auditCodes(t, c.audit, uidOf(t, c.agent), "spy_probe_write")
		if n := strings.Count(strings.Join(got, " "), "invalid_field"); n != 3 {
			t.Errorf("the agent's audit lines for spy_probe_write: %v, want three invalid_field", got)
		}
	})

	t.Run("no token in results or logs", func(t *testing.T) {
		audit, _ := os.ReadFile(c.audit)
		for name, text := range map[string]string{"results": strings.Join(session.frames, "\n"), "broker stderr": c.brokerErr.String(),
			"connect stderr": session.stderr.String(), "audit log": string(audit)} {
			if l := leaks(text, c.tokens...); l != "" {
				t.Errorf("%s hold a token piece %q", name, l)
			}
		}
	})
}

func TestUpstreamChildUserRefusals(t *testing.T) {
	requireRoot(t)
	c := provisionChildren(t)

	t.Run("without CAP_SETUID and CAP_SETGID the broker refuses user", func(t *testing.T) {
		c.writeConfig(t, c.reader, c.writer)
		out := c.refusal(t)
		for _, want := range []string{"cannot switch users", "CAP_SETUID"} {
			if !strings.Contains(out, want) {
				t.Errorf("refusal without capabilities lacks %q, want it to say why:\n%s", want, out)
			}
		}
	})

	t.Run("root, the broker's own user, and a user in the secrets file's group are refused", func(t *testing.T) {
		c.writeConfig(t, "root", c.writer)
		if out := c.refusal(t, switchCaps...); !strings.Contains(out, `user "root" is root`) {
			t.Errorf("user root: refusal lacks %q:\n%s", `user "root" is root`, out)
		}
		c.writeConfig(t, c.reader, c.svc)
		if out := c.refusal(t, switchCaps...); !strings.Contains(out, fmt.Sprintf("user %q is the broker's own user", c.svc)) {
			t.Errorf("write_user %s: refusal lacks %q:\n%s", c.svc, fmt.Sprintf("user %q is the broker's own user", c.svc), out)
		}
		run(t, nil, "usermod", "-a", "-G", c.svc, c.reader)
		defer run(t, nil, "gpasswd", "-d", c.reader, c.svc)
		c.writeConfig(t, c.reader, c.writer)
		out := c.refusal(t, switchCaps...)
		for _, want := range []string{fmt.Sprintf("user %q is in the group", c.reader), c.secrets} {
			if !strings.Contains(out, want) {
				t.Errorf("user %s in %s: refusal lacks %q:\n%s", c.reader, c.svc, want, out)
			}
		}
	})

	t.Run("write_user without user is a config error", func(t *testing.T) {
		c.writeConfig(t, "", c.writer)
		if out := c.refusal(t, switchCaps...); !strings.Contains(out, "write_user needs user") {
			t.Errorf("write_user alone: refusal lacks %q:\n%s", "write_user needs user", out)
		}
	})
}

// A broker that switches users and holds capabilities is out of reach of
// its own user's processes anyway (the first child's setuid, in the vfork
// that shares the broker's memory, marks it non-dumpable; the kernel
// refuses a tracer without the tracee's capabilities). So this broker runs
// with neither: only its own PR_SET_DUMPABLE keeps its user out, and its
// child, running as that user, is the reader it must refuse.
func TestBrokerNotDumpable(t *testing.T) {
	requireRoot(t)
	c := provisionChildren(t)
	c.writeConfig(t, "", "")
	c.startBroker(t)

	t.Run("without user the broker warns that the upstream is trusted", func(t *testing.T) {
		if out := c.brokerErr.String(); !strings.Contains(out, "trusted with every credential the broker holds") {
			t.Errorf("no trust warning:\n%s", out)
		}
	})

	t.Run("the broker says it is non-dumpable", func(t *testing.T) {
		if !strings.Contains(c.brokerErr.String(), "non-dumpable") {
			t.Errorf("the broker did not log that it is non-dumpable:\n%s", c.brokerErr.String())
		}
		environ := fmt.Sprintf("/proc/%d/environ", c.brokerPID)
		fi, err := os.Stat(environ)
		if err != nil {
			t.Fatal(err)
		}
		if uid := fi.Sys().(*syscall.Stat_t).Uid; uid != 0 {
			t.Errorf("%s belongs to uid %d, want root's (non-dumpable)", environ, uid)
		}
	})

	t.Run("a process of the broker's user cannot read its memory or environment", func(t *testing.T) {
		environ := fmt.Sprintf("/proc/%d/environ", c.brokerPID)
		out, err := asUser(c.svc, "cat", environ).CombinedOutput()
		if err == nil {
			t.Errorf("as %s, cat %s: exit status 0 (%d bytes), want permission denied", c.svc, environ, len(out))
		}
		if !strings.Contains(string(out), "Permission denied") {
			t.Errorf("as %s, cat %s: output lacks \"Permission denied\" (%d bytes)", c.svc, environ, len(out))
		}
		svc := c.spyProbe(t, c.svc, c.brokerPID)
		refusedBroker(t, "a process of "+c.svc, svc)
		// It is the broker's user indeed: the secrets file is its to read.
		if !svc.Secrets.Readable {
			t.Errorf("as %s, the secrets file is unreadable (%+v): the probe did not run as the broker's user", c.svc, svc.Secrets)
		}
		root := c.spyProbe(t, "", c.brokerPID)
		wantRootReads(t, root)
	})

	t.Run("a child running as the broker's user cannot read its memory", func(t *testing.T) {
		session := c.agentSpySession(t)
		r := session.call("spy_probe_read", 0)
		if want := uidOf(t, c.svc); r.UID != want {
			t.Fatalf("the child runs as uid %d, want %d (%s)", r.UID, want, c.svc)
		}
		if r.PPID != c.brokerPID {
			t.Fatalf("the child's parent = %d, want the broker %d", r.PPID, c.brokerPID)
		}
		refusedBroker(t, "the child", r)
		if l := leaks(strings.Join(session.frames, "\n")+c.brokerErr.String(), c.tokens...); l != "" {
			t.Errorf("a token piece %q in the results or the broker's log", l)
		}
	})
}

// refusedBroker fails unless r shows the broker's environ, maps and mem
// refused.
func refusedBroker(t *testing.T, who string, r spyreport.Report) {
	t.Helper()
	for what, a := range map[string]spyreport.Access{"environ": r.BrokerEnviron, "maps": r.BrokerMaps, "mem": r.BrokerMem} {
		wantRefusedAccess(t, fmt.Sprintf("%s and the broker's %s (%s)", who, what, a.Path), a)
	}
}

// spySession is an agent's MCP session through `ghgate connect` that
// calls the spy's tools.
type spySession struct {
	t      *testing.T
	c      *childSetup
	ctx    context.Context
	cs     *mcp.ClientSession
	stderr *testutil.SyncBuffer
	// frames are the raw results, for the leak check.
	frames []string
}

func (c *childSetup) agentSpySession(t *testing.T) *spySession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	t.Cleanup(cancel)
	connect := asUser(c.agent, c.bin, "connect", "--socket", c.socket)
	s := &spySession{t: t, c: c, ctx: ctx, stderr: &testutil.SyncBuffer{}}
	connect.Stderr = s.stderr
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "children-test", Version: "0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: connect}, nil)
	if err != nil {
		t.Fatalf("connect as %s: %v\n%s\nbroker:\n%s", c.agent, err, s.stderr.String(), c.brokerErr.String())
	}
	t.Cleanup(func() { _ = cs.Close() })
	s.cs = cs
	return s
}

// call calls a spy tool, asking it to try sibling's environment (0: none),
// and returns its report.
func (s *spySession) call(tool string, sibling int) spyreport.Report {
	t := s.t
	t.Helper()
	res, err := s.cs.CallTool(s.ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"sibling_pid": sibling}})
	if err != nil {
		t.Fatalf("%s: %v\nbroker:\n%s", tool, err, s.c.brokerErr.String())
	}
	raw, _ := json.Marshal(res)
	s.frames = append(s.frames, string(raw))
	if res.IsError {
		t.Fatalf("%s: isError = true, want a result: %s\nbroker:\n%s", tool, raw, s.c.brokerErr.String())
	}
	if len(res.Content) == 0 {
		t.Fatalf("%s: no content, want some: %s\nbroker:\n%s", tool, raw, s.c.brokerErr.String())
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content %T", tool, res.Content[0])
	}
	var r spyreport.Report
	if err := json.Unmarshal([]byte(text.Text), &r); err != nil {
		t.Fatalf("%s: %v\n%s", tool, err, text.Text)
	}
	return r
}

// auditCodes lists the outcome codes of uid's audit lines for tool ("ok"
// for a success), in order.
func auditCodes(t *testing.T, path string, uid int, tool string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		var rec struct {
			Client *int   `json:"client"`
			Tool   string `json:"tool"`
			Code   string `json:"code"`
		}
		if json.Unmarshal([]byte(line), &rec) != nil || rec.Client == nil || *rec.Client != uid || rec.Tool != tool {
			continue
		}
		if rec.Code == "" {
			rec.Code = "ok"
		}
		out = append(out, rec.Code)
	}
	return out
}

// wantRefusedAccess fails unless a shows the access refused with an error.
func wantRefusedAccess(t *testing.T, what string, a spyreport.Access) {
	t.Helper()
	if a.Readable {
		t.Errorf("%s: Readable = true, want refused: %+v", what, a)
		return
	}
	if a.Error == "" {
		t.Errorf("%s: no error, want the refusal's: %+v", what, a)
	}
}

// wantRootReads stops the test unless root can read the broker's environ
// and mem: the refusals elsewhere are then the boundary's.
func wantRootReads(t *testing.T, root spyreport.Report) {
	t.Helper()
	if !root.BrokerEnviron.Readable {
		t.Fatalf("root cannot read the broker's environ either: %+v", root.BrokerEnviron)
	}
	if !root.BrokerMem.Readable {
		t.Fatalf("root cannot read the broker's mem either: %+v", root.BrokerMem)
	}
}
