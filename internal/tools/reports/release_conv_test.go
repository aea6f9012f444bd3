package reports

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// The default title pattern is liberal in spelling and strict about the
// version: X.Y.Z, an optional pre-release, whole.
func TestReleaseTitleVersion(t *testing.T) {
	t.Parallel()
	conv, err := compileRelease(toolkit.ReleaseSettings{})
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
			t.Errorf("version(%q) = %q, want %q", title, got, want)
		}
	}
}

// A running changelog names a version only as a whole word, and its entry
// is the version's section.
func TestReleaseChangelogEntry(t *testing.T) {
	t.Parallel()
	log := "# Changelog\n\n## v1.2.30\n\n- later\n\n## v1.2.3\n\n- one\n- two\n\n## v1.2.2\n\n- older\n"
	for _, tc := range []struct {
		text string
		want bool
	}{{log, true}, {"## v11.2.3\n", false}, {"1.2.30", false}} {
		if got := names(tc.text, "1.2.3"); got != tc.want {
			t.Errorf("names(%q, 1.2.3) = %v, want %v", tc.text, got, tc.want)
		}
	}
	if got, want := entry(log, "1.2.3", true), "## v1.2.3\n\n- one\n- two\n"; got != want {
		t.Errorf("entry = %q, want %q", got, want)
	}
	if f, _ := freshness(entry(log, "1.2.3", true), "1.2.3", nil); f != FreshCurrent {
		t.Errorf("freshness = %q, want %q", f, FreshCurrent)
	}
	if f, _ := freshness("# v1.2.2\n\n- a\n- b\n", "1.2.3", nil); f != FreshVersionDrift {
		t.Errorf("another version's entry: freshness = %q, want %q", f, FreshVersionDrift)
	}
	c := conv(t).candidates("2.5.1")
	if got, want := c[0].path, "docs/changelog/v2/v2.5.1.md"; got != want {
		t.Errorf("candidates[0].path = %q, want %q", got, want)
	}
	if c[0].mustName {
		t.Errorf("candidates[0].mustName = true, want false")
	}
	if got, want := c[1].path, "CHANGELOG.md"; got != want {
		t.Errorf("candidates[1].path = %q, want %q", got, want)
	}
	if !c[1].mustName {
		t.Errorf("candidates[1].mustName = false, want true")
	}
}

func conv(t *testing.T) *releaseConv {
	c, err := compileRelease(toolkit.ReleaseSettings{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// The decision table's order: a missing version and a drifted entry come
// first, open features before the changelog's state, the changelog's
// state before a README announcing another version, which outranks
// in-flight PRs, drafts and minor gaps.
func TestReleaseVerdictOrder(t *testing.T) {
	t.Parallel()
	ready := &ReleaseRow{Status: StatusReady, Version: "1.0.1"}
	missing := &ReleaseRow{Status: StatusNeedsChangelog, Version: "1.0.1"}
	log := changelog{path: "CHANGELOG.md", entry: "## v1.0.0\n"}
	other := readmeDoc{found: true, versions: []string{"1.0.0"}}
	cases := []struct {
		row  *ReleaseRow
		a    Analysis
		open OpenPulls
		doc  readmeDoc
		want Verdict
	}{
		{&ReleaseRow{Status: StatusUnknownVersion}, Analysis{}, OpenPulls{Feature: []int{1}}, readmeDoc{}, VerdictInspect},
		{ready, Analysis{Freshness: FreshVersionDrift}, OpenPulls{Feature: []int{1}}, other, VerdictInspect},
		{missing, Analysis{}, OpenPulls{Feature: []int{1}}, other, VerdictWait},
		{missing, Analysis{}, OpenPulls{Docs: []int{1}}, other, VerdictWrite},
		{ready, Analysis{Freshness: FreshStale}, OpenPulls{Docs: []int{1}}, other, VerdictUpdate},
		{ready, Analysis{Freshness: FreshThin}, OpenPulls{}, other, VerdictUpdate},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{Dependency: []int{1}, Draft: []int{2}}, other, VerdictDocMismatch},
		{ready, Analysis{Freshness: FreshMinorGap}, OpenPulls{}, other, VerdictDocMismatch},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{Dependency: []int{1}, Draft: []int{2}}, readmeDoc{}, VerdictInFlight},
		{ready, Analysis{Freshness: FreshMinorGap}, OpenPulls{}, readmeDoc{}, VerdictGray},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{}, readmeDoc{}, VerdictDone},
		// A block naming this version among others, or naming none, is
		// no mismatch.
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{}, readmeDoc{found: true, versions: []string{"1.0.0", "1.0.1"}}, VerdictDone},
		{ready, Analysis{Freshness: FreshCurrent}, OpenPulls{}, readmeDoc{found: true}, VerdictDone},
	}
	for i, tc := range cases {
		got, reason := verdict(tc.row, &tc.a, tc.open, log, tc.doc)
		if got != tc.want {
			t.Errorf("case %d: verdict = %s (%q), want %s", i, got, reason, tc.want)
		}
		if reason == "" {
			t.Errorf("case %d: reason = \"\", want one", i)
		}
	}
	if _, reason := verdict(ready, &Analysis{}, OpenPulls{}, log, other); reason != "the README's What's new names v1.0.0, not v1.0.1" {
		t.Errorf("doc_version_mismatch reason = %q, want %q", reason, "the README's What's new names v1.0.0, not v1.0.1")
	}
}

// The README's "What's new" block runs from its heading (any level, case
// ignored, a typographic apostrophe too) to the next heading of the same
// or a higher level; a heading inside a code fence is none, and hidden
// characters do not hide the heading or a version.
func TestReleaseWhatsNew(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		ok         bool
		versions   []string
	}{
		{"to the next heading of its level", "# app\n\n## What's new\n\n- v1.2.3 ships probes\n### Details\n\nsee 1.2.2\n## Install\n\nv0.1.0\n", true, []string{"1.2.3", "1.2.2"}},
		{"in the heading, to the end", "# App\n\n### WHAT\u2019S NEW in v2.0.0\n\nfaster\n", true, []string{"2.0.0"}},
		{"a higher level ends it", "## What's new\n\n- 1.0.0\n# Other\n\n- 9.9.9\n", true, []string{"1.0.0"}},
		{"no block", "# app\n\nSee CHANGELOG.md for v1.2.3.\n", false, nil},
		{"a fenced heading is none", "# app\n\n```\n# What's new\n1.0.0\n```\n", false, nil},
		{"a fenced heading inside the block ends nothing", "## What's new\n\n```sh\n# install 1.4.0\n```\n- v1.4.0\n## Next\n1.5.0\n", true, []string{"1.4.0", "1.4.0"}},
		{"hidden characters", "## What's\u200b new\n\n- v3.\u200b1.0\n", true, []string{"3.1.0"}},
		{"#hashtag is no heading", "#What's new\n\n- 1.0.0\n", false, nil},
		{"a block naming no version", "## What's new\n\nFaster start-up.\n", true, nil},
	} {
		block, ok := whatsNew(tc.text)
		got := versions(block)
		if ok != tc.ok {
			t.Errorf("%s: found = %v, want %v (block %q)", tc.name, ok, tc.ok, block)
		}
		if !slices.Equal(got, tc.versions) {
			t.Errorf("%s: versions = %q, want %q (block %q)", tc.name, got, tc.versions, block)
		}
	}
	d := readmeDoc{found: true, versions: []string{"11.2.3", "1.2.30"}}
	if d.mentions("1.2.3") {
		t.Error("mentions(1.2.3) = true, want false: a version inside another counts as naming it")
	}
	if got := d.other("1.2.3"); got != "11.2.3" {
		t.Errorf("other(1.2.3) = %q, want %q", got, "11.2.3")
	}
}

func TestNamesPull(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{"- fix (#12)": true, "#12": true, "#123 and #12.": true, "#123": false, "12": false} {
		if got := namesPull(text, 12); got != want {
			t.Errorf("namesPull(%q, 12) = %v, want %v", text, got, want)
		}
	}
}
