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
		t.Errorf("page(widgets) = %d, want 3", got)
	}
	if got := pos.page("gadgets"); got != 1 {
		t.Errorf("page(gadgets) = %d, want 1 (finished)", got)
	}
	if got := pos.Pages["gadgets"]; got != 0 {
		t.Errorf("Pages[gadgets] = %d, want 0 (finished: dropped)", got)
	}
	if got := pos.page("zeta"); got != 2 {
		t.Errorf("page(zeta) = %d, want 2", got)
	}
	if pos.After != "gadgets" {
		t.Errorf("After = %q, want %q", pos.After, "gadgets")
	}
	if len(pos.Done) != 0 {
		t.Errorf("Done = %q, want none", pos.Done)
	}
	for name, want := range map[string]bool{"Alpha": true, "widgets": false, "zeta": false} {
		if got := pos.done(name); got != want {
			t.Errorf("done(%s) = %v, want %v", name, got, want)
		}
	}
	again := decodeRoundTrip(t, pos)
	if got, want := slices.Sorted(maps.Keys(again.Pages)), []string{"widgets", "zeta"}; !slices.Equal(got, want) {
		t.Errorf("pages through the cursor = %q, want %q", got, want)
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
	if pos.After != "a" {
		t.Fatalf("after a partial listing: After = %q, want %q", pos.After, "a")
	}
	if want := []string{"a_x", "b"}; !slices.Equal(pos.Done, want) {
		t.Fatalf("after a partial listing: Done = %q, want %q", pos.Done, want)
	}
	// a1, on the page not read, sorts below a_x here: it is not done.
	for name, want := range map[string]bool{"a1": false, "a_x": true, "b": true} {
		if got := pos.done(name); got != want {
			t.Errorf("after a partial listing: done(%s) = %v, want %v", name, got, want)
		}
	}
	// The next call reads the whole listing: the prefix moves over all.
	pos.advance([]string{"a1", "a_x", "b", "c"}, map[string]bool{"a1": true}, nil, true)
	if pos.After != "b" {
		t.Errorf("after the whole listing: After = %q, want %q", pos.After, "b")
	}
	if len(pos.Done) != 0 {
		t.Errorf("after the whole listing: Done = %q, want none", pos.Done)
	}
	if pos.done("c") {
		t.Errorf("after the whole listing: done(c) = true, want false")
	}
}
