package reports_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// archivedFleet names the archived repositories of a fleet of n, in the
// order the reports name them (by lower-case name).
func archivedFleet(n int) []string {
	var out []string
	for i := range n {
		if f := emulator.Fleet(i); f.Archived {
			out = append(out, f.Name)
		}
	}
	slices.SortFunc(out, func(a, b string) int { return strings.Compare(strings.ToLower(a), strings.ToLower(b)) })
	return out
}

// unlabeledIn is what the unlabeled report finds in the emulator's
// repositories of fleet: the open issues and pull requests (not drafts)
// with no label, as "repo#number".
func unlabeledIn(env *servertest.Env, repos ...string) map[string]bool {
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	out := map[string]bool{}
	for _, name := range repos {
		for _, is := range st.Repo("fleet", name).Issues {
			if is == nil || is.State != "open" || len(is.Labels) > 0 || is.IsPull && is.Pull != nil && is.Pull.Draft {
				continue
			}
			out[name+"#"+strconv.Itoa(is.Number)] = true
		}
	}
	return out
}

// wantCoverage fails unless the coverage says include_archived as asked,
// and names the archived repositories skipped (skipped, all of them
// readable), the first 10 of them by name.
func wantCoverage(t *testing.T, what string, got reports.Coverage, include bool, skipped []string) {
	t.Helper()
	names := skipped
	if len(names) > 10 {
		names = names[:10]
	}
	if got.IncludeArchived != include || got.ArchivedSkipped != len(skipped) || !slices.Equal(got.ArchivedNames, names) {
		t.Errorf("%s: coverage %+v; want include_archived %v, %d archived skipped, named %v", what, got, include, len(skipped), names)
	}
}

// The unlabeled report leaves the owner's archived repositories out and
// names them in scanned; include_archived covers them, their rows marked
// archived; a named archived repository is reported, and said to be.
func TestReportUnlabeledArchivedCoverage(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	archived := archivedFleet(fleetSize)
	inArchived := unlabeledIn(env, archived...)
	if len(archived) == 0 || len(inArchived) == 0 {
		t.Fatalf("%d archived repositories holding %d unlabeled items: the test proves nothing", len(archived), len(inArchived))
	}
	wide := map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000}
	def := report(t, env, wide)
	if def.Truncated {
		t.Fatalf("truncated %s", def.TruncatedReason)
	}
	wantCoverage(t, "default", def.Scanned.Coverage, false, archived)
	for _, r := range def.Rows {
		if r.Archived || slices.Contains(archived, r.Repo) {
			t.Errorf("default: a row of archived %s: %+v", r.Repo, r)
		}
	}

	wide["include_archived"] = true
	inc := report(t, env, wide)
	wantCoverage(t, "include_archived", inc.Scanned.Coverage, true, nil)
	var rest []reports.UnlabeledRow
	got := map[string]bool{}
	for _, r := range inc.Rows {
		if r.Archived != slices.Contains(archived, r.Repo) {
			t.Errorf("include_archived: row %s says archived %v", key(r), r.Archived)
		}
		if r.Archived {
			got[key(r)] = true
		} else {
			rest = append(rest, r)
		}
	}
	if !sameSet(got, inArchived) {
		t.Errorf("include_archived: archived rows %v, want %v", got, inArchived)
	}
	sameRows(t, rest, def.Rows)
	if inc.Scanned.Repos != def.Scanned.Repos+len(archived) {
		t.Errorf("include_archived scanned %d repositories, default %d, with %d archived", inc.Scanned.Repos, def.Scanned.Repos, len(archived))
	}

	one := report(t, env, map[string]any{"owner": "fleet", "repo": archived[0]})
	got = map[string]bool{}
	for _, r := range one.Rows {
		got[key(r)] = r.Archived
	}
	if !one.Scanned.Archived || !sameSet(got, unlabeledIn(env, archived[0])) {
		t.Errorf("named archived %s: scanned %+v, rows %v; want archived, its rows each archived", archived[0], one.Scanned, got)
	}
	live := report(t, env, map[string]any{"owner": "fleet", "repo": emulator.Fleet(0).Name})
	if live.Scanned.Archived || len(live.Rows) == 0 || live.Rows[0].Archived {
		t.Errorf("named %s (not archived): scanned %+v, %d rows", emulator.Fleet(0).Name, live.Scanned, len(live.Rows))
	}
}

// sameSet reports whether got holds exactly want's keys, each true.
func sameSet(got, want map[string]bool) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range got {
		if !v || !want[k] {
			return false
		}
	}
	return true
}

// The names of the archived repositories skipped are bounded: past 10,
// the count says how many. The listing is read whole even when max_repos
// stops the scan at one repository.
func TestReportUnlabeledArchivedNamesBounded(t *testing.T) {
	t.Parallel()
	const n = 120
	archived := archivedFleet(n)
	if len(archived) <= 10 {
		t.Fatalf("%d archived repositories: the bound would not bite", len(archived))
	}
	env := fleetEnv(t, n, servertest.Options{})
	out := report(t, env, map[string]any{"owner": "fleet", "max_repos": 1, "target": "issues"})
	wantCoverage(t, "bounded", out.Scanned.Coverage, false, archived)
}

// The security alert report covers the owner's repositories that are not
// archived, on the organization's path (whose lists hold every
// repository's alerts) as on each repository's; include_archived covers
// the archived ones too, their rows and counts marked; a named archived
// repository is said to be.
func TestReportSecurityAlertsArchivedCoverage(t *testing.T) {
	t.Parallel()
	archived := archivedFleet(fleetSize)
	for _, tc := range []struct {
		name, token string
		types       []reports.AlertType
	}{
		{"org", emulator.DemoTokenAlice, allTypes},
		{"repo", emulator.DemoTokenBob, []reports.AlertType{reports.Dependabot, reports.CodeScanning}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := fleetEnv(t, fleetSize, servertest.Options{Token: tc.token})
			all, live := planted(env, "fleet", true, tc.types...), planted(env, "fleet", false, tc.types...)
			if len(all) == len(live) {
				t.Fatal("no alert in an archived repository: the test proves nothing")
			}
			args := map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200, "max_api_calls": 1000}
			def := alerts(t, env, args)
			if def.Truncated || def.Scope.Dependabot != tc.name {
				t.Fatalf("truncated %v (%s), scope %+v", def.Truncated, def.TruncatedReason, def.Scope)
			}
			sameAlerts(t, def.Alerts, live)
			wantCoverage(t, "default", def.Scanned.Coverage, false, archived)
			if def.Scanned.Repos != fleetSize-len(archived) {
				t.Errorf("default: scanned %d repositories, want %d", def.Scanned.Repos, fleetSize-len(archived))
			}

			args["include_archived"] = true
			inc := alerts(t, env, args)
			sameAlerts(t, inc.Alerts, all)
			wantCoverage(t, "include_archived", inc.Scanned.Coverage, true, nil)
			if inc.Scanned.Repos != fleetSize {
				t.Errorf("include_archived: scanned %d repositories, want %d", inc.Scanned.Repos, fleetSize)
			}
			for _, r := range inc.Alerts {
				if r.Archived != slices.Contains(archived, r.Repo) {
					t.Errorf("include_archived: alert %s says archived %v", alertKey(r), r.Archived)
				}
			}
			for _, b := range inc.ByRepo {
				if b.Archived != slices.Contains(archived, b.Repo) {
					t.Errorf("include_archived: by_repo %s says archived %v", b.Repo, b.Archived)
				}
			}

			one := alerts(t, env, map[string]any{"owner": "fleet", "repo": archived[0], "types": tc.types})
			if !one.Scanned.Archived || len(one.Alerts) == 0 || len(one.ByRepo) != 1 || !one.ByRepo[0].Archived {
				t.Errorf("named archived %s: scanned %+v, %d alerts, by_repo %+v", archived[0], one.Scanned, len(one.Alerts), one.ByRepo)
			}
			for _, r := range one.Alerts {
				if !r.Archived {
					t.Errorf("named archived: alert %s not marked archived", alertKey(r))
				}
			}
			var liveRepo string
			for k := range live {
				liveRepo = k[:strings.Index(k, "/")]
				break
			}
			live1 := alerts(t, env, map[string]any{"owner": "fleet", "repo": liveRepo, "types": tc.types})
			if live1.Scanned.Archived || len(live1.Alerts) == 0 || live1.Alerts[0].Archived {
				t.Errorf("named %s (not archived): scanned %+v, %d alerts", liveRepo, live1.Scanned, len(live1.Alerts))
			}
		})
	}
}

// The release PR report's search leaves archived repositories out and
// says include_archived false; include_archived searches them too, their
// rows marked; a named archived repository is reported, and said to be.
func TestReportReleasePRsArchivedCoverage(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	before := releaseReport(t, env, map[string]any{"owner": "fleet"})
	if len(before.Rows) < 2 {
		t.Fatalf("%d release pull requests: the test needs two", len(before.Rows))
	}
	gone := before.Rows[0].Repo
	st := env.Emu.Emu.State()
	st.Lock()
	st.Repo("fleet", gone).Archived = true
	st.Unlock()
	var want, live []reports.ReleaseRow
	for _, r := range before.Rows {
		if r.Repo == gone {
			r.Archived = true
		} else {
			live = append(live, r)
		}
		want = append(want, r)
	}

	def := releaseReport(t, env, map[string]any{"owner": "fleet"})
	sameReleaseRows(t, def.Rows, live)
	wantCoverage(t, "default", def.Scanned.Coverage, false, nil)

	inc := releaseReport(t, env, map[string]any{"owner": "fleet", "include_archived": true})
	sameReleaseRows(t, inc.Rows, want)
	wantCoverage(t, "include_archived", inc.Scanned.Coverage, true, nil)

	one := releaseReport(t, env, map[string]any{"owner": "fleet", "repo": gone})
	if !one.Scanned.Archived || len(one.Rows) == 0 {
		t.Errorf("named archived %s: scanned %+v, %d rows", gone, one.Scanned, len(one.Rows))
	}
	for _, r := range one.Rows {
		if !r.Archived {
			t.Errorf("named archived: row %s not marked archived", rowKey(r))
		}
	}
	other := releaseReport(t, env, map[string]any{"owner": "fleet", "repo": live[0].Repo})
	if other.Scanned.Archived || len(other.Rows) == 0 || other.Rows[0].Archived {
		t.Errorf("named %s (not archived): scanned %+v, %d rows", live[0].Repo, other.Scanned, len(other.Rows))
	}
}

// A call whose budget is spent before any alert list answers (on the
// owner's listing, or a named repository's lookup) is refused as too few
// calls, since its next_call would do the same for ever; the repair's
// budget reads the report through.
func TestReportSecurityAlertsTooFewCallsForTheListing(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	for _, args := range []map[string]any{
		{"owner": "fleet", "max_api_calls": 1},
		{"owner": "fleet", "repo": emulator.Fleet(0).Name, "max_api_calls": 1},
	} {
		e := servertest.Refused(t, env, alertsTool, args)
		if e.Code != "invalid_field" || e.Details == nil || e.Details.Field != "max_api_calls" || e.Repair == nil || e.Repair.Tool != alertsTool {
			t.Fatalf("%v: %+v; want invalid_field on max_api_calls with a repair", args, e)
		}
		b, _ := json.Marshal(e.Repair.Arguments)
		rows, _ := allAlerts(t, env, json.RawMessage(b))
		want := planted(env, "fleet", false, allTypes...)
		if args["repo"] != nil {
			want = map[string]bool{}
			for k := range planted(env, "fleet", false, allTypes...) {
				if strings.HasPrefix(k, emulator.Fleet(0).Name+"/") {
					want[k] = true
				}
			}
		}
		sameAlerts(t, rows, want)
	}
	// The listing and one list: the other type's path is pending, not
	// left out of scope, and next_call reads it.
	types := []reports.AlertType{reports.Dependabot, reports.CodeScanning}
	first := alerts(t, env, map[string]any{"owner": "fleet", "max_api_calls": 2, "types": types})
	got := []string{first.Scope.Dependabot, first.Scope.CodeScanning}
	slices.Sort(got)
	if first.TruncatedReason != "max_api_calls" || !slices.Equal(got, []string{"org", "pending"}) {
		t.Fatalf("truncated_reason %q, scope %+v; want one type org, the other pending", first.TruncatedReason, first.Scope)
	}
	rows, _ := allAlerts(t, env, nextAlerts(t, first))
	sameAlerts(t, append(first.Alerts, rows...), planted(env, "fleet", false, types...))
}

// An archived repository outside the caller's read grant is neither
// named nor counted among those skipped: its name is not the caller's to
// learn.
func TestReportsArchivedSkippedWithinTheReadGrant(t *testing.T) {
	t.Parallel()
	archived := archivedFleet(fleetSize)
	hidden := archived[0]
	id := caller.Identity{ID: "http:most-of-fleet", Readable: func(owner, repo string) bool { return owner == "fleet" && repo != hidden }}
	env := fleetEnv(t, fleetSize, servertest.Options{Wrap: servertest.AsCaller(id)})
	u := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000})
	wantCoverage(t, "unlabeled", u.Scanned.Coverage, false, archived[1:])
	a := alerts(t, env, map[string]any{"owner": "fleet", "alert_limit": 1000})
	wantCoverage(t, "alerts", a.Scanned.Coverage, false, archived[1:])
}
