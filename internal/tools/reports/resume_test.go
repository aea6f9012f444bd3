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
	t.Parallel()
	pos := &resume{Pages: map[string]int{"widgets": 3, "gadgets": 2}}
	order := []string{"alpha", "gadgets", "Widgets", "zeta"}
	pos.advance(order, map[string]bool{"alpha": true, "gadgets": true}, map[string]int{"zeta": 2}, true)
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

// Without the owner's whole listing the prefix does not move: a name on a
// page not read could sort below it in this order though GitHub listed it
// later. The finished are kept by name instead.
func TestResumePartialListingKeepsNames(t *testing.T) {
	t.Parallel()
	pos := &resume{After: "a"}
	pos.advance([]string{"a_x", "b"}, map[string]bool{"a_x": true, "b": true}, nil, false)
	if pos.After != "a" || !slices.Equal(pos.Done, []string{"a_x", "b"}) {
		t.Fatalf("after a partial listing: %+v", pos)
	}
	// a1, on the page not read, sorts below a_x here: it is not done.
	if pos.done("a1") || !pos.done("a_x") || !pos.done("b") {
		t.Errorf("done: a1 %v a_x %v b %v", pos.done("a1"), pos.done("a_x"), pos.done("b"))
	}
	// The next call reads the whole listing: the prefix moves over all.
	pos.advance([]string{"a1", "a_x", "b", "c"}, map[string]bool{"a1": true}, nil, true)
	if pos.After != "b" || len(pos.Done) != 0 || pos.done("c") {
		t.Errorf("after the whole listing: %+v", pos)
	}
}
