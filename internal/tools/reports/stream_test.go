package reports_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// The owner's repositories are scanned as the listing's pages arrive: with
// the second page held back, the first page's repositories are read (and
// answered) before it comes, and the report is whole once it does.
func TestReportStartsBeforeTheListingEnds(t *testing.T) {
	t.Parallel()
	env := fleetEnv(t, 150, servertest.Options{})
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Path: "/orgs/fleet/repos", Kind: emulator.FaultLatency,
		Latency: 2 * time.Second, After: 1, Times: 1}); err != nil {
		t.Fatal(err)
	}
	_ = env.Answered()
	out := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200})
	if out.Truncated {
		t.Fatalf("truncated = true (%s), want false", out.TruncatedReason)
	}
	answers := env.Answered()
	second := slices.IndexFunc(answers, func(a string) bool {
		return strings.HasPrefix(a, "GET /api/v3/orgs/fleet/repos?") && strings.Contains(a, "page=2")
	})
	if second < 0 {
		t.Fatalf("the listing's second page: not among the answers, want it read: %v", answers)
	}
	before := 0
	for _, a := range answers[:second] {
		if strings.Contains(a, "/issues?") {
			before++
		}
	}
	if before == 0 {
		t.Errorf("repositories read before the listing's second page came = 0, want some: %v", answers[:second+1])
	}
	// The held-back page changed nothing: the same report again, with
	// every page answered at once, finds the same repositories and rows.
	again := report(t, env, map[string]any{"owner": "fleet", "max_repos": 200})
	if !reflect.DeepEqual(out.Scanned, again.Scanned) {
		t.Errorf("scanned = %+v, want %+v (the report again)", out.Scanned, again.Scanned)
	}
	if !slices.Equal(out.Rows, again.Rows) {
		t.Errorf("rows = %d, want the report again's %d, alike", len(out.Rows), len(again.Rows))
	}
	if out.Scanned.Repos <= 100 {
		t.Errorf("scanned.repos = %d, want over 100", out.Scanned.Repos)
	}
	t.Logf("%d issue reads answered before the second listing page; %d repositories scanned", before, out.Scanned.Repos)
}
