package state

import (
	"errors"
	"slices"
	"testing"
	"time"
)

func newTestWorld(t *testing.T) (*State, *Repo, *Account) {
	t.Helper()
	s := NewState(func() time.Time { return time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC) })
	s.Lock()
	t.Cleanup(s.Unlock)
	org := s.AddAccount("acme", "Acme", true, s.Now())
	u := s.AddAccount("alice", "Alice", false, s.Now())
	r := s.AddRepo(org, "widgets", "", false, s.Now())
	return s, r, u
}

func TestSubIssueLinksRefuseSelfCyclesAndDoubleParents(t *testing.T) {
	s, r, u := newTestWorld(t)
	a := s.AddIssue(r, u, "a", nil, false, s.Now())
	b := s.AddIssue(r, u, "b", nil, false, s.Now())
	c := s.AddIssue(r, u, "c", nil, false, s.Now())
	pr := s.AddIssue(r, u, "pr", nil, true, s.Now())

	if err := s.AddSubIssue(a, a, u, false); !errors.Is(err, ErrSelfLink) {
		t.Fatalf("self link: err = %v, want ErrSelfLink", err)
	}
	if err := s.AddSubIssue(a, pr, u, false); !errors.Is(err, ErrPullRequest) {
		t.Fatalf("pull request child: err = %v, want ErrPullRequest", err)
	}
	if err := s.AddSubIssue(a, b, u, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(b, c, u, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(c, a, u, false); !errors.Is(err, ErrCycle) {
		t.Fatalf("cycle a>b>c>a: err = %v, want ErrCycle", err)
	}
	if err := s.AddSubIssue(a, b, u, false); !errors.Is(err, ErrAlreadyLinked) {
		t.Fatalf("repeat add: err = %v, want ErrAlreadyLinked", err)
	}
	if err := s.AddSubIssue(a, c, u, false); !errors.Is(err, ErrAlreadyParented) {
		t.Fatalf("second parent without replace: err = %v, want ErrAlreadyParented", err)
	}
	if err := s.AddSubIssue(a, c, u, true); err != nil {
		t.Fatalf("replace parent: %v", err)
	}
	if c.Parent != a {
		t.Fatalf("after replace: c.Parent = %s, want a", issueName(c.Parent))
	}
	if len(b.SubIssues) != 0 {
		t.Fatalf("after replace: b.SubIssues = %v, want none", issueTitles(b.SubIssues))
	}
	if len(a.SubIssues) != 2 {
		t.Fatalf("after replace: a.SubIssues = %v, want 2", issueTitles(a.SubIssues))
	}
	if err := s.ReprioritizeSubIssue(a, c, nil, b); err != nil {
		t.Fatal(err)
	}
	if a.SubIssues[0] != c {
		t.Fatalf("a.SubIssues[0] after moving c before b = %s, want c (all %v)", a.SubIssues[0].Title, issueTitles(a.SubIssues))
	}
	if a.SubIssues[1] != b {
		t.Fatalf("a.SubIssues[1] after moving c before b = %s, want b (all %v)", a.SubIssues[1].Title, issueTitles(a.SubIssues))
	}
	if err := s.RemoveSubIssue(b, c, u); !errors.Is(err, ErrNotLinked) {
		t.Fatalf("remove absent link: err = %v, want ErrNotLinked", err)
	}
}

func TestDependenciesRefuseCycles(t *testing.T) {
	s, r, u := newTestWorld(t)
	a := s.AddIssue(r, u, "a", nil, false, s.Now())
	b := s.AddIssue(r, u, "b", nil, false, s.Now())
	c := s.AddIssue(r, u, "c", nil, false, s.Now())
	if err := s.AddBlockedBy(a, a, u); !errors.Is(err, ErrSelfLink) {
		t.Fatalf("self: err = %v, want ErrSelfLink", err)
	}
	if err := s.AddBlockedBy(a, b, u); err != nil { // b blocks a
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(b, c, u); err != nil { // c blocks b
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(c, a, u); !errors.Is(err, ErrCycle) { // a blocks c: a loop
		t.Fatalf("cycle: err = %v, want ErrCycle", err)
	}
	if len(b.Blocking) != 1 || b.Blocking[0] != a {
		t.Fatalf("b.Blocking = %v, want [a]", issueTitles(b.Blocking))
	}
	if err := s.RemoveBlockedBy(a, b, u); err != nil {
		t.Fatal(err)
	}
	if len(b.Blocking) != 0 {
		t.Fatalf("after removal b.Blocking = %v, want none", issueTitles(b.Blocking))
	}
	if len(a.BlockedBy) != 0 {
		t.Fatalf("after removal a.BlockedBy = %v, want none", issueTitles(a.BlockedBy))
	}
	kinds := map[string]int{}
	for _, e := range a.Events {
		kinds[e.Event]++
	}
	for _, k := range []string{"blocked_by_added", "blocked_by_removed"} {
		if kinds[k] != 1 {
			t.Fatalf("%s events on a: %d, want 1 (all: %v)", k, kinds[k], kinds)
		}
	}
}

func TestLabelMutationsRecordEventsAndMatchCaseInsensitively(t *testing.T) {
	s, r, u := newTestWorld(t)
	bug := s.AddLabel(r, "Bug", "d73a4a", nil)
	if r.FindLabel("bUG") != bug {
		t.Fatalf("FindLabel(%q) = %v, want the label %q", "bUG", r.FindLabel("bUG"), bug.Name)
	}
	is := s.AddIssue(r, u, "x", nil, false, s.Now())
	s.AddLabels(is, u, bug, bug)
	if len(is.Labels) != 1 {
		t.Fatalf("after adding one label twice: %d labels, want 1", len(is.Labels))
	}
	if !s.RemoveLabel(is, u, bug) {
		t.Fatal("first RemoveLabel = false, want true")
	}
	if s.RemoveLabel(is, u, bug) {
		t.Fatal("second RemoveLabel = true, want false (already absent)")
	}
	var got []string
	for _, e := range is.Events {
		got = append(got, e.Event)
	}
	if want := []string{"labeled", "unlabeled"}; !slices.Equal(got, want) {
		t.Fatalf("events = %v, want %v", got, want)
	}
}

func TestDeleteIssueDropsLinks(t *testing.T) {
	s, r, u := newTestWorld(t)
	p := s.AddIssue(r, u, "p", nil, false, s.Now())
	c := s.AddIssue(r, u, "c", nil, false, s.Now())
	d := s.AddIssue(r, u, "d", nil, false, s.Now())
	if err := s.AddSubIssue(p, c, u, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(d, c, u); err != nil {
		t.Fatal(err)
	}
	s.DeleteIssue(c)
	if len(p.SubIssues) != 0 {
		t.Errorf("after deleting c: p.SubIssues = %v, want none", issueTitles(p.SubIssues))
	}
	if len(d.BlockedBy) != 0 {
		t.Errorf("after deleting c: d.BlockedBy = %v, want none", issueTitles(d.BlockedBy))
	}
	if s.Node(c.NodeID) != nil {
		t.Errorf("after deleting c: Node(%s) found, want nil", c.NodeID)
	}
}
