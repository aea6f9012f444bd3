package tools

import (
	"fmt"
	"testing"
	"time"
)

// A search returning 10,000 repositories leaves at most knownMaxRepos of
// them remembered: the least recently used go first, the most recent still
// answer, and one kept in use survives.
func TestKnownNamesStayBounded(t *testing.T) {
	var k knownNames
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	key := func(i int) string { return fmt.Sprintf("cred\x00acme/repo-%d", i) }
	hot := "cred\x00acme/widgets"
	k.entry(hot, now).labels["bug"] = "bug"
	const repos = 10_000
	for i := range repos {
		k.entry(key(i), now).labels["bug"] = "bug"
		if i%100 == 0 && k.live(hot, now) == nil {
			t.Fatalf("after %d repositories the one in use is gone", i)
		}
		if n := k.len(); n > knownMaxRepos {
			t.Fatalf("after %d repositories %d are remembered, over %d", i+1, n, knownMaxRepos)
		}
	}
	for i := repos - knownMaxRepos/2; i < repos; i++ {
		if e := k.live(key(i), now); e == nil || e.labels["bug"] != "bug" {
			t.Fatalf("recent repository %d is forgotten", i)
		}
	}
	if k.live(key(0), now) != nil || k.live(key(repos/2), now) != nil {
		t.Fatal("an old repository is still remembered")
	}
	if k.live(hot, now) == nil {
		t.Fatal("the repository in use was evicted before idle ones")
	}
	if len(k.entries) != k.order.Len() {
		t.Fatalf("index holds %d, order %d", len(k.entries), k.order.Len())
	}
}

// The age limit holds as before: an entry expires knownTTL after its first
// name, however often it is used, and is then dropped, not kept around.
func TestKnownNamesExpire(t *testing.T) {
	var k knownNames
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	k.entry("a", now).labels["bug"] = "bug"
	if k.live("a", now.Add(knownTTL)) == nil {
		t.Fatal("expired at the edge of the window")
	}
	k.entry("a", now.Add(knownTTL)).labels["docs"] = "docs"
	if k.live("a", now.Add(knownTTL+time.Second)) != nil {
		t.Fatal("adding a name extended the trust in older ones")
	}
	if k.len() != 0 {
		t.Fatalf("an expired entry is still held (%d)", k.len())
	}
	// Expired entries at the idle end go when a new one arrives.
	k.entry("b", now)
	k.entry("c", now.Add(knownTTL+time.Second))
	if k.len() != 1 {
		t.Fatalf("%d entries held, want only the live one", k.len())
	}
	k.drop("c")
	if k.len() != 0 || k.live("c", now) != nil {
		t.Fatal("drop left the entry")
	}
}
