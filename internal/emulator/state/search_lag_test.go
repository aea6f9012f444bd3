package state

import (
	"slices"
	"testing"
	"time"
)

// With a lag, search sees each issue as it stood lag ago: a new issue not
// at all, a relabelled one with its old labels, and once the lag has
// passed, the issue as it is.
func TestSearchVersionTrailsWritesByTheLag(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := NewState(func() time.Time { return now })
	s.Lock()
	defer s.Unlock()
	org := s.AddAccount("acme", "Acme", true, s.Now())
	u := s.AddAccount("alice", "Alice", false, s.Now())
	r := s.AddRepo(org, "widgets", "", false, s.Now())
	bug := s.AddLabel(r, "bug", "d73a4a", nil)
	old := s.AddIssue(r, u, "seeded", nil, false, s.Now())

	if got := s.SearchVersion(old); got != old {
		t.Fatalf("without a lag search must see the issue itself, got %p want %p", got, old)
	}
	s.SetSearchLag(5 * time.Second)

	now = now.Add(time.Minute)
	fresh := s.CreateIssue(r, u, "just filed", nil, IssueTriage{})
	s.AddLabels(old, u, bug)
	s.Close(old, u, "completed")
	if got := s.SearchVersion(fresh); got != nil {
		t.Fatalf("SearchVersion of an issue created this second = %q, want nil (not yet indexed)", got.Title)
	}
	seen := s.SearchVersion(old)
	if seen == nil {
		t.Fatalf("within the lag: SearchVersion(seeded) = nil, want the seeded version")
	}
	if seen == old {
		t.Fatalf("within the lag: SearchVersion(seeded) is the issue itself, want the seeded version")
	}
	if len(seen.Labels) != 0 {
		t.Fatalf("within the lag: search sees labels %v, want none (the seeded version)", labelNames(seen.Labels))
	}
	if seen.State != "open" {
		t.Fatalf("within the lag: search sees state %q, want %q (the seeded version)", seen.State, "open")
	}
	if len(old.Labels) != 1 {
		t.Fatalf("the issue itself: labels %v, want the one written", labelNames(old.Labels))
	}
	if old.State != "closed" {
		t.Fatalf("the issue itself: state %q, want %q", old.State, "closed")
	}

	// A write in the lag's last second is still unseen; one older is seen.
	now = now.Add(4 * time.Second)
	s.RemoveLabel(old, u, bug)
	if got := s.SearchVersion(fresh); got != nil {
		t.Fatalf("4s after its creation, inside a 5s lag: SearchVersion = %q, want nil (not yet indexed)", got.Title)
	}
	now = now.Add(time.Second)
	if got := s.SearchVersion(fresh); got != fresh {
		t.Fatalf("5s after its creation: SearchVersion = %p (%s), want the issue itself %p", got, issueName(got), fresh)
	}
	// old was closed and labelled 5s ago (indexed), unlabelled 1s ago (not yet).
	seen = s.SearchVersion(old)
	if seen == old {
		t.Fatalf("SearchVersion(seeded) is the issue itself, want the closed, labelled version 5s old")
	}
	if seen.State != "closed" {
		t.Fatalf("search sees state %q, want %q", seen.State, "closed")
	}
	if !slices.Contains(seen.Labels, bug) {
		t.Fatalf("search sees labels %v, want %q among them", labelNames(seen.Labels), bug.Name)
	}
	now = now.Add(5 * time.Second)
	if got := s.SearchVersion(old); got != old {
		t.Fatalf("after the lag: SearchVersion = %p (%s), want the issue itself %p", got, issueName(got), old)
	}
}
