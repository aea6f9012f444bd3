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

// ListIssueItems reads what ListIssues reads: each item's fields match the
// full issue's (pull requests, drafts and labelled issues included).
func TestListIssueItemsMatchesListIssues(t *testing.T) {
	em := startEmu(t, emulator.Options{FleetRepos: 8})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	// The fleet's repositories hold unlabelled issues and draft pull
	// requests among the rest.
	o := ListIssuesOptions{State: "all", Sort: "created", Direction: "asc", PerPage: 100}
	var full []*gh.Issue
	var items []*IssueListItem
	repos, _, err := c.ListOrgRepos(ctx, emulator.FleetOrg, gh.ListOptions{PerPage: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range repos {
		f, _, err := c.ListIssues(ctx, emulator.FleetOrg, r.Name, o)
		if err != nil {
			t.Fatal(err)
		}
		full = append(full, f...)
	}
	for _, r := range repos {
		it, _, err := c.ListIssueItems(ctx, emulator.FleetOrg, r.Name, o)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, it...)
	}
	if len(items) != len(full) || len(full) == 0 {
		t.Fatalf("%d items, %d issues", len(items), len(full))
	}
	pulls, labelled, drafts := 0, 0, 0
	for i, is := range full {
		it := items[i]
		if it.Number != is.GetNumber() || it.Title != is.GetTitle() || it.HTMLURL != is.GetHTMLURL() ||
			!it.CreatedAt.Equal(is.GetCreatedAt().Time) || it.Draft != is.GetDraft() ||
			len(it.Labels) != len(is.Labels) || (it.PullRequest != nil) != is.IsPullRequest() {
			t.Errorf("item %+v differs from issue #%d", *it, is.GetNumber())
		}
		if it.PullRequest != nil {
			pulls++
		}
		if len(it.Labels) > 0 {
			labelled++
		}
		if it.Draft {
			drafts++
		}
	}
	if pulls == 0 || labelled == 0 || drafts == 0 || pulls == len(full) || labelled == len(full) {
		t.Errorf("%d pulls, %d drafts and %d labelled of %d: the comparison does not cover every kind", pulls, drafts, labelled, len(full))
	}
	t.Logf("%d items: %d pulls, %d drafts, %d labelled", len(items), pulls, drafts, labelled)
}
