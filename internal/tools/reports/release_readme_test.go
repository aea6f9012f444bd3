package reports_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

func findRelease(t *testing.T, rows []reports.ReleaseRow, repo int, title string) reports.ReleaseRow {
	t.Helper()
	for _, r := range rows {
		if r.Repo == emulator.Fleet(repo).Name && r.Title == title {
			return r
		}
	}
	t.Fatalf("no row %q in %s", title, emulator.Fleet(repo).Name)
	return reports.ReleaseRow{}
}

// readme_mentions_version is true when the README's "What's new" block at
// the head names the version, false when it names another, and absent
// (readme_note saying why) when the head has no README or its README no
// such block, or when the title names no version; the status stays the
// changelog's.
func TestReportReleasePRsReadmeMentionsVersion(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	out := releaseReport(t, env, map[string]any{"owner": "fleet"})
	yes, no := true, false
	for _, tc := range []struct {
		repo   int
		title  string
		want   *bool
		note   reports.ReadmeNote
		status reports.ReleaseStatus
	}{
		{31, "release: v5.1.1", &yes, "", reports.StatusReady},
		{45, "release: v7.4.1", &no, "", reports.StatusReady},
		{38, "release: v6.2.1", nil, reports.ReadmeMissing, reports.StatusNeedsChangelog},
		{3, "release: " + emulator.Fleet(3).Release, nil, reports.ReadmeNoWhatsNew, reports.StatusReady},
		{45, "Release candidate: spring clean-up", nil, "", reports.StatusUnknownVersion},
	} {
		r := findRelease(t, out.Rows, tc.repo, tc.title)
		got := "absent"
		if r.ReadmeMentionsVersion != nil {
			got = map[bool]string{true: "true", false: "false"}[*r.ReadmeMentionsVersion]
		}
		want := "absent"
		if tc.want != nil {
			want = map[bool]string{true: "true", false: "false"}[*tc.want]
		}
		if got != want || r.ReadmeNote != tc.note || r.Status != tc.status {
			t.Errorf("%s %q: readme_mentions_version %s, note %q, status %s; want %s, %q, %s", r.Repo, tc.title, got, r.ReadmeNote, r.Status, want, tc.note, tc.status)
		}
	}
}

// A README whose "What's new" block names another version than the
// release's is doc_version_mismatch with analyze, the reason naming both;
// the changelog's status is untouched.
func TestReportReleasePRsDocVersionMismatch(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	out := releaseReport(t, env, map[string]any{"owner": "fleet", "analyze": true})
	r := findRelease(t, out.Rows, 45, "release: v7.4.1")
	if r.Verdict != reports.VerdictDocMismatch || !strings.Contains(r.Reason, "v7.4.0") || !strings.Contains(r.Reason, "v7.4.1") {
		t.Errorf("verdict %s (%q), want doc_version_mismatch naming v7.4.0 and v7.4.1", r.Verdict, r.Reason)
	}
	if r.Status != reports.StatusReady || r.Analysis == nil || r.Analysis.Freshness != reports.FreshCurrent {
		t.Errorf("status %s, analysis %+v: want ready and current (only the README is off)", r.Status, r.Analysis)
	}
	// A README naming the version leaves the verdict done.
	if done := findRelease(t, out.Rows, 31, "release: v5.1.1"); done.Verdict != reports.VerdictDone {
		t.Errorf("v5.1.1, its README naming it: verdict %s (%q), want done", done.Verdict, done.Reason)
	}
	if out.Verdicts[reports.VerdictDocMismatch] != 1 {
		t.Errorf("verdicts %v: want one doc_version_mismatch", out.Verdicts)
	}
}
