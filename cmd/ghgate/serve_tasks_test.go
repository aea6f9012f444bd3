package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tasks"
)

// taskClient posts MCP requests to serve --http as one static-key client.
type taskClient struct {
	t        *testing.T
	url, key string
}

func (c taskClient) post(method string, params map[string]any) map[string]any {
	c.t.Helper()
	return servertest.PostWith(c.t, c.url, http.Header{"Authorization": {"Bearer " + c.key}}, method, params)
}

// report starts the fleet report and returns its task id, or the error
// answered.
func (c taskClient) report() (string, map[string]any) {
	c.t.Helper()
	res := c.post("tools/call", map[string]any{"name": "github_report_unlabeled", "arguments": map[string]any{"owner": "fleet", "max_repos": 200}})
	if e, ok := res["error"].(map[string]any); ok {
		return "", e
	}
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" || id == "" {
		c.t.Fatalf("want a task or an error, got %v", res)
	}
	return id, nil
}

// mustStart starts the fleet report as a task.
func (c taskClient) mustStart(what string) string {
	c.t.Helper()
	id, e := c.report()
	if e != nil {
		c.t.Fatalf("%s: %v", what, e)
	}
	return id
}

// refusedBy checks that the answer is a refusal by a limit naming
// setting, in the limits' envelope.
func (c taskClient) refusedBy(what, setting string) {
	c.t.Helper()
	id, e := c.report()
	if e == nil {
		c.t.Fatalf("%s: started task %s, want a refusal", what, id)
	}
	if got, want := e["code"], float64(-32000); got != want {
		c.t.Errorf("%s: error code = %v, want %v", what, got, want)
	}
	if msg, _ := e["message"].(string); !strings.Contains(msg, setting) {
		c.t.Errorf("%s: message %q does not name %s", what, msg, setting)
	}
	var env struct {
		Code         string `json:"code"`
		RetryAfterMS *int64 `json:"retry_after_ms"`
		Repair       *struct {
			NextStep string `json:"next_step"`
		} `json:"repair"`
	}
	b, _ := json.Marshal(e["data"])
	if err := json.Unmarshal(b, &env); err != nil {
		c.t.Fatalf("%s: data %s: %v", what, b, err)
	}
	if got, want := env.Code, "rate_limited"; got != want {
		c.t.Errorf("%s: envelope code = %q, want %q", what, got, want)
	}
	if env.RetryAfterMS == nil {
		c.t.Errorf("%s: no retry_after_ms", what)
	}
	if env.Repair == nil || env.Repair.NextStep == "" {
		c.t.Errorf("%s: no repair", what)
	}
}

// await polls tasks/get until the task leaves working.
func (c taskClient) await(id string) string {
	c.t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(25 * time.Millisecond) {
		got := c.post("tasks/get", map[string]any{"taskId": id})
		if got["error"] != nil {
			c.t.Fatalf("tasks/get %s: %v", id, got["error"])
		}
		if got["status"] != tasks.StatusWorking {
			s, _ := got["status"].(string)
			return s
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s still working after two minutes", id)
		}
	}
}

// serve --http holds each HTTP client to --max-tasks-per-client running
// tasks and the server to --max-tasks: the task over either is refused
// with the limits' envelope, another client's task is as unknown to a
// client as a task that never was, and a slot comes back once a task
// ends. Each report's fan-out stays within its own bound.
func TestServeHTTPCapsTasksPerClientAndInTotal(t *testing.T) {
	t.Parallel()
	gate := brokertest.NewGate(func(r *http.Request) bool {
		return strings.HasPrefix(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/repos/fleet/")
	})
	emu, err := emulator.New(emulator.Options{Seed: "demo", FleetRepos: 20})
	if err != nil {
		t.Fatal(err)
	}
	upstream := httptest.NewServer(gate.Wrap(emu))
	t.Cleanup(upstream.Close)
	t.Cleanup(gate.Open)

	dir := t.TempDir()
	cfg := filepath.Join(dir, "ghgate.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("token = %q\ngithub_url = %q\ntoolsets = [\"reports\"]\n", emulator.DemoTokenAlice, upstream.URL)), 0o600); err != nil {
		t.Fatal(err)
	}
	keys := map[string]string{}
	var auth strings.Builder
	for _, name := range []string{"one", "two", "three"} {
		keys[name] = "ghgate-static-key-for-client-" + name + "-0123456789abcdef"
		fmt.Fprintf(&auth, "[[client]]\nname = %q\nkey_sha256 = %q\nread = [\"fleet\"]\n\n", name, httpauth.KeyDigest(keys[name]))
	}
	authFile := filepath.Join(dir, "auth.toml")
	if err := os.WriteFile(authFile, []byte(auth.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	url, _, stderr, _ := startHTTPServe(t, "--config", cfg, "--auth", authFile, "--max-tasks-per-client", "1", "--max-tasks", "2")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("serve:\n%s", stderr.String())
		}
	})
	one, two, three := taskClient{t, url, keys["one"]}, taskClient{t, url, keys["two"]}, taskClient{t, url, keys["three"]}

	first := one.mustStart("one's first task")
	one.refusedBy("one's second task", "max_tasks_per_client")
	two.mustStart("two's first task")
	three.refusedBy("a third task in all", "max_tasks")
	if got := two.post("tasks/get", map[string]any{"taskId": first}); got["error"] == nil {
		t.Errorf("two's tasks/get of one's task: %v, want an error", got)
	}

	gate.Open()
	if got := one.await(first); got != tasks.StatusCompleted {
		t.Fatalf("one's first task = %s, want completed", got)
	}
	one.mustStart("one's task once its first ended")
	if got, bound := gate.Peak(), 2*fanout.DefaultConcurrency; got > bound {
		t.Errorf("fleet reads in flight at once = %d, want at most %d", got, bound)
	}
}

// TestServeTaskLimitsSettings: the task and fan-out bounds have safe
// defaults, come from the config file, yield to flags, refuse values
// that would be no bound, and hold one client within all.
func TestServeTaskLimitsSettings(t *testing.T) {
	type bounds struct{ tasks, perClient, fanout int }
	got := func(c serveConfig) bounds { return bounds{c.MaxTasks, c.MaxTasksPerClient, c.MaxFanoutPerCredential} }
	c, err := parseServe(t, nil, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := got(c), (bounds{tasks.DefaultMaxTasks, tasks.DefaultMaxTasksPerClient, fanout.DefaultShared}); g != want {
		t.Errorf("defaults %+v, want %+v", g, want)
	}
	body := "max_tasks = 10\nmax_tasks_per_client = 3\nmax_fanout_per_credential = 12\n"
	c, err = parseServe(t, nil, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := got(c), (bounds{10, 3, 12}); g != want {
		t.Errorf("from the file %+v, want %+v", g, want)
	}
	c, err = parseServe(t, []string{"--max-tasks", "4", "--max-tasks-per-client", "6", "--max-fanout-per-credential", "5"}, body, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g, want := got(c), (bounds{4, 4, 5}); g != want {
		t.Errorf("from flags %+v, want %+v (one client held within all)", g, want)
	}
	for _, bad := range []string{"max_tasks = 0", "max_tasks_per_client = -1", "max_fanout_per_credential = 0"} {
		key := strings.Fields(bad)[0]
		_, err := parseServe(t, nil, bad, nil)
		wantErrorSaying(t, bad, err, key)
	}
}
