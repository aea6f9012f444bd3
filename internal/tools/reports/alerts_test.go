package reports_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

const alertsTool = "github_report_security_alerts"

func alerts(t *testing.T, env *servertest.Env, args any) reports.AlertsOut {
	t.Helper()
	return servertest.CallOK[reports.AlertsOut](t, env, alertsTool, args)
}

// allAlerts follows next_call, taken as given, until the report is done.
func allAlerts(t *testing.T, env *servertest.Env, args any) ([]reports.AlertRow, []reports.AlertsOut) {
	t.Helper()
	outs := follow(t, env, alertsTool, args, func(o reports.AlertsOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall })
	var rows []reports.AlertRow
	for _, o := range outs {
		rows = append(rows, o.Alerts...)
	}
	return rows, outs
}

func nextAlerts(t *testing.T, out reports.AlertsOut) json.RawMessage {
	t.Helper()
	return nextArgs(t, alertsTool, out.NextCall)
}

func alertKey(r reports.AlertRow) string { return fmt.Sprintf("%s/%s#%d", r.Repo, r.Type, r.Number) }

// planted is every open alert the emulator holds for owner's repositories
// (archived ones too when withArchived), by key, with its type's switch.
func planted(env *servertest.Env, owner string, withArchived bool, types ...reports.AlertType) map[string]bool {
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	out := map[string]bool{}
	for _, r := range st.Repos() {
		if r.Owner.Login != owner || (r.Archived && !withArchived) {
			continue
		}
		add := func(t reports.AlertType, n int, s string) {
			if s == "open" && slices.Contains(types, t) {
				out[fmt.Sprintf("%s/%s#%d", r.Name, t, n)] = true
			}
		}
		for _, a := range r.Security.Dependabot {
			add(reports.Dependabot, a.Number, a.State)
		}
		for _, a := range r.Security.CodeScanning {
			add(reports.CodeScanning, a.Number, a.State)
		}
		for _, a := range r.Security.SecretScanning {
			add(reports.SecretScanning, a.Number, a.State)
		}
	}
	return out
}

// sameAlerts fails unless rows hold each of want's alerts exactly once.
func sameAlerts(t *testing.T, rows []reports.AlertRow, want map[string]bool) {
	t.Helper()
	seen := map[string]int{}
	for _, r := range rows {
		seen[alertKey(r)]++
	}
	for k, n := range seen {
		if n != 1 {
			t.Errorf("alert %s: %d times, want once", k, n)
		}
		if !want[k] {
			t.Errorf("alert %s: reported, want only planted alerts", k)
		}
	}
	for k := range want {
		if seen[k] == 0 {
			t.Errorf("alert %s: 0 times, want once (planted)", k)
		}
	}
	if len(want) == 0 {
		t.Fatal("planted alerts = 0, want some: the test proves nothing")
	}
}

// wantScope checks where each alert type was read from.
func wantScope(t *testing.T, what string, got, want reports.TypeScopes) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: scope mismatch (-want +got):\n%s", what, diff)
	}
}

var allTypes = []reports.AlertType{reports.Dependabot, reports.CodeScanning, reports.SecretScanning}

// alice owns the fleet: the owner's repositories are listed (which are
// archived), then the organization's lists answer her, once per type,
// and hold every open alert of the repositories not archived, worst
// first, each normalised for its type and none with a secret.
func TestReportSecurityAlertsOrg(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	out := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	wantScope(t, "org", out.Scope, reports.TypeScopes{Dependabot: "org", CodeScanning: "org", SecretScanning: "org"})
	if out.APICalls != 4 {
		t.Fatalf("api_calls = %d, want 4: the listing and three org lists", out.APICalls)
	}
	sameAlerts(t, out.Alerts, planted(env, "fleet", false, allTypes...))
	for i, r := range out.Alerts {
		if i > 0 && rank(r.Severity) > rank(out.Alerts[i-1].Severity) {
			t.Fatalf("row %d severity = %s, want none worse than the row before it (%s)", i, r.Severity, out.Alerts[i-1].Severity)
		}
		k := alertKey(r)
		set := func(field, got string) {
			if got == "" {
				t.Errorf("row %s: %s = \"\", want one for its type", k, field)
			}
		}
		set("url", r.URL)
		set("created_at", r.CreatedAt)
		set("summary", r.Summary)
		if rank(r.Severity) == 0 {
			t.Errorf("row %s: severity = %q, want low, medium, high or critical", k, r.Severity)
		}
		switch r.Type {
		case reports.Dependabot:
			set("package", r.Package)
			set("ecosystem", r.Ecosystem)
			set("manifest", r.Manifest)
			set("ghsa", r.GHSA)
			set("vulnerable_range", r.VulnerableRange)
		case reports.CodeScanning:
			set("rule", r.Rule)
			if r.Tool != "CodeQL" {
				t.Errorf("row %s: tool = %q, want %q", k, r.Tool, "CodeQL")
			}
			set("location", r.Location)
		case reports.SecretScanning:
			set("secret_type", r.SecretType)
			set("validity", r.Validity)
			if r.Severity != "critical" && r.Severity != "high" {
				t.Errorf("row %s: severity = %q, want critical or high for a secret", k, r.Severity)
			}
		}
	}
	counts := 0
	for i, b := range out.ByRepo {
		counts += b.Dependabot + b.CodeScanning + b.SecretScanning
		if i > 0 && worse(b, out.ByRepo[i-1]) {
			t.Errorf("by_repo %d = %+v, want none worse than the one before it (%+v)", i, b, out.ByRepo[i-1])
		}
	}
	if counts != len(out.Alerts) {
		t.Errorf("alerts counted in by_repo = %d, want %d (the report's rows)", counts, len(out.Alerts))
	}
}

func rank(s reports.Severity) int {
	return slices.Index([]reports.Severity{"low", "medium", "high", "critical"}, s) + 1
}

func worse(a, b reports.RepoAlerts) bool {
	x, y := []int{a.Critical, a.High, a.Medium, a.Low}, []int{b.Critical, b.High, b.Medium, b.Low}
	return slices.Compare(x, y) > 0
}

// bob writes to every fleet repository but is no owner: each organization
// list refuses him (403), so each type is read repository by repository.
// Where a type is off (Dependabot 403 "disabled", code scanning 404 "no
// analysis found") or he may not read it (secret scanning needs admin:
// 403), the repository is counted in disabled and the run goes on: none
// of those 403s is a rate limit.
func TestReportSecurityAlertsRepoFallback(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{Token: emulator.DemoTokenBob})
	out := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	wantScope(t, "repo fallback", out.Scope, reports.TypeScopes{Dependabot: "repo", CodeScanning: "repo", SecretScanning: "repo"})
	var want reports.TypeCounts
	for i := range fleetSize {
		f := emulator.Fleet(i)
		if f.Archived {
			continue
		}
		if f.DependabotOff {
			want.Dependabot++
		}
		if f.CodeScanningOff || f.Private && f.AdvancedSecurityOff {
			want.CodeScanning++
		}
		want.SecretScanning++ // bob is not an admin
	}
	if out.Disabled != want {
		t.Errorf("disabled = %+v, want %+v", out.Disabled, want)
	}
	if want.Dependabot == 0 || want.CodeScanning == 0 {
		t.Errorf("the seed's disabled repositories = %+v, want some of Dependabot and of code scanning", want)
	}
	sameAlerts(t, out.Alerts, planted(env, "fleet", false, reports.Dependabot, reports.CodeScanning))
}

// A user is no organization (404): the user's repositories' lists.
func TestReportSecurityAlertsUserOwner(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 2, servertest.Options{})
	st := env.Emu.Emu.State()
	st.Lock()
	at := time.Date(2026, time.March, 2, 10, 0, 0, 0, time.UTC)
	r := st.AddRepo(st.Account("alice"), "scanner", "A public repository of a user", false, at)
	st.AddDependabotAlert(r, &state.DependabotAlert{State: "open", Package: "lodash", Ecosystem: "npm", Manifest: "package-lock.json",
		Scope: "runtime", GHSA: "GHSA-emu9-0000-0009", Severity: "high", Summary: "Prototype pollution", VulnerableRange: "< 4.17.21", CreatedAt: at})
	st.AddSecretScanningAlert(r, &state.SecretScanningAlert{State: "open", SecretType: "github_personal_access_token",
		SecretTypeDisplayName: "GitHub Personal Access Token", Secret: emulator.FleetCanarySecret, Validity: "inactive", CreatedAt: at})
	st.Unlock()
	out := alerts(t, env, map[string]any{"owner": "alice"})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	wantScope(t, "user owner", out.Scope, reports.TypeScopes{Dependabot: "repo", CodeScanning: "repo", SecretScanning: "repo"})
	sameAlerts(t, out.Alerts, planted(env, "alice", false, allTypes...))
	if out.Alerts[0].Type != reports.Dependabot {
		t.Errorf("row 0 type = %q, want %q: an inactive secret ranks high, after nothing worse (rows %+v)", out.Alerts[0].Type, reports.Dependabot, out.Alerts)
	}
	if out.Alerts[1].Severity != "high" {
		t.Errorf("row 1 (the inactive secret) severity = %q, want %q", out.Alerts[1].Severity, "high")
	}
}

// min_severity keeps the alerts at or above it; summary_only returns the
// same counts without rows; types leaves the others skipped.
func TestReportSecurityAlertsFilters(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	whole := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	high := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000, "min_severity": "high"})
	var want []reports.AlertRow
	for _, r := range whole.Alerts {
		if rank(r.Severity) >= 3 {
			want = append(want, r)
		}
	}
	if len(want) == 0 || len(want) == len(whole.Alerts) {
		t.Fatalf("alerts high or critical = %d of %d, want some but not all: the filter would prove nothing", len(want), len(whole.Alerts))
	}
	if got, w := fmt.Sprint(high.Alerts), fmt.Sprint(want); got != w {
		t.Errorf("min_severity high: %d rows, want %d:\n got  %s\n want %s", len(high.Alerts), len(want), got, w)
	}
	sum := alerts(t, env, map[string]any{"owner": "fleet", "summary_only": true, "alert_limit": 1})
	if sum.Truncated {
		t.Errorf("summary_only: truncated = true (%s), want false", sum.TruncatedReason)
	}
	if len(sum.Alerts) != 0 {
		t.Errorf("summary_only: alerts = %d rows, want none", len(sum.Alerts))
	}
	if got, w := fmt.Sprint(sum.ByRepo), fmt.Sprint(whole.ByRepo); got != w {
		t.Errorf("summary_only: by_repo = %s, want %s (the whole report's)", got, w)
	}
	one := alerts(t, env, map[string]any{"owner": "fleet", "types": []string{"secret_scanning"}, "alert_limit": 1000})
	wantScope(t, "types [secret_scanning]", one.Scope, reports.TypeScopes{Dependabot: "skipped", CodeScanning: "skipped", SecretScanning: "org"})
	if one.APICalls != 2 {
		t.Errorf("types [secret_scanning]: api_calls = %d, want 2", one.APICalls)
	}
	sameAlerts(t, one.Alerts, planted(env, "fleet", false, reports.SecretScanning))
	named := alerts(t, env, map[string]any{"owner": "fleet", "repos": []string{emulator.Fleet(4).Name, emulator.Fleet(0).Name}})
	for _, r := range named.Alerts {
		if r.Repo != emulator.Fleet(4).Name && r.Repo != emulator.Fleet(0).Name {
			t.Errorf("repos named: a row of %s, want only %s and %s", r.Repo, emulator.Fleet(4).Name, emulator.Fleet(0).Name)
		}
	}
	if named.Scope.Dependabot != "repo" {
		t.Errorf("repos named: scope.dependabot = %q, want %q", named.Scope.Dependabot, "repo")
	}
	if len(named.Alerts) == 0 {
		t.Errorf("repos named: alerts = 0, want some")
	}
}

// Progress counts the lists read, rising to their total: the three
// organization lists bob is refused, then each repository's per type.
// Every secret list was asked with hide_secret=true.
func TestReportSecurityAlertsProgress(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 12, servertest.Options{Token: emulator.DemoTokenBob})
	lists := 3
	for i := range 12 {
		if !emulator.Fleet(i).Archived {
			lists += 3
		}
	}
	var out reports.AlertsOut
	got := progressCall(t, env, alertsTool, "alerts-1", map[string]any{"owner": "fleet"}, &out, func() int { return lists })
	if len(got) != lists {
		t.Fatalf("notifications = %d, want %d (one per list)", len(got), lists)
	}
	for i, p := range got {
		if p.ProgressToken != "alerts-1" {
			t.Errorf("notification %d: progressToken = %v, want %q", i, p.ProgressToken, "alerts-1")
		}
		if p.Progress > p.Total {
			t.Errorf("notification %d: progress = %v, want at most total %v", i, p.Progress, p.Total)
		}
		if i > 0 && p.Progress <= got[i-1].Progress {
			t.Errorf("notification %d: progress = %v, want over the one before (%v)", i, p.Progress, got[i-1].Progress)
		}
	}
	last := got[len(got)-1]
	if last.Progress != float64(lists) {
		t.Errorf("last notification: progress = %v, want %d", last.Progress, lists)
	}
	if last.Total != float64(lists) {
		t.Errorf("last notification: total = %v, want %d", last.Total, lists)
	}
	secretLists := 0
	for _, a := range env.Answered() {
		if strings.Contains(a, "/secret-scanning/alerts") {
			secretLists++
			if !strings.Contains(a, "hide_secret=true") {
				t.Errorf("secret list %s: want hide_secret=true in it", a)
			}
		}
	}
	if secretLists == 0 {
		t.Error("secret lists asked for = 0, want some")
	}
}
