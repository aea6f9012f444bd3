package reports_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// fleetSize is the fleet the wire tests report over: enough repositories
// for every bound to bite.
const fleetSize = 30

// uncapped is the whole report over a fresh fleet, every bound wide open.
func uncapped(t *testing.T) []reports.UnlabeledRow {
	t.Helper()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	out := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200, "max_api_calls": 1000})
	if out.Truncated {
		t.Fatalf("uncapped report: truncated = true (%s), want false", out.TruncatedReason)
	}
	if len(out.Rows) == 0 {
		t.Fatal("uncapped report: rows = 0, want some")
	}
	return out.Rows
}

func key(r reports.UnlabeledRow) string { return fmt.Sprintf("%s#%d", r.Repo, r.Number) }

// sameRows fails unless got holds exactly want's rows, each once.
func sameRows(t *testing.T, got, want []reports.UnlabeledRow) {
	t.Helper()
	g, w := map[string]int{}, map[string]int{}
	for _, r := range got {
		g[key(r)]++
	}
	for _, r := range want {
		w[key(r)]++
	}
	if len(got) != len(want) {
		t.Fatalf("continued report: rows = %d, want %d (uncapped)", len(got), len(want))
	}
	if len(g) != len(w) {
		t.Fatalf("continued report: distinct rows = %d, want %d (uncapped)", len(g), len(w))
	}
	for k, n := range g {
		if n != 1 {
			t.Fatalf("row %s: %d times in the continued report, want 1", k, n)
		}
		if w[k] != 1 {
			t.Fatalf("row %s: %d times in the uncapped report, want 1", k, w[k])
		}
	}
}

// Each bound stops the report with its reason, and following next_call as
// given finishes it with the uncapped report's rows.
func TestReportUnlabeledBoundsContinue(t *testing.T) {
	t.Parallel()
	want := uncapped(t)
	cases := []struct {
		args   map[string]any
		reason reports.Stop
	}{
		{map[string]any{"owner": "fleet", "max_api_calls": 6}, "max_api_calls"},
		{map[string]any{"owner": "fleet", "max_repos": 4, "max_api_calls": 1000}, "max_repos"},
	}
	for _, tc := range cases {
		t.Run(string(tc.reason), func(t *testing.T) {
			t.Parallel()
			env := fleetEnv(t, fleetSize, servertest.Options{})
			rows, outs := all(t, env, tc.args)
			if outs[0].TruncatedReason != tc.reason {
				t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, tc.reason)
			}
			if len(outs) < 2 {
				t.Fatalf("calls = %d, want at least 2", len(outs))
			}
			for _, o := range outs {
				if max, ok := tc.args["max_api_calls"].(int); ok && o.APICalls > max {
					t.Errorf("a call's api_calls = %d, want at most %d (max_api_calls)", o.APICalls, max)
				}
			}
			sameRows(t, rows, want)
		})
	}
}

// per_repo_limit stops a repository with more items than it allows
// (max_items) and the continuation reads on from the page it stopped at.
func TestReportUnlabeledMaxItems(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"reports"}})
	args := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "state": "all"}
	whole := report(t, env, map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "state": "all", "per_repo_limit": 1000})
	if whole.Truncated {
		t.Fatalf("acme/widgets: truncated = true (%s), want false", whole.TruncatedReason)
	}
	if whole.Scanned.Items <= 100 {
		t.Fatalf("acme/widgets: scanned.items = %d, want over 100 (the test needs more than a page)", whole.Scanned.Items)
	}
	args["per_repo_limit"] = 1
	rows, outs := all(t, env, args)
	if outs[0].TruncatedReason != "max_items" {
		t.Fatalf("first call: truncated_reason = %q, want %q", outs[0].TruncatedReason, "max_items")
	}
	if outs[0].Scanned.Items != 100 {
		t.Fatalf("first call: scanned.items = %d, want 100", outs[0].Scanned.Items)
	}
	sameRows(t, rows, whole.Rows)
}

// testClock is the emulator's clock, moved on by the test.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// The rate floor, read from GitHub's own x-ratelimit headers, stops the
// report at 2% of the limit or the calls that may be in flight, whichever
// is more (a low-limit token): rate_limited. Once the window resets, the
// continuation finishes it.
func TestReportUnlabeledRateFloor(t *testing.T) {
	t.Parallel()
	want := uncapped(t)
	clock := &testClock{t: time.Now()}
	store := filepath.Join(t.TempDir(), "state.db")
	env := fleetEnv(t, fleetSize, servertest.Options{Emulator: emulator.Options{Now: clock.Now, CoreLimit: 30}, StorePath: store})
	first := report(t, env, map[string]any{"owner": "fleet"})
	if first.TruncatedReason != "rate_limited" {
		t.Fatalf("truncated_reason = %q, want %q", first.TruncatedReason, "rate_limited")
	}
	left := 30 - first.APICalls
	if left < 8 {
		t.Errorf("calls left = %d of 30, want at least 8: the report went past the floor (the calls in flight)", left)
	}
	clock.Advance(61 * time.Minute)
	// A fresh ghgate over the same store: its cursor key and ETags, none
	// of the old window's rate picture.
	env2 := servertest.Start(t, servertest.Options{Emu: env.Emu, StorePath: store, Toolsets: []string{"reports"}})
	rest, _ := all(t, env2, next(t, first))
	sameRows(t, append(first.Rows, rest...), want)
}

// A repository that answers 404 (gone from view, or not permitted: GitHub
// hides what a credential may not see) is skipped with its reason; it
// does not stop the report as a rate limit would. (A 403 without
// retry-after or a spent budget is internal/fanout's test: GitHub's
// description lists no 403 for the issues list.)
func TestReportUnlabeledRefusalsAreNotRateLimits(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	repos := uncapped(t)
	victim := repos[0].Repo
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: "/repos/fleet/" + victim + "/issues", Kind: "status", Status: 404}); err != nil {
		t.Fatal(err)
	}
	out := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false: a 404 on one repository truncated the report", out.TruncatedReason)
	}
	if want := (reports.SkippedRepo{Repo: victim, Reason: "not_found"}); !slices.Contains(out.Skipped, want) {
		t.Errorf("skipped = %+v, want it to hold %+v", out.Skipped, want)
	}
	// A repository with its issues off, asked for its issues: none, and
	// no truncation (GitHub answers 410; the emulator lists its PRs).
	off := offRepo(t, env)
	single := report(t, env, map[string]any{"owner": "fleet", "repo": off, "target": "issues"})
	if single.Truncated {
		t.Errorf("issues off: truncated = true (%s), want false", single.TruncatedReason)
	}
	if len(single.Rows) != 0 {
		t.Errorf("issues off: rows = %+v, want none", single.Rows)
	}
	// Its pull requests are still reported, from the pulls list.
	pulls := report(t, env, map[string]any{"owner": "fleet", "repo": off, "target": "pulls"})
	if pulls.Truncated {
		t.Errorf("issues off, pulls asked for: truncated = true (%s), want false", pulls.TruncatedReason)
	}
	if len(pulls.Skipped) != 0 {
		t.Errorf("issues off, pulls asked for: skipped = %+v, want none", pulls.Skipped)
	}
	if pulls.Scanned.Repos != 1 {
		t.Errorf("issues off, pulls asked for: scanned.repos = %d, want 1", pulls.Scanned.Repos)
	}
}

// offRepo is a fleet repository with its issues turned off.
func offRepo(t *testing.T, env *servertest.Env) string {
	t.Helper()
	for i := range fleetSize {
		if r := emulator.Fleet(i); r.IssuesDisabled && !r.Archived {
			return r.Name
		}
	}
	t.Skip("no fleet repository has its issues off")
	return ""
}

// The same report again over unchanged repositories costs conditional
// requests only: every call is a 304 (no rate budget spent).
func TestReportUnlabeledRepeatIsConditional(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	args := map[string]any{"owner": "fleet", "max_repos": 200}
	first := report(t, env, args)
	again := report(t, env, args)
	if again.APICalls == 0 {
		t.Errorf("repeat: api_calls = 0, want some")
	}
	if again.ConditionalHits != again.APICalls {
		t.Errorf("repeat: conditional_hits = %d, want %d (every call a 304)", again.ConditionalHits, again.APICalls)
	}
	sameRows(t, again.Rows, first.Rows)
}

// GitHub's secondary limit on concurrency (403 with retry-after) is
// waited out, and the report never has more calls in flight than its
// bound.
func TestReportUnlabeledSecondaryLimit(t *testing.T) {
	t.Parallel()
	want := uncapped(t)
	env := fleetEnv(t, fleetSize, servertest.Options{Emulator: emulator.Options{MaxConcurrent: 3, Latency: 20 * time.Millisecond}})
	out := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	sameRows(t, out.Rows, want)
	if peak := env.Emu.Emu.PeakInFlight(emulator.DemoTokenAlice); peak > 8 || peak < 4 {
		t.Errorf("peak in flight = %d, want 4..8: over the emulator's 3 (the limit was met) and at most the bound", peak)
	}
}

// A cursor presented with other filters than it was minted for is
// refused, with the literal call that starts the report again.
func TestReportUnlabeledCursorBoundToFilters(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, fleetSize, servertest.Options{})
	first := report(t, env, map[string]any{"owner": "fleet", "max_repos": 2})
	args := first.NextCall.Arguments.(map[string]any)
	args["target"] = "issues"
	e := env.Call(t, tool, args).Envelope(t)
	contracttest.Code(t, "another target under the cursor", e, "cursor_invalid")
	contracttest.MustRepair(t, "another target under the cursor", e.Repair, tool)
	restart, ok := e.Repair.Arguments.(map[string]any)
	if !ok {
		t.Fatalf("another target under the cursor: repair.arguments = %v, want an object", e.Repair.Arguments)
	}
	if c, ok := restart["cursor"]; ok {
		t.Errorf("restart arguments: cursor = %v, want none (%v)", c, restart)
	}
	if restart["target"] != "issues" {
		t.Errorf("restart arguments: target = %v, want %q", restart["target"], "issues")
	}
	if out := report(t, env, restart); out.Scanned.Repos == 0 {
		t.Errorf("the restart call: scanned.repos = 0, want some (%+v)", out)
	}
}
