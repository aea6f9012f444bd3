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
		if got != want {
			t.Errorf("%s %q: readme_mentions_version = %s, want %s", r.Repo, tc.title, got, want)
		}
		if r.ReadmeNote != tc.note {
			t.Errorf("%s %q: readme_note = %q, want %q", r.Repo, tc.title, r.ReadmeNote, tc.note)
		}
		if r.Status != tc.status {
			t.Errorf("%s %q: status = %q, want %q", r.Repo, tc.title, r.Status, tc.status)
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
	if r.Verdict != reports.VerdictDocMismatch {
		t.Errorf("verdict = %q, want %q (reason %q)", r.Verdict, reports.VerdictDocMismatch, r.Reason)
	}
	for _, v := range []string{"v7.4.0", "v7.4.1"} {
		if !strings.Contains(r.Reason, v) {
			t.Errorf("reason = %q, want it to name %s", r.Reason, v)
		}
	}
	if r.Status != reports.StatusReady {
		t.Errorf("status = %q, want %q (only the README is off)", r.Status, reports.StatusReady)
	}
	if r.Analysis == nil {
		t.Errorf("analysis = nil, want freshness %q", reports.FreshCurrent)
	} else if r.Analysis.Freshness != reports.FreshCurrent {
		t.Errorf("analysis.freshness = %q, want %q (only the README is off)", r.Analysis.Freshness, reports.FreshCurrent)
	}
	// A README naming the version leaves the verdict done.
	if done := findRelease(t, out.Rows, 31, "release: v5.1.1"); done.Verdict != reports.VerdictDone {
		t.Errorf("v5.1.1, its README naming it: verdict %s (%q), want done", done.Verdict, done.Reason)
	}
	if out.Verdicts[reports.VerdictDocMismatch] != 1 {
		t.Errorf("verdicts %v: want one doc_version_mismatch", out.Verdicts)
	}
}
