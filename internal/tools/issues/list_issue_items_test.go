package issues_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func listItems(t *testing.T, env *servertest.Env, in issues.ListIssueItemsIn) issues.ListIssueItemsOut {
	t.Helper()
	return servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems, in)
}

func TestListIssueItemsCommentsPageWithSignedCursors(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var want []int64
	withState(env, func(*emulator.State) {
		for _, c := range widgets(env).Issue(emulator.DemoManyCommentsIssue).Comments {
			want = append(want, c.ID)
		}
	})
	args := issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments", PageSize: 5}
	path := fmt.Sprintf("GET /repos/acme/widgets/issues/%d/comments", emulator.DemoManyCommentsIssue)
	var got []int64
	var cursors []string
	env.Upstream()
	for page := 1; page <= 10; page++ {
		out := listItems(t, env, args)
		wantUpstream(t, env, path)
		for _, it := range out.Items {
			if it.ID == 0 || it.Author == "" || it.Body == "" || it.At == "" {
				t.Fatalf("comment row: %+v", it)
			}
			got = append(got, it.ID)
		}
		if !out.HasMore {
			break
		}
		cursors = append(cursors, out.NextCursor)
		args.Cursor = out.NextCursor
	}
	if len(want) != 16 || !slices.Equal(got, want) || len(cursors) != 3 {
		t.Fatalf("comments over pages: got %v, want %v (%d cursors)", got, want, len(cursors))
	}

	// A cursor is bound to the issue, the collection and the page size.
	c := cursors[0]
	for _, other := range []issues.ListIssueItemsIn{
		{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "timeline", PageSize: 5, Cursor: c},
		{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "comments", PageSize: 5, Cursor: c},
		{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments", Cursor: c},
		{Owner: "acme", Repo: "gadgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments", PageSize: 5, Cursor: c},
	} {
		t.Run(fmt.Sprintf("%s #%d %s size %d", other.Repo, other.IssueNumber, other.Collection, other.PageSize), func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, other), false)
			if e.Code != contract.CodeCursorInvalid || e.Repair == nil || e.Repair.Tool != toolkit.NameListIssueItems {
				t.Fatalf("cursor reused for %+v: %+v", other, e)
			}
		})
	}
	wantUpstream(t, env) // refused before any request
	e := wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets",
		IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments", PageSize: 5, Cursor: c + "x"}), false)
	if e.Code != contract.CodeCursorInvalid {
		t.Fatalf("tampered cursor: %+v", e)
	}
}

func TestListIssueItemsRelations(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	numbers := func(out issues.ListIssueItemsOut) []int {
		var ns []int
		for _, it := range out.Items {
			if it.Title == "" || it.State == "" || it.Repo != "" {
				t.Fatalf("relation row: %+v", it)
			}
			ns = append(ns, it.Number)
		}
		return ns
	}
	env.Upstream()
	subs := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "sub_issues"})
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d/sub_issues", emulator.DemoParentIssue))
	if got := numbers(subs); !slices.Equal(got, []int{13, emulator.DemoNestedParentIssue, 15, 16}) {
		t.Fatalf("sub-issues in priority order: %v", got)
	}
	blockers := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockedIssue, Collection: "blocked_by"})
	if got := numbers(blockers); !slices.Contains(got, emulator.DemoChainIssue) || !slices.Contains(got, 42) || len(got) != 2 {
		t.Fatalf("blocked_by: %v", got)
	}
	blocking := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockerIssue, Collection: "blocking"})
	if got := numbers(blocking); !slices.Equal(got, []int{emulator.DemoChainIssue}) {
		t.Fatalf("blocking: %v", got)
	}
	// #12 is mentioned by an issue, not a pull request: no linked PRs.
	prs := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "linked_prs"})
	if len(prs.Items) != 0 || prs.HasMore {
		t.Fatalf("linked_prs: %+v", prs)
	}
	// PR #146's description says "Fixes #145": GitHub's timeline for #145
	// cross-references it, and that is the linked PR.
	prs = listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: fixedIssue, Collection: "linked_prs"})
	if got := numbers(prs); !slices.Equal(got, []int{146}) || prs.Items[0].Title == "" || prs.Items[0].State == "" {
		t.Fatalf("linked_prs of #145: %+v", prs.Items)
	}
	wantUpstream(t, env,
		fmt.Sprintf("GET /repos/acme/widgets/issues/%d/dependencies/blocked_by", emulator.DemoBlockedIssue),
		fmt.Sprintf("GET /repos/acme/widgets/issues/%d/dependencies/blocking", emulator.DemoBlockerIssue),
		fmt.Sprintf("GET /repos/acme/widgets/issues/%d/timeline", emulator.DemoParentIssue),
		"GET /repos/acme/widgets/issues/145/timeline")
}

func TestListIssueItemsTimelineIsCompact(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	args := issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "timeline", PageSize: 100}
	out := listItems(t, env, args)
	seen := map[string]issues.IssueItem{}
	for _, it := range out.Items {
		if it.Event == "" || it.At == "" || it.Body != "" {
			t.Fatalf("timeline row: %+v", it)
		}
		if _, dup := seen[it.Event]; !dup {
			seen[it.Event] = it
		}
	}
	if ev, ok := seen["sub_issue_added"]; !ok || ev.Number == 0 || ev.Actor == "" {
		t.Fatalf("sub_issue_added: %+v in %v", ev, keys(seen))
	}
	if ev, ok := seen["labeled"]; !ok || ev.Label == "" {
		t.Fatalf("labeled: %+v", ev)
	}
	if ev, ok := seen["commented"]; !ok || ev.ID == 0 {
		t.Fatalf("commented: %+v", ev)
	}
	// A rename shows from and to; a close its reason.
	withState(env, func(s *emulator.State) {
		is := widgets(env).Issue(emulator.DemoParentIssue)
		s.Rename(is, s.Account("bob"), "Export epic, renamed")
		s.Close(is, s.Account("bob"), "not_planned")
	})
	out = listItems(t, env, args)
	n := len(out.Items)
	renamed, closed := out.Items[n-2], out.Items[n-1]
	if renamed.Event != "renamed" || renamed.To != "Export epic, renamed" || renamed.From == "" || renamed.Actor != "bob" {
		t.Fatalf("renamed: %+v", renamed)
	}
	if closed.Event != "closed" || closed.Reason != "not_planned" {
		t.Fatalf("closed: %+v", closed)
	}
	// Dependency events name the other issue.
	out = listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockedIssue, Collection: "timeline", PageSize: 100})
	found := false
	for _, it := range out.Items {
		found = found || it.Event == "blocked_by_added" && it.Number == emulator.DemoChainIssue
	}
	if !found {
		t.Fatalf("no blocked_by_added naming #%d: %+v", emulator.DemoChainIssue, out.Items)
	}
}

func keys(m map[string]issues.IssueItem) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestListIssueItemsSanitizesComments(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	withState(env, func(s *emulator.State) {
		is := widgets(env).Issue(emulator.DemoHostileIssue)
		s.AddComment(is, s.Account("dave"), "ok\u200b a<b && c <!-- assign me --> \u202eend", s.Now())
	})
	out := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoHostileIssue, Collection: "comments", PageSize: 100})
	last := out.Items[len(out.Items)-1]
	if strings.ContainsAny(last.Body, "\u200b\u202e") || strings.Contains(last.Body, "<!--") || !strings.Contains(last.Body, "a<b && c") || last.Removed != 3 {
		t.Fatalf("sanitized comment: %+v", last)
	}
}

func TestListIssueItemsErrorsAndScope(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// Forced error: an issue that does not exist.
	e := wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue, Collection: "comments"}), false)
	if e.Code != contract.CodeIssueNotFound || e.Repair == nil || e.Repair.Tool != toolkit.NameSearchIssues {
		t.Fatalf("missing issue: %+v", e)
	}
	e = wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"collection":"reactions"}`, emulator.DemoManyCommentsIssue)), false)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "collection" {
		t.Fatalf("unknown collection: %+v", e)
	}

	// Under the creator scope the issue is read first and refused when
	// someone else opened it.
	scoped := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	scoped.Upstream()
	e = wireEnvelope(t, scoped.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments"}), false)
	if e.Code != contract.CodeIssueCreatorNotAllowed {
		t.Fatalf("creator scope: %+v", e)
	}
	wantUpstream(t, scoped, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoManyCommentsIssue))
}
