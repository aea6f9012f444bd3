package tasks_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Two replicas share one store: each test runs on SQLite (two handles on
// one file, as two processes would have) and on a real Redis.
func eachBackend(t *testing.T, fn func(t *testing.T, a, b store.Backend)) {
	open := func(t *testing.T, spec string) store.Backend {
		b, err := store.OpenBackend(context.Background(), spec)
		if err != nil {
			t.Fatalf("OpenBackend(%s): %v", spec, err)
		}
		t.Cleanup(func() { _ = b.Close() })
		return b
	}
	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "state.db")
		fn(t, open(t, path), open(t, path))
	})
	t.Run("redis", func(t *testing.T) {
		u := redisserver.Start(t).URL("tasks")
		fn(t, open(t, u), open(t, u))
	})
}

type clientKey struct{}

// replica is one stateless HTTP server over st, with tools that opt into
// tasks; the X-Client header stands for the authenticated client.
type replica struct {
	url string
	mgr *tasks.Manager
	// release ends the calls of the tool "wait", one per value sent.
	release chan struct{}
}

func newReplica(t *testing.T, st store.Backend) *replica {
	t.Helper()
	return newReplicaWith(t, st, tasks.Limits{})
}

// newReplicaWith is newReplica with the running tasks bounded by lim.
func newReplicaWith(t *testing.T, st store.Backend, lim tasks.Limits) *replica {
	t.Helper()
	release := make(chan struct{})
	caps := &mcp.ServerCapabilities{}
	tasks.Capabilities(caps)
	m := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, &mcp.ServerOptions{Capabilities: caps})
	support := map[string]tooldef.TaskSupport{
		"slow":  {Mode: tooldef.TaskOptional},
		"ask":   {Mode: tooldef.TaskOptional},
		"boom":  {Mode: tooldef.TaskRequired},
		"quick": {},
		"wait":  {Mode: tooldef.TaskOptional},
	}
	schema := json.RawMessage(`{"type":"object","properties":{"ms":{"type":"integer"}}}`)
	m.AddTool(&mcp.Tool{Name: "slow", InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct {
			MS int `json:"ms"`
		}
		_ = json.Unmarshal(req.Params.Arguments, &in)
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slept"}}}, nil
	})
	m.AddTool(&mcp.Tool{Name: "ask", InputSchema: schema}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if r, ok := req.Params.InputResponses["ok"].(*mcp.ElicitResult); ok && r.Action == "accept" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "confirmed"}}}, nil
		}
		return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"ok": &mcp.ElicitParams{Message: "Sure?",
			RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"ok": {Type: "boolean"}}}}}}, nil
	})
	m.AddTool(&mcp.Tool{Name: "boom", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("boom")
	})
	m.AddTool(&mcp.Tool{Name: "quick", InputSchema: schema}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "quick"}}}, nil
	})
	m.AddTool(&mcp.Tool{Name: "wait", InputSchema: schema}, func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-release:
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "released"}}}, nil
	})
	mgr := &tasks.Manager{Store: st, Support: func(n string) tooldef.TaskSupport { return support[n] },
		Owner:        func(ctx context.Context) string { s, _ := ctx.Value(clientKey{}).(string); return s },
		PollInterval: 50 * time.Millisecond, Limits: lim}
	if err := mgr.Register(m); err != nil {
		t.Fatal(err)
	}
	m.AddReceivingMiddleware(mgr.Middleware)
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m }, &mcp.StreamableHTTPOptions{Stateless: true})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), clientKey{}, r.Header.Get("X-Client"))))
	}))
	t.Cleanup(func() {
		srv.Close()
		mgr.Shutdown(context.Background())
	})
	return &replica{url: srv.URL, mgr: mgr, release: release}
}

type rpcError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data"`
}

// call sends one 2026-07-28 request as client, declaring the tasks
// extension or not, and returns its result or error.
func (r *replica) call(t *testing.T, client, method string, params map[string]any, declare bool) (map[string]any, *rpcError) {
	t.Helper()
	caps := map[string]any{}
	if declare {
		caps["extensions"] = map[string]any{tasks.Extension: map[string]any{}}
	}
	params["_meta"] = map[string]any{mcp.MetaKeyProtocolVersion: "2026-07-28", mcp.MetaKeyClientCapabilities: caps,
		mcp.MetaKeyClientInfo: map[string]any{"name": "test", "version": "0"}}
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req, _ := http.NewRequest(http.MethodPost, r.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", method)
	if n, ok := params["name"].(string); ok {
		req.Header.Set("Mcp-Name", n)
	}
	req.Header.Set("X-Client", client)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var msg struct {
		Result map[string]any `json:"result"`
		Error  *rpcError      `json:"error"`
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
				if err := json.Unmarshal([]byte(d), &msg); err != nil {
					t.Fatalf("%s: %v in %s", method, err, d)
				}
				if msg.Result != nil || msg.Error != nil {
					break
				}
			}
		}
	} else if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatalf("%s: HTTP %d: %v", method, resp.StatusCode, err)
	}
	if msg.Result == nil && msg.Error == nil {
		t.Fatalf("%s: HTTP %d: no result and no error", method, resp.StatusCode)
	}
	return msg.Result, msg.Error
}

func (r *replica) mustCall(t *testing.T, client, method string, params map[string]any) map[string]any {
	t.Helper()
	res, e := r.call(t, client, method, params, true)
	if e != nil {
		t.Fatalf("%s: error %d %s", method, e.Code, e.Message)
	}
	return res
}

// await polls tasks/get on r until the task leaves the working status.
func (r *replica) await(t *testing.T, client, id string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a speed check
	for {
		got := r.mustCall(t, client, "tasks/get", map[string]any{"taskId": id})
		if got["status"] != tasks.StatusWorking {
			return got
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s still working", id)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func start(t *testing.T, r *replica, client, tool string, args map[string]any) string {
	t.Helper()
	res := r.mustCall(t, client, "tools/call", map[string]any{"name": tool, "arguments": args})
	id, _ := res["taskId"].(string)
	if res["resultType"] != "task" {
		t.Fatalf("%s: resultType = %v, want task (a CreateTaskResult): %v", tool, res["resultType"], res)
	}
	if id == "" {
		t.Fatalf("%s: no taskId, want one: %v", tool, res)
	}
	wantStatus(t, tool, res, tasks.StatusWorking)
	for _, k := range []string{"result", "error", "inputRequests", "task", "requestState"} {
		if _, ok := res[k]; ok {
			t.Errorf("CreateTaskResult carries %q: %v", k, res)
		}
	}
	return id
}

// checkAck: an ack is resultType complete and no task envelope.
func checkAck(t *testing.T, ack map[string]any) {
	t.Helper()
	if ack["resultType"] != "complete" {
		t.Fatalf("ack %v, want resultType complete", ack)
	}
	for _, k := range []string{"taskId", "status", "result", "error", "inputRequests"} {
		if _, ok := ack[k]; ok {
			t.Fatalf("ack carries %q: %v", k, ack)
		}
	}
}

func TestTaskCompletesAndAnyReplicaAnswers(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a, b := newReplica(t, sa), newReplica(t, sb)
		id := start(t, a, "alice", "slow", map[string]any{"ms": 300})
		// Durable before the answer: the other replica finds it at once.
		got := b.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": id})
		if got["taskId"] != id {
			t.Fatalf("tasks/get on the other replica: taskId = %v, want %s", got["taskId"], id)
		}
		if got["resultType"] != "complete" {
			t.Fatalf("tasks/get on the other replica: resultType = %v, want complete (%v)", got["resultType"], got)
		}
		got = b.await(t, "alice", id)
		wantStatus(t, "awaited task", got, tasks.StatusCompleted)
		wantText(t, "inlined result", got, "slept")
		if _, ok := got["error"]; ok {
			t.Errorf("a completed task carries error: %v", got)
		}
		if ttl, _ := got["ttlMs"].(float64); ttl <= 0 {
			t.Errorf("ttlMs = %v, want > 0", got["ttlMs"])
		}
	})
}

func TestTaskBelongsToTheClientThatStartedIt(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a, b := newReplica(t, sa), newReplica(t, sb)
		id := start(t, a, "alice", "slow", map[string]any{"ms": 200})
		for _, method := range []string{"tasks/get", "tasks/cancel"} {
			_, e := b.call(t, "bob", method, map[string]any{"taskId": id}, true)
			wantRPCError(t, "bob's "+method+" of alice's task (not found)", e, -32602)
		}
		_, e := b.call(t, "bob", "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{}}, true)
		wantRPCError(t, "bob's tasks/update of alice's task", e, -32602)
		// Bob's cancel changed nothing: alice's task completes.
		wantStatus(t, "alice's task", a.await(t, "alice", id), tasks.StatusCompleted)
	})
}

func TestTaskCancelledOnAnotherReplicaStops(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a, b := newReplica(t, sa), newReplica(t, sb)
		id := start(t, a, "alice", "slow", map[string]any{"ms": 60000})
		ack := b.mustCall(t, "alice", "tasks/cancel", map[string]any{"taskId": id})
		checkAck(t, ack)
		// Replica a's run sees the cancellation in the store and stops:
		// Wait returns long before the tool's minute.
		done := make(chan struct{})
		go func() { a.mgr.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatal("the task still runs on the replica that started it")
		}
		got := a.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": id})
		wantStatus(t, "cancelled task", got, tasks.StatusCancelled)
		if _, ok := got["result"]; ok {
			t.Errorf("a cancelled task carries a result: %v", got)
		}
		// Cancelling a settled task is the same ack, and changes nothing.
		if again := a.mustCall(t, "alice", "tasks/cancel", map[string]any{"taskId": id}); again["resultType"] != "complete" {
			t.Fatalf("second cancel: resultType = %v, want complete (%v)", again["resultType"], again)
		}
	})
}

func TestTaskAsksForInputAndResumesOnAnyReplica(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a, b := newReplica(t, sa), newReplica(t, sb)
		id := start(t, a, "alice", "ask", map[string]any{})
		got := a.await(t, "alice", id)
		reqs, _ := got["inputRequests"].(map[string]any)
		wantStatus(t, "task asking for input", got, tasks.StatusInputRequired)
		if reqs["ok"] == nil {
			t.Fatalf("inputRequests = %v, want one named ok", got["inputRequests"])
		}
		// An answer to nothing asked is acked and ignored.
		b.mustCall(t, "alice", "tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{"other": map[string]any{"x": 1}}})
		wantStatus(t, "after an unrelated answer", b.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": id}), tasks.StatusInputRequired)
		ack := b.mustCall(t, "alice", "tasks/update", map[string]any{"taskId": id,
			"inputResponses": map[string]any{"ok": map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}})
		checkAck(t, ack)
		got = a.await(t, "alice", id)
		wantStatus(t, "after the answer", got, tasks.StatusCompleted)
		wantText(t, "after the answer", got, "confirmed")
	})
}

func TestTaskPanicFailsTheTaskNotTheServer(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a := newReplica(t, sa)
		id := start(t, a, "alice", "boom", map[string]any{})
		got := a.await(t, "alice", id)
		e, _ := got["error"].(map[string]any)
		wantStatus(t, "task that panicked", got, tasks.StatusFailed)
		if e["code"] != float64(-32603) {
			t.Fatalf("task that panicked: error code = %v, want -32603 (%v)", e["code"], got)
		}
		if _, ok := got["result"]; ok {
			t.Errorf("a failed task carries a result: %v", got)
		}
		if res := a.mustCall(t, "alice", "tools/call", map[string]any{"name": "quick", "arguments": map[string]any{}}); res["resultType"] == "task" {
			t.Fatalf("quick became a task: %v", res)
		}
	})
}

func TestWithoutTheExtensionCallsAnswerInline(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, _ store.Backend) {
		a := newReplica(t, sa)
		res, e := a.call(t, "alice", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, false)
		if e != nil {
			t.Fatalf("inline call: %+v", e)
		}
		if res["resultType"] == "task" {
			t.Fatalf("inline call: resultType = task, want an inline answer (%v)", res)
		}
		if res["taskId"] != nil {
			t.Fatalf("inline call: taskId = %v, want none", res["taskId"])
		}
		if res["content"] == nil {
			t.Fatalf("inline call: no content, want the tool's answer (%v)", res)
		}
		_, e = a.call(t, "alice", "tools/call", map[string]any{"name": "boom", "arguments": map[string]any{}}, false)
		wantRPCError(t, "a task-only tool without the extension", e, mcp.CodeMissingRequiredClientCapabilities)
		if !strings.Contains(string(e.Data), tasks.Extension) {
			t.Fatalf("a task-only tool without the extension: error data %s, want it naming %s", e.Data, tasks.Extension)
		}
		for _, method := range []string{"tasks/get", "tasks/update", "tasks/cancel"} {
			_, e := a.call(t, "alice", method, map[string]any{"taskId": "x"}, false)
			wantRPCError(t, method+" without the extension", e, mcp.CodeMissingRequiredClientCapabilities)
		}
		_, e = a.call(t, "alice", "tasks/get", map[string]any{"taskId": "no-such-task"}, true)
		wantRPCError(t, "tasks/get of an unknown task", e, -32602)
		for _, method := range []string{"tasks/result", "tasks/list"} {
			_, e := a.call(t, "alice", method, map[string]any{"taskId": "x"}, true)
			wantRPCError(t, method+" (removed by SEP-2663)", e, -32601)
		}
	})
}

func TestShutdownFailsTheTasksItCutsShort(t *testing.T) {
	eachBackend(t, func(t *testing.T, sa, sb store.Backend) {
		a, b := newReplica(t, sa), newReplica(t, sb)
		id := start(t, a, "alice", "slow", map[string]any{"ms": 60000})
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		a.mgr.Shutdown(ctx)
		got := b.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": id})
		e, _ := got["error"].(map[string]any)
		msg, _ := e["message"].(string)
		wantStatus(t, "after shutdown", got, tasks.StatusFailed)
		if !strings.Contains(msg, "shut down") {
			t.Fatalf("after shutdown: error message %q, want one saying %q", msg, "shut down")
		}
		// A closing replica starts no task; the other one still does.
		if _, e := a.call(t, "alice", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, true); e == nil {
			t.Fatal("a shut-down replica started a task")
		}
		start(t, b, "alice", "slow", map[string]any{"ms": 1})
	})
}

// openSQLite is one store for a test whose replicas share nothing else.
func openSQLite(t *testing.T) store.Backend {
	t.Helper()
	st, err := store.OpenBackend(context.Background(), filepath.Join(t.TempDir(), "state.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// limitEnvelope is the envelope a refusal by a limit carries in its data.
type limitEnvelope struct {
	Code         string `json:"code"`
	Temporary    bool   `json:"temporary"`
	RetryAfterMS *int64 `json:"retry_after_ms"`
	Repair       *struct {
		NextStep string `json:"next_step"`
	} `json:"repair"`
}

// refused checks that e is a refusal by a limit (-32000, rate_limited,
// with when to retry and what to do meanwhile) naming setting.
func refused(t *testing.T, what string, e *rpcError, setting string) {
	t.Helper()
	if e == nil {
		t.Fatalf("%s: started, want a refusal", what)
	}
	if got, want := e.Code, -32000; got != want {
		t.Errorf("%s: error code = %d, want %d (%s)", what, got, want, e.Message)
	}
	var env limitEnvelope
	if err := json.Unmarshal(e.Data, &env); err != nil {
		t.Fatalf("%s: data %s: %v", what, e.Data, err)
	}
	if got, want := env.Code, "rate_limited"; got != want {
		t.Errorf("%s: envelope code = %q, want %q", what, got, want)
	}
	if !env.Temporary {
		t.Errorf("%s: envelope not temporary", what)
	}
	if env.RetryAfterMS == nil {
		t.Errorf("%s: no retry_after_ms", what)
	}
	if env.Repair == nil {
		t.Errorf("%s: no repair, want one", what)
	} else if env.Repair.NextStep == "" {
		t.Errorf("%s: repair has no next_step, want one", what)
	}
	if !strings.Contains(e.Message, setting) {
		t.Errorf("%s: message %q does not name %s", what, e.Message, setting)
	}
}

// A client runs at most MaxTasksPerClient tasks at once and the process
// MaxTasks: a task over either is refused with the limits' envelope, the
// refused client's running tasks stay readable, and a slot comes back
// when a task ends, before its client can see that it has.
func TestRunningTasksAreCappedPerClientAndInTotal(t *testing.T) {
	t.Parallel()
	r := newReplicaWith(t, openSQLite(t), tasks.Limits{MaxTasks: 3, MaxTasksPerClient: 2})
	waiting := start(t, r, "alice", "wait", map[string]any{})
	start(t, r, "alice", "slow", map[string]any{"ms": 60000})
	_, e := r.call(t, "alice", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, true)
	refused(t, "alice's third task", e, "max_tasks_per_client")
	if got := r.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": waiting}); got["status"] != tasks.StatusWorking {
		t.Errorf("alice's first task after the refusal: %v, want working", got["status"])
	}
	start(t, r, "bob", "slow", map[string]any{"ms": 60000})
	_, e = r.call(t, "carol", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, true)
	refused(t, "a fourth task in all", e, "max_tasks")
	// Inline calls are not tasks: the caps leave them alone.
	if res, e := r.call(t, "carol", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, false); e != nil {
		t.Errorf("carol's inline call: %+v, want an answer", e)
	} else if res["content"] == nil {
		t.Errorf("carol's inline call: no content, want the tool's answer (%v)", res)
	}

	r.release <- struct{}{}
	if got := r.await(t, "alice", waiting); got["status"] != tasks.StatusCompleted {
		t.Fatalf("alice's first task: %v, want completed", got["status"])
	}
	start(t, r, "alice", "slow", map[string]any{"ms": 1})
}

// A deployment's own admission (Limits.Admit: the broker's in-flight
// slots) is asked before a task runs and given back when its run ends:
// when the task stops to ask for input, and when it ends. A refusal is
// answered as the caps' are; a tasks/update that would resume a task
// without room is refused and leaves it waiting for the same answers.
func TestAdmitIsHeldWhileATaskRuns(t *testing.T) {
	t.Parallel()
	var (
		mu            sync.Mutex
		held, taken   int
		refuse        bool
		releasedTwice bool
	)
	admit := func(context.Context) (func(), *contract.Error) {
		mu.Lock()
		defer mu.Unlock()
		if refuse {
			return nil, contract.Errorf(contract.CodeRateLimited, "no room (max_in_flight)").WithRetryAfter(1000).
				WithRepair(contract.Repair{NextStep: "wait for a task to end"})
		}
		held++
		taken++
		var once sync.Once
		return func() {
			ran := false
			once.Do(func() { ran = true; mu.Lock(); held--; mu.Unlock() })
			if !ran {
				mu.Lock()
				releasedTwice = true
				mu.Unlock()
			}
		}, nil
	}
	count := func() (int, int) { mu.Lock(); defer mu.Unlock(); return held, taken }
	r := newReplicaWith(t, openSQLite(t), tasks.Limits{Admit: admit})

	running := start(t, r, "alice", "wait", map[string]any{})
	if h, _ := count(); h != 1 {
		t.Errorf("slots held by a running task = %d, want 1", h)
	}
	asking := start(t, r, "alice", "ask", map[string]any{})
	if got := r.await(t, "alice", asking); got["status"] != tasks.StatusInputRequired {
		t.Fatalf("ask: %v, want input_required", got["status"])
	}
	r.release <- struct{}{}
	if got := r.await(t, "alice", running); got["status"] != tasks.StatusCompleted {
		t.Fatalf("wait: %v, want completed", got["status"])
	}
	if h, _ := count(); h != 0 {
		t.Errorf("slots held once one task ended and the other asks for input = %d, want 0", h)
	}

	mu.Lock()
	refuse = true
	mu.Unlock()
	_, e := r.call(t, "alice", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, true)
	refused(t, "a task the deployment has no room for", e, "max_in_flight")
	answer := map[string]any{"taskId": asking, "inputResponses": map[string]any{"ok": map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}}
	_, e = r.call(t, "alice", "tasks/update", answer, true)
	refused(t, "resuming a task without room", e, "max_in_flight")
	if got := r.mustCall(t, "alice", "tasks/get", map[string]any{"taskId": asking}); got["status"] != tasks.StatusInputRequired {
		t.Fatalf("the task whose resumption was refused: %v, want input_required", got["status"])
	}

	mu.Lock()
	refuse = false
	mu.Unlock()
	checkAck(t, r.mustCall(t, "alice", "tasks/update", answer))
	if got := r.await(t, "alice", asking); got["status"] != tasks.StatusCompleted {
		t.Fatalf("the resumed task: %v, want completed", got["status"])
	}
	h, taken := count()
	if h != 0 {
		t.Errorf("slots held once every task ended = %d, want 0", h)
	}
	if want := 3; taken != want { // wait, ask, ask resumed
		t.Errorf("slots taken = %d, want %d", taken, want)
	}
	mu.Lock()
	defer mu.Unlock()
	if releasedTwice {
		t.Error("a slot was given back twice")
	}
}

// A server given no state store refuses to make a task, as an error the
// client reads, and still answers a call made without one.
func TestWithoutAStoreATaskIsRefused(t *testing.T) {
	t.Parallel()
	r := newReplica(t, nil)
	_, e := r.call(t, "alice", "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1}}, true)
	if e == nil {
		t.Fatal("a task was started without a store; want a refusal")
	}
	if !strings.Contains(e.Message, "no state store") {
		t.Errorf("refusal message = %q, want it to say there is no state store", e.Message)
	}
	if _, e := r.call(t, "alice", "tools/call", map[string]any{"name": "quick", "arguments": map[string]any{}}, true); e != nil {
		t.Errorf("a call that runs inline failed without a store: %s", e.Message)
	}
}
