package ostest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The mirrors' sync_root with real users: a broker run as its service user
// refuses to start on a sync_root an agent can write, or below a directory
// a group can write in, and doctor fails it; on a private one an agent
// syncs, and what another agent user plants under sync_root once it is
// opened up is never served as an issue.
func TestBrokerSyncRootAgainstAgentUsers(t *testing.T) {
	requireRoot(t)
	d := provision(t)
	base, err := os.ReadFile(d.config)
	if err != nil {
		t.Fatal(err)
	}
	srv := filepath.Join(d.root, "srv")
	if err := os.Mkdir(srv, 0o755); err != nil {
		t.Fatal(err)
	}

	t.Run("a sync_root anyone can write is refused", func(t *testing.T) {
		root := filepath.Join(srv, "open")
		mkdirOwned(t, root, "root", "1777")
		d.writeSyncConfig(t, string(base), root)
		if out := d.brokerRefusal(t); !strings.Contains(out, "sync_root") {
			t.Errorf("the refusal does not name sync_root:\n%s", out)
		}
		if v, out := d.doctorGate(t, "sync root"); v != "FAIL" {
			t.Errorf("doctor's sync root gate = %q, want FAIL\n%s", v, out)
		}
	})

	t.Run("a sync_root below a group-writable directory is refused", func(t *testing.T) {
		team := filepath.Join(srv, "team")
		mkdirOwned(t, team, "root:"+d.clients, "0775")
		root := filepath.Join(team, "mirrors")
		mkdirOwned(t, root, d.svc+":"+d.svc, "0700")
		d.writeSyncConfig(t, string(base), root)
		if out := d.brokerRefusal(t); !strings.Contains(out, team) {
			t.Errorf("the refusal does not name %s:\n%s", team, out)
		}
		if v, out := d.doctorGate(t, "sync root"); v != "FAIL" {
			t.Errorf("doctor's sync root gate = %q, want FAIL\n%s", v, out)
		}
	})

	root := filepath.Join(srv, "ghgate")
	mkdirOwned(t, root, d.svc+":"+d.svc, "0700")
	d.writeSyncConfig(t, string(base), root)
	if v, out := d.doctorGate(t, "sync root"); v != "PASS" {
		t.Errorf("doctor's sync root gate on a private sync_root = %q, want PASS\n%s", v, out)
	}
	other := "ggag3" + randomHex(t, 4)
	addUser(t, other)
	run(t, nil, "usermod", "-a", "-G", d.clients, other)
	d.startBroker(t)

	t.Run("an agent syncs into sync_root/OWNER/REPO and cannot write there", func(t *testing.T) {
		if isErr, text := d.agentCall(t, d.agent, "github_sync_issues", map[string]any{"owner": "acme", "repo": "widgets"}); isErr {
			t.Fatalf("sync: %s", text)
		}
		if ents, _ := os.ReadDir(filepath.Join(root, "acme", "widgets")); len(ents) < 3 {
			t.Errorf("the mirror holds %d entries, want the state, .gitignore and issues", len(ents))
		}
		out, err := exec.Command("runuser", "-u", d.agent, "--", "mkdir", filepath.Join(root, "alice")).CombinedOutput()
		if err == nil {
			t.Errorf("%s made a directory in the private sync_root", d.agent)
		}
		if !strings.Contains(string(out), "Permission denied") {
			t.Errorf("mkdir as %s: %q, want permission denied", d.agent, out)
		}
	})

	t.Run("a file an agent plants once sync_root is opened up is not served", func(t *testing.T) {
		run(t, nil, "chmod", "1777", root)
		notes := filepath.Join(root, "alice", "notes")
		plant := fmt.Sprintf(`mkdir -p %[1]s && printf '%%s' '{"schema":1,"repo":"alice/notes","include_closed":false,"comments_cap":100,"synced_at":"2026-01-01T00:00:00Z"}' > %[1]s/.ghgate-sync.json && printf '%%s' '{"schema":1,"repo":"alice/notes","issue":{"number":1,"title":"planted","state":"open","body":"PLANTED BODY","labels":[],"assignees":[],"milestone":null},"comments":[],"comments_truncated":false,"synced_at":"2026-01-01T00:00:00Z"}' > %[1]s/1-planted.json`, notes)
		if out, err := exec.Command("runuser", "-u", d.agent, "--", "bash", "-c", plant).CombinedOutput(); err != nil {
			t.Fatalf("planting as %s: %v\n%s", d.agent, err, out)
		}
		read := map[string]any{"owner": "alice", "repo": "notes", "issue_number": 1, "source": "mirror"}
		isErr, text := d.agentCall(t, other, "github_get_issue", read)
		if !isErr {
			t.Errorf("%s reading the mirror under a 1777 sync_root: isError = false, want sync_not_configured: %s", other, text)
		}
		if !strings.Contains(text, "sync_not_configured") {
			t.Errorf("%s reading the mirror under a 1777 sync_root: result = %s, want sync_not_configured", other, text)
		}
		if strings.Contains(text, "PLANTED BODY") {
			t.Errorf("%s was served the planted body: %s", other, text)
		}
		// Closed again, the planted directories are still not the
		// broker's own: refused, not read.
		run(t, nil, "chmod", "0700", root)
		isErr, text = d.agentCall(t, other, "github_get_issue", read)
		if !isErr {
			t.Errorf("%s reading the planted mirror: isError = false, want sync_dir_refused: %s", other, text)
		}
		if !strings.Contains(text, "sync_dir_refused") {
			t.Errorf("%s reading the planted mirror: result = %s, want sync_dir_refused", other, text)
		}
		if strings.Contains(text, "PLANTED BODY") {
			t.Errorf("%s was served the planted body: %s", other, text)
		}
	})
}

// mkdirOwned makes dir with owner ("user:group") and mode as root.
func mkdirOwned(t *testing.T, dir, owner, mode string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	run(t, nil, "chown", owner, dir)
	run(t, nil, "chmod", mode, dir)
}

// writeSyncConfig is the provisioned config serving the sync toolset with
// sync_root root.
func (d *deployment) writeSyncConfig(t *testing.T, base, root string) {
	t.Helper()
	cfg := strings.Replace(base, "toolsets = [\"issues\"]\n", fmt.Sprintf("toolsets = [\"issues\", \"sync\"]\nsync_root = %q\n", root), 1)
	if cfg == base {
		t.Fatal("the provisioned config has no [tools] toolsets line to extend")
	}
	if err := os.WriteFile(d.config, []byte(cfg), 0o640); err != nil {
		t.Fatal(err)
	}
}

// brokerRefusal runs the broker as its service user, which must refuse to
// start; it returns what the broker said.
func (d *deployment) brokerRefusal(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "setpriv", "--reuid="+d.svc, "--regid="+d.svc, "--init-groups", "--", d.bin, "broker", "--config", d.config)
	cmd.Env, cmd.Dir = childEnv, "/"
	out, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("the broker exited 0, want a refusal to start:\n%s", out)
	}
	if ctx.Err() != nil {
		t.Fatalf("the broker ran until the deadline (%v), want a refusal to start:\n%s", ctx.Err(), out)
	}
	if l := leaks(string(out), d.tokens...); l != "" {
		t.Errorf("the broker's output holds a token piece %q", l)
	}
	return string(out)
}

// doctorGate runs `ghgate doctor` as root and returns gate's verdict and
// the whole output.
func (d *deployment) doctorGate(t *testing.T, gate string) (string, string) {
	t.Helper()
	cmd := exec.Command(d.bin, "doctor", "--config", d.config, "--service-user", d.svc)
	cmd.Env = childEnv
	out, _ := cmd.CombinedOutput()
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) > 1 && strings.HasPrefix(strings.TrimSpace(line[len(f[0]):]), gate+"  ") {
			return f[0], string(out)
		}
	}
	return "", string(out)
}

// agentCall makes one tool call as user through `ghgate connect` and
// returns whether it failed and the result's JSON.
func (d *deployment) agentCall(t *testing.T, user, tool string, args map[string]any) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var seen []string
	c := d.connectAs(ctx, t, user, &seen)
	defer c.close()
	res := c.call(tool, args)
	raw := resultJSON(res)
	if l := leaks(raw, d.tokens...); l != "" {
		t.Fatalf("%s saw a token piece %q", user, l)
	}
	return res.IsError, raw
}
