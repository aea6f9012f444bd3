package github

import (
	"context"
	"encoding/json"
	"testing"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/emulator"
)

// ListIssueRows decodes what go-github's full decode of the same page
// reads, field by field (through IssueRowOf, which the reads that decode a
// whole Issue use): every issue and pull request of acme/widgets, open and
// closed, over two pages.
func TestListIssueRowsMatchFullDecode(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	// A locked issue carries its lock reason.
	if _, err := c.LockIssue(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, 2, "resolved"); err != nil {
		t.Fatal(err)
	}
	var full []*gh.Issue
	var rows []*IssueRow
	for page := 1; page > 0; {
		o := ListIssuesOptions{State: "all", Sort: "created", Direction: "desc", Page: page, PerPage: 100}
		f, m, err := c.ListIssues(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, o)
		if err != nil {
			t.Fatal(err)
		}
		r, _, err := c.ListIssueRows(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, o)
		if err != nil {
			t.Fatal(err)
		}
		full, rows, page = append(full, f...), append(rows, r...), m.NextPage
	}
	if len(full) < emulator.DemoWidgetsIssueCount {
		t.Fatalf("ListIssues read %d issues, want at least %d", len(full), emulator.DemoWidgetsIssueCount)
	}
	if len(rows) != len(full) {
		t.Fatalf("ListIssueRows read %d rows, want %d as ListIssues", len(rows), len(full))
	}
	seen := map[string]int{}
	for i, is := range full {
		got, want := marshal(t, rows[i]), marshal(t, IssueRowOf(is))
		if got != want {
			t.Errorf("#%d:\n got %s\nwant %s", is.GetNumber(), got, want)
		}
		r := rows[i]
		for name, ok := range map[string]bool{"pull request": r.IsPullRequest(), "closed": r.State == "closed", "reason": r.StateReason != "",
			"labels": len(r.Labels) > 0, "assignees": len(r.Assignees) > 0, "milestone": r.Milestone != nil, "type": r.Type != nil,
			"body": r.Body != "", "no body": r.Body == "", "closed_at": !r.ClosedAt.IsZero(), "lock reason": r.Locked && r.ActiveLockReason != ""} {
			if ok {
				seen[name]++
			}
		}
	}
	t.Logf("%d rows: %v", len(rows), seen)
	for _, name := range []string{"pull request", "closed", "reason", "labels", "assignees", "milestone", "type", "body", "closed_at", "lock reason"} {
		if seen[name] == 0 {
			t.Errorf("no row with %s: the comparison does not cover it", name)
		}
	}
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// GetIssueRowRecord decodes what the whole-issue read does of the fields
// a view shows and of the relations, for every issue and pull request of
// acme/widgets, and shares its conditional-request entry.
func TestGetIssueRowRecordMatchesFullDecode(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	seen := map[string]int{}
	for n := 1; n <= emulator.DemoWidgetsIssueCount; n++ {
		full, _, err := c.GetIssueRecord(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, n)
		if err != nil {
			t.Fatalf("#%d: %v", n, err)
		}
		slim, m, err := c.GetIssueRowRecord(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, n)
		if err != nil {
			t.Fatalf("#%d: %v", n, err)
		}
		if !m.Cached {
			t.Errorf("#%d: the slim read was not answered from the whole read's cached entry", n)
		}
		if got, want := marshal(t, slim.IssueRow), marshal(t, IssueRowOf(&full.Issue)); got != want {
			t.Errorf("#%d row:\n got %s\nwant %s", n, got, want)
		}
		if got, want := slim.ParentIssueURL, full.GetParentIssueURL(); got != want {
			t.Errorf("#%d parent_issue_url = %q, want %q", n, got, want)
		}
		if got, want := marshal(t, slim.SubIssuesSummary), marshal(t, full.SubIssuesSummary); got != want {
			t.Errorf("#%d sub_issues_summary = %s, want %s", n, got, want)
		}
		if got, want := marshal(t, slim.IssueDependenciesSummary), marshal(t, full.IssueDependenciesSummary); got != want {
			t.Errorf("#%d issue_dependencies_summary = %s, want %s", n, got, want)
		}
		if slim.ParentIssueURL != "" {
			seen["parent"]++
		}
		if s := slim.SubIssuesSummary; s != nil && s.Total > 0 {
			seen["sub-issues"]++
		}
		if d := slim.IssueDependenciesSummary; d != nil && d.TotalBlockedBy+d.TotalBlocking > 0 {
			seen["dependencies"]++
		}
	}
	t.Logf("%d issues: %v", emulator.DemoWidgetsIssueCount, seen)
	for _, name := range []string{"parent", "sub-issues", "dependencies"} {
		if seen[name] == 0 {
			t.Errorf("no issue with %s: the comparison does not cover it", name)
		}
	}
}

// ListComments decodes what go-github's full decode of the same page
// reads of each comment (through CommentRowOf, which the reads and writes
// of one comment use), for every commented issue of acme/widgets.
func TestListCommentsMatchFullDecode(t *testing.T) {
	t.Parallel()
	em := startEmu(t, emulator.Options{})
	c, _ := newClient(t, em.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	compared, edited := 0, 0
	for n := 1; n <= emulator.DemoWidgetsIssueCount; n++ {
		rows, _, err := c.ListComments(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, n, ListCommentsOptions{PerPage: 100})
		if err != nil {
			t.Fatalf("#%d: %v", n, err)
		}
		full, _, err := c.rest.Issues.ListComments(ctx, emulator.DemoOrg, emulator.DemoWidgetsRepo, n, &gh.IssueListCommentsOptions{ListOptions: gh.ListOptions{PerPage: 100}})
		if err != nil {
			t.Fatalf("#%d: %v", n, err)
		}
		if len(rows) != len(full) {
			t.Fatalf("#%d: %d rows, %d comments; want the same", n, len(rows), len(full))
		}
		for i, cm := range full {
			if got, want := marshal(t, rows[i]), marshal(t, CommentRowOf(cm)); got != want {
				t.Errorf("#%d comment %d:\n got %s\nwant %s", n, cm.GetID(), got, want)
			}
			if rows[i].UpdatedAt.After(rows[i].CreatedAt) {
				edited++
			}
			compared++
		}
	}
	t.Logf("%d comments compared, %d edited", compared, edited)
	if compared == 0 {
		t.Error("no comment compared")
	}
}
