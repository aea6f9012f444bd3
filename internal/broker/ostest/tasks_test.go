package ostest

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/fanout"
	"github.com/ghgate/ghgate/internal/tasks"
)

// fleetRepoReads matches a report's reads of one fleet repository, with
// or without GitHub Enterprise's /api/v3 prefix.
func fleetRepoReads(r *http.Request) bool {
	return strings.HasPrefix(strings.TrimPrefix(r.URL.Path, "/api/v3"), "/repos/fleet/")
}

// taskBridge is an agent's `ghgate connect`, spoken to line by line by a
// client that declares the tasks extension.
type taskBridge struct {
	*bridge
	t   *testing.T
	ctx context.Context
	seq int
}

func openTaskBridge(ctx context.Context, t *testing.T, d *deployment, user string) *taskBridge {
	t.Helper()
	b := &taskBridge{bridge: startBridge(ctx, t, d, user), t: t, ctx: ctx, seq: 1000}
	b.send(brokertest.TaskInitLine)
	if r := b.reply(); r.Error != nil {
		t.Fatalf("initialize as %s: %s", user, r.Error.Message)
	}
	b.send(brokertest.InitializedLine)
	return b
}

func (b *taskBridge) send(lines ...string) {
	b.t.Helper()
	if _, err := b.stdin.Write([]byte(strings.Join(lines, "\n") + "\n")); err != nil {
		b.t.Fatalf("writing to connect: %v", err)
	}
}

func (b *taskBridge) reply() brokertest.Reply {
	b.t.Helper()
	line, err := b.readLine(b.ctx)
	if err != nil {
		b.t.Fatalf("reading from connect: %v", err)
	}
	r, err := brokertest.ParseReply([]byte(line))
	if err != nil {
		b.t.Fatalf("reply %q: %v", line, err)
	}
	return r
}

// taskMethod sends one tasks/* request and returns its answer.
func (b *taskBridge) taskMethod(method, id string) brokertest.Reply {
	b.t.Helper()
	b.seq++
	b.send(brokertest.TaskMethodLine(b.seq, method, id))
	return b.reply()
}

// reports sends n fleet reports at once and sorts the answers into the
// tasks started and the refusals by a limit.
func (b *taskBridge) reports(n int) (started []string, refused []brokertest.Reply) {
	b.t.Helper()
	lines := make([]string, n)
	for i := range lines {
		b.seq++
		lines[i] = brokertest.CallLine(b.seq, "github_report_unlabeled", map[string]any{"owner": "fleet", "max_repos": 200})
	}
	b.send(lines...)
	for range n {
		switch r := b.reply(); {
		case r.RateLimited():
			refused = append(refused, r)
		case r.Task() != "":
			started = append(started, r.Task())
		default:
			b.t.Fatalf("answer %s: neither a task nor a rate_limited refusal: %+v", r.ID, r)
		}
	}
	return started, refused
}

// await polls tasks/get until the task leaves working.
func (b *taskBridge) await(id string) string {
	b.t.Helper()
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(25 * time.Millisecond) {
		r := b.taskMethod("tasks/get", id)
		if r.Error != nil {
			b.t.Fatalf("tasks/get %s: %s", id, r.Error.Message)
		}
		if r.Result.Status != tasks.StatusWorking {
			return r.Result.Status
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("task %s still working after two minutes", id)
		}
	}
}

// close ends the bridge, and with it the agent's connection.
func (b *taskBridge) close() {
	_ = b.stdin.Close()
	_ = b.cmd.Process.Kill()
	_ = b.cmd.Wait()
}

func checkLimitRefusal(t *testing.T, what string, r brokertest.Reply) {
	t.Helper()
	if r.Error.Data.RetryAfterMS == nil {
		t.Errorf("%s: refusal %q has no retry_after_ms", what, r.Error.Message)
	}
	if r.Error.Data.Repair == nil {
		t.Errorf("%s: refusal %q has no repair, want one", what, r.Error.Message)
	} else if r.Error.Data.Repair.NextStep == "" {
		t.Errorf("%s: refusal %q: repair next_step is empty, want one", what, r.Error.Message)
	}
}

// An agent, as its own OS user held to max_in_flight = 2, sends thirty
// reports as MCP tasks: two start (as two would answer inline), the
// other 28 are refused with the limits' envelope, and GitHub sees no more
// than those two tasks' fan-out. Closing the connection and connecting
// again makes no room while they run. A second agent user reads, updates
// and cancels the first one's task exactly as it would a task that does
// not exist, and starts its own, its uid having room of its own.
func TestAgentTasksStayInsideTheBrokersLimits(t *testing.T) {
	requireRoot(t)
	gate := brokertest.NewGate(fleetRepoReads)
	d := provisionWith(t, setup{toolsets: `["issues", "reports"]`, fleetRepos: 20, gate: gate})
	other := "ggag2" + randomHex(t, 4)
	addUser(t, other)
	run(t, nil, "usermod", "-a", "-G", d.clients, other)
	appendConfig(t, d.config, "\n[limits]\nmax_in_flight = 2\ncalls_per_second = 1000\ncall_burst = 1000\n")
	d.startBroker(t)
	defer gate.Open()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	first := openTaskBridge(ctx, t, d, d.agent)
	started, refused := first.reports(30)
	if got, want := len(started), 2; got != want {
		t.Fatalf("tasks started = %d, want %d\nbroker:\n%s", got, want, d.brokerErr.String())
	}
	if got, want := len(refused), 28; got != want {
		t.Errorf("calls refused = %d, want %d", got, want)
	}
	checkLimitRefusal(t, "the third task", refused[0])
	if !gate.AwaitHeld(2, time.Minute) {
		t.Fatalf("fleet reads held = %d, want the two tasks' reads", gate.Held())
	}

	first.close()
	again := openTaskBridge(ctx, t, d, d.agent)
	for _, id := range started {
		r := again.taskMethod("tasks/get", id)
		if r.Error != nil {
			t.Fatalf("tasks/get %s from the agent's new connection: error %+v, want the task", id, *r.Error)
		}
		if r.Result.Status != tasks.StatusWorking {
			t.Fatalf("tasks/get %s from the agent's new connection: status = %q, want %q", id, r.Result.Status, tasks.StatusWorking)
		}
	}
	more, refusedAgain := again.reports(3)
	if got := len(more); got != 0 {
		t.Errorf("tasks started from a new connection while two run = %d, want 0", got)
	}
	if len(refusedAgain) > 0 {
		checkLimitRefusal(t, "a task from a new connection", refusedAgain[0])
	}

	second := openTaskBridge(ctx, t, d, other)
	unknown := second.taskMethod("tasks/get", strings.Repeat("0", 32))
	if unknown.Error == nil {
		t.Fatalf("tasks/get of a task that does not exist: %+v", unknown)
	}
	for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
		r := second.taskMethod(method, started[0])
		if r.Error == nil {
			t.Errorf("%s of another agent's task: %+v, want the unknown task's error", method, r.Result)
			continue
		}
		if got, want := r.Error.Code, unknown.Error.Code; got != want {
			t.Errorf("%s of another agent's task: code %d, want %d", method, got, want)
		}
		if got, want := r.Error.Message, unknown.Error.Message; got != want {
			t.Errorf("%s of another agent's task: %q, want %q", method, got, want)
		}
	}
	if r := again.taskMethod("tasks/get", started[0]); r.Error != nil {
		t.Errorf("the first agent's task after the second's cancel: error %+v, want it working", *r.Error)
	} else if r.Result.Status != tasks.StatusWorking {
		t.Errorf("the first agent's task after the second's cancel: status = %q, want %q", r.Result.Status, tasks.StatusWorking)
	}
	theirs, _ := second.reports(1)
	if got := len(theirs); got != 1 {
		t.Errorf("tasks the second agent started = %d, want 1", got)
	}

	gate.Open()
	for _, id := range started {
		if got := again.await(id); got != tasks.StatusCompleted {
			t.Errorf("task %s = %s, want completed", id, got)
		}
	}
	for _, id := range theirs {
		if got := second.await(id); got != tasks.StatusCompleted {
			t.Errorf("the second agent's task %s = %s, want completed", id, got)
		}
	}
	after, _ := again.reports(1)
	if got := len(after); got != 1 {
		t.Errorf("tasks started once the first two ended = %d, want 1", got)
	}
	for _, id := range after {
		if got := again.await(id); got != tasks.StatusCompleted {
			t.Errorf("task %s = %s, want completed", id, got)
		}
	}
	// At most three tasks ran at once (the first agent's two, the
	// second's one), each with its fan-out's calls in flight.
	bound := 3 * fanout.DefaultConcurrency
	if got := gate.Peak(); got > bound {
		t.Errorf("fleet reads in flight at once = %d, want at most %d", got, bound)
	}
	if got := d.emu.PeakInFlight(d.tokens[0]); got > bound {
		t.Errorf("requests in flight at GitHub at once = %d, want at most %d", got, bound)
	}
}
