package reports_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bobWants is what bob's repository-path report holds: the open
// Dependabot and code scanning alerts of the non-archived repositories
// (he may not read secret scanning), and the disabled counts of a whole
// run.
func bobWants(t *testing.T) (map[string]bool, reports.TypeCounts) {
	t.Helper()
	env := fleetEnv(t, fleetSize, servertest.Options{Token: emulator.DemoTokenBob})
	out := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200, "max_api_calls": 1000})
	if out.Truncated {
		t.Fatalf("uncapped: truncated = true (%s), want false", out.TruncatedReason)
	}
	want := planted(env, "fleet", false, reports.Dependabot, reports.CodeScanning)
	sameAlerts(t, out.Alerts, want)
	return want, out.Disabled
}

func sumDisabled(outs []reports.AlertsOut) reports.TypeCounts {
	var d reports.TypeCounts
	for _, o := range outs {
		d.Dependabot += o.Disabled.Dependabot
		d.CodeScanning += o.Disabled.CodeScanning
		d.SecretScanning += o.Disabled.SecretScanning
	}
	return d
}

// Each bound stops the report with its reason, within the bound, and
// next_call taken as given finishes it: every alert once, and the
// disabled counts of an uncapped run.
//
// Serial: beside the package's other tests, the max_api_calls case runs
// out of its 200 follow-up calls (seen twice; alone it passes). Not yet
// understood.
func TestReportSecurityAlertsBoundsContinue(t *testing.T) {
	want, disabled := bobWants(t)
	cases := []struct {
		name, token string
		args        map[string]any
		reason      reports.Stop
	}{
		{"max_api_calls", emulator.DemoTokenBob, map[string]any{"owner": "fleet", "max_api_calls": 7, "alert_limit": 1000, "max_repos": 200}, "max_api_calls"},
		{"max_repos", emulator.DemoTokenBob, map[string]any{"owner": "fleet", "max_repos": 4, "alert_limit": 1000}, "max_repos"},
		{"max_results/repo", emulator.DemoTokenBob, map[string]any{"owner": "fleet", "alert_limit": 7, "max_repos": 200, "max_api_calls": 1000}, "max_results"},
		{"max_results/org", emulator.DemoTokenAlice, map[string]any{"owner": "fleet", "alert_limit": 7}, "max_results"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			env := fleetEnv(t, fleetSize, servertest.Options{Token: tc.token})
			rows, outs := allAlerts(t, env, tc.args)
			if outs[0].TruncatedReason != tc.reason {
				t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, tc.reason)
			}
			if len(outs) < 3 {
				t.Fatalf("calls = %d, want at least 3", len(outs))
			}
			for _, o := range outs {
				if max, ok := tc.args["max_api_calls"].(int); ok && o.APICalls > max {
					t.Errorf("a call's api_calls = %d, want at most %d (max_api_calls)", o.APICalls, max)
				}
				if limit := tc.args["alert_limit"].(int); len(o.Alerts) > limit {
					t.Errorf("a call's alerts = %d, want at most %d (alert_limit)", len(o.Alerts), limit)
				}
			}
			if tc.token == emulator.DemoTokenAlice {
				sameAlerts(t, rows, planted(env, "fleet", false, allTypes...))
				return
			}
			sameAlerts(t, rows, want)
			if got := sumDisabled(outs); got != disabled {
				t.Errorf("disabled over the calls = %+v, want %+v (uncapped)", got, disabled)
			}
		})
	}
}

// The rate floor (2% of x-ratelimit-limit, at least the calls in flight)
// stops the report as rate_limited; a disabled feature's 403 never does.
// After the window resets, the continuation finishes it.
func TestReportSecurityAlertsRateFloor(t *testing.T) {
	t.Parallel()
	want, disabled := bobWants(t)
	clock := &testClock{t: time.Now()}
	store := filepath.Join(t.TempDir(), "state.db")
	env := fleetEnv(t, fleetSize, servertest.Options{Token: emulator.DemoTokenBob, StorePath: store,
		Emulator: emulator.Options{Now: clock.Now, CoreLimit: 50}})
	args := any(map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200, "max_api_calls": 1000})
	var rows []reports.AlertRow
	var outs []reports.AlertsOut
	for i := 0; ; i++ {
		out := alerts(t, env, args)
		rows, outs = append(rows, out.Alerts...), append(outs, out)
		if !out.Truncated {
			break
		}
		if out.TruncatedReason != "rate_limited" {
			t.Fatalf("call %d: truncated_reason = %q, want %q", i, out.TruncatedReason, "rate_limited")
		}
		if i == 10 {
			t.Fatalf("call %d: still truncated, want the report finished within 10 windows", i)
		}
		if left := 50 - out.APICalls; i == 0 && left < 8 {
			t.Errorf("calls left = %d of 50, want at least 8: past the floor", left)
		}
		// A new window; a fresh ghgate over the same store, without the
		// old window's rate picture.
		clock.Advance(61 * time.Minute)
		env = servertest.Start(t, servertest.Options{Emu: env.Emu, StorePath: store, Toolsets: []string{"reports"}, Token: emulator.DemoTokenBob})
		args = nextAlerts(t, out)
	}
	if len(outs) < 2 {
		t.Fatalf("calls = %d, want at least 2: the report was never rate limited", len(outs))
	}
	sameAlerts(t, rows, want)
	if got := sumDisabled(outs); got != disabled {
		t.Errorf("disabled over the calls = %+v, want %+v (uncapped)", got, disabled)
	}
}

// A call cancelled mid-report returns what it found with cancelled; its
// next_call finishes the report.
func TestReportSecurityAlertsCancelled(t *testing.T) {
	t.Parallel()
	want, _ := bobWants(t)
	env := fleetEnv(t, fleetSize, servertest.Options{Token: emulator.DemoTokenBob, Emulator: emulator.Options{Latency: 30 * time.Millisecond}})
	h := handler(t, env, alertsTool)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	res, err := h(ctx, &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: alertsTool,
		Arguments: json.RawMessage(`{"owner":"fleet","max_repos":200,"alert_limit":1000}`)}})
	if err != nil {
		t.Fatalf("call: %v", err)
	}
	if res.IsError {
		t.Fatalf("call: is_error = true, want a result: %+v", res)
	}
	var first reports.AlertsOut
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &first); err != nil {
		t.Fatal(err)
	}
	if first.TruncatedReason != "cancelled" {
		t.Fatalf("cancelled report: truncated_reason = %q, want %q", first.TruncatedReason, "cancelled")
	}
	rest, _ := allAlerts(t, env, nextAlerts(t, first))
	sameAlerts(t, append(first.Alerts, rest...), want)
}
