package reports_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ciArgs is a verbosity-3 report on the fleet repository whose open pull
// requests are red, pending and cancelled: two failing jobs, two calls
// each, and three pull requests.
func ciArgs(t *testing.T, env *servertest.Env, extra map[string]any) map[string]any {
	t.Helper()
	i, _ := fleetWith(t, env, "red", "pending", "cancelled")
	args := map[string]any{"owner": emulator.FleetOrg, "repo": emulator.Fleet(i).Name, "verbosity": 3}
	for k, v := range extra {
		args[k] = v
	}
	return args
}

// whole is the report with every bound wide open.
func whole(t *testing.T, env *servertest.Env) reports.CIStatusOut {
	t.Helper()
	out := ciReport(t, env, ciArgs(t, env, nil))
	if out.Truncated {
		t.Fatalf("whole report: truncated = true (%s), want false", out.TruncatedReason)
	}
	if len(out.Pulls) != 3 {
		t.Fatalf("whole report: pulls = %d, want 3: %+v", len(out.Pulls), out.Pulls)
	}
	if len(out.Failing) != 2 {
		t.Fatalf("whole report: failing = %d, want 2: %+v", len(out.Failing), out.Failing)
	}
	return out
}

// max_pulls and max_api_calls stop the report with their reasons, and
// following next_call as given finishes it: every pull request and
// failing check of the whole report, each once, no call over its budget.
func TestReportCIStatusBoundsContinue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		extra  map[string]any
		reason reports.CIStop
	}{
		{"max_pulls", map[string]any{"max_pulls": 1}, "max_items"},
		{"max_api_calls", map[string]any{"max_api_calls": 3}, "max_api_calls"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := ciEnv(t, servertest.Options{})
			want := whole(t, env)
			got, outs := ciAll(t, env, ciArgs(t, env, tc.extra))
			if outs[0].TruncatedReason != tc.reason {
				t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, tc.reason)
			}
			if len(outs) < 2 {
				t.Fatalf("calls = %d, want at least 2", len(outs))
			}
			for _, o := range outs {
				if limit, ok := tc.extra["max_api_calls"].(int); ok && o.APICalls > limit {
					t.Errorf("a call's api_calls = %d, want at most %d (max_api_calls)", o.APICalls, limit)
				}
			}
			sameReport(t, got, want)
		})
	}
}

// A budget too small to report anything new (the page, and a failing
// job's two calls) is refused with the budget that suffices as its
// repair, which goes on from the same cursor.
func TestReportCIStatusTooFewCalls(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	want := whole(t, env)
	first := ciReport(t, env, ciArgs(t, env, map[string]any{"max_api_calls": 2}))
	if first.TruncatedReason != "max_api_calls" {
		t.Fatalf("first call: truncated_reason = %q, want %q", first.TruncatedReason, "max_api_calls")
	}
	if len(first.Pulls) != 3 {
		t.Fatalf("first call: pulls = %d, want 3", len(first.Pulls))
	}
	if len(first.Failing) != 0 {
		t.Fatalf("first call: failing = %+v, want none", first.Failing)
	}
	e := servertest.Refused(t, env, ciTool, ciNext(t, first))
	if e.Code != "invalid_field" {
		t.Fatalf("too few calls: code = %q, want %q (%+v)", e.Code, "invalid_field", e)
	}
	if e.Details == nil || e.Details.Field != "max_api_calls" {
		t.Fatalf("too few calls: details = %+v, want field max_api_calls", e.Details)
	}
	if e.Repair == nil {
		t.Fatalf("too few calls: repair = nil, want one")
	}
	b, _ := json.Marshal(e.Repair.Arguments)
	rest, _ := ciAll(t, env, json.RawMessage(b))
	rest.Pulls = append(first.Pulls, rest.Pulls...)
	sameReport(t, rest, want)
}

// A rate limit met mid-report stops it (rate_limited) with what it found;
// once the window resets, the continuation finishes it.
func TestReportCIStatusRateLimited(t *testing.T) {
	t.Parallel()
	clock := &testClock{t: time.Now()}
	store := filepath.Join(t.TempDir(), "state.db")
	env := ciEnv(t, servertest.Options{Emulator: emulator.Options{Now: clock.Now}, StorePath: store})
	want := whole(t, env)
	args := ciArgs(t, env, nil)
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: "/repos/fleet/" + args["repo"].(string) + "/actions/jobs/*", Kind: "rate_limit", Times: 1}); err != nil {
		t.Fatal(err)
	}
	first := ciReport(t, env, args)
	if first.TruncatedReason != "rate_limited" {
		t.Fatalf("first call: truncated_reason = %q, want %q", first.TruncatedReason, "rate_limited")
	}
	if len(first.Failing) == 2 {
		t.Fatalf("first call: failing = %d, want fewer than 2 (stopped before both were read)", len(first.Failing))
	}
	clock.Advance(61 * time.Minute)
	// A fresh ghgate over the same store: its cursor key, none of the old
	// window's rate picture.
	env2 := servertest.Start(t, servertest.Options{Emu: env.Emu, StorePath: store, Toolsets: []string{"reports"}})
	rest, _ := ciAll(t, env2, ciNext(t, first))
	rest.Pulls = append(first.Pulls, rest.Pulls...)
	rest.Failing = append(first.Failing, rest.Failing...)
	sameReport(t, rest, want)
}

// A call cancelled mid-report returns what it found with cancelled, and
// its next_call finishes the report. One pull request at a time, and the
// cancellation as the first is done, so the rest are left for next_call.
func TestReportCIStatusCancelled(t *testing.T) {
	t.Parallel()
	env := ciEnv(t, servertest.Options{})
	want := whole(t, env)
	_, h, err := (&reports.Tools{Service: env.Stack.Service, Concurrency: 1}).ReportCIStatus().Build(&tooldef.Env{CheckOutputs: true})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var notified []int
	ctx = tooldef.WithProgress(ctx, func(done, total int, _ string) {
		notified = append(notified, done)
		cancel()
	})
	raw, _ := json.Marshal(ciArgs(t, env, nil))
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: ciTool, Arguments: raw}})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("call: is_error = true, want a result: %+v", res)
	}
	var first reports.CIStatusOut
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &first)
	if first.TruncatedReason != "cancelled" {
		t.Fatalf("cancelled call: truncated_reason = %q, want %q", first.TruncatedReason, "cancelled")
	}
	if len(first.Failing) > 1 {
		t.Fatalf("cancelled call: failing = %d, want at most 1 (the first one's)", len(first.Failing))
	}
	if len(first.Pulls) != 3 {
		t.Fatalf("cancelled call: pulls = %d, want 3", len(first.Pulls))
	}
	if len(notified) != 1 {
		t.Fatalf("cancelled call: progress notifications = %v, want 1", notified)
	}
	rest, _ := ciAll(t, env, ciNext(t, first))
	rest.Pulls = append(first.Pulls, rest.Pulls...)
	rest.Failing = append(first.Failing, rest.Failing...)
	sameReport(t, rest, want)
}
