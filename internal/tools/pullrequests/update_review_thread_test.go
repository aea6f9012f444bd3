package pullrequests_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/pullrequests"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// bot is the automated reviewer, by its REST login (as every other
// author ghgate shows).
const bot = "copilot-pull-request-reviewer[bot]"

func isBot(w where) bool { return w.Author == bot && !w.Resolved }

// A pull request's review threads, the automated reviewer's among them,
// come back with the id github_update_review_thread takes.
func TestListReviewThreads(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	out := servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems,
		map[string]any{"owner": w.Owner, "repo": w.Repo, "issue_number": w.Pull, "collection": "review_threads"})
	if len(out.Items) != 1 || out.Items[0].Resolved == nil {
		t.Fatalf("rows: %+v", out.Items)
	}
	th := out.Items[0]
	if th.ThreadID != w.ThreadID || *th.Resolved || th.Path == "" || th.Line == 0 || len(th.Comments) != 1 ||
		th.Comments[0].Author != bot || th.Comments[0].ID != w.CommentID || !strings.Contains(th.Comments[0].Body, "deadline") || th.Comments[0].CreatedAt == "" {
		t.Fatalf("the bot's thread: %+v", th)
	}
	// A merged acme pull request's thread was answered and resolved.
	m := findThread(t, env, func(w where) bool { return w.Owner == emulator.DemoOrg && w.Resolved && w.Comments == 2 })
	out = servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems,
		map[string]any{"owner": m.Owner, "repo": m.Repo, "issue_number": m.Pull, "collection": "review_threads", "page_size": 1})
	if len(out.Items) != 1 || out.Items[0].Resolved == nil || !*out.Items[0].Resolved || len(out.Items[0].Comments) != 2 || out.Items[0].Comments[1].Body != "Done, thanks." {
		t.Fatalf("the resolved thread: %+v", out.Items)
	}
}

// review_threads on an issue's number is refused, with the issue's
// comments as the repair.
func TestReviewThreadsOfAnIssue(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	args := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoParentIssue, "collection": "review_threads"}
	res := env.Call(t, toolkit.NameListIssueItems, args)
	e := res.Envelope(t)
	if e.Code != contract.CodeNotAPullRequest || e.Repair == nil || e.Repair.Tool != toolkit.NameListIssueItems || repairJSON(t, e)["collection"] != "comments" {
		t.Fatalf("review_threads of an issue: %s", res.JSON)
	}
	servertest.CallOK[issues.ListIssueItemsOut](t, env, e.Repair.Tool, e.Repair.Arguments)
}

// Resolve, unresolve and reply, each repeated: resolve and unresolve
// answer no_op the second time; a reply to a resolved thread leaves it
// resolved and says so.
func TestUpdateReviewThreadActions(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	for _, step := range []struct {
		action   string
		resolved bool
		noOp     bool
	}{{"resolve", true, false}, {"resolve", true, true}, {"unresolve", false, false}, {"unresolve", false, true}} {
		out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args(step.action, nil))
		if out.Thread.Resolved != step.resolved || out.NoOp != step.noOp || out.Thread.ThreadID != w.ThreadID || out.Pull != w.Pull {
			t.Fatalf("%s: %+v", step.action, out)
		}
		if got, _ := threadState(t, env, w); got != step.resolved {
			t.Fatalf("%s: the emulator has resolved=%v", step.action, got)
		}
		if step.noOp && !strings.Contains(out.Note, "already") {
			t.Errorf("%s no_op note: %q", step.action, out.Note)
		}
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("reply", map[string]any{"body": "Fixed: the call now takes a context."}))
	if out.ReplyID == 0 || len(out.Thread.Comments) != 2 || out.Thread.Comments[1].ID != out.ReplyID ||
		out.Thread.Comments[1].Author != "bob" || out.Thread.Resolved || out.Note != "" {
		t.Fatalf("reply: %+v", out)
	}
	servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("resolve", nil))
	out = servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("reply", map[string]any{"body": "One more note after resolving."}))
	if !out.Thread.Resolved || len(out.Thread.Comments) != 3 || !strings.Contains(out.Note, "stays resolved") {
		t.Fatalf("reply to a resolved thread: %+v", out)
	}
	if r, n := threadState(t, env, w); !r || n != 3 {
		t.Fatalf("emulator: resolved=%v comments=%d", r, n)
	}
}

// Bad arguments are refused before any request: a reply without a body,
// a body with resolve, a malformed thread id, both or neither of
// thread_id and comment_id.
func TestUpdateReviewThreadRefusesBadArguments(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	env.Upstream()
	e := refused(t, env, tool, w.args("reply", map[string]any{"body": "  "}))
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "body" || e.Settlement != contract.NotStarted {
		t.Fatalf("reply without body: %+v", e)
	}
	e = refused(t, env, tool, w.args("resolve", map[string]any{"body": "done"}))
	if a := repairJSON(t, e); e.Code != contract.CodeInvalidField || a["body"] != nil || a["action"] != "resolve" || e.Repair.Tool != tool {
		t.Fatalf("body with resolve: %+v", e)
	}
	// The repair, as given, resolves.
	if out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments); !out.Thread.Resolved {
		t.Fatalf("repair: %+v", out)
	}
	env.Upstream()
	for name, args := range map[string]map[string]any{
		"malformed id": w.args("resolve", map[string]any{"thread_id": "I_kwDOabc"}),
		"both":         w.args("resolve", map[string]any{"comment_id": w.CommentID}),
		"neither":      {"owner": w.Owner, "repo": w.Repo, "pull": w.Pull, "action": "resolve"},
	} {
		if e := refused(t, env, tool, args); e.Code != contract.CodeInvalidField || e.Repair == nil || e.Repair.Tool != toolkit.NameListIssueItems {
			t.Errorf("%s: %+v", name, e)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Fatalf("refused arguments reached GitHub: %q", up)
	}
}

// A thread is acted on only under its own pull request's name: one of
// another pull request, or of another repository, is refused and left
// as it was.
func TestUpdateReviewThreadOfAnotherPull(t *testing.T) {
	env := start(t, emulator.DemoTokenAlice)
	w := findThread(t, env, isBot)
	acme := findThread(t, env, func(x where) bool { return x.Repo == emulator.DemoWidgetsRepo && !x.Resolved })
	other := findThread(t, env, func(x where) bool { return x.Repo == emulator.DemoGadgetsRepo && !x.Resolved })
	for name, args := range map[string]map[string]any{
		"another repository's thread":    w.args("resolve", map[string]any{"thread_id": acme.ThreadID}),
		"another pull request":           w.args("resolve", map[string]any{"pull": w.Pull + 1}),
		"a gadgets thread under widgets": acme.args("resolve", map[string]any{"thread_id": other.ThreadID}),
	} {
		e := refused(t, env, tool, args)
		if e.Code != contract.CodeThreadNotOnPull || e.Settlement != contract.NotStarted || e.Repair == nil || e.Repair.Tool != toolkit.NameListIssueItems {
			t.Errorf("%s: %+v", name, e)
		}
	}
	for _, x := range []where{w, acme, other} {
		if r, _ := threadState(t, env, x); r {
			t.Fatalf("thread %s was resolved", x.ThreadID)
		}
	}
}

// A review comment's id names its thread; one not on the pull request is
// refused.
func TestUpdateReviewThreadByCommentID(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	args := map[string]any{"owner": w.Owner, "repo": w.Repo, "pull": w.Pull, "comment_id": w.CommentID, "action": "resolve"}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, args)
	if out.Thread.ThreadID != w.ThreadID || !out.Thread.Resolved {
		t.Fatalf("by comment id: %+v", out)
	}
	acme := findThread(t, env, func(x where) bool { return x.Owner == emulator.DemoOrg })
	args["comment_id"] = acme.CommentID
	if e := refused(t, env, tool, args); e.Code != contract.CodeThreadNotOnPull || e.Details == nil || e.Details.Field != "comment_id" {
		t.Fatalf("another pull request's comment: %+v", e)
	}
	issue := map[string]any{"owner": "acme", "repo": "widgets", "pull": emulator.DemoParentIssue, "comment_id": 1, "action": "resolve"}
	if e := refused(t, env, tool, issue); e.Code != contract.CodeNotAPullRequest {
		t.Fatalf("an issue's number: %+v", e)
	}
}

// A credential that may read but not write is refused resolving, as
// insufficient_scope naming what is missing.
func TestUpdateReviewThreadWithoutWrite(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	w := findThread(t, env, func(x where) bool { return x.Owner == emulator.DemoOrg && !x.Resolved && x.PullAuthor != "carol" })
	e := refused(t, env, tool, w.args("resolve", nil))
	if e.Code != contract.CodeInsufficientScope || e.Details == nil || len(e.Details.RequiredScopes) == 0 || e.Settlement != contract.NoRemoteSuccessKnown || e.Temporary {
		t.Fatalf("carol resolving: %+v", e)
	}
	if r, _ := threadState(t, env, w); r {
		t.Fatal("the thread was resolved")
	}
}

// The capability summary names the toolset when it is served, and says
// where review threads are when it is not.
func TestCapabilitiesNameThePullRequestsToolset(t *testing.T) {
	with := start(t, "").Stack.Server.Summary()
	if !strings.Contains(with, "pull_requests toolset:") || !strings.Contains(with, tool) {
		t.Fatalf("served, the summary says:\n%s", with)
	}
	without := servertest.Start(t, servertest.Options{}).Stack.Server.Summary()
	if strings.Contains(without, "pull_requests toolset:") || !strings.Contains(without, "the pull_requests toolset resolves and answers them") {
		t.Fatalf("not served, the summary says:\n%s", without)
	}
}

// review_threads pages with a cursor bound to the pull request: a second
// thread comes on the next page, and the cursor is refused on another
// collection.
func TestReviewThreadsPage(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	s := env.Emu.Emu.State()
	s.Lock()
	is := s.Repo(w.Owner, w.Repo).Issue(w.Pull)
	first := is.Pull.Threads[0]
	s.AddReviewComment(s.AddReview(is, is.User, "COMMENTED", "", s.Now()), nil, first.Path, first.Line, "A second thread on the same line.", s.Now())
	s.Unlock()
	args := map[string]any{"owner": w.Owner, "repo": w.Repo, "issue_number": w.Pull, "collection": "review_threads", "page_size": 1}
	p1 := servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems, args)
	if len(p1.Items) != 1 || p1.Items[0].ThreadID != w.ThreadID || !p1.HasMore || p1.NextCursor == "" {
		t.Fatalf("page 1: %+v", p1)
	}
	args["cursor"] = p1.NextCursor
	p2 := servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems, args)
	if len(p2.Items) != 1 || p2.Items[0].ThreadID == w.ThreadID || p2.Items[0].Comments[0].Body != "A second thread on the same line." || p2.HasMore {
		t.Fatalf("page 2: %+v", p2)
	}
	args["collection"] = "comments"
	if e := env.Call(t, toolkit.NameListIssueItems, args).Envelope(t); e.Code != contract.CodeCursorInvalid {
		t.Fatalf("the cursor on comments: %+v", e)
	}
}
