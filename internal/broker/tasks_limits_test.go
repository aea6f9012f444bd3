package broker_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fleetRepoReads matches a report's reads of one fleet repository (the
// listing of the organization's repositories goes by), with or without
// GitHub Enterprise's /api/v3 prefix.
func fleetRepoReads(r *http.Request) bool {
	return strings.HasPrefix(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/repos/fleet/")
}

// readTaskReply reads one answer line from c.
func readTaskReply(t *testing.T, c *rawClient) brokertest.Reply {
	t.Helper()
	_ = c.conn.SetReadDeadline(time.Now().Add(60 * time.Second))
	line, err := c.in.ReadBytes('\n')
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	r, err := brokertest.ParseReply(line)
	if err != nil {
		t.Fatalf("reply %s: %v", line, err)
	}
	return r
}

// openTaskSession dials the broker and completes a handshake that
// declares the tasks extension.
func openTaskSession(t *testing.T, path string) *rawClient {
	t.Helper()
	c := dialRaw(t, path)
	c.send(t, brokertest.TaskInitLine)
	if r := readTaskReply(t, c); r.Error != nil {
		t.Fatalf("initialize: %s", r.Error.Message)
	}
	c.send(t, brokertest.InitializedLine)
	return c
}

// fleetReport is the report the tests send: every fleet repository.
var fleetReport = map[string]any{"owner": "fleet", "max_repos": 200}

// sendReports sends n report calls at once and sorts the answers into the
// tasks started and the refusals, failing on any other answer.
func sendReports(t *testing.T, c *rawClient, firstID, n int) (started []string, refused []brokertest.Reply) {
	t.Helper()
	lines := make([]string, n)
	for i := range lines {
		lines[i] = brokertest.CallLine(firstID+i, "github_report_unlabeled", fleetReport)
	}
	c.send(t, strings.Join(lines, "\n"))
	for range n {
		r := readTaskReply(t, c)
		switch {
		case r.RateLimited():
			refused = append(refused, r)
		case r.Task() != "":
			started = append(started, r.Task())
		default:
			t.Fatalf("answer %s: neither a task nor a rate_limited refusal: %+v", r.ID, r)
		}
	}
	return started, refused
}

// checkRefusal: a refusal by a limit says when to try again and what to
// do meanwhile.
func checkRefusal(t *testing.T, r brokertest.Reply) {
	t.Helper()
	if r.Error.Data.RetryAfterMS == nil {
		t.Errorf("refusal %q has no retry_after_ms", r.Error.Message)
	}
	if r.Error.Data.Repair == nil {
		t.Errorf("refusal %q has no repair, want one", r.Error.Message)
	} else if r.Error.Data.Repair.NextStep == "" {
		t.Errorf("refusal %q: repair next_step is empty, want one", r.Error.Message)
	}
}

// awaitTask polls tasks/get on c until the task leaves working.
func awaitTask(t *testing.T, c *rawClient, id string, seq *int) string {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		*seq++
		c.send(t, brokertest.TaskMethodLine(*seq, "tasks/get", id))
		r := readTaskReply(t, c)
		if r.Error != nil {
			t.Fatalf("tasks/get %s: %s", id, r.Error.Message)
		}
		if r.Result.Status != tasks.StatusWorking {
			return r.Result.Status
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still working after two minutes", id)
		}
	}
}

// Thirty reports sent as tasks by a session held to max_in_flight = 2
// start two tasks, as thirty sent inline get two answers: a running task
// keeps the slot its call took. The session, and a new connection of the
// same client after it closed, can still read its tasks but starts no
// more until one ends.
func TestTasksHoldTheirClientsInFlightSlots(t *testing.T) {
	t.Parallel()
	gate := brokertest.NewGate(fleetRepoReads)
	d := brokertest.Start(t, brokertest.Options{Tools: `toolsets = ["issues", "reports"]`, FleetRepos: 20, Gate: gate,
		Config: "[limits]\nmax_in_flight = 2\ncalls_per_second = 1000\ncall_burst = 1000"})

	first := openTaskSession(t, d.Socket.Path())
	started, refused := sendReports(t, first, 1, 30)
	if got, want := len(started), 2; got != want {
		t.Fatalf("tasks started = %d, want %d", got, want)
	}
	if got, want := len(refused), 28; got != want {
		t.Errorf("calls refused = %d, want %d", got, want)
	}
	checkRefusal(t, refused[0])
	// Each task holds its reads at GitHub: no more than the two tasks'
	// fan-out (fanout.DefaultConcurrency each) is ever in flight.
	if !gate.AwaitHeld(2, time.Minute) {
		t.Fatalf("held reads = %d, want the two tasks' reads", gate.Held())
	}

	// The connection closes; the tasks run on and keep their slots.
	_ = first.conn.Close()
	second := openTaskSession(t, d.Socket.Path())
	seq := 100
	for _, id := range started {
		seq++
		second.send(t, brokertest.TaskMethodLine(seq, "tasks/get", id))
		r := readTaskReply(t, second)
		if r.Error != nil {
			t.Fatalf("tasks/get %s from a new connection: error %+v, want the task", id, *r.Error)
		}
		if r.Result.Status != tasks.StatusWorking {
			t.Fatalf("tasks/get %s from a new connection: status = %q, want %q", id, r.Result.Status, tasks.StatusWorking)
		}
	}
	more, refusedAgain := sendReports(t, second, 200, 3)
	if got := len(more); got != 0 {
		t.Errorf("tasks started from a new connection while two run = %d, want 0", got)
	}
	if len(refusedAgain) > 0 {
		checkRefusal(t, refusedAgain[0])
	}

	// Once they end, the slots come back.
	gate.Open()
	for _, id := range started {
		if got := awaitTask(t, second, id, &seq); got != tasks.StatusCompleted {
			t.Errorf("task %s = %s, want completed", id, got)
		}
	}
	after, _ := sendReports(t, second, 300, 1)
	if got := len(after); got != 1 {
		t.Errorf("tasks started once the first two ended = %d, want 1", got)
	}
	if got, bound := gate.Peak(), 2*fanout.DefaultConcurrency; got > bound {
		t.Errorf("fleet reads in flight at once = %d, want at most %d", got, bound)
	}
}

// Reports from several sessions fan out on one credential within one
// budget (max_fanout_per_credential calls in flight in all), so GitHub's
// limit on a credential's concurrent requests still has room for an
// inline read made while they run.
func TestReportsShareOneFanOutBudgetPerCredential(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		config   string
		sessions int // each wants fanout.DefaultConcurrency calls at once
		budget   int
		github   int // GitHub's limit on the credential's concurrent requests
	}{
		{"default", "", 5, fanout.DefaultShared, 36},
		{"configured", "[limits]\nmax_fanout_per_credential = 6", 2, 6, 8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			gate := brokertest.NewGate(fleetRepoReads)
			d := brokertest.Start(t, brokertest.Options{Tools: `toolsets = ["issues", "reports"]`, FleetRepos: 60, Gate: gate,
				MaxConcurrent: tc.github, Config: tc.config})
			reportsHoldTheirBudget(t, d, gate, tc.sessions, tc.budget)
		})
	}
}

// reportsHoldTheirBudget runs a fleet report inline in each of sessions
// sessions, checks that their reads held at GitHub fill the budget and no
// more while an inline read gets through, then lets them finish.
func reportsHoldTheirBudget(t *testing.T, d *brokertest.Daemon, gate *brokertest.Gate, sessions, budget int) {
	t.Helper()
	var wg sync.WaitGroup
	results := make([]*mcp.CallToolResult, sessions)
	errs := make([]error, sessions)
	for i := range sessions {
		cs := d.Connect(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			results[i], errs[i] = d.Call(ctx, cs, "github_report_unlabeled", fleetReport)
		}()
	}
	defer wg.Wait()
	defer gate.Open()
	if !gate.AwaitHeld(budget, time.Minute) {
		t.Fatalf("fleet reads held = %d, want %d", gate.Held(), budget)
	}

	reader := d.Connect(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Call(ctx, reader, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1})
	if err != nil {
		t.Fatalf("github_get_issue while the reports run: %v", err)
	}
	if res.IsError {
		t.Errorf("github_get_issue while the reports run: %s", brokertest.ResultText(res))
	}
	if got := gate.Peak(); got > budget {
		t.Errorf("fleet reads in flight at once = %d, want at most %d", got, budget)
	}

	gate.Open()
	wg.Wait()
	for i := range sessions {
		switch {
		case errs[i] != nil:
			t.Errorf("report %d: %v", i, errs[i])
		case results[i].IsError:
			t.Errorf("report %d: %s", i, brokertest.ResultText(results[i]))
		}
	}
	if got := gate.Peak(); got > budget {
		t.Errorf("fleet reads in flight at once, all reports done = %d, want at most %d", got, budget)
	}
}

// The task and fan-out bounds take their defaults, hold one client's
// tasks within all of them, and refuse a negative value.
func TestTaskLimitsConfig(t *testing.T) {
	t.Parallel()
	load := func(limits string) (*broker.Config, error) {
		dir := t.TempDir()
		path := dir + "/b.toml"
		body := "[listen]\nsocket = \"" + dir + "/s\"\n[[route]]\nowner = \"*\"\nread = \"r\"\n[limits]\n" + limits + "\n"
		if err := writeFile(path, body); err != nil {
			t.Fatal(err)
		}
		return broker.LoadConfig(path)
	}
	type bounds struct{ tasks, perClient, fanout int }
	got := func(l broker.Limits) bounds { return bounds{l.MaxTasks, l.MaxTasksPerClient, l.MaxFanoutPerCredential} }
	cfg, err := load("")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := got(cfg.Limits), (bounds{tasks.DefaultMaxTasks, tasks.DefaultMaxTasksPerClient, fanout.DefaultShared}); g != want {
		t.Errorf("defaults %+v, want %+v", g, want)
	}
	cfg, err = load("max_tasks = 4\nmax_tasks_per_client = 9\nmax_fanout_per_credential = 6")
	if err != nil {
		t.Fatal(err)
	}
	if g, want := got(cfg.Limits), (bounds{4, 4, 6}); g != want {
		t.Errorf("configured %+v, want %+v (one client held within all)", g, want)
	}
	for _, bad := range []string{"max_tasks = -1", "max_tasks_per_client = -1", "max_fanout_per_credential = -1"} {
		if _, err := load(bad); err == nil || !strings.Contains(err.Error(), strings.Fields(bad)[0]) {
			t.Errorf("%s: error = %v, want one naming %s", bad, err, strings.Fields(bad)[0])
		}
	}
}
