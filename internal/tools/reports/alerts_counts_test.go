package reports_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// typeCounts is the tally counts holds for type t (nil: absent).
func typeCounts(c reports.AlertCounts, t reports.AlertType) *reports.SeverityCounts {
	return map[reports.AlertType]*reports.SeverityCounts{reports.Dependabot: c.Dependabot,
		reports.CodeScanning: c.CodeScanning, reports.SecretScanning: c.SecretScanning}[t]
}

func total(c *reports.SeverityCounts) int { return c.Critical + c.High + c.Medium + c.Low }

// tally counts rows of type t by severity, as counts should.
func tally(rows []reports.AlertRow, t reports.AlertType) reports.SeverityCounts {
	var c reports.SeverityCounts
	for _, r := range rows {
		if r.Type != t {
			continue
		}
		switch r.Severity {
		case "critical":
			c.Critical++
		case "high":
			c.High++
		case "medium":
			c.Medium++
		default:
			c.Low++
		}
	}
	return c
}

// counts tallies the call's rows per type and severity; a type asked for
// whose list was never read (the budget stopped the call first: scope
// pending) or that is off everywhere (bob may not read secret scanning:
// disabled) is there with zeros, on the wire too; a type not asked for
// is absent.
func TestReportSecurityAlertsCountsZeroForTypeNeverReached(t *testing.T) {
	t.Parallel()
	t.Run("budget", func(t *testing.T) {
		t.Parallel()
		env := fleetEnv(t, fleetSize, servertest.Options{})
		// One call for the owner's listing, one for a single org list.
		res := env.Call(t, alertsTool, map[string]any{"owner": "fleet", "max_api_calls": 2, "alert_limit": 1000})
		if res.IsError {
			t.Fatalf("call: is_error = true, want a result: %s", res.JSON)
		}
		var out reports.AlertsOut
		res.Decode(t, &out)
		if !out.Truncated {
			t.Fatalf("truncated = false, want true (two calls cannot read three lists)")
		}
		scopes := map[reports.AlertType]string{reports.Dependabot: out.Scope.Dependabot, reports.CodeScanning: out.Scope.CodeScanning,
			reports.SecretScanning: out.Scope.SecretScanning}
		pending := 0
		for _, typ := range allTypes {
			c := typeCounts(out.Counts, typ)
			if c == nil {
				t.Errorf("counts.%s absent, want a tally (the type was asked for)", typ)
				continue
			}
			if got, want := *c, tally(out.Alerts, typ); got != want {
				t.Errorf("counts.%s = %+v, want %+v (the rows' tally)", typ, got, want)
			}
			if scopes[typ] == "pending" {
				pending++
				if total(c) != 0 {
					t.Errorf("counts.%s = %+v for a type never reached, want zeros", typ, *c)
				}
			}
		}
		if pending == 0 {
			t.Fatalf("scope = %+v, want a type pending: the test proves nothing", out.Scope)
		}
		if !strings.Contains(string(res.JSON), `{"critical":0,"high":0,"low":0,"medium":0}`) {
			t.Errorf("wire answer %s holds no zero tally, want the pending type's zeros kept", res.JSON)
		}
	})
	t.Run("disabled and not asked", func(t *testing.T) {
		t.Parallel()
		env := fleetEnv(t, fleetSize, servertest.Options{Token: emulator.DemoTokenBob})
		out := alerts(t, env, map[string]any{"owner": "fleet", "types": []string{"dependabot", "secret_scanning"},
			"alert_limit": 1000, "max_repos": 200, "max_api_calls": 1000})
		if out.Disabled.SecretScanning == 0 {
			t.Fatalf("disabled.secret_scanning = 0, want bob's refused lists counted: the test proves nothing")
		}
		if c := out.Counts.SecretScanning; c == nil {
			t.Errorf("counts.secret_scanning absent, want zeros (off for bob everywhere)")
		} else if total(c) != 0 {
			t.Errorf("counts.secret_scanning = %+v, want zeros (off for bob everywhere)", *c)
		}
		if c := out.Counts.Dependabot; c == nil {
			t.Errorf("counts.dependabot absent, want %+v", tally(out.Alerts, reports.Dependabot))
		} else {
			if want := tally(out.Alerts, reports.Dependabot); *c != want {
				t.Errorf("counts.dependabot = %+v, want %+v (the rows' tally)", *c, want)
			}
			if total(c) == 0 {
				t.Errorf("counts.dependabot = %+v, want some alerts", *c)
			}
		}
		if out.Counts.CodeScanning != nil {
			t.Errorf("counts.code_scanning = %+v, want absent (not asked for)", *out.Counts.CodeScanning)
		}
	})
}

// summary_only leaves the rows out and says how many (the counts' sum,
// though alert_limit is 1); without it alerts_omitted is absent.
func TestReportSecurityAlertsSummaryOnlyOmitted(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	whole := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	if whole.AlertsOmitted != nil {
		t.Errorf("alerts_omitted = %d without summary_only, want absent", *whole.AlertsOmitted)
	}
	res := env.Call(t, alertsTool, map[string]any{"owner": "fleet", "summary_only": true, "alert_limit": 1})
	var sum reports.AlertsOut
	res.Decode(t, &sum)
	if sum.AlertsOmitted == nil {
		t.Fatalf("alerts_omitted absent with summary_only, want a count: %s", res.JSON)
	}
	if got, want := *sum.AlertsOmitted, len(whole.Alerts); got != want {
		t.Errorf("alerts_omitted = %d, want %d (every open alert)", got, want)
	}
	if len(whole.Alerts) == 0 {
		t.Errorf("the whole report's alerts = 0, want some")
	}
	if len(sum.Alerts) != 0 {
		t.Errorf("summary_only: rows = %d, want none", len(sum.Alerts))
	}
	counted := 0
	for _, typ := range allTypes {
		if c := typeCounts(sum.Counts, typ); c != nil {
			counted += total(c)
		}
	}
	if counted != *sum.AlertsOmitted {
		t.Errorf("counts' sum = %d, want alerts_omitted %d", counted, *sum.AlertsOmitted)
	}
}

// Dependabot rows carry the dependency's scope as GitHub gives it, and
// the fleet holds both values; other types' rows carry none.
func TestReportSecurityAlertsDependabotScope(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	out := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	want := map[string]string{}
	st := env.Emu.Emu.State()
	st.Lock()
	for _, r := range st.Repos() {
		for _, a := range r.Security.Dependabot {
			want[alertKey(reports.AlertRow{Repo: r.Name, Type: reports.Dependabot, Number: a.Number})] = a.Scope
		}
	}
	st.Unlock()
	seen := map[string]int{}
	for _, r := range out.Alerts {
		if r.Type != reports.Dependabot {
			if r.Scope != "" {
				t.Errorf("%s: scope = %q, want none on a %s row", alertKey(r), r.Scope, r.Type)
			}
			continue
		}
		if w := want[alertKey(r)]; r.Scope != w {
			t.Errorf("%s: scope = %q, want %q", alertKey(r), r.Scope, w)
		}
		seen[r.Scope]++
	}
	for _, scope := range []string{"runtime", "development"} {
		if seen[scope] == 0 {
			t.Errorf("rows with scope %s = 0, want some (scopes seen %v)", scope, seen)
		}
	}
}

// counts cover the whole run: a report paged by alert_limit carries the
// earlier calls' counts in its cursor, so each call's counts never fall
// and the last one tallies every row of every call, as one call with
// room for all does.
func TestReportSecurityAlertsCountsCoverTheRun(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	whole := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	rows, outs := allAlerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 3})
	if len(outs) < 3 {
		t.Fatalf("calls = %d, want at least 3 (alert_limit 3)", len(outs))
	}
	last := outs[len(outs)-1]
	for _, typ := range allTypes {
		got := typeCounts(last.Counts, typ)
		if got == nil {
			t.Errorf("last call's counts.%s absent, want the run's tally", typ)
			continue
		}
		if want := tally(rows, typ); *got != want {
			t.Errorf("last call's counts.%s = %+v, want %+v (every call's rows)", typ, *got, want)
		}
		if want := typeCounts(whole.Counts, typ); want == nil {
			t.Errorf("one call with room for all: counts.%s absent, want a tally", typ)
		} else if *got != *want {
			t.Errorf("paged counts.%s = %+v, want %+v (one call with room for all)", typ, *got, *want)
		}
		prev := 0
		for i, o := range outs {
			n := total(typeCounts(o.Counts, typ))
			if n < prev {
				t.Errorf("call %d: counts.%s total = %d, want at least the call before's %d", i+1, typ, n, prev)
			}
			prev = n
		}
	}
}
