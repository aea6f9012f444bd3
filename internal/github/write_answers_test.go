package github

import (
	"context"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The answers to a create and a comment are decoded into the fields the
// tools use; each must match go-github's whole decode of the same issue or
// comment read back, field by field, with labels, assignees, a milestone
// and a type set.
func TestWriteAnswersMatchFullDecode(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	owner, repo := emulator.DemoOrg, emulator.DemoWidgetsRepo
	milestones, _, err := c.rest.Issues.ListMilestones(ctx, owner, repo, nil)
	if err != nil || len(milestones) == 0 {
		t.Fatalf("milestones: %d, %v; want at least one", len(milestones), err)
	}
	ms := milestones[0].GetNumber()
	created, _, err := c.CreateIssue(ctx, owner, repo, NewIssue{Title: "Decoded once", Body: "body **text**",
		Labels: []string{"bug"}, Assignees: []string{"alice"}, Milestone: &ms, Type: "Bug"})
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	full, _, err := c.GetIssue(ctx, owner, repo, created.Number)
	if err != nil {
		t.Fatalf("read back #%d: %v", created.Number, err)
	}
	if got, want := marshal(t, created), marshal(t, CreatedIssueOf(full)); got != want {
		t.Errorf("created issue:\n got %s\nwant %s", got, want)
	}
	for name, empty := range map[string]bool{"id": created.ID == 0, "node_id": created.NodeID == "", "labels": len(created.Labels) == 0,
		"assignees": len(created.Assignees) == 0, "milestone": created.Milestone == nil, "type": created.Type == nil} {
		if empty {
			t.Errorf("created issue has no %s: the comparison does not cover it", name)
		}
	}

	cm, _, err := c.CreateComment(ctx, owner, repo, created.Number, "a comment")
	if err != nil {
		t.Fatalf("comment: %v", err)
	}
	whole, _, err := c.GetComment(ctx, owner, repo, cm.ID)
	if err != nil {
		t.Fatalf("read back comment %d: %v", cm.ID, err)
	}
	if got, want := marshal(t, cm), marshal(t, CommentRowOf(whole)); got != want {
		t.Errorf("created comment:\n got %s\nwant %s", got, want)
	}
}
