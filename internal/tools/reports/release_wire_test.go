package reports_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call cancelled mid-report returns what it found with cancelled, and
// its next_call finishes the report with the uncapped rows, each once.
func TestReportReleasePRsCancelled(t *testing.T) {
	t.Parallel()
	args := `{"owner":"fleet","analyze":true}`
	want := releaseReport(t, fleetEnv(t, releaseFleet, servertest.Options{}), json.RawMessage(args)).Rows
	env := fleetEnv(t, releaseFleet, servertest.Options{Emulator: emulator.Options{Latency: 30 * time.Millisecond}})
	h := handler(t, env, releaseTool)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: releaseTool, Arguments: json.RawMessage(args)}})
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	var first reports.ReleaseOut
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &first)
	if first.TruncatedReason != "cancelled" || first.NextCall == nil {
		t.Fatalf("cancelled report: reason %q, next_call %v", first.TruncatedReason, first.NextCall)
	}
	b, _ = json.Marshal(first.NextCall.Arguments)
	rest, _ := releaseAll(t, env, json.RawMessage(b))
	sameReleaseRows(t, append(first.Rows, rest...), want)
}

// A client that sends a progress token hears pull requests done of the
// total, rising to the total.
func TestReportReleasePRsProgress(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	var out reports.ReleaseOut
	got := progressCall(t, env, releaseTool, "report-1", map[string]any{"owner": "fleet"}, &out, func() int { return out.Scanned.Pulls })
	if out.Scanned.Pulls == 0 || len(got) != out.Scanned.Pulls {
		t.Fatalf("%d notifications for %d pull requests", len(got), out.Scanned.Pulls)
	}
	for i, p := range got {
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Errorf("notification %d went backwards: %+v", i, p)
		}
	}
	if last := got[len(got)-1]; last.Progress != last.Total || last.Total != float64(out.Scanned.Found) {
		t.Errorf("last notification %v of %v, found %d", last.Progress, last.Total, out.Scanned.Found)
	}
}

// From a client declaring the tasks extension, the report runs as a task:
// created, polled, and its result the rows the inline call gives.
func TestReportReleasePRsAsTask(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	inline := releaseReport(t, env, map[string]any{"owner": "fleet", "only_missing": true})
	var out reports.ReleaseOut
	runTask(t, serveHTTP(t, env), releaseTool, map[string]any{"owner": "fleet", "only_missing": true}, &out)
	sameReleaseRows(t, out.Rows, inline.Rows)
}
