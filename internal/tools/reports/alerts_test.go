package reports_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

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
		if n != 1 || !want[k] {
			t.Errorf("alert %s: %d times, planted %v", k, n, want[k])
		}
	}
	for k := range want {
		if seen[k] == 0 {
			t.Errorf("alert %s missing", k)
		}
	}
	if len(want) == 0 {
		t.Fatal("nothing planted: the test proves nothing")
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
	if out.Truncated || out.Scope != (reports.TypeScopes{Dependabot: "org", CodeScanning: "org", SecretScanning: "org"}) || out.APICalls != 4 {
		t.Fatalf("truncated %v (%s), scope %+v, %d calls; want the listing and three org lists", out.Truncated, out.TruncatedReason, out.Scope, out.APICalls)
	}
	sameAlerts(t, out.Alerts, planted(env, "fleet", false, allTypes...))
	for i, r := range out.Alerts {
		if i > 0 && rank(r.Severity) > rank(out.Alerts[i-1].Severity) {
			t.Fatalf("row %d (%s) is worse than the row before it (%s)", i, r.Severity, out.Alerts[i-1].Severity)
		}
		ok := r.URL != "" && r.CreatedAt != "" && r.Summary != "" && rank(r.Severity) > 0
		switch r.Type {
		case reports.Dependabot:
			ok = ok && r.Package != "" && r.Ecosystem != "" && r.Manifest != "" && r.GHSA != "" && r.VulnerableRange != ""
		case reports.CodeScanning:
			ok = ok && r.Rule != "" && r.Tool == "CodeQL" && r.Location != ""
		case reports.SecretScanning:
			ok = ok && r.SecretType != "" && r.Validity != "" && (r.Severity == "critical" || r.Severity == "high")
		}
		if !ok {
			t.Errorf("row %+v is missing fields of its type", r)
		}
	}
	counts := 0
	for i, b := range out.ByRepo {
		counts += b.Dependabot + b.CodeScanning + b.SecretScanning
		if i > 0 && worse(b, out.ByRepo[i-1]) {
			t.Errorf("by_repo %d (%+v) is worse than the one before it (%+v)", i, b, out.ByRepo[i-1])
		}
	}
	if counts != len(out.Alerts) {
		t.Errorf("by_repo counts %d alerts, the report has %d", counts, len(out.Alerts))
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
	if out.Truncated || out.Scope != (reports.TypeScopes{Dependabot: "repo", CodeScanning: "repo", SecretScanning: "repo"}) {
		t.Fatalf("truncated %v (%s), scope %+v", out.Truncated, out.TruncatedReason, out.Scope)
	}
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
	if out.Disabled != want || want.Dependabot == 0 || want.CodeScanning == 0 {
		t.Errorf("disabled %+v, want %+v", out.Disabled, want)
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
	if out.Truncated || out.Scope != (reports.TypeScopes{Dependabot: "repo", CodeScanning: "repo", SecretScanning: "repo"}) {
		t.Fatalf("truncated %v (%s), scope %+v", out.Truncated, out.TruncatedReason, out.Scope)
	}
	sameAlerts(t, out.Alerts, planted(env, "alice", false, allTypes...))
	if out.Alerts[0].Type != reports.Dependabot || out.Alerts[1].Severity != "high" {
		t.Errorf("rows %+v: an inactive secret ranks high, after nothing worse", out.Alerts)
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
		t.Fatalf("%d of %d alerts high or critical: the filter would prove nothing", len(want), len(whole.Alerts))
	}
	if fmt.Sprint(high.Alerts) != fmt.Sprint(want) {
		t.Errorf("min_severity high: %d rows, want %d", len(high.Alerts), len(want))
	}
	sum := alerts(t, env, map[string]any{"owner": "fleet", "summary_only": true, "alert_limit": 1})
	if sum.Truncated || len(sum.Alerts) != 0 || fmt.Sprint(sum.ByRepo) != fmt.Sprint(whole.ByRepo) {
		t.Errorf("summary_only: truncated %v, %d rows, by_repo %+v; want %+v", sum.Truncated, len(sum.Alerts), sum.ByRepo, whole.ByRepo)
	}
	one := alerts(t, env, map[string]any{"owner": "fleet", "types": []string{"secret_scanning"}, "alert_limit": 1000})
	if one.Scope != (reports.TypeScopes{Dependabot: "skipped", CodeScanning: "skipped", SecretScanning: "org"}) || one.APICalls != 2 {
		t.Errorf("types [secret_scanning]: scope %+v, %d calls", one.Scope, one.APICalls)
	}
	sameAlerts(t, one.Alerts, planted(env, "fleet", false, reports.SecretScanning))
	named := alerts(t, env, map[string]any{"owner": "fleet", "repos": []string{emulator.Fleet(4).Name, emulator.Fleet(0).Name}})
	for _, r := range named.Alerts {
		if r.Repo != emulator.Fleet(4).Name && r.Repo != emulator.Fleet(0).Name {
			t.Errorf("repos named: a row of %s", r.Repo)
		}
	}
	if named.Scope.Dependabot != "repo" || len(named.Alerts) == 0 {
		t.Errorf("repos named: scope %+v, %d rows", named.Scope, len(named.Alerts))
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
		t.Fatalf("%d notifications for %d lists", len(got), lists)
	}
	for i, p := range got {
		if p.ProgressToken != "alerts-1" || p.Progress > p.Total || (i > 0 && p.Progress <= got[i-1].Progress) {
			t.Errorf("notification %d: %+v", i, p)
		}
	}
	if last := got[len(got)-1]; last.Progress != float64(lists) || last.Total != float64(lists) {
		t.Errorf("last notification %v of %v, want %d of %d", last.Progress, last.Total, lists, lists)
	}
	secretLists := 0
	for _, a := range env.Answered() {
		if strings.Contains(a, "/secret-scanning/alerts") {
			secretLists++
			if !strings.Contains(a, "hide_secret=true") {
				t.Errorf("a secret list asked without hide_secret=true: %s", a)
			}
		}
	}
	if secretLists == 0 {
		t.Error("no secret list was asked for")
	}
}
