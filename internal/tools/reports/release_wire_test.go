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
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("call: is_error = true, want a result: %+v", res)
	}
	var first reports.ReleaseOut
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &first)
	if first.TruncatedReason != "cancelled" {
		t.Fatalf("cancelled report: truncated_reason = %q, want %q", first.TruncatedReason, "cancelled")
	}
	if first.NextCall == nil {
		t.Fatal("cancelled report: next_call = nil, want one")
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
	if out.Scanned.Pulls == 0 {
		t.Fatal("scanned.pulls = 0, want some")
	}
	if len(got) != out.Scanned.Pulls {
		t.Fatalf("notifications = %d, want %d (one per pull request)", len(got), out.Scanned.Pulls)
	}
	for i, p := range got {
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Errorf("notification %d: progress = %v, want over the one before (%v)", i, p.Progress, got[i-1].Progress)
		}
	}
	last := got[len(got)-1]
	if last.Progress != last.Total {
		t.Errorf("last notification: progress = %v, want the total %v", last.Progress, last.Total)
	}
	if last.Total != float64(out.Scanned.Found) {
		t.Errorf("last notification: total = %v, want %d (scanned.found)", last.Total, out.Scanned.Found)
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
