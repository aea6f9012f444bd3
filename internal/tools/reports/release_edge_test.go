package reports_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// A search GitHub answers incomplete_results every time finds the same
// part each time: the first call reports it and continues; the next finds
// nothing it had not, so it says incomplete_search with no next_call (a
// repeat would find nothing new either) and a note saying why.
func TestReportReleasePRsIncompleteEveryTime(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, releaseFleet, servertest.Options{})
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: "/search/issues", Kind: "search_timeout"}); err != nil {
		t.Fatal(err)
	}
	var args any = map[string]any{"owner": "fleet"}
	var outs []reports.ReleaseOut
	for len(outs) < 5 {
		out := releaseReport(t, env, args)
		outs = append(outs, out)
		if out.NextCall == nil {
			break
		}
		args = nextArgs(t, releaseTool, out.NextCall)
	}
	if len(outs) != 2 {
		t.Fatalf("calls = %d, want 2 (the part the search finds, then nothing new): last %+v", len(outs), outs[len(outs)-1])
	}
	first, last := outs[0], outs[1]
	if first.TruncatedReason != "incomplete_search" {
		t.Errorf("first call: truncated_reason = %q, want %q", first.TruncatedReason, "incomplete_search")
	}
	if len(first.Rows) == 0 {
		t.Errorf("first call: rows = 0, want some")
	}
	if !last.Truncated {
		t.Errorf("second call: truncated = false, want true")
	}
	if last.TruncatedReason != "incomplete_search" {
		t.Errorf("second call: truncated_reason = %q, want %q", last.TruncatedReason, "incomplete_search")
	}
	if len(last.Rows) != 0 {
		t.Errorf("second call: rows = %d, want none", len(last.Rows))
	}
	if len(last.Notes) != 1 {
		t.Errorf("second call: notes = %q, want one", last.Notes)
	} else if !strings.Contains(last.Notes[0], "incomplete_results") {
		t.Errorf("second call: note = %q, want it to contain %q", last.Notes[0], "incomplete_results")
	}
}

// A changelog path that names a directory is not a file: the next path is
// tried, as for one that is not there, and the pull request is reported
// as it is without that path.
func TestReportReleasePRsChangelogPathIsDirectory(t *testing.T) {
	t.Parallel()
	want := releaseReport(t, fleetEnv(t, releaseFleet, servertest.Options{}), map[string]any{"owner": "fleet"})
	paths := append([]string{"docs"}, toolkit.DefaultChangelogPaths()...)
	env := fleetEnv(t, releaseFleet, servertest.Options{Releases: toolkit.ReleaseSettings{ChangelogPaths: paths}})
	out := releaseReport(t, env, map[string]any{"owner": "fleet"})
	if len(out.Skipped) != 0 {
		t.Fatalf("skipped = %v, want none", out.Skipped)
	}
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	docs := 0
	for _, r := range want.Rows {
		if strings.HasPrefix(r.ChangelogPath, "docs/") {
			docs++
		}
	}
	if docs == 0 {
		t.Fatal("release PRs with their changelog under docs/ = 0, want some: the test needs one")
	}
	// Each row with a version says the directory was read first; the rest
	// is as without it.
	for i, r := range out.Rows {
		if r.Version != "" && (len(r.CheckedPaths) == 0 || r.CheckedPaths[0] != "docs") {
			t.Errorf("%s: checked_paths = %q, want docs first", rowKey(r), r.CheckedPaths)
		}
		if len(r.CheckedPaths) > 0 {
			out.Rows[i].CheckedPaths = r.CheckedPaths[1:]
		}
	}
	sameReleaseRows(t, out.Rows, want.Rows)
}

// Hidden characters in a release pull request's title and branches are
// removed from what the report shows, and counted on the row; the title
// is read for its version without them, and the changelog looked up at
// the head as it is.
func TestReportReleasePRsSanitized(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 1, servertest.Options{})
	aliceReleaseFrom(env, "release: v1.\u200b4.0\u202e", "release/\u200bv1.4.0", "stable\u200b/v1.4")
	for _, args := range []map[string]any{
		{"owner": "alice"},
		{"owner": "alice", "repo": emulator.DemoNotesRepo, "analyze": true},
	} {
		out := releaseReport(t, env, args)
		if len(out.Rows) != 1 {
			t.Fatalf("%v: rows = %d, want 1: %+v", args, len(out.Rows), out)
		}
		row := out.Rows[0]
		if row.Title != "release: v1.4.0" {
			t.Errorf("%v: title = %q, want %q", args, row.Title, "release: v1.4.0")
		}
		if row.Version != "1.4.0" {
			t.Errorf("%v: version = %q, want %q", args, row.Version, "1.4.0")
		}
		if row.Status != reports.StatusReady {
			t.Errorf("%v: status = %q, want %q", args, row.Status, reports.StatusReady)
		}
		if row.Sanitized == nil {
			t.Errorf("%v: sanitized = nil, want the hidden characters counted", args)
			continue
		}
		if row.Sanitized.Bidi != 1 {
			t.Errorf("%v: sanitized.bidi = %d, want 1", args, row.Sanitized.Bidi)
		}
		// One zero-width character each in the title, head and base.
		if row.Head != "release/v1.4.0" {
			t.Errorf("%v: head = %q, want %q", args, row.Head, "release/v1.4.0")
		}
		if row.Base != "stable/v1.4" {
			t.Errorf("%v: base = %q, want %q", args, row.Base, "stable/v1.4")
		}
		if row.Sanitized.ZeroWidth != 3 {
			t.Errorf("%v: sanitized.zero_width = %d, want 3", args, row.Sanitized.ZeroWidth)
		}
		if args["analyze"] == true {
			if row.Analysis == nil {
				t.Errorf("analyze: analysis = nil, want base %q", "stable/v1.4")
			} else if row.Analysis.Base != "stable/v1.4" {
				t.Errorf("analyze: analysis.base = %q, want %q", row.Analysis.Base, "stable/v1.4")
			}
			if strings.Contains(row.Reason, "\u200b") {
				t.Errorf("analyze: reason = %q, want no zero-width space", row.Reason)
			}
		}
	}
}

// A repository with more open pull requests than the listing reads (10
// pages of 100) is truncated max_items, with a note and no next_call: the
// listing would stop at the same place again.
func TestReportReleasePRsListingBound(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 1, servertest.Options{})
	s := env.Emu.Emu.State()
	s.Lock()
	alice, r := s.Account("alice"), s.Repo("alice", emulator.DemoNotesRepo)
	at := emulator.DemoNow().Add(-48 * time.Hour)
	s.Commit(r, "release/v1.4.0", alice, at, "Prepare v1.4.0", nil)
	// The oldest is the release PR: newest first, the listing's 1,000 stop
	// before it.
	oldest := s.NewIssue(r, alice, "release: v1.4.0", nil, true, at)
	s.OpenPull(oldest, r, "release/v1.4.0", state.RepoDefaultBranch, false)
	s.AddLabels(oldest, alice, s.AddLabel(r, "release", "0e8a16", nil))
	for i := range 1000 {
		is := s.NewIssue(r, alice, fmt.Sprintf("change %d", i), nil, true, at.Add(time.Duration(i+1)*time.Minute))
		s.OpenPull(is, r, "release/v1.4.0", state.RepoDefaultBranch, false)
	}
	s.Unlock()
	out := releaseReport(t, env, map[string]any{"owner": "alice", "repo": emulator.DemoNotesRepo})
	if !out.Truncated {
		t.Errorf("truncated = false, want true")
	}
	if out.TruncatedReason != "max_items" {
		t.Errorf("truncated_reason = %q, want %q", out.TruncatedReason, "max_items")
	}
	if out.NextCall != nil {
		t.Errorf("next_call = %+v, want none", *out.NextCall)
	}
	if len(out.Notes) != 1 {
		t.Errorf("notes = %q, want one", out.Notes)
	}
	if len(out.Rows) != 0 {
		t.Errorf("rows = %d, want none", len(out.Rows))
	}
}
