package github

import (
	"context"
	"encoding/json"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
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
		if err != nil {
			t.Errorf("json.Marshal(%+v): %v", tc.edit, err)
			continue
		}
		if string(b) != tc.want {
			t.Errorf("json.Marshal(%+v) = %s, want %s", tc.edit, b, tc.want)
		}
	}
}

func TestIssueWritesAgainstEmulator(t *testing.T) {
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	const n = 4

	is, s, err := c.EditIssue(ctx, owner, repo, n, IssueEdit{Milestone: ptr(1)})
	wantWritten(t, "set milestone", s, err)
	if got := is.GetMilestone().GetNumber(); got != 1 {
		t.Fatalf("set milestone: milestone = %d, want 1", got)
	}
	is, _, err = c.EditIssue(ctx, owner, repo, n, IssueEdit{ClearMilestone: true})
	if err != nil {
		t.Fatalf("clear milestone: %v", err)
	}
	if is.Milestone != nil {
		t.Fatalf("clear milestone: milestone = %+v, want none", is.GetMilestone())
	}

	labels, s, err := c.AddLabels(ctx, owner, repo, n, []string{"status: triage", "bug"})
	wantWritten(t, "add labels", s, err)
	if !hasLabel(labels, "status: triage") {
		t.Fatalf("add labels: labels = %q, want status: triage among them", names(labels))
	}
	// A name with a space and a colon must survive the URL path.
	labels, s, err = c.RemoveLabel(ctx, owner, repo, n, "status: triage")
	wantWritten(t, "remove label", s, err)
	if hasLabel(labels, "status: triage") {
		t.Fatalf("remove label: labels = %q, want status: triage gone", names(labels))
	}
	if !hasLabel(labels, "bug") {
		t.Fatalf("remove label: labels = %q, want bug kept", names(labels))
	}
	_, s, err = c.RemoveLabel(ctx, owner, repo, n, "status: triage")
	e := asError(t, err)
	wantRefusal(t, "remove absent label", s, e, NoRemoteSuccessKnown, NotFound)
	if e.Message != "Label does not exist" {
		t.Errorf("remove absent label: Message = %q, want %q", e.Message, "Label does not exist")
	}
	if t.Failed() {
		t.FailNow()
	}

	c2, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	comments, m, err := c2.ListComments(ctx, owner, repo, emulator.DemoManyCommentsIssue, ListCommentsOptions{PerPage: 10})
	if err != nil {
		t.Fatalf("comments page 1: %v", err)
	}
	if len(comments) != 10 {
		t.Fatalf("comments page 1 holds %d comments, want 10", len(comments))
	}
	if m.NextPage != 2 {
		t.Fatalf("comments page 1: NextPage = %d, want 2", m.NextPage)
	}
	comments, m, err = c2.ListComments(ctx, owner, repo, emulator.DemoManyCommentsIssue, ListCommentsOptions{PerPage: 10, Page: 2})
	if err != nil {
		t.Fatalf("comments page 2: %v", err)
	}
	if len(comments) == 0 {
		t.Fatalf("comments page 2 holds no comments, want some")
	}
	if m.NextPage != 0 {
		t.Fatalf("comments page 2: NextPage = %d, want 0 (the last page)", m.NextPage)
	}
	if _, _, err := c2.ListIssues(ctx, owner, repo, ListIssuesOptions{PerPage: 101}); asError(t, err).Code != InvalidArgument {
		t.Fatalf("per_page 101: error code = %q, want %q (%v)", asError(t, err).Code, InvalidArgument, err)
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
	if len(full) == 0 {
		t.Fatalf("ListIssues read no issues, want the fleet's")
	}
	if len(items) != len(full) {
		t.Fatalf("ListIssueItems read %d items, want %d as ListIssues", len(items), len(full))
	}
	// The fields ListIssueItems decodes, as the item and the full issue
	// give them.
	type fields struct {
		Number      int
		Title       string
		HTMLURL     string
		CreatedAt   time.Time
		Draft       bool
		Labels      int
		PullRequest bool
	}
	pulls, labelled, drafts := 0, 0, 0
	for i, is := range full {
		it := items[i]
		want := fields{is.GetNumber(), is.GetTitle(), is.GetHTMLURL(), is.GetCreatedAt().Time, is.GetDraft(), len(is.Labels), is.IsPullRequest()}
		got := fields{it.Number, it.Title, it.HTMLURL, it.CreatedAt, it.Draft, len(it.Labels), it.PullRequest != nil}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("item for issue #%d mismatch (-issue +item):\n%s", is.GetNumber(), diff)
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
	if pulls == 0 || pulls == len(full) {
		t.Errorf("%d of %d are pull requests, want 1..%d: the comparison does not cover every kind", pulls, len(full), len(full)-1)
	}
	if labelled == 0 || labelled == len(full) {
		t.Errorf("%d of %d are labelled, want 1..%d: the comparison does not cover every kind", labelled, len(full), len(full)-1)
	}
	if drafts == 0 {
		t.Errorf("no drafts among %d, want some: the comparison does not cover every kind", len(full))
	}
	t.Logf("%d items: %d pulls, %d drafts, %d labelled", len(items), pulls, drafts, labelled)
}
