package main

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tasks"
)

// postAs sends one MCP request of protocol version 2026-07-28 (declaring
// the tasks extension) with token as its bearer, on a connection of its
// own, and returns the HTTP status and the JSON-RPC answer's result or,
// as {"error": …}, its error (nil when the body holds no JSON-RPC answer,
// as a 401's does not).
func postAs(t *testing.T, url, token, method string, params map[string]any) (int, map[string]any) {
	t.Helper()
	return servertest.PostStatus(t, url, http.Header{"Authorization": {"Bearer " + token}}, method, params)
}

// awaitTask polls tasks/get as token until the task leaves working, and
// fails unless it completed.
func awaitTask(t *testing.T, url, token, id string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, got := postAs(t, url, token, "tasks/get", map[string]any{"taskId": id})
		if got["status"] != tasks.StatusWorking {
			if got["status"] != tasks.StatusCompleted {
				t.Fatalf("task %s: %v, want status completed", id, got)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still working after a minute", id)
		}
		time.Sleep(25 * time.Millisecond)
	}
}

// emulatorComments lists an issue's comment bodies straight from the
// emulator, as alice, past ghgate.
func emulatorComments(t *testing.T, base, repo string, number int) []string {
	t.Helper()
	return emulatortest.CommentBodies(t, http.DefaultClient, base, repo, number)
}

// TestServeAuthCrossIssuerToken: two identity providers on loopback, both
// configured, both signing tokens whose client_id is "release-agent".
// release-agent is bound to the first. The second provider's
// "release-agent" token is refused with 401 over the MCP endpoint: it
// cannot read the private acme/gadgets, comment on acme/widgets, or read
// the task release-agent started; none of it reaches GitHub.
func TestServeAuthCrossIssuerToken(t *testing.T) {
	t.Parallel()
	emu, upstream := countingEmulator(t)
	idpA, idpB := newTestIdP(t), newTestIdP(t)
	ka, kb := newKey(t, "a1"), newKey(t, "b1")
	idpA.publish(ka)
	idpB.publish(kb)
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ghgate.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("token = %q\ngithub_url = %q\ntoolsets = [\"all\"]\n", emulator.DemoTokenAlice, emu.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	authFile := filepath.Join(dir, "auth.toml")
	body := fmt.Sprintf(`
[[issuer]]
url = %q

[[issuer]]
url = %q

[[client]]
name = "release-agent"
issuer = %q
read = ["*"]
write = ["acme"]

[[client]]
name = "b-reader"
issuer = %q
client_id = "reader"
read = ["alice"]
`, idpA.srv.URL, idpB.srv.URL, idpA.srv.URL, idpB.srv.URL)
	if err := os.WriteFile(authFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, stderr, _ := startHTTPServe(t, "--config", cfg, "--auth", authFile)
	hour := time.Now().Add(time.Hour)
	release := idpA.token(t, ka, "release-agent", url, hour)
	cross := idpB.token(t, kb, "release-agent", url, hour)
	bReader := idpB.token(t, kb, "reader", url, hour)

	gadgets := map[string]any{"name": "github_get_issue", "arguments": map[string]any{"owner": "acme", "repo": "gadgets", "issue_number": 1}}
	comment := func(text string) map[string]any {
		return map[string]any{"name": "github_add_comment", "arguments": map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3, "body": text}}
	}

	// release-agent, from its own provider, reaches all of it.
	_, res := postAs(t, url, release, "tools/call", gadgets)
	if sc, _ := res["structuredContent"].(map[string]any); sc["issue"] == nil {
		t.Fatalf("release-agent reads acme/gadgets#1: %v, want the issue\n%s", res, stderr.String())
	}
	_, ack := postAs(t, url, release, "tools/call", map[string]any{"name": "github_report_unlabeled", "arguments": map[string]any{"owner": "acme"}})
	taskID, _ := ack["taskId"].(string)
	if taskID == "" {
		t.Fatalf("release-agent's report: %v, want a task", ack)
	}
	awaitTask(t, url, release, taskID)

	// The other provider's "release-agent" is nobody here.
	const crossText = "written with another provider's token"
	for _, c := range []struct {
		what, method string
		params       map[string]any
	}{
		{"read acme/gadgets#1", "tools/call", gadgets},
		{"comment on acme/widgets#3", "tools/call", comment(crossText)},
		{"tasks/get release-agent's task", "tasks/get", map[string]any{"taskId": taskID}},
	} {
		before := upstream.Load()
		if status, _ := postAs(t, url, cross, c.method, c.params); status != http.StatusUnauthorized {
			t.Errorf("cross-issuer token, %s: status = %d, want 401", c.what, status)
		}
		if n := upstream.Load() - before; n != 0 {
			t.Errorf("cross-issuer token, %s: %d requests reached GitHub, want 0", c.what, n)
		}
	}
	for _, b := range emulatorComments(t, emu.URL, "acme/widgets", 3) {
		if b == crossText {
			t.Errorf("acme/widgets#3 has the cross-issuer token's comment")
		}
	}

	// The second provider's own client is its own: its policy, not
	// release-agent's, and not release-agent's tasks.
	if _, res := postAs(t, url, bReader, "tools/call", gadgets); res["isError"] != true {
		t.Errorf("b-reader reads acme/gadgets#1: isError = %v, want true", res["isError"])
	}
	if _, res := postAs(t, url, bReader, "tasks/get", map[string]any{"taskId": taskID}); res["error"] == nil {
		t.Errorf("b-reader reads release-agent's task: %v, want an error", res)
	}
	if log := stderr.String(); !strings.Contains(log, "client=b-reader") {
		t.Errorf("the audit log does not name b-reader:\n%s", log)
	}
}

// TestServeRefusesUnboundClient: with two issuers, an --auth file whose
// identity-provider client names neither stops serve before it starts,
// saying which client and what to set.
func TestServeRefusesUnboundClient(t *testing.T) {
	authFile := filepath.Join(t.TempDir(), "auth.toml")
	body := `
[[issuer]]
url = "https://a.idp.example"

[[issuer]]
url = "https://b.idp.example"

[[client]]
name = "release-agent"
read = ["*"]
`
	if err := os.WriteFile(authFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := parseServe(t, []string{"--http", "127.0.0.1:0", "--auth", authFile}, "", nil)
	if err == nil {
		t.Fatal("serve accepted a client that names no issuer among two")
	}
	if want := `client "release-agent" names no issuer, and 2 are configured`; !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to contain %q", err, want)
	}
	if want := "set issuer"; !strings.Contains(err.Error(), want) {
		t.Errorf("error = %q, want it to contain %q", err, want)
	}
}
