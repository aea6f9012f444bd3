package reports_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A client that sends a progress token gets notifications/progress with
// it: repositories done of the total, rising to the total.
func TestReportUnlabeledProgress(t *testing.T) {
	env := fleetEnv(t, 12, servertest.Options{})
	var out reports.UnlabeledOut
	got := progressCall(t, env, tool, map[string]any{"owner": "fleet"}, &out, func() int { return out.Scanned.Repos })
	if len(got) == 0 || len(got) != out.Scanned.Repos {
		t.Fatalf("%d notifications for %d repositories", len(got), out.Scanned.Repos)
	}
	for i, p := range got {
		if p.ProgressToken != "report-1" || p.Total != float64(out.Scanned.Repos) || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: %+v", i, p)
		}
	}
	if last := got[len(got)-1]; last.Progress != last.Total {
		t.Errorf("last notification %v of %v", last.Progress, last.Total)
	}
}

// A call cancelled mid-report returns what it found with cancelled, and
// no goroutine of it is left behind.
func TestReportUnlabeledCancel(t *testing.T) {
	env := fleetEnv(t, fleetSize, servertest.Options{Emulator: emulator.Options{Latency: 30 * time.Millisecond}})
	_, h, err := reports.Specs(env.Stack.Service)[0].Build(&tooldef.Env{})
	if err != nil {
		t.Fatal(err)
	}
	call := func(ctx context.Context) reports.UnlabeledOut {
		res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: tool, Arguments: json.RawMessage(`{"owner":"fleet","max_repos":200}`)}})
		if err != nil || res.IsError {
			t.Fatalf("call: %v %+v", err, res)
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
	if out.TruncatedReason != "cancelled" || out.NextCall == nil {
		t.Errorf("cancelled report: reason %q, next_call %v", out.TruncatedReason, out.NextCall)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after the cancelled report, %d before", n, before)
	}
}
