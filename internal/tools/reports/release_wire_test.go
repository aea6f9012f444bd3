package reports_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A call cancelled mid-report returns what it found with cancelled, and
// its next_call finishes the report with the uncapped rows, each once.
func TestReportReleasePRsCancelled(t *testing.T) {
	args := `{"owner":"fleet","analyze":true}`
	want := releaseReport(t, fleetEnv(t, releaseFleet, servertest.Options{}), json.RawMessage(args)).Rows
	env := fleetEnv(t, releaseFleet, servertest.Options{Emulator: emulator.Options{Latency: 30 * time.Millisecond}})
	_, h, err := reports.Specs(env.Stack.Service)[1].Build(&tooldef.Env{})
	if err != nil {
		t.Fatal(err)
	}
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
	env := fleetEnv(t, releaseFleet, servertest.Options{})
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
	cs, err := cl.Connect(ctx, cTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	params := &mcp.CallToolParams{Name: releaseTool, Arguments: map[string]any{"owner": "fleet"}}
	params.SetProgressToken("release-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	var out reports.ReleaseOut
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &out)
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= out.Scanned.Pulls || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	if out.Scanned.Pulls == 0 || len(got) != out.Scanned.Pulls {
		t.Fatalf("%d notifications for %d pull requests", len(got), out.Scanned.Pulls)
	}
	if last := got[len(got)-1]; last.Progress != last.Total || last.Total != float64(out.Scanned.Found) {
		t.Errorf("last notification %v of %v, found %d", last.Progress, last.Total, out.Scanned.Found)
	}
}
