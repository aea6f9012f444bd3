package reports_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

const releaseTool = "github_report_release_prs"

// releaseFleet reaches fleet repository 45, the last with maintenance
// release cases (internal/emulator/seed/fleet_releases.go).
const releaseFleet = 46

func releaseReport(t *testing.T, env *servertest.Env, args any) reports.ReleaseOut {
	t.Helper()
	return servertest.CallOK[reports.ReleaseOut](t, env, releaseTool, args)
}

// releaseAll follows next_call as given until the report is complete.
func releaseAll(t *testing.T, env *servertest.Env, args any) ([]reports.ReleaseRow, []reports.ReleaseOut) {
	t.Helper()
	outs := follow(t, env, releaseTool, args, func(o reports.ReleaseOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall })
	var rows []reports.ReleaseRow
	for _, o := range outs {
		rows = append(rows, o.Rows...)
	}
	return rows, outs
}

func rowKey(r reports.ReleaseRow) string { return fmt.Sprintf("%s#%d", r.Repo, r.Number) }

// sameReleaseRows fails unless got holds want's rows, each once and alike.
func sameReleaseRows(t *testing.T, got, want []reports.ReleaseRow) {
	t.Helper()
	// Rows from another emulator differ in the URL's port only.
	enc := func(r reports.ReleaseRow) []byte {
		r.URL = r.URL[strings.Index(r.URL, "/fleet/"):]
		b, _ := json.Marshal(r)
		return b
	}
	w := map[string]string{}
	for _, r := range want {
		b := enc(r)
		w[rowKey(r)] = string(b)
	}
	seen := map[string]bool{}
	for _, r := range got {
		k := rowKey(r)
		b := enc(r)
		switch {
		case seen[k]:
			t.Errorf("row %s twice, want once", k)
		case w[k] != string(b):
			t.Errorf("row %s = %s, want %s (uncapped)", k, b, w[k])
		}
		seen[k] = true
	}
	if len(seen) != len(w) {
		t.Errorf("rows = %d, want %d (uncapped)", len(seen), len(w))
	}
}

func byKey(rows []reports.ReleaseRow) map[string]reports.ReleaseRow {
	m := map[string]reports.ReleaseRow{}
	for _, r := range rows {
		m[rowKey(r)] = r
	}
	return m
}

// Every fleet release pull request is reported with the version from its
// title and its changelog status at the head commit: the docs file, the
// running CHANGELOG.md naming the version, or none; a title naming no
// version is unknown_version. One repository named alone gives the same
// rows as the owner-wide search.
func TestReportReleasePRsStatus(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	out := releaseReport(t, env, map[string]any{"owner": "fleet"})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	if out.Scanned.Found != len(out.Rows) {
		t.Fatalf("scanned.found = %d, want %d (the rows)", out.Scanned.Found, len(out.Rows))
	}
	byRepo := map[string][]reports.ReleaseRow{}
	for _, r := range out.Rows {
		byRepo[r.Repo] = append(byRepo[r.Repo], r)
		if r.HeadSHA == "" {
			t.Errorf("%s: head_sha = \"\", want one", rowKey(r))
		}
		if !strings.Contains(r.URL, "/pull/") {
			t.Errorf("%s: url = %q, want one with /pull/", rowKey(r), r.URL)
		}
	}
	unknown := 0
	for i := range releaseFleet {
		f := emulator.Fleet(i)
		if f.Release == "" {
			continue
		}
		var row *reports.ReleaseRow
		for k, r := range byRepo[f.Name] {
			if r.Title == "release: "+f.Release {
				row = &byRepo[f.Name][k]
			}
		}
		if row == nil {
			t.Errorf("%s: no row for release %s in %+v", f.Name, f.Release, byRepo[f.Name])
			continue
		}
		major, _, _ := strings.Cut(strings.TrimPrefix(f.Release, "v"), ".")
		want := map[string]struct {
			status reports.ReleaseStatus
			path   string
		}{
			"docs":      {reports.StatusReady, "docs/changelog/v" + major + "/" + f.Release + ".md"},
			"changelog": {reports.StatusReady, "CHANGELOG.md"},
			"":          {reports.StatusNeedsChangelog, ""},
		}[f.ReleaseChangelog]
		if v := strings.TrimPrefix(f.Release, "v"); row.Version != v {
			t.Errorf("%s: version = %q, want %q", f.Name, row.Version, v)
		}
		if row.Status != want.status {
			t.Errorf("%s: status = %q, want %q", f.Name, row.Status, want.status)
		}
		if row.ChangelogPath != want.path {
			t.Errorf("%s: changelog_path = %q, want %q", f.Name, row.ChangelogPath, want.path)
		}
	}
	for _, r := range out.Rows {
		if r.Status == reports.StatusUnknownVersion {
			unknown++
			if r.Version != "" {
				t.Errorf("unknown_version row %s: version = %q, want none", rowKey(r), r.Version)
			}
			if r.ChangelogPath != "" {
				t.Errorf("unknown_version row %s: changelog_path = %q, want none", rowKey(r), r.ChangelogPath)
			}
		}
	}
	if unknown != 1 {
		t.Errorf("unknown_version rows = %d, want 1 (the one the seed has)", unknown)
	}
	// One repository: the same rows, from its pull request listing.
	name := emulator.Fleet(31).Name
	single := releaseReport(t, env, map[string]any{"owner": "fleet", "repo": name})
	if single.Truncated {
		t.Fatalf("%s alone: truncated = true (%s), want false", name, single.TruncatedReason)
	}
	if len(single.Rows) != len(byRepo[name]) {
		t.Fatalf("%s alone: rows = %d, want %d (owner-wide): %+v", name, len(single.Rows), len(byRepo[name]), single.Rows)
	}
	sameReleaseRows(t, single.Rows, byRepo[name])
}

// only_missing keeps the needs_changelog rows, and only those.
func TestReportReleasePRsOnlyMissing(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	all := releaseReport(t, env, map[string]any{"owner": "fleet"})
	missing := releaseReport(t, env, map[string]any{"owner": "fleet", "only_missing": true})
	var want []reports.ReleaseRow
	for _, r := range all.Rows {
		if r.Status == reports.StatusNeedsChangelog {
			want = append(want, r)
		}
	}
	if len(want) == 0 || len(want) == len(all.Rows) {
		t.Fatalf("rows needing a changelog = %d of %d, want some but not all (the test needs some of each)", len(want), len(all.Rows))
	}
	sameReleaseRows(t, missing.Rows, want)
	if missing.Scanned.Pulls != len(all.Rows) {
		t.Errorf("only_missing: scanned.pulls = %d, want %d (all)", missing.Scanned.Pulls, len(all.Rows))
	}
}

// analyze gives each seeded situation its verdict, freshness and reason;
// every verdict and freshness is reached.
func TestReportReleasePRsAnalyze(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	out := releaseReport(t, env, map[string]any{"owner": "fleet", "analyze": true})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	find := func(repo int, title string) reports.ReleaseRow {
		t.Helper()
		for _, r := range out.Rows {
			if r.Repo == emulator.Fleet(repo).Name && r.Title == title {
				return r
			}
		}
		t.Fatalf("no row %q in %s", title, emulator.Fleet(repo).Name)
		return reports.ReleaseRow{}
	}
	cases := []struct {
		repo      int
		title     string
		verdict   reports.Verdict
		freshness reports.Freshness
		reason    string
	}{
		{31, "release: v5.1.1", reports.VerdictDone, reports.FreshCurrent, "nothing open against stable/v5.1"},
		{31, "release: v5.2.1", reports.VerdictInFlight, reports.FreshCurrent, "1 docs/dependency PR(s) still open"},
		{31, "release: v5.3.1", reports.VerdictGray, reports.FreshCurrent, "draft PR(s)"},
		{38, "release: v6.1.1", reports.VerdictGray, reports.FreshMinorGap, "omits docs/dependency"},
		{38, "release: v6.2.1", reports.VerdictWrite, "", "no changelog entry for v6.2.1"},
		{38, "release: v6.3.1", reports.VerdictUpdate, reports.FreshStale, "shipped since v6.3.0"},
		{45, "release: v7.1.1", reports.VerdictUpdate, reports.FreshThin, "under 2 items"},
		{45, "release: v7.2.1", reports.VerdictInspect, reports.FreshVersionDrift, "names v7.2.0, not v7.2.1"},
		{45, "Release candidate: spring clean-up", reports.VerdictInspect, "", "names no version"},
		{3, "release: " + emulator.Fleet(3).Release, reports.VerdictWait, reports.FreshCurrent, "feature PR(s) open against main"},
	}
	for _, tc := range cases {
		r := find(tc.repo, tc.title)
		if r.Verdict != tc.verdict {
			t.Errorf("%s %q: verdict = %q, want %q (reason %q)", r.Repo, tc.title, r.Verdict, tc.verdict, r.Reason)
		}
		if r.Analysis == nil {
			t.Errorf("%s %q: analysis = nil, want freshness %q", r.Repo, tc.title, tc.freshness)
		} else if r.Analysis.Freshness != tc.freshness {
			t.Errorf("%s %q: analysis.freshness = %q, want %q", r.Repo, tc.title, r.Analysis.Freshness, tc.freshness)
		}
		if !strings.Contains(r.Reason, tc.reason) {
			t.Errorf("%s %q: reason = %q, want it to contain %q", r.Repo, tc.title, r.Reason, tc.reason)
		}
	}
	// The stale entry names the dependency bump and misses the fix.
	stale := find(38, "release: v6.3.1").Analysis
	if stale.Since != "v6.3.0" {
		t.Errorf("stale analysis: since = %q, want %q", stale.Since, "v6.3.0")
	}
	if stale.Shipped != 2 {
		t.Errorf("stale analysis: shipped = %d, want 2", stale.Shipped)
	}
	if len(stale.Unnamed) != 1 {
		t.Errorf("stale analysis: unnamed = %v, want 1 pull request", stale.Unnamed)
	}
	for _, r := range out.Rows {
		if r.Verdict == "" {
			t.Errorf("%s: verdict = \"\", want one (%+v)", rowKey(r), r)
		}
		if r.Reason == "" {
			t.Errorf("%s: reason = \"\", want one (%+v)", rowKey(r), r)
		}
	}
}

// Each bound this report can meet stops it with its reason, and following
// next_call as given finishes it with the uncapped report's rows, each once.
func TestReportReleasePRsBoundsContinue(t *testing.T) {
	t.Parallel()
	args := map[string]any{"owner": "fleet", "analyze": true}
	want := releaseReport(t, fleetEnv(t, releaseFleet, servertest.Options{}), args).Rows
	t.Run("max_api_calls", func(t *testing.T) {
		t.Parallel()
		env := fleetEnv(t, releaseFleet, servertest.Options{})
		rows, outs := releaseAll(t, env, map[string]any{"owner": "fleet", "analyze": true, "max_api_calls": 12})
		if outs[0].TruncatedReason != "max_api_calls" {
			t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, "max_api_calls")
		}
		if len(outs) < 3 {
			t.Fatalf("calls = %d, want at least 3", len(outs))
		}
		for _, o := range outs {
			if o.APICalls > 12 {
				t.Errorf("a call's api_calls = %d, want at most 12 (max_api_calls)", o.APICalls)
			}
		}
		sameReleaseRows(t, rows, want)
	})
	t.Run("incomplete_search", func(t *testing.T) {
		t.Parallel()
		env := fleetEnv(t, releaseFleet, servertest.Options{})
		if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: "/search/issues", Kind: "search_timeout", Times: 1}); err != nil {
			t.Fatal(err)
		}
		rows, outs := releaseAll(t, env, args)
		if outs[0].TruncatedReason != "incomplete_search" {
			t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, "incomplete_search")
		}
		if n := len(outs[0].Rows); n == 0 || n == len(want) {
			t.Fatalf("first call: rows = %d, want some but not all %d", n, len(want))
		}
		sameReleaseRows(t, rows, want)
	})
	// The emulator's core budget of 70 stops the first call at the floor
	// (the 8 calls that may be in flight); the next window finishes it.
	t.Run("rate_limited", func(t *testing.T) {
		t.Parallel()
		clock := &testClock{t: emulator.DemoNow()}
		store := t.TempDir() + "/state.db"
		env := fleetEnv(t, releaseFleet, servertest.Options{Emulator: emulator.Options{Now: clock.Now, CoreLimit: 70}, StorePath: store})
		first := releaseReport(t, env, args)
		if first.TruncatedReason != "rate_limited" {
			t.Fatalf("truncated_reason = %q, want %q", first.TruncatedReason, "rate_limited")
		}
		if first.NextCall == nil {
			t.Fatal("next_call = nil, want one")
		}
		clock.Advance(61 * time.Minute)
		env2 := servertest.Start(t, servertest.Options{Emu: env.Emu, StorePath: store, Toolsets: []string{"reports"}})
		b, _ := json.Marshal(first.NextCall.Arguments)
		rest, _ := releaseAll(t, env2, json.RawMessage(b))
		sameReleaseRows(t, append(first.Rows, rest...), want)
	})
}

// A repository that does not exist is repo_not_found, with the call that
// reports on the owner's every repository instead.
func TestReportReleasePRsRepoNotFound(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 4, servertest.Options{})
	e := servertest.Refused(t, env, releaseTool, map[string]any{"owner": "fleet", "repo": "nope"})
	contracttest.Code(t, "missing repository", e, "repo_not_found")
	contracttest.MustRepair(t, "missing repository", e.Repair, releaseTool)
	args, _ := e.Repair.Arguments.(map[string]any)
	if args["owner"] != "fleet" {
		t.Errorf("repair arguments: owner = %v, want %q (%v)", args["owner"], "fleet", e.Repair.Arguments)
	}
	if args["repo"] != nil {
		t.Errorf("repair arguments: repo = %v, want none", args["repo"])
	}
	if out := releaseReport(t, env, e.Repair.Arguments); out.Truncated {
		t.Errorf("the repair call: truncated = true (%s), want false", out.TruncatedReason)
	}
	// An owner that is no account: not_found, with the call that finds it.
	e = servertest.Refused(t, env, releaseTool, map[string]any{"owner": "no-such-owner-here"})
	contracttest.Code(t, "unknown owner", e, "not_found")
	if e.Repair == nil || e.Repair.Tool == "" {
		t.Errorf("unknown owner: repair = %+v, want a call", e.Repair)
	}
}

// The operator's settings reach the report: with the changelog looked for
// in VERSION only (which names the version on every release branch of the
// seed), every release PR with a version is ready there.
func TestReportReleasePRsOperatorSettings(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{Releases: toolkit.ReleaseSettings{ChangelogPaths: []string{"VERSION"}}})
	out := releaseReport(t, env, map[string]any{"owner": "fleet"})
	if len(out.Rows) == 0 {
		t.Fatal("rows = 0, want some")
	}
	for _, r := range out.Rows {
		if r.Version == "" {
			continue
		}
		if r.Status != reports.StatusReady {
			t.Errorf("%s: status = %q, want %q", rowKey(r), r.Status, reports.StatusReady)
		}
		if r.ChangelogPath != "VERSION" {
			t.Errorf("%s: changelog_path = %q, want %q", rowKey(r), r.ChangelogPath, "VERSION")
		}
	}
}
