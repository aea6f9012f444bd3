package reports_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// From the smallest budgets, following next_call (and the repair of a
// budget refused as too small) finishes the report with the uncapped
// rows: every call that answers finishes at least one pull request, and
// a budget that cannot is refused as invalid_field on max_api_calls with
// the same call and a budget that can.
func TestReportReleasePRsTinyBudget(t *testing.T) {
	t.Parallel()
	lib := emulator.Fleet(31).Name
	for _, tc := range []struct {
		repo    string
		analyze bool
		budgets []int
	}{
		// Without analyze a release PR takes 4 calls (head, 2 changelog
		// paths, the README; at most 7, each file over 1 MB read raw),
		// with it 7 (at most 21): 1 and 2 are too few for either, 5 and 9
		// pay for one and part of the next.
		{"", false, []int{1, 2, 5}},
		{"", true, []int{1, 9}},
		// One repository's listing carries the heads: 1 is too few, and 5
		// with analyze pays for the listing and part of one.
		{lib, false, []int{1}},
		{lib, true, []int{5}},
	} {
		env := fleetEnv(t, releaseFleet, servertest.Options{})
		scope := map[string]any{"owner": "fleet", "analyze": tc.analyze}
		if tc.repo != "" {
			scope["repo"] = tc.repo
		}
		want := releaseReport(t, env, scope).Rows
		for _, budget := range tc.budgets {
			args0 := maps.Clone(scope)
			args0["max_api_calls"] = budget
			var args any = args0
			var rows []reports.ReleaseRow
			refused := 0
			for calls := 0; ; calls++ {
				if calls > len(want)+2 {
					t.Fatalf("analyze %v, max_api_calls %d: calls = %d and not finished, want at most %d", tc.analyze, budget, calls, len(want)+2)
				}
				res := env.Call(t, releaseTool, args)
				if res.IsError {
					e := res.Envelope(t)
					what := fmt.Sprintf("analyze %v, max_api_calls %d", tc.analyze, budget)
					if e.Code != "invalid_field" {
						t.Fatalf("%s: code = %q, want %q (%+v)", what, e.Code, "invalid_field", e)
					}
					if e.Details == nil || e.Details.Field != "max_api_calls" {
						t.Fatalf("%s: details = %+v, want field max_api_calls", what, e.Details)
					}
					contracttest.MustRepair(t, what, e.Repair, releaseTool)
					if refused++; refused > 1 {
						t.Fatalf("analyze %v: the repair was refused again, want it to run: %s", tc.analyze, e.Message)
					}
					b, _ := json.Marshal(e.Repair.Arguments)
					args = json.RawMessage(b)
					continue
				}
				refused = 0
				var out reports.ReleaseOut
				res.Decode(t, &out)
				if out.Scanned.Pulls+len(out.Skipped) == 0 {
					t.Fatalf("analyze %v, max_api_calls %d: a call's scanned.pulls+skipped = 0, want at least one pull request finished: %+v", tc.analyze, budget, out)
				}
				rows = append(rows, out.Rows...)
				if !out.Truncated {
					break
				}
				args = nextArgs(t, releaseTool, out.NextCall)
			}
			sameReleaseRows(t, rows, want)
		}
	}
}

// The search spends GitHub's search budget, apart from the core one: at
// its floor the report stops rate_limited before searching, and the
// next_call finishes once the search window (a minute) has reset. An
// answer that brings the search budget to its floor stops no core call.
func TestReportReleasePRsSearchFloor(t *testing.T) {
	t.Parallel()
	// The floor is read against this host's clock, as GitHub's reset is.
	clock := &testClock{t: time.Now()}
	store := t.TempDir() + "/state.db"
	// 9 a minute: the first search leaves 8, the floor (the calls in flight).
	env := fleetEnv(t, releaseFleet, servertest.Options{Emulator: emulator.Options{Now: clock.Now, SearchLimit: 9}, StorePath: store})
	args := map[string]any{"owner": "fleet"}
	first := releaseReport(t, env, args)
	if first.Truncated {
		t.Fatalf("first report: truncated = true (%s), want false", first.TruncatedReason)
	}
	if len(first.Rows) == 0 {
		t.Fatal("first report: rows = 0, want some")
	}
	second := releaseReport(t, env, args)
	if second.TruncatedReason != "rate_limited" {
		t.Fatalf("at the search floor: truncated_reason = %q, want %q", second.TruncatedReason, "rate_limited")
	}
	if second.APICalls != 0 {
		t.Fatalf("at the search floor: api_calls = %d, want 0 (stopped before any call)", second.APICalls)
	}
	if len(second.Rows) != 0 {
		t.Fatalf("at the search floor: rows = %d, want none", len(second.Rows))
	}
	clock.Advance(2 * time.Minute)
	env2 := servertest.Start(t, servertest.Options{Emu: env.Emu, StorePath: store, Toolsets: []string{"reports"}})
	rest, _ := releaseAll(t, env2, nextArgs(t, releaseTool, second.NextCall))
	sameReleaseRows(t, rest, first.Rows)
}

// A user's release pull requests are found as an organization's are:
// GitHub's search reads org: and user: alike.
func TestReportReleasePRsUserOwner(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 1, servertest.Options{})
	is := aliceRelease(env, "release: v1.4.0", state.RepoDefaultBranch)
	out := releaseReport(t, env, map[string]any{"owner": "alice"})
	if out.Truncated {
		t.Fatalf("alice's report: truncated = true (%s), want false", out.TruncatedReason)
	}
	if len(out.Rows) != 1 {
		t.Fatalf("alice's report: rows = %d, want 1: %+v", len(out.Rows), out.Rows)
	}
	row := out.Rows[0]
	if row.Repo != emulator.DemoNotesRepo {
		t.Errorf("alice's release PR: repo = %q, want %q", row.Repo, emulator.DemoNotesRepo)
	}
	if row.Number != is.Number {
		t.Errorf("alice's release PR: number = %d, want %d", row.Number, is.Number)
	}
	if row.Status != reports.StatusReady {
		t.Errorf("alice's release PR: status = %q, want %q", row.Status, reports.StatusReady)
	}
	if row.ChangelogPath != "CHANGELOG.md" {
		t.Errorf("alice's release PR: changelog_path = %q, want %q", row.ChangelogPath, "CHANGELOG.md")
	}
}

// aliceRelease opens a release pull request in alice's notes repository,
// titled title, into base (made from the default branch when new), from a
// branch whose CHANGELOG.md has the v1.4.0 entry.
func aliceRelease(env *servertest.Env, title, base string) *state.Issue {
	return aliceReleaseFrom(env, title, "release/v1.4.0", base)
}

// aliceReleaseFrom is aliceRelease from the head branch head.
func aliceReleaseFrom(env *servertest.Env, title, head, base string) *state.Issue {
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	alice, r := s.Account("alice"), s.Repo("alice", emulator.DemoNotesRepo)
	at := emulator.DemoNow().Add(-time.Hour)
	if base != state.RepoDefaultBranch {
		s.Commit(r, base, alice, at.Add(-time.Hour), "Branch "+base, nil)
	}
	entry := "# Changelog\n\n## v1.4.0\n\n- Reading list by year.\n- Talk drafts link their slides.\n"
	s.Commit(r, head, alice, at, "Prepare v1.4.0", map[string]*string{"CHANGELOG.md": &entry})
	is := s.NewIssue(r, alice, title, nil, true, at)
	s.OpenPull(is, r, head, base, false)
	s.AddLabels(is, alice, s.AddLabel(r, "release", "0e8a16", nil))
	return is
}
