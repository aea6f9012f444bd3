package toolkit

import (
	"fmt"
	"testing"
	"time"
)

// A search returning 10,000 repositories leaves at most knownMaxRepos of
// them remembered: the least recently used go first, the most recent still
// answer, and one kept in use survives.
func TestKnownNamesStayBounded(t *testing.T) {
	var k KnownNames
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	key := func(i int) string { return fmt.Sprintf("cred\x00acme/repo-%d", i) }
	hot := "cred\x00acme/widgets"
	k.Entry(hot, now).Labels["bug"] = "bug"
	const repos = 10_000
	for i := range repos {
		k.Entry(key(i), now).Labels["bug"] = "bug"
		if i%100 == 0 && k.Live(hot, now) == nil {
			t.Fatalf("after %d repositories the one in use is gone", i)
		}
		if n := k.Len(); n > knownMaxRepos {
			t.Fatalf("after %d repositories %d are remembered, over %d", i+1, n, knownMaxRepos)
		}
	}
	for i := repos - knownMaxRepos/2; i < repos; i++ {
		e := k.Live(key(i), now)
		if e == nil {
			t.Fatalf("recent repository %d is forgotten, want it remembered", i)
		}
		if got := e.Labels["bug"]; got != "bug" {
			t.Fatalf("recent repository %d: label bug = %q, want bug", i, got)
		}
	}
	for _, i := range []int{0, repos / 2} {
		if k.Live(key(i), now) != nil {
			t.Fatalf("old repository %d is still remembered, want it forgotten", i)
		}
	}
	if k.Live(hot, now) == nil {
		t.Fatal("the repository in use was evicted before idle ones")
	}
	if len(k.entries) != k.order.Len() {
		t.Fatalf("index holds %d, want the order's %d", len(k.entries), k.order.Len())
	}
}

// The age limit holds as before: an entry expires knownTTL after its first
// name, however often it is used, and is then dropped, not kept around.
func TestKnownNamesExpire(t *testing.T) {
	var k KnownNames
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	k.Entry("a", now).Labels["bug"] = "bug"
	if k.Live("a", now.Add(knownTTL)) == nil {
		t.Fatal("expired at the edge of the window")
	}
	k.Entry("a", now.Add(knownTTL)).Labels["docs"] = "docs"
	if k.Live("a", now.Add(knownTTL+time.Second)) != nil {
		t.Fatal("adding a name extended the trust in older ones")
	}
	if k.Len() != 0 {
		t.Fatalf("%d entries held, want the expired one dropped", k.Len())
	}
	// Expired entries at the idle end go when a new one arrives.
	k.Entry("b", now)
	k.Entry("c", now.Add(knownTTL+time.Second))
	if k.Len() != 1 {
		t.Fatalf("%d entries held, want only the live one", k.Len())
	}
	k.Drop("c")
	if n := k.Len(); n != 0 {
		t.Fatalf("after drop %d entries held, want 0", n)
	}
	if k.Live("c", now) != nil {
		t.Fatal("after drop c is live, want it gone")
	}
}
