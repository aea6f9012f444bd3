package state

import (
	"errors"
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
		t.Fatalf("self link: got %v", err)
	}
	if err := s.AddSubIssue(a, pr, u, false); !errors.Is(err, ErrPullRequest) {
		t.Fatalf("pull request child: got %v", err)
	}
	if err := s.AddSubIssue(a, b, u, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(b, c, u, false); err != nil {
		t.Fatal(err)
	}
	if err := s.AddSubIssue(c, a, u, false); !errors.Is(err, ErrCycle) {
		t.Fatalf("cycle a>b>c>a: got %v", err)
	}
	if err := s.AddSubIssue(a, b, u, false); !errors.Is(err, ErrAlreadyLinked) {
		t.Fatalf("repeat add: got %v", err)
	}
	if err := s.AddSubIssue(a, c, u, false); !errors.Is(err, ErrAlreadyParented) {
		t.Fatalf("second parent without replace: got %v", err)
	}
	if err := s.AddSubIssue(a, c, u, true); err != nil {
		t.Fatalf("replace parent: %v", err)
	}
	if c.Parent != a || len(b.SubIssues) != 0 || len(a.SubIssues) != 2 {
		t.Fatalf("after replace: parent=%v b.subs=%d a.subs=%d", c.Parent.Number, len(b.SubIssues), len(a.SubIssues))
	}
	if err := s.ReprioritizeSubIssue(a, c, nil, b); err != nil {
		t.Fatal(err)
	}
	if a.SubIssues[0] != c || a.SubIssues[1] != b {
		t.Fatalf("order after moving c before b: %d, %d", a.SubIssues[0].Number, a.SubIssues[1].Number)
	}
	if err := s.RemoveSubIssue(b, c, u); !errors.Is(err, ErrNotLinked) {
		t.Fatalf("remove absent link: got %v", err)
	}
}

func TestDependenciesRefuseCycles(t *testing.T) {
	s, r, u := newTestWorld(t)
	a := s.AddIssue(r, u, "a", nil, false, s.Now())
	b := s.AddIssue(r, u, "b", nil, false, s.Now())
	c := s.AddIssue(r, u, "c", nil, false, s.Now())
	if err := s.AddBlockedBy(a, a, u); !errors.Is(err, ErrSelfLink) {
		t.Fatalf("self: %v", err)
	}
	if err := s.AddBlockedBy(a, b, u); err != nil { // b blocks a
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(b, c, u); err != nil { // c blocks b
		t.Fatal(err)
	}
	if err := s.AddBlockedBy(c, a, u); !errors.Is(err, ErrCycle) { // a blocks c: a loop
		t.Fatalf("cycle: %v", err)
	}
	if len(b.Blocking) != 1 || b.Blocking[0] != a {
		t.Fatalf("b should block a, blocking=%v", b.Blocking)
	}
	if err := s.RemoveBlockedBy(a, b, u); err != nil {
		t.Fatal(err)
	}
	if len(b.Blocking) != 0 || len(a.BlockedBy) != 0 {
		t.Fatal("removal left a half link")
	}
	kinds := map[string]int{}
	for _, e := range a.Events {
		kinds[e.Event]++
	}
	if kinds["blocked_by_added"] != 1 || kinds["blocked_by_removed"] != 1 {
		t.Fatalf("events on a: %v", kinds)
	}
}

func TestLabelMutationsRecordEventsAndMatchCaseInsensitively(t *testing.T) {
	s, r, u := newTestWorld(t)
	bug := s.AddLabel(r, "Bug", "d73a4a", nil)
	if r.FindLabel("bUG") != bug {
		t.Fatal("label lookup is not case-insensitive")
	}
	is := s.AddIssue(r, u, "x", nil, false, s.Now())
	s.AddLabels(is, u, bug, bug)
	if len(is.Labels) != 1 {
		t.Fatalf("duplicate add kept %d labels", len(is.Labels))
	}
	if !s.RemoveLabel(is, u, bug) || s.RemoveLabel(is, u, bug) {
		t.Fatal("remove should succeed once, then report absence")
	}
	var got []string
	for _, e := range is.Events {
		got = append(got, e.Event)
	}
	if len(got) != 2 || got[0] != "labeled" || got[1] != "unlabeled" {
		t.Fatalf("events: %v", got)
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
	if len(p.SubIssues) != 0 || len(d.BlockedBy) != 0 || s.Node(c.NodeID) != nil {
		t.Fatal("deleted issue still linked or addressable")
	}
}
