package reports_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves the environment's MCP server over stateless streamable
// HTTP, as `ghgate serve --http` does, so each request is its own
// connection.
func serveHTTP(t *testing.T, env *servertest.Env) string {
	t.Helper()
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return env.Stack.Server.MCP }, &mcp.StreamableHTTPOptions{Stateless: true})
	hs := httptest.NewServer(h)
	t.Cleanup(func() {
		env.Stack.Server.StopTasks(context.Background())
		hs.Close()
	})
	return hs.URL
}

// await polls tasks/get, each poll on a new connection, until the task
// leaves working.
func await(t *testing.T, url, id string) map[string]any {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(25 * time.Millisecond) {
		got := servertest.Post(t, url, "agent", "tasks/get", map[string]any{"taskId": id})
		if got["status"] != tasks.StatusWorking {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still working after a minute", id)
		}
	}
}

// runTask calls tool as a task, polls it until it completes, and decodes
// its result into out.
func runTask(t *testing.T, url, tool string, args map[string]any, out any) {
	t.Helper()
	ack := servertest.Post(t, url, "agent", "tools/call", map[string]any{"name": tool, "arguments": args})
	id, _ := ack["taskId"].(string)
	if ack["resultType"] != "task" {
		t.Fatalf("resultType = %v, want %q", ack["resultType"], "task")
	}
	if id == "" {
		t.Fatalf("taskId = %v, want one", ack["taskId"])
	}
	got := await(t, url, id)
	if got["status"] != tasks.StatusCompleted {
		t.Fatalf("task status = %v, want %q: %v", got["status"], tasks.StatusCompleted, got)
	}
	result, _ := got["result"].(map[string]any)
	b, _ := json.Marshal(result["structuredContent"])
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
}

// awaitListing waits until GitHub has answered the report's listing of
// the owner's repositories: the report is under way, its repositories'
// reads about to go out.
func awaitListing(t *testing.T, env *servertest.Env) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		for _, a := range env.Answered() {
			if strings.Contains(a, "/fleet/repos") && strings.HasSuffix(a, " 200") {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the report's listing of fleet's repositories was not answered within a minute")
		}
	}
}

// From a client that declares the tasks extension, a report runs as a
// task: the call answers at once with it, the report goes on after that
// connection has closed, and tasks/get on a later one gives the report,
// the same as the call made inline.
func TestReportRunsAsTask(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	url := serveHTTP(t, env)
	args := map[string]any{"owner": "fleet", "max_repos": 200}
	var fromTask reports.UnlabeledOut
	runTask(t, url, tool, args, &fromTask)
	inline := report(t, env, args)
	if fromTask.Truncated {
		t.Errorf("task's report: truncated = true (%s), want false", fromTask.TruncatedReason)
	}
	if len(fromTask.Rows) == 0 {
		t.Errorf("task's report: rows = 0, want some")
	}
	if len(fromTask.Rows) != len(inline.Rows) {
		t.Errorf("task's report: rows = %d, want %d (inline)", len(fromTask.Rows), len(inline.Rows))
	}
	if !reflect.DeepEqual(fromTask.Scanned, inline.Scanned) {
		t.Errorf("task's report: scanned = %+v, want %+v (inline)", fromTask.Scanned, inline.Scanned)
	}
}

// tasks/cancel stops a report under way: the task ends cancelled, and the
// report stops sending (no call is made after the cancel is answered).
func TestReportTaskCancelled(t *testing.T) {
	t.Parallel()
	// 60 repositories at 200 ms, 8 at a time: two seconds of work, most
	// of it left when the cancel comes.
	env := fleetEnv(t, 60, servertest.Options{Emulator: emulator.Options{Latency: 200 * time.Millisecond}})
	url := serveHTTP(t, env)
	ack := servertest.Post(t, url, "agent", "tools/call", map[string]any{"name": tool, "arguments": map[string]any{"owner": "fleet", "max_repos": 200}})
	id, _ := ack["taskId"].(string)
	if id == "" {
		t.Fatalf("taskId = %v, want one (resultType %v)", ack["taskId"], ack["resultType"])
	}
	awaitListing(t, env) // under way: the listing answered, repositories in flight
	if res := servertest.Post(t, url, "agent", "tasks/cancel", map[string]any{"taskId": id}); res["error"] != nil {
		t.Fatalf("tasks/cancel: error = %v, want none (%v)", res["error"], res)
	}
	if got := await(t, url, id); got["status"] != tasks.StatusCancelled {
		t.Fatalf("task after cancel: status = %v, want %q: %v", got["status"], tasks.StatusCancelled, got)
	}
	time.Sleep(500 * time.Millisecond) // calls in flight at the cancel end with it
	_ = env.Upstream()
	time.Sleep(500 * time.Millisecond)
	if late := env.Upstream(); len(late) != 0 {
		t.Errorf("calls sent after the cancelled task ended = %d, want 0: %v", len(late), late)
	}
}
