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
		t.Fatalf("an issue created this second is in the index: %+v", got)
	}
	seen := s.SearchVersion(old)
	if seen == nil || seen == old || len(seen.Labels) != 0 || seen.State != "open" {
		t.Fatalf("within the lag search must see the seeded version (open, unlabelled), got %+v", seen)
	}
	if len(old.Labels) != 1 || old.State != "closed" {
		t.Fatalf("the issue itself must carry the writes: %+v", old)
	}

	// A write in the lag's last second is still unseen; one older is seen.
	now = now.Add(4 * time.Second)
	s.RemoveLabel(old, u, bug)
	if got := s.SearchVersion(fresh); got != nil {
		t.Fatalf("4s after its creation, inside a 5s lag, the issue is indexed")
	}
	now = now.Add(time.Second)
	if got := s.SearchVersion(fresh); got != fresh {
		t.Fatalf("5s after its creation the issue must be indexed as it is, got %+v", got)
	}
	// old was closed and labelled 5s ago (indexed), unlabelled 1s ago (not yet).
	seen = s.SearchVersion(old)
	if seen == old || seen.State != "closed" || !slices.Contains(seen.Labels, bug) {
		t.Fatalf("search must see the closed, labelled version, got %+v", seen)
	}
	now = now.Add(5 * time.Second)
	if got := s.SearchVersion(old); got != old {
		t.Fatalf("after the lag search must see the issue itself")
	}
}
