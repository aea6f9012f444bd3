package reports_test

import (
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client that sends a progress token gets notifications/progress with
// it: repositories done of the total, rising to the total.
func TestReportUnlabeledProgress(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{})
	var out reports.UnlabeledOut
	got := progressCall(t, env, tool, "report-1", map[string]any{"owner": "fleet"}, &out, func() int { return out.Scanned.Repos })
	if len(got) == 0 {
		t.Fatal("notifications = 0, want one per repository")
	}
	if len(got) != out.Scanned.Repos {
		t.Fatalf("notifications = %d, want %d (one per repository)", len(got), out.Scanned.Repos)
	}
	for i, p := range got {
		if p.ProgressToken != "report-1" {
			t.Errorf("notification %d: progressToken = %v, want %q", i, p.ProgressToken, "report-1")
		}
		if p.Total != float64(out.Scanned.Repos) {
			t.Errorf("notification %d: total = %v, want %d", i, p.Total, out.Scanned.Repos)
		}
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Errorf("notification %d: progress = %v, want over the one before (%v)", i, p.Progress, got[i-1].Progress)
		}
	}
	if last := got[len(got)-1]; last.Progress != last.Total {
		t.Errorf("last notification: progress = %v, want the total %v", last.Progress, last.Total)
	}
}

// progressSession is a client session that records the progress
// notifications it receives; notes waits until n have come (they may
// trail the result on the wire), or five seconds, and returns them.
func progressSession(t *testing.T, env *servertest.Env) (cs *mcp.ClientSession, notes func(n int) []*mcp.ProgressNotificationParams) {
	t.Helper()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	ctx := context.Background()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := env.Stack.Server.MCP.Connect(ctx, sTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "progress", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.Params)
		}})
	cs, err = cl.Connect(ctx, cTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return cs, func(n int) []*mcp.ProgressNotificationParams {
		deadline := time.Now().Add(5 * time.Second)
		for {
			mu.Lock()
			have := slices.Clone(got)
			mu.Unlock()
			if len(have) >= n || time.Now().After(deadline) {
				return have
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// A call cancelled mid-report returns what it found with cancelled, and
// no goroutine of it is left behind.
func TestReportUnlabeledCancel(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{Emulator: emulator.Options{Latency: 30 * time.Millisecond}})
	h := handler(t, env, tool)
	call := func(ctx context.Context) reports.UnlabeledOut {
		res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool, Arguments: json.RawMessage(`{"owner":"fleet","max_repos":200}`)}})
		if err != nil {
			t.Fatalf("call: %v", err)
		}
		if res.IsError {
			t.Fatalf("call: is_error = true, want a result: %+v", res)
		}
		var out reports.UnlabeledOut
		b, _ := json.Marshal(res.StructuredContent)
		_ = json.Unmarshal(b, &out)
		return out
	}
	call(context.Background()) // warm: connections open, as before the cancelled one
	before := runtime.NumGoroutine()
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	out := call(ctx)
	if out.TruncatedReason != "cancelled" {
		t.Fatalf("cancelled report: truncated_reason = %q, want %q", out.TruncatedReason, "cancelled")
	}
	if out.NextCall == nil {
		t.Fatal("cancelled report: next_call = nil, want one")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("goroutines after the cancelled report = %d, want at most %d (before)", n, before)
	}
	// The next_call, taken as given, finishes the report: with the rows
	// the cancelled call returned, every row of the whole report, once.
	whole := call(context.Background())
	rest, _ := all(t, env, next(t, out))
	got := append(append([]reports.UnlabeledRow{}, out.Rows...), rest...)
	sameRows(t, got, whole.Rows)
}

// progressCall calls a report with a progress token over its own session,
// decodes the result into out, and returns the notifications heard once
// want() of them have come (or five seconds have passed).
func progressCall(t *testing.T, env *servertest.Env, name, token string, args map[string]any, out any, want func() int) []*mcp.ProgressNotificationParams {
	t.Helper()
	cs, notes := progressSession(t, env)
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken(token)
	res, err := cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("call: is_error = true, want a result: %+v", res)
	}
	b := servertest.Answer(t, cs, name, args, res).JSON
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	return notes(want())
}
