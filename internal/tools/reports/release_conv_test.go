package reports

import (
	"testing"

	"github.com/ghgate/ghgate/internal/tools/core"
)

// The default title pattern is liberal in spelling and strict about the
// version: X.Y.Z, an optional pre-release, whole.
func TestReleaseTitleVersion(t *testing.T) {
	conv, err := compileRelease(core.ReleaseSettings{})
	if err != nil {
		t.Fatal(err)
	}
	for title, want := range map[string]string{
		"release: v1.2.3":              "1.2.3",
		"Release v1.2.3":               "1.2.3",
		"release 1.2.3":                "1.2.3",
		"RELEASE: V10.20.30":           "10.20.30",
		"release/v2.0.0-rc.1":          "2.0.0-rc.1",
		"release: v1.2":                "",
		"Release candidate: spring":    "",
		"Bump x from 1.2.3 to 1.2.4":   "",
		"release: v1.2.3.4":            "",
		"prerelease: v1.2.3 is coming": "",
	} {
		if got := conv.version(title); got != want {
			t.Errorf("%q: version %q, want %q", title, got, want)
		}
	}
}

// A running changelog names a version only as a whole word, and its entry
// is the version's section.
func TestReleaseChangelogEntry(t *testing.T) {
	log := "# Changelog\n\n## v1.2.30\n\n- later\n\n## v1.2.3\n\n- one\n- two\n\n## v1.2.2\n\n- older\n"
	if !names(log, "1.2.3") || names("## v11.2.3\n", "1.2.3") || names("1.2.30", "1.2.3") {
		t.Error("names matches a version inside another")
	}
	if got := entry(log, "1.2.3", true); got != "## v1.2.3\n\n- one\n- two\n" {
		t.Errorf("entry %q", got)
	}
	if f, _ := freshness(entry(log, "1.2.3", true), "1.2.3", nil); f != FreshCurrent {
		t.Errorf("freshness %s", f)
	}
	if f, _ := freshness("# v1.2.2\n\n- a\n- b\n", "1.2.3", nil); f != FreshVersionDrift {
		t.Errorf("another version's entry: %s", f)
	}
	c := conv(t).candidates("2.5.1")
	if c[0].path != "docs/changelog/v2/v2.5.1.md" || c[0].mustName || c[1].path != "CHANGELOG.md" || !c[1].mustName {
		t.Errorf("candidates %+v", c)
	}
}

func conv(t *testing.T) *releaseConv {
	c, err := compileRelease(core.ReleaseSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The decision table's order: a missing version and a drifted entry come
// first, open features before the changelog's state, drafts and minor
// gaps last.
func TestReleaseVerdictOrder(t *testing.T) {
	ready := &ReleaseRow{Status: StatusReady, Version: "1.0.1"}
	log := changelog{path: "CHANGELOG.md", entry: "## v1.0.0\n"}
	cases := []struct {
		row  *ReleaseRow
		a    Analysis
		open OpenPulls
		want Verdict
	}{
		{&ReleaseRow{Status: StatusUnknownVersion}, Analysis{}, OpenPulls{Feature: []int{1}}, VerdictInspect},
		{ready, Analysis{Freshness: FreshVersionDrift}, OpenPulls{Feature: []int{1}}, VerdictInspect},
		{&ReleaseRow{Status: StatusNeedsChangelog, Version: "1.0.1"}, Analysis{}, OpenPulls{Feature: []int{1}}, VerdictWait},
		{&ReleaseRow{Status: StatusNeedsChangelog, Version: "1.0.1"}, Analysis{}, OpenPulls{Docs: []int{1}}, VerdictWrite},
		{ready, Analysis{Freshness: FreshStale}, OpenPulls{Docs: []int{1}}, VerdictUpdate},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{Dependency: []int{1}, Draft: []int{2}}, VerdictInFlight},
		{ready, Analysis{Freshness: FreshMinorGap}, OpenPulls{}, VerdictGray},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{}, VerdictDone},
	}
	for i, tc := range cases {
		if got, reason := verdict(tc.row, &tc.a, tc.open, log); got != tc.want || reason == "" {
			t.Errorf("case %d: %s (%q), want %s", i, got, reason, tc.want)
		}
	}
}

func TestNamesPull(t *testing.T) {
	for text, want := range map[string]bool{"- fix (#12)": true, "#12": true, "#123 and #12.": true, "#123": false, "12": false} {
		if got := namesPull(text, 12); got != want {
			t.Errorf("%q: %v", text, got)
		}
	}
}
