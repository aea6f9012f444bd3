package reports_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// A repository's list that fails for a reason other than a refusal (here
// a 502 after the retries) is not a type turned off: it is named in
// failed, not counted in disabled, and the report is truncated so that
// next_call reads it again; once GitHub answers, none of its alerts is
// lost. A list that fails on the retry too is given up, still named in
// failed, so the report finishes.
func TestReportSecurityAlertsFailedList(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{Token: emulator.DemoTokenBob, MaxReadRetries: -1})
	victim := emulator.Fleet(3).Name
	path := "/repos/fleet/" + victim + "/dependabot/alerts"
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: path, Kind: "status", Status: 502}); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"owner": "fleet", "types": []string{"dependabot"}, "alert_limit": 1000}
	first := alerts(t, env, args)
	if len(first.Failed) != 1 {
		t.Fatalf("failed = %+v (disabled %+v), want %s's Dependabot list alone", first.Failed, first.Disabled, victim)
	}
	want := []reports.FailedList{{Repo: victim, Type: reports.Dependabot, Reason: first.Failed[0].Reason}}
	if !first.Truncated {
		t.Fatal("truncated = false, want true")
	}
	if first.TruncatedReason != "upstream_error" {
		t.Fatalf("truncated_reason = %q, want %q", first.TruncatedReason, "upstream_error")
	}
	if first.NextCall == nil {
		t.Fatal("next_call = nil, want one")
	}
	if got, w := fmt.Sprint(first.Failed), fmt.Sprint(want); got != w {
		t.Fatalf("failed = %s, want %s", got, w)
	}
	if first.Failed[0].Reason == "" {
		t.Fatal("failed[0].reason = \"\", want one")
	}
	var off int
	for i := range 12 {
		if f := emulator.Fleet(i); !f.Archived && f.DependabotOff {
			off++
		}
	}
	if first.Disabled.Dependabot != off {
		t.Errorf("disabled.dependabot = %d, want %d: the failed list is not a disabled one", first.Disabled.Dependabot, off)
	}
	for _, r := range first.Alerts {
		if r.Repo == victim {
			t.Errorf("row %s of the failed list, want none", alertKey(r))
		}
	}

	// The retry fails too: given up, named again, the report finishes.
	again := alerts(t, env, nextAlerts(t, first))
	if again.Truncated {
		t.Errorf("second failure: truncated = true (%s), want false (finished)", again.TruncatedReason)
	}
	if got, w := fmt.Sprint(again.Failed), fmt.Sprint(want); got != w {
		t.Errorf("second failure: failed = %s, want %s", got, w)
	}

	// GitHub answers the retry: every planted alert, once, over both calls.
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: path, Kind: "status", Status: 502, Times: 1}); err != nil {
		t.Fatal(err)
	}
	first = alerts(t, env, args)
	if first.Failed == nil {
		t.Fatal("failed = nil, want the list named: the fault was cleared before the first call")
	}
	env.Emu.Emu.Faults().Clear()
	rows := first.Alerts
	for _, o := range follow(t, env, alertsTool, nextAlerts(t, first), func(o reports.AlertsOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall }) {
		rows = append(rows, o.Alerts...)
		if o.Failed != nil {
			t.Errorf("the retry: failed = %+v, want none", o.Failed)
		}
	}
	sameAlerts(t, rows, planted(env, "fleet", false, reports.Dependabot))
}

// A repository named by repo that does not exist fails the call with
// repo_not_found and a repair that reports over the owner; one named in
// repos is listed in failed (not disabled) beside the others' alerts. A
// named repository is looked up once (GET /repos, which says whether it
// is archived), however many of its lists answer; one whose code scanning
// is off (a 404 too) stays a disabled type.
func TestReportSecurityAlertsNamedRepoMissing(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{})
	e := servertest.Refused(t, env, alertsTool, map[string]any{"owner": "fleet", "repo": "no-such-repo"})
	contracttest.Code(t, "missing repository", e, contract.CodeRepoNotFound)
	if e.Repair == nil {
		t.Errorf("missing repository: repair = nil, want a report over the owner")
	} else {
		if e.Repair.Tool != alertsTool {
			t.Errorf("missing repository: repair.tool = %q, want %q", e.Repair.Tool, alertsTool)
		}
		if got, w := fmt.Sprint(e.Repair.Arguments), fmt.Sprint(map[string]any{"owner": "fleet"}); got != w {
			t.Errorf("missing repository: repair.arguments = %s, want %s", got, w)
		}
	}

	on, off := -1, -1
	for i := range 12 {
		f := emulator.Fleet(i)
		switch {
		case f.Archived || f.Private:
		case !f.DependabotOff && !f.CodeScanningOff && !f.SecretScanningOff && on < 0:
			on = i
		case !f.DependabotOff && f.CodeScanningOff && !f.SecretScanningOff && off < 0:
			off = i
		}
	}
	if on < 0 {
		t.Fatal("fleet repository with every type on: none, want one")
	}
	if off < 0 {
		t.Fatal("fleet repository with code scanning alone off: none, want one")
	}
	env.Upstream()
	good := alerts(t, env, map[string]any{"owner": "fleet", "repo": emulator.Fleet(on).Name})
	if n := lookedUp(env.Upstream(), emulator.Fleet(on).Name); n != 1 {
		t.Errorf("%s: lookups = %d, want 1", emulator.Fleet(on).Name, n)
	}
	if good.Disabled != (reports.TypeCounts{}) {
		t.Errorf("%s: disabled = %+v, want none", emulator.Fleet(on).Name, good.Disabled)
	}
	if good.Failed != nil {
		t.Errorf("%s: failed = %+v, want none", emulator.Fleet(on).Name, good.Failed)
	}
	if len(good.Alerts) == 0 {
		t.Errorf("%s: alerts = 0, want some", emulator.Fleet(on).Name)
	}

	out := alerts(t, env, map[string]any{"owner": "fleet", "repos": []string{emulator.Fleet(off).Name, "no-such-repo"}})
	up := env.Upstream()
	lookups := lookedUp(up, emulator.Fleet(off).Name) + lookedUp(up, "no-such-repo")
	wantFailed := []reports.FailedList{{Repo: "no-such-repo", Reason: string(contract.CodeRepoNotFound)}}
	if out.Truncated {
		t.Errorf("repos named: truncated = true (%s), want false", out.TruncatedReason)
	}
	if got, w := fmt.Sprint(out.Failed), fmt.Sprint(wantFailed); got != w {
		t.Errorf("repos named: failed = %s, want %s", got, w)
	}
	if want := (reports.TypeCounts{CodeScanning: 1}); out.Disabled != want {
		t.Errorf("repos named: disabled = %+v, want %+v (code scanning of %s)", out.Disabled, want, emulator.Fleet(off).Name)
	}
	if lookups != 2 {
		t.Errorf("repos named: lookups = %d, want 2", lookups)
	}
	for _, r := range out.Alerts {
		if r.Repo != emulator.Fleet(off).Name {
			t.Errorf("repos named: a row of %s, want only %s", r.Repo, emulator.Fleet(off).Name)
		}
	}
	if len(out.Alerts) == 0 {
		t.Errorf("repos named: rows of %s = 0, want some", emulator.Fleet(off).Name)
	}
}

// GitHub's severity parameters as its description documents them (the
// emulator answers 422 to anything else): code scanning's is one value,
// sent on the organization's list only; Dependabot's a comma list. Each
// min_severity, over the organization (alice) and repository by
// repository (bob), returns exactly the rows of the whole report at or
// above it.
func TestReportSecurityAlertsSeverityParam(t *testing.T) {
	t.Parallel()
	for _, tok := range []string{emulator.DemoTokenAlice, emulator.DemoTokenBob} {
		env := fleetEnv(t, 12, servertest.Options{Token: tok})
		args := map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200}
		whole := alerts(t, env, args)
		for _, min := range []string{"medium", "high", "critical"} {
			a := maps.Clone(args)
			a["min_severity"] = min
			got := alerts(t, env, a)
			var want []reports.AlertRow
			for _, r := range whole.Alerts {
				if rank(r.Severity) >= rank(reports.Severity(min)) {
					want = append(want, r)
				}
			}
			if len(want) == 0 {
				t.Errorf("%s, min_severity %s: rows of the whole report at or above it = 0, want some", tok[:8], min)
			}
			if fmt.Sprint(got.Alerts) != fmt.Sprint(want) {
				t.Errorf("%s, min_severity %s: %d rows, want %d (the whole report's at or above it):\n got  %v\n want %v", tok[:8], min, len(got.Alerts), len(want), got.Alerts, want)
			}
		}
		for _, a := range env.Answered() {
			if !strings.Contains(a, "/code-scanning/alerts") || !strings.Contains(a, "severity=") {
				continue
			}
			if strings.Contains(a, "/repos/") {
				t.Errorf("code scanning asked with a severity on a repository's list, want it on the organization's only: %s", a)
			}
			if !strings.Contains(a, "severity=critical&") {
				t.Errorf("code scanning asked with a severity other than critical, want severity=critical: %s", a)
			}
		}
	}
}

// An alert closed between two calls does not shift the page the second
// call goes on from: the next call starts after the last alert taken,
// found by its number, so no open alert is lost.
func TestReportSecurityAlertsClosedBetweenCalls(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{})
	args := map[string]any{"owner": "fleet", "types": []string{"dependabot"}, "alert_limit": 3}
	first := alerts(t, env, args)
	if !first.Truncated {
		t.Fatal("truncated = false, want true")
	}
	if len(first.Alerts) != 3 {
		t.Fatalf("rows = %d, want 3", len(first.Alerts))
	}
	// Close the first alert taken (the oldest: the lists are read oldest
	// first, the rows come worst first).
	st := env.Emu.Emu.State()
	st.Lock()
	closed := ""
	oldest := first.Alerts[0]
	for _, r := range first.Alerts {
		if r.CreatedAt < oldest.CreatedAt {
			oldest = r
		}
	}
	for _, a := range st.Repo("fleet", oldest.Repo).Security.Dependabot {
		if a.Number == oldest.Number {
			a.State, closed = "dismissed", alertKey(oldest)
		}
	}
	st.Unlock()
	if closed == "" {
		t.Fatalf("alert %s: not found in the emulator, want it there to close", alertKey(oldest))
	}
	rows := first.Alerts
	for _, o := range follow(t, env, alertsTool, nextAlerts(t, first), func(o reports.AlertsOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall }) {
		rows = append(rows, o.Alerts...)
	}
	want := planted(env, "fleet", false, reports.Dependabot)
	want[closed] = true // returned by the first call, before it was closed
	sameAlerts(t, rows, want)
}

// lookedUp counts the GET /repos of fleet's repository repo among the
// upstream requests.
func lookedUp(upstream []string, repo string) int {
	n := 0
	for _, u := range upstream {
		if strings.HasSuffix(u, "/repos/fleet/"+repo) {
			n++
		}
	}
	return n
}
