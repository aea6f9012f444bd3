package github

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestIssueEditJSON(t *testing.T) {
	cases := []struct {
		edit IssueEdit
		want string
	}{
		{IssueEdit{ClearMilestone: true, Labels: &[]string{}}, `{"labels":[],"milestone":null}`},
		{IssueEdit{Milestone: ptr(3), Type: ptr("Bug")}, `{"milestone":3,"type":"Bug"}`},
		{IssueEdit{Body: ptr(""), ClearType: true}, `{"body":"","type":null}`},
		{IssueEdit{State: ptr("closed"), StateReason: ptr("not_planned")}, `{"state":"closed","state_reason":"not_planned"}`},
	}
	for _, tc := range cases {
		b, err := json.Marshal(tc.edit)
		if err != nil || string(b) != tc.want {
			t.Errorf("got %s (%v), want %s", b, err, tc.want)
		}
	}
}

func TestIssueWritesAgainstEmulator(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	const n = 4

	is, s, err := c.EditIssue(ctx, owner, repo, n, IssueEdit{Milestone: ptr(1)})
	if err != nil || s != RemoteSuccessKnown || is.GetMilestone().GetNumber() != 1 {
		t.Fatalf("set milestone: %v %q %+v", err, s, is.GetMilestone())
	}
	is, _, err = c.EditIssue(ctx, owner, repo, n, IssueEdit{ClearMilestone: true})
	if err != nil || is.Milestone != nil {
		t.Fatalf("clear milestone: %v %+v", err, is.GetMilestone())
	}

	labels, s, err := c.AddLabels(ctx, owner, repo, n, []string{"status: triage", "bug"})
	if err != nil || s != RemoteSuccessKnown || !hasLabel(labels, "status: triage") {
		t.Fatalf("add labels: %v %q", err, s)
	}
	// A name with a space and a colon must survive the URL path.
	labels, s, err = c.RemoveLabel(ctx, owner, repo, n, "status: triage")
	if err != nil || s != RemoteSuccessKnown || hasLabel(labels, "status: triage") || !hasLabel(labels, "bug") {
		t.Fatalf("remove label: %v %q %v", err, s, names(labels))
	}
	_, s, err = c.RemoveLabel(ctx, owner, repo, n, "status: triage")
	if e := asError(t, err); e.Code != NotFound || s != NoRemoteSuccessKnown || e.Message != "Label does not exist" {
		t.Fatalf("remove absent label: %+v", e)
	}

	c2, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	comments, m, err := c2.ListComments(ctx, owner, repo, emulator.DemoManyCommentsIssue, ListCommentsOptions{PerPage: 10})
	if err != nil || len(comments) != 10 || m.NextPage != 2 {
		t.Fatalf("comments page 1: %v, %d comments, next %d", err, len(comments), m.NextPage)
	}
	comments, m, err = c2.ListComments(ctx, owner, repo, emulator.DemoManyCommentsIssue, ListCommentsOptions{PerPage: 10, Page: 2})
	if err != nil || len(comments) == 0 || m.NextPage != 0 {
		t.Fatalf("comments page 2: %v, %d comments, next %d", err, len(comments), m.NextPage)
	}
	if _, _, err := c2.ListIssues(ctx, owner, repo, ListIssuesOptions{PerPage: 101}); asError(t, err).Code != InvalidArgument {
		t.Fatalf("per_page 101: %v", err)
	}
}

func hasLabel(ls []*gh.Label, name string) bool { return slices.Contains(names(ls), name) }

func names(ls []*gh.Label) []string {
	var out []string
	for _, l := range ls {
		out = append(out, l.GetName())
	}
	return out
}
