package toolkit

import (
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/github"
)

// A remembered board lapses after knownTTL; what Get hands out is a copy
// a caller may change; a board read again under another id forgets its
// items, the same board keeps them.
func TestKnownProjects(t *testing.T) {
	var k KnownProjects
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	k.Put("b", github.ProjectV2{ID: "P1", Number: 1}, now)
	k.SetItem("b", "acme/widgets#1", "I1")
	got, ok := k.Get("b", now.Add(time.Minute))
	if !ok {
		t.Fatal("get: not found, want the board")
	}
	if id := got.Items["acme/widgets#1"]; id != "I1" {
		t.Fatalf("get: item acme/widgets#1 = %q, want I1", id)
	}
	got.Items["acme/widgets#2"] = "I2"
	if again, _ := k.Get("b", now); len(again.Items) != 1 {
		t.Fatalf("items = %v, want 1: a caller's change reached the cache", again.Items)
	}
	k.Put("b", github.ProjectV2{ID: "P1", Number: 1, Title: "renamed"}, now)
	same, _ := k.Get("b", now)
	if id := same.Items["acme/widgets#1"]; id != "I1" {
		t.Fatalf("same board read again: item acme/widgets#1 = %q, want I1", id)
	}
	if same.Project.Title != "renamed" {
		t.Fatalf("same board read again: title = %q, want renamed", same.Project.Title)
	}
	k.Put("b", github.ProjectV2{ID: "P9", Number: 1}, now)
	if other, _ := k.Get("b", now); len(other.Items) != 0 {
		t.Fatalf("another board under the key: items = %v, want none", other.Items)
	}
	k.SetItem("b", "acme/widgets#1", "I1")
	k.SetItem("b", "acme/widgets#1", "")
	if gone, _ := k.Get("b", now); len(gone.Items) != 0 {
		t.Fatalf("forgotten item: items = %v, want none", gone.Items)
	}
	if _, ok := k.Get("b", now.Add(knownTTL+time.Second)); ok {
		t.Fatal("a board older than knownTTL was trusted")
	}
	for i := range knownProjectsMax + 1 {
		k.Put(string(rune('a'+i%26))+string(rune(i)), github.ProjectV2{}, now)
	}
	if k.order.Len() > knownProjectsMax {
		t.Fatalf("%d boards remembered, want at most %d", k.order.Len(), knownProjectsMax)
	}
}
