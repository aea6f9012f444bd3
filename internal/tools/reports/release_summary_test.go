package reports_test

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// statusCount counts rows by status, as the summary should.
func statusCount(rows []reports.ReleaseRow) reports.ReleaseSummary {
	var s reports.ReleaseSummary
	for _, r := range rows {
		switch r.Status {
		case reports.StatusReady:
			s.Ready++
		case reports.StatusNeedsChangelog:
			s.NeedsChangelog++
		case reports.StatusUnknownVersion:
			s.UnknownVersion++
		}
	}
	return s
}

func verdictCount(rows []reports.ReleaseRow) map[reports.Verdict]int {
	m := map[reports.Verdict]int{}
	for _, r := range rows {
		m[r.Verdict]++
	}
	return m
}

// The summary counts every release pull request by status, the rows
// only_missing hides included, each bucket reached by the fleet; it
// covers the whole run, so the last call of a run continued through
// next_call gives the counts of the uncapped report.
func TestReportReleasePRsSummary(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	all := releaseReport(t, env, map[string]any{"owner": "fleet"})
	want := statusCount(all.Rows)
	if want.Ready == 0 || want.NeedsChangelog == 0 || want.UnknownVersion == 0 {
		t.Fatalf("rows by status = %+v, want some of each: the test needs each", want)
	}
	if all.Summary != want {
		t.Errorf("summary = %+v, want the rows' %+v", all.Summary, want)
	}
	missing := releaseReport(t, env, map[string]any{"owner": "fleet", "only_missing": true})
	if missing.Summary != want {
		t.Errorf("only_missing summary = %+v, want every release PR's %+v", missing.Summary, want)
	}
	if len(missing.Rows) != want.NeedsChangelog {
		t.Errorf("only_missing: rows = %d, want %d (needs_changelog)", len(missing.Rows), want.NeedsChangelog)
	}
	if len(missing.Rows) == len(all.Rows) {
		t.Errorf("only_missing: rows = %d, want fewer than all %d", len(missing.Rows), len(all.Rows))
	}
	_, outs := releaseAll(t, env, map[string]any{"owner": "fleet", "only_missing": true, "max_api_calls": 12})
	if len(outs) < 3 {
		t.Fatalf("calls at max_api_calls 12 = %d, want at least 3: the test needs a run of several", len(outs))
	}
	for i, o := range outs[1:] {
		p := outs[i].Summary
		if o.Summary.Ready < p.Ready {
			t.Errorf("call %d: summary.ready = %d, want at least the call before's %d", i+2, o.Summary.Ready, p.Ready)
		}
		if o.Summary.NeedsChangelog < p.NeedsChangelog {
			t.Errorf("call %d: summary.needs_changelog = %d, want at least the call before's %d", i+2, o.Summary.NeedsChangelog, p.NeedsChangelog)
		}
		if o.Summary.UnknownVersion < p.UnknownVersion {
			t.Errorf("call %d: summary.unknown_version = %d, want at least the call before's %d", i+2, o.Summary.UnknownVersion, p.UnknownVersion)
		}
	}
	if last := outs[len(outs)-1].Summary; last != want {
		t.Errorf("the run's last summary = %+v, want the uncapped %+v", last, want)
	}
}

// With analyze the verdicts tally counts the run's rows by verdict: on
// one call the rows it returns, and on a run continued through next_call
// every call's rows; with only_missing, the rows reported. Without
// analyze there is none.
func TestReportReleasePRsVerdictTally(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	one := releaseReport(t, env, map[string]any{"owner": "fleet", "analyze": true})
	want := verdictCount(one.Rows)
	if !maps.Equal(one.Verdicts, want) {
		t.Errorf("verdicts = %v, want the rows' %v", one.Verdicts, want)
	}
	if len(want) < 5 {
		t.Errorf("the rows' verdicts = %v, want at least 5 kinds", want)
	}
	rows, outs := releaseAll(t, env, map[string]any{"owner": "fleet", "analyze": true, "max_api_calls": 12})
	if len(outs) < 3 {
		t.Fatalf("calls at max_api_calls 12 = %d, want at least 3: the test needs a run of several", len(outs))
	}
	last := outs[len(outs)-1].Verdicts
	if want := verdictCount(rows); !maps.Equal(last, want) {
		t.Errorf("the run's last verdicts = %v, want every call's rows' %v", last, want)
	}
	if !maps.Equal(last, one.Verdicts) {
		t.Errorf("the run's last verdicts = %v, want the uncapped %v", last, one.Verdicts)
	}
	missing := releaseReport(t, env, map[string]any{"owner": "fleet", "analyze": true, "only_missing": true})
	if want := verdictCount(missing.Rows); !maps.Equal(missing.Verdicts, want) {
		t.Errorf("only_missing verdicts = %v, want the rows reported's %v", missing.Verdicts, want)
	}
	if plain := releaseReport(t, env, map[string]any{"owner": "fleet"}); plain.Verdicts != nil {
		t.Errorf("without analyze: verdicts = %v, want none", plain.Verdicts)
	}
}

// Each row names its head and base branches and the changelog paths read
// for it, in order, up to the one holding the entry; a draft release PR
// says so, found by the search or by the repository's listing.
func TestReportReleasePRsRowBranches(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	lib := emulator.Fleet(31).Name
	st := env.Emu.Emu.State()
	st.Lock()
	var drafted int
	for _, is := range st.Repo("fleet", lib).Issues {
		if is.IsPull && is.Title == "release: v5.2.1" {
			is.Pull.Draft, drafted = true, is.Number
		}
	}
	st.Unlock()
	if drafted == 0 {
		t.Fatalf("%s: no pull request titled \"release: v5.2.1\", want one", lib)
	}
	for _, args := range []map[string]any{{"owner": "fleet"}, {"owner": "fleet", "repo": lib}} {
		out := releaseReport(t, env, args)
		for _, r := range out.Rows {
			if r.Repo != lib && args["repo"] != nil {
				t.Errorf("%s in a report on %s, want only its rows", rowKey(r), lib)
			}
			if want := r.Repo == lib && r.Number == drafted; r.Draft != want {
				t.Errorf("%v: %s draft = %v, want %v", args, rowKey(r), r.Draft, want)
			}
			if r.Version == "" {
				if r.CheckedPaths != nil {
					t.Errorf("%s names no version: checked_paths = %q, want none", rowKey(r), r.CheckedPaths)
				}
				if r.Head == "" {
					t.Errorf("%s names no version: head = \"\", want one", rowKey(r))
				}
				if r.Base == "" {
					t.Errorf("%s names no version: base = \"\", want one", rowKey(r))
				}
				continue
			}
			major, _, _ := strings.Cut(r.Version, ".")
			docs := "docs/changelog/v" + major + "/v" + r.Version + ".md"
			want := map[string][]string{docs: {docs}, "CHANGELOG.md": {docs, "CHANGELOG.md"}, "": {docs, "CHANGELOG.md"}}[r.ChangelogPath]
			if !slices.Equal(r.CheckedPaths, want) {
				t.Errorf("%s (changelog %q): checked_paths = %q, want %q", rowKey(r), r.ChangelogPath, r.CheckedPaths, want)
			}
			wantBase := "main"
			if strings.Count(r.Version, ".") == 2 && !strings.HasSuffix(r.Version, ".0") {
				wantBase = "stable/v" + r.Version[:strings.LastIndex(r.Version, ".")]
			}
			if wantHead := "release/v" + r.Version; r.Head != wantHead {
				t.Errorf("%s: head = %q, want %q", rowKey(r), r.Head, wantHead)
			}
			if r.Base != wantBase {
				t.Errorf("%s: base = %q, want %q", rowKey(r), r.Base, wantBase)
			}
		}
	}
}
