package reports

import (
	"encoding/json"
	"maps"
	"slices"
	"testing"
)

// A call that stops before it reaches a repository an earlier call
// stopped part way (the run stopped while others were still being
// started) keeps that repository's page; repositories finished drop
// theirs, and the done prefix moves over what is done in name order.
func TestResumeKeepsUnreachedPages(t *testing.T) {
	pos := &resume{Pages: map[string]int{"widgets": 3, "gadgets": 2}}
	order := []string{"alpha", "gadgets", "Widgets", "zeta"}
	pos.advance(order, map[string]bool{"alpha": true, "gadgets": true}, map[string]int{"zeta": 2})
	if got := pos.page("widgets"); got != 3 {
		t.Errorf("widgets goes on from page %d, want 3", got)
	}
	if got := pos.page("gadgets"); got != 1 || pos.Pages["gadgets"] != 0 {
		t.Errorf("gadgets, finished, keeps page %d", pos.Pages["gadgets"])
	}
	if pos.page("zeta") != 2 || pos.After != "gadgets" || len(pos.Done) != 0 {
		t.Errorf("after the call: %+v", pos)
	}
	if !pos.done("Alpha") || pos.done("widgets") || pos.done("zeta") {
		t.Errorf("done: alpha %v widgets %v zeta %v", pos.done("alpha"), pos.done("widgets"), pos.done("zeta"))
	}
	if again := decodeRoundTrip(t, pos); !slices.Equal(slices.Sorted(maps.Keys(again.Pages)), []string{"widgets", "zeta"}) {
		t.Errorf("pages through the cursor: %v", again.Pages)
	}
}

// decodeRoundTrip passes r through JSON, as the signed cursor carries it.
func decodeRoundTrip(t *testing.T, r *resume) *resume {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var out resume
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return &out
}
