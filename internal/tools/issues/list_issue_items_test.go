package issues_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
			if it.ID == 0 {
				t.Fatalf("comment row id = 0, want one: %+v", it)
			}
			if it.Author == "" || it.Body == "" || it.At == "" {
				t.Fatalf("comment %d: author %q, body %q, at %q, want all three set", it.ID, it.Author, it.Body, it.At)
			}
			got = append(got, it.ID)
		}
		if !out.HasMore {
			break
		}
		cursors = append(cursors, out.NextCursor)
		args.Cursor = out.NextCursor
	}
	if len(want) != 16 {
		t.Fatalf("seed comments = %d, want 16", len(want))
	}
	if !slices.Equal(got, want) {
		t.Fatalf("comments over pages = %v, want %v", got, want)
	}
	if len(cursors) != 3 {
		t.Fatalf("cursors = %d, want 3", len(cursors))
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
			contracttest.Code(t, "", e, contract.CodeCursorInvalid)
			contracttest.MustRepair(t, "", e.Repair, toolkit.NameListIssueItems)
		})
	}
	wantUpstream(t, env) // refused before any request
	e := wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets",
		IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments", PageSize: 5, Cursor: c + "x"}), false)
	if e.Code != contract.CodeCursorInvalid {
		t.Fatalf("tampered cursor: code = %q, want %q: %+v", e.Code, contract.CodeCursorInvalid, e)
	}
}

func TestListIssueItemsRelations(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	numbers := func(out issues.ListIssueItemsOut) []int {
		var ns []int
		for _, it := range out.Items {
			if it.Title == "" || it.State == "" {
				t.Fatalf("relation row #%d: title %q, state %q, want both set", it.Number, it.Title, it.State)
			}
			if it.Repo != "" {
				t.Fatalf("relation row #%d: repo = %q, want none in the same repository", it.Number, it.Repo)
			}
			ns = append(ns, it.Number)
		}
		return ns
	}
	env.Upstream()
	subs := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "sub_issues"})
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d/sub_issues", emulator.DemoParentIssue))
	if got, want := numbers(subs), []int{13, emulator.DemoNestedParentIssue, 15, 16}; !slices.Equal(got, want) {
		t.Fatalf("sub-issues = %v, want %v in priority order", got, want)
	}
	blockers := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockedIssue, Collection: "blocked_by"})
	got := numbers(blockers)
	for _, want := range []int{emulator.DemoChainIssue, 42} {
		if !slices.Contains(got, want) {
			t.Fatalf("blocked_by = %v, want it to include #%d", got, want)
		}
	}
	if len(got) != 2 {
		t.Fatalf("blocked_by = %v (%d), want 2", got, len(got))
	}
	blocking := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockerIssue, Collection: "blocking"})
	if got := numbers(blocking); !slices.Equal(got, []int{emulator.DemoChainIssue}) {
		t.Fatalf("blocking = %v, want [%d]", got, emulator.DemoChainIssue)
	}
	// #12 is mentioned by an issue, not a pull request: no linked PRs.
	prs := listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Collection: "linked_prs"})
	if len(prs.Items) != 0 {
		t.Fatalf("linked_prs = %+v, want none", prs.Items)
	}
	if prs.HasMore {
		t.Fatalf("linked_prs: has_more = true, want false")
	}
	// PR #146's description says "Fixes #145": GitHub's timeline for #145
	// cross-references it, and that is the linked PR.
	prs = listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: fixedIssue, Collection: "linked_prs"})
	if got := numbers(prs); !slices.Equal(got, []int{146}) {
		t.Fatalf("linked_prs of #145 = %v, want [146]", got)
	}
	if pr := prs.Items[0]; pr.Title == "" || pr.State == "" {
		t.Fatalf("linked_prs of #145: title %q, state %q, want both set", pr.Title, pr.State)
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
		if it.Event == "" || it.At == "" {
			t.Fatalf("timeline row: event %q, at %q, want both set: %+v", it.Event, it.At, it)
		}
		if it.Body != "" {
			t.Fatalf("timeline row %s: body = %q, want none (compact)", it.Event, it.Body)
		}
		if _, dup := seen[it.Event]; !dup {
			seen[it.Event] = it
		}
	}
	for _, ev := range []string{"sub_issue_added", "labeled", "commented"} {
		if _, ok := seen[ev]; !ok {
			t.Fatalf("timeline events = %v, want one %s", keys(seen), ev)
		}
	}
	if ev := seen["sub_issue_added"]; ev.Number == 0 || ev.Actor == "" {
		t.Errorf("sub_issue_added: number %d, actor %q, want both set", ev.Number, ev.Actor)
	}
	if ev := seen["labeled"]; ev.Label == "" {
		t.Errorf("labeled: label is empty, want the label's name")
	}
	if ev := seen["commented"]; ev.ID == 0 {
		t.Errorf("commented: id = 0, want the comment's")
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
	if renamed.Event != "renamed" {
		t.Fatalf("next to last event = %q, want renamed: %+v", renamed.Event, renamed)
	}
	if renamed.To != "Export epic, renamed" {
		t.Errorf("renamed: to = %q, want %q", renamed.To, "Export epic, renamed")
	}
	if renamed.From == "" {
		t.Errorf("renamed: from is empty, want the old title")
	}
	if renamed.Actor != "bob" {
		t.Errorf("renamed: actor = %q, want bob", renamed.Actor)
	}
	if closed.Event != "closed" {
		t.Fatalf("last event = %q, want closed: %+v", closed.Event, closed)
	}
	if closed.Reason != "not_planned" {
		t.Errorf("closed: reason = %q, want not_planned", closed.Reason)
	}
	// Dependency events name the other issue.
	out = listItems(t, env, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockedIssue, Collection: "timeline", PageSize: 100})
	found := false
	for _, it := range out.Items {
		found = found || it.Event == "blocked_by_added" && it.Number == emulator.DemoChainIssue
	}
	if !found {
		t.Fatalf("timeline = %+v, want a blocked_by_added naming #%d", out.Items, emulator.DemoChainIssue)
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
	if strings.ContainsAny(last.Body, "\u200b\u202e") {
		t.Errorf("sanitized body = %q, want no hidden or bidi characters", last.Body)
	}
	if strings.Contains(last.Body, "<!--") {
		t.Errorf("sanitized body = %q, want no HTML comment", last.Body)
	}
	if !strings.Contains(last.Body, "a<b && c") {
		t.Errorf("sanitized body = %q, want %q kept", last.Body, "a<b && c")
	}
	if last.Removed != 3 {
		t.Errorf("removed = %d, want 3", last.Removed)
	}
}

func TestListIssueItemsErrorsAndScope(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// Forced error: an issue that does not exist.
	e := wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue, Collection: "comments"}), false)
	contracttest.Code(t, "", e, contract.CodeIssueNotFound)
	contracttest.MustRepair(t, "", e.Repair, toolkit.NameSearchIssues)
	e = wireEnvelope(t, env.Call(t, toolkit.NameListIssueItems, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"collection":"reactions"}`, emulator.DemoManyCommentsIssue)), false)
	if e.Code != contract.CodeInvalidField {
		t.Errorf("unknown collection: code = %q, want %q", e.Code, contract.CodeInvalidField)
	}
	if e.Details == nil || e.Details.Field != "collection" {
		t.Errorf("unknown collection: details = %+v, want field collection", e.Details)
	}

	// Under the creator scope the issue is read first and refused when
	// someone else opened it.
	scoped := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	scoped.Upstream()
	e = wireEnvelope(t, scoped.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments"}), false)
	if e.Code != contract.CodeIssueCreatorNotAllowed {
		t.Fatalf("creator scope: code = %q, want %q: %+v", e.Code, contract.CodeIssueCreatorNotAllowed, e)
	}
	wantUpstream(t, scoped, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoManyCommentsIssue))
}
