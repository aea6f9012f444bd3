package reports_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	if got.IncludeArchived != include {
		t.Errorf("%s: coverage include_archived = %v, want %v", what, got.IncludeArchived, include)
	}
	if got.ArchivedSkipped != len(skipped) {
		t.Errorf("%s: coverage archived_skipped = %d, want %d", what, got.ArchivedSkipped, len(skipped))
	}
	if !slices.Equal(got.ArchivedNames, names) {
		t.Errorf("%s: coverage archived_names = %v, want %v", what, got.ArchivedNames, names)
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
	if len(archived) == 0 {
		t.Fatal("archived repositories = 0, want some: the test proves nothing")
	}
	if len(inArchived) == 0 {
		t.Fatalf("unlabeled items in the %d archived repositories = 0, want some: the test proves nothing", len(archived))
	}
	wide := map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000}
	def := report(t, env, wide)
	if def.Truncated {
		t.Fatalf("truncated = true (%s), want false", def.TruncatedReason)
	}
	wantCoverage(t, "default", def.Scanned.Coverage, false, archived)
	for _, r := range def.Rows {
		if r.Archived {
			t.Errorf("default: row %s archived = true, want no archived rows", key(r))
		}
		if slices.Contains(archived, r.Repo) {
			t.Errorf("default: row %s of archived %s, want none: %+v", key(r), r.Repo, r)
		}
	}

	wide["include_archived"] = true
	inc := report(t, env, wide)
	wantCoverage(t, "include_archived", inc.Scanned.Coverage, true, nil)
	var rest []reports.UnlabeledRow
	got := map[string]bool{}
	for _, r := range inc.Rows {
		if want := slices.Contains(archived, r.Repo); r.Archived != want {
			t.Errorf("include_archived: row %s archived = %v, want %v", key(r), r.Archived, want)
		}
		if r.Archived {
			got[key(r)] = true
		} else {
			rest = append(rest, r)
		}
	}
	if !sameSet(got, inArchived) {
		t.Errorf("include_archived: archived rows = %v, want %v", got, inArchived)
	}
	sameRows(t, rest, def.Rows)
	if want := def.Scanned.Repos + len(archived); inc.Scanned.Repos != want {
		t.Errorf("include_archived: scanned.repos = %d, want %d (default %d and %d archived)", inc.Scanned.Repos, want, def.Scanned.Repos, len(archived))
	}

	one := report(t, env, map[string]any{"owner": "fleet", "repo": archived[0]})
	got = map[string]bool{}
	for _, r := range one.Rows {
		got[key(r)] = r.Archived
	}
	if !one.Scanned.Archived {
		t.Errorf("named archived %s: scanned.archived = false, want true", archived[0])
	}
	if want := unlabeledIn(env, archived[0]); !sameSet(got, want) {
		t.Errorf("named archived %s: rows (key: archived) = %v, want %v, each archived", archived[0], got, want)
	}
	name0 := emulator.Fleet(0).Name
	live := report(t, env, map[string]any{"owner": "fleet", "repo": name0})
	if live.Scanned.Archived {
		t.Errorf("named %s (not archived): scanned.archived = true, want false", name0)
	}
	if len(live.Rows) == 0 {
		t.Errorf("named %s (not archived): rows = 0, want some", name0)
	} else if live.Rows[0].Archived {
		t.Errorf("named %s (not archived): row %s archived = true, want false", name0, key(live.Rows[0]))
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
		t.Fatalf("archived repositories = %d, want over 10: the bound would not bite", len(archived))
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
				t.Fatalf("alerts with archived = %d, without = %d, want more with: the test proves nothing", len(all), len(live))
			}
			args := map[string]any{"owner": "fleet", "alert_limit": 1000, "max_repos": 200, "max_api_calls": 1000}
			def := alerts(t, env, args)
			if def.Truncated {
				t.Fatalf("truncated = true (%s), want false", def.TruncatedReason)
			}
			if def.Scope.Dependabot != tc.name {
				t.Fatalf("scope.dependabot = %q, want %q (scope %+v)", def.Scope.Dependabot, tc.name, def.Scope)
			}
			sameAlerts(t, def.Alerts, live)
			wantCoverage(t, "default", def.Scanned.Coverage, false, archived)
			if def.Scanned.Repos != fleetSize-len(archived) {
				t.Errorf("default: scanned.repos = %d, want %d", def.Scanned.Repos, fleetSize-len(archived))
			}

			args["include_archived"] = true
			inc := alerts(t, env, args)
			sameAlerts(t, inc.Alerts, all)
			wantCoverage(t, "include_archived", inc.Scanned.Coverage, true, nil)
			if inc.Scanned.Repos != fleetSize {
				t.Errorf("include_archived: scanned.repos = %d, want %d", inc.Scanned.Repos, fleetSize)
			}
			for _, r := range inc.Alerts {
				if want := slices.Contains(archived, r.Repo); r.Archived != want {
					t.Errorf("include_archived: alert %s archived = %v, want %v", alertKey(r), r.Archived, want)
				}
			}
			for _, b := range inc.ByRepo {
				if want := slices.Contains(archived, b.Repo); b.Archived != want {
					t.Errorf("include_archived: by_repo %s archived = %v, want %v", b.Repo, b.Archived, want)
				}
			}

			one := alerts(t, env, map[string]any{"owner": "fleet", "repo": archived[0], "types": tc.types})
			if !one.Scanned.Archived {
				t.Errorf("named archived %s: scanned.archived = false, want true", archived[0])
			}
			if len(one.Alerts) == 0 {
				t.Errorf("named archived %s: alerts = 0, want some", archived[0])
			}
			if len(one.ByRepo) != 1 {
				t.Errorf("named archived %s: by_repo = %d rows, want 1: %+v", archived[0], len(one.ByRepo), one.ByRepo)
			} else if !one.ByRepo[0].Archived {
				t.Errorf("named archived %s: by_repo archived = false, want true", archived[0])
			}
			for _, r := range one.Alerts {
				if !r.Archived {
					t.Errorf("named archived: alert %s archived = false, want true", alertKey(r))
				}
			}
			var liveRepo string
			for k := range live {
				liveRepo = k[:strings.Index(k, "/")]
				break
			}
			live1 := alerts(t, env, map[string]any{"owner": "fleet", "repo": liveRepo, "types": tc.types})
			if live1.Scanned.Archived {
				t.Errorf("named %s (not archived): scanned.archived = true, want false", liveRepo)
			}
			if len(live1.Alerts) == 0 {
				t.Errorf("named %s (not archived): alerts = 0, want some", liveRepo)
			} else if live1.Alerts[0].Archived {
				t.Errorf("named %s (not archived): alert %s archived = true, want false", liveRepo, alertKey(live1.Alerts[0]))
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
		t.Fatalf("release pull requests = %d, want at least 2 (the test needs two)", len(before.Rows))
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
	if !one.Scanned.Archived {
		t.Errorf("named archived %s: scanned.archived = false, want true", gone)
	}
	if len(one.Rows) == 0 {
		t.Errorf("named archived %s: rows = 0, want some", gone)
	}
	for _, r := range one.Rows {
		if !r.Archived {
			t.Errorf("named archived: row %s archived = false, want true", rowKey(r))
		}
	}
	other := releaseReport(t, env, map[string]any{"owner": "fleet", "repo": live[0].Repo})
	if other.Scanned.Archived {
		t.Errorf("named %s (not archived): scanned.archived = true, want false", live[0].Repo)
	}
	if len(other.Rows) == 0 {
		t.Errorf("named %s (not archived): rows = 0, want some", live[0].Repo)
	} else if other.Rows[0].Archived {
		t.Errorf("named %s (not archived): row %s archived = true, want false", live[0].Repo, rowKey(other.Rows[0]))
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
		what := fmt.Sprint(args)
		contracttest.Code(t, what, e, "invalid_field")
		if e.Details == nil || e.Details.Field != "max_api_calls" {
			t.Errorf("%s: details = %+v, want field max_api_calls", what, e.Details)
		}
		contracttest.MustRepair(t, what, e.Repair, alertsTool)
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
	if first.TruncatedReason != "max_api_calls" {
		t.Fatalf("truncated_reason = %q, want %q", first.TruncatedReason, "max_api_calls")
	}
	if want := []string{"org", "pending"}; !slices.Equal(got, want) {
		t.Fatalf("scopes of the two types (sorted) = %q, want %q: one org, the other pending", got, want)
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
