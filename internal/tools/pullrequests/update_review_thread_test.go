package pullrequests_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	if len(out.Items) != 1 {
		t.Fatalf("rows = %d, want 1: %+v", len(out.Items), out.Items)
	}
	th := out.Items[0]
	if th.Resolved == nil {
		t.Fatalf("the bot's thread: resolved = nil, want false (%+v)", th)
	}
	if th.ThreadID != w.ThreadID {
		t.Errorf("the bot's thread: thread_id = %q, want %q", th.ThreadID, w.ThreadID)
	}
	if *th.Resolved {
		t.Errorf("the bot's thread: resolved = true, want false")
	}
	if th.Path == "" {
		t.Errorf("the bot's thread: path = \"\", want one")
	}
	if th.Line == 0 {
		t.Errorf("the bot's thread: line = 0, want one")
	}
	if len(th.Comments) != 1 {
		t.Fatalf("the bot's thread: comments = %d, want 1: %+v", len(th.Comments), th.Comments)
	}
	c := th.Comments[0]
	if c.Author != bot {
		t.Errorf("the bot's comment: author = %q, want %q", c.Author, bot)
	}
	if c.ID != w.CommentID {
		t.Errorf("the bot's comment: id = %d, want %d", c.ID, w.CommentID)
	}
	if !strings.Contains(c.Body, "deadline") {
		t.Errorf("the bot's comment: body = %q, want it to contain %q", c.Body, "deadline")
	}
	if c.CreatedAt == "" {
		t.Errorf("the bot's comment: created_at = \"\", want one")
	}
	// A merged acme pull request's thread was answered and resolved.
	m := findThread(t, env, func(w where) bool { return w.Owner == emulator.DemoOrg && w.Resolved && w.Comments == 2 })
	out = servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems,
		map[string]any{"owner": m.Owner, "repo": m.Repo, "issue_number": m.Pull, "collection": "review_threads", "page_size": 1})
	if len(out.Items) != 1 {
		t.Fatalf("the resolved thread: rows = %d, want 1: %+v", len(out.Items), out.Items)
	}
	if r := out.Items[0].Resolved; r == nil {
		t.Errorf("the resolved thread: resolved = nil, want true")
	} else if !*r {
		t.Errorf("the resolved thread: resolved = false, want true")
	}
	if cs := out.Items[0].Comments; len(cs) != 2 {
		t.Errorf("the resolved thread: comments = %d, want 2: %+v", len(cs), cs)
	} else if cs[1].Body != "Done, thanks." {
		t.Errorf("the resolved thread: the reply's body = %q, want %q", cs[1].Body, "Done, thanks.")
	}
}

// review_threads on an issue's number is refused, with the issue's
// comments as the repair.
func TestReviewThreadsOfAnIssue(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	args := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoParentIssue, "collection": "review_threads"}
	res := env.Call(t, toolkit.NameListIssueItems, args)
	e := res.Envelope(t)
	contracttest.Code(t, "review_threads of an issue", e, contract.CodeNotAPullRequest)
	contracttest.MustRepair(t, "review_threads of an issue", e.Repair, toolkit.NameListIssueItems)
	if got := repairJSON(t, e)["collection"]; got != "comments" {
		t.Errorf("review_threads of an issue: the repair's collection = %v, want %q (%s)", got, "comments", res.JSON)
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
		if out.Thread.Resolved != step.resolved {
			t.Errorf("%s: thread.resolved = %v, want %v", step.action, out.Thread.Resolved, step.resolved)
		}
		if out.NoOp != step.noOp {
			t.Errorf("%s: no_op = %v, want %v", step.action, out.NoOp, step.noOp)
		}
		if out.Thread.ThreadID != w.ThreadID {
			t.Errorf("%s: thread.thread_id = %q, want %q", step.action, out.Thread.ThreadID, w.ThreadID)
		}
		if out.Pull != w.Pull {
			t.Errorf("%s: pull = %d, want %d", step.action, out.Pull, w.Pull)
		}
		if got, _ := threadState(t, env, w); got != step.resolved {
			t.Fatalf("%s: the emulator has resolved = %v, want %v", step.action, got, step.resolved)
		}
		if step.noOp && !strings.Contains(out.Note, "already") {
			t.Errorf("%s: no_op note = %q, want it to contain %q", step.action, out.Note, "already")
		}
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("reply", map[string]any{"body": "Fixed: the call now takes a context."}))
	if out.ReplyID == 0 {
		t.Errorf("reply: reply_id = 0, want the new comment's")
	}
	if out.Thread.Resolved {
		t.Errorf("reply: thread.resolved = true, want false")
	}
	if out.Note != "" {
		t.Errorf("reply: note = %q, want none", out.Note)
	}
	if len(out.Thread.Comments) != 2 {
		t.Fatalf("reply: thread.comments = %d, want 2: %+v", len(out.Thread.Comments), out.Thread.Comments)
	}
	if got := out.Thread.Comments[1].ID; got != out.ReplyID {
		t.Errorf("reply: the second comment's id = %d, want reply_id %d", got, out.ReplyID)
	}
	if got := out.Thread.Comments[1].Author; got != "bob" {
		t.Errorf("reply: the second comment's author = %q, want %q", got, "bob")
	}
	servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("resolve", nil))
	out = servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, w.args("reply", map[string]any{"body": "One more note after resolving."}))
	if !out.Thread.Resolved {
		t.Errorf("reply to a resolved thread: thread.resolved = false, want true")
	}
	if n := len(out.Thread.Comments); n != 3 {
		t.Errorf("reply to a resolved thread: thread.comments = %d, want 3", n)
	}
	if !strings.Contains(out.Note, "stays resolved") {
		t.Errorf("reply to a resolved thread: note = %q, want it to contain %q", out.Note, "stays resolved")
	}
	r, n := threadState(t, env, w)
	if !r {
		t.Errorf("emulator: resolved = false, want true")
	}
	if n != 3 {
		t.Errorf("emulator: comments = %d, want 3", n)
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
	contracttest.Code(t, "reply without body", e, contract.CodeInvalidField)
	contracttest.Field(t, "reply without body", e, "body")
	contracttest.Settlement(t, "reply without body", e, contract.NotStarted)
	e = refused(t, env, tool, w.args("resolve", map[string]any{"body": "done"}))
	a := repairJSON(t, e)
	contracttest.Code(t, "body with resolve", e, contract.CodeInvalidField)
	if a["body"] != nil {
		t.Errorf("body with resolve: the repair's body = %v, want none", a["body"])
	}
	if a["action"] != "resolve" {
		t.Errorf("body with resolve: the repair's action = %v, want %q", a["action"], "resolve")
	}
	contracttest.MustRepair(t, "body with resolve", e.Repair, tool)
	// The repair, as given, resolves.
	if out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments); !out.Thread.Resolved {
		t.Fatalf("repair: thread.resolved = false, want true (%+v)", out)
	}
	env.Upstream()
	for name, args := range map[string]map[string]any{
		"malformed id": w.args("resolve", map[string]any{"thread_id": "I_kwDOabc"}),
		"both":         w.args("resolve", map[string]any{"comment_id": w.CommentID}),
		"neither":      {"owner": w.Owner, "repo": w.Repo, "pull": w.Pull, "action": "resolve"},
	} {
		e := refused(t, env, tool, args)
		contracttest.Code(t, name, e, contract.CodeInvalidField)
		if e.Repair == nil {
			t.Errorf("%s: repair = nil, want a call to %s", name, toolkit.NameListIssueItems)
		} else if e.Repair.Tool != toolkit.NameListIssueItems {
			t.Errorf("%s: repair.tool = %q, want %q", name, e.Repair.Tool, toolkit.NameListIssueItems)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Fatalf("refused arguments reached GitHub: upstream calls %q, want none", up)
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
		contracttest.Code(t, name, e, contract.CodeThreadNotOnPull)
		contracttest.Settlement(t, name, e, contract.NotStarted)
		if e.Repair == nil {
			t.Errorf("%s: repair = nil, want a call to %s", name, toolkit.NameListIssueItems)
		} else if e.Repair.Tool != toolkit.NameListIssueItems {
			t.Errorf("%s: repair.tool = %q, want %q", name, e.Repair.Tool, toolkit.NameListIssueItems)
		}
	}
	for _, x := range []where{w, acme, other} {
		if r, _ := threadState(t, env, x); r {
			t.Fatalf("thread %s: resolved = true, want false", x.ThreadID)
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
	if out.Thread.ThreadID != w.ThreadID {
		t.Errorf("by comment id: thread.thread_id = %q, want %q", out.Thread.ThreadID, w.ThreadID)
	}
	if !out.Thread.Resolved {
		t.Errorf("by comment id: thread.resolved = false, want true")
	}
	acme := findThread(t, env, func(x where) bool { return x.Owner == emulator.DemoOrg })
	args["comment_id"] = acme.CommentID
	e := refused(t, env, tool, args)
	contracttest.Code(t, "another pull request's comment", e, contract.CodeThreadNotOnPull)
	contracttest.Field(t, "another pull request's comment", e, "comment_id")
	issue := map[string]any{"owner": "acme", "repo": "widgets", "pull": emulator.DemoParentIssue, "comment_id": 1, "action": "resolve"}
	contracttest.Code(t, "an issue's number", refused(t, env, tool, issue), contract.CodeNotAPullRequest)
}

// A credential that may read but not write is refused resolving, as
// insufficient_scope naming what is missing.
func TestUpdateReviewThreadWithoutWrite(t *testing.T) {
	env := start(t, emulator.DemoTokenCarol)
	w := findThread(t, env, func(x where) bool { return x.Owner == emulator.DemoOrg && !x.Resolved && x.PullAuthor != "carol" })
	e := refused(t, env, tool, w.args("resolve", nil))
	contracttest.Code(t, "carol resolving", e, contract.CodeInsufficientScope)
	if e.Details == nil || len(e.Details.RequiredScopes) == 0 {
		t.Errorf("carol resolving: details = %+v, want required_scopes named", e.Details)
	}
	contracttest.Settlement(t, "carol resolving", e, contract.NoRemoteSuccessKnown)
	contracttest.Temporary(t, "carol resolving", e, false)
	if r, _ := threadState(t, env, w); r {
		t.Fatal("carol resolving: the thread's resolved = true, want false")
	}
}

// The capability summary names the toolset when it is served, and says
// where review threads are when it is not.
func TestCapabilitiesNameThePullRequestsToolset(t *testing.T) {
	with := start(t, "").Stack.Server.Summary()
	for _, s := range []string{"pull_requests toolset:", tool} {
		if !strings.Contains(with, s) {
			t.Errorf("served, the summary lacks %q; it says:\n%s", s, with)
		}
	}
	without := servertest.Start(t, servertest.Options{}).Stack.Server.Summary()
	if strings.Contains(without, "pull_requests toolset:") {
		t.Errorf("not served, the summary has %q, want none; it says:\n%s", "pull_requests toolset:", without)
	}
	if s := "the pull_requests toolset resolves and answers them"; !strings.Contains(without, s) {
		t.Errorf("not served, the summary lacks %q; it says:\n%s", s, without)
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
	if len(p1.Items) != 1 {
		t.Fatalf("page 1: rows = %d, want 1: %+v", len(p1.Items), p1.Items)
	}
	if p1.Items[0].ThreadID != w.ThreadID {
		t.Errorf("page 1: thread_id = %q, want %q", p1.Items[0].ThreadID, w.ThreadID)
	}
	if !p1.HasMore {
		t.Errorf("page 1: has_more = false, want true")
	}
	if p1.NextCursor == "" {
		t.Fatalf("page 1: next_cursor = \"\", want one")
	}
	args["cursor"] = p1.NextCursor
	p2 := servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems, args)
	if len(p2.Items) != 1 {
		t.Fatalf("page 2: rows = %d, want 1: %+v", len(p2.Items), p2.Items)
	}
	if p2.Items[0].ThreadID == w.ThreadID {
		t.Errorf("page 2: thread_id = %q, want another than page 1's", p2.Items[0].ThreadID)
	}
	if got := p2.Items[0].Comments[0].Body; got != "A second thread on the same line." {
		t.Errorf("page 2: the first comment's body = %q, want %q", got, "A second thread on the same line.")
	}
	if p2.HasMore {
		t.Errorf("page 2: has_more = true, want false")
	}
	args["collection"] = "comments"
	contracttest.Code(t, "the cursor on comments", env.Call(t, toolkit.NameListIssueItems, args).Envelope(t), contract.CodeCursorInvalid)
}
