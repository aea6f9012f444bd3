package issues_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func commentCount(env *servertest.Env, n int) int {
	var c int
	withState(env, func(*emulator.State) { c = len(widgets(env).Issue(n).Comments) })
	return c
}

func addComment(t *testing.T, env *servertest.Env, in issues.AddCommentIn) issues.AddCommentOut {
	t.Helper()
	out := servertest.CallOK[issues.AddCommentOut](t, env, toolkit.NameAddComment, in)
	if out.Comment.ID == 0 {
		t.Fatalf("comment.id = 0, want the posted comment's id: %+v", out)
	}
	if out.Comment.Body != in.Body {
		t.Fatalf("comment.body = %q, want %q", out.Comment.Body, in.Body)
	}
	if out.Replayed {
		return out // the comment was posted by an earlier call, maybe on another server's emulator
	}
	// The comment answered is on the issue named.
	on := false
	withState(env, func(s *emulator.State) {
		for _, c := range s.Repo(in.Owner, in.Repo).Issue(int(in.IssueNumber)).Comments {
			on = on || c.ID == out.Comment.ID
		}
	})
	if !on {
		t.Fatalf("comment %d is not on %s/%s#%d, want it there", out.Comment.ID, in.Owner, in.Repo, in.IssueNumber)
	}
	return out
}

func TestAddCommentPostsOnceAndKeepsTheBody(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := emulator.DemoManyCommentsIssue
	before := commentCount(env, n)
	env.Upstream()
	out := addComment(t, env, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "Fixed when a<b && c > 0\n\n```go\nx := <-ch\n```"})
	wantUpstream(t, env, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/comments", n))
	if out.Replayed {
		t.Errorf("Replayed = true, want false on a first post")
	}
	if out.Comment.Author != "alice" {
		t.Errorf("Comment.Author = %q, want %q", out.Comment.Author, "alice")
	}
	if got := commentCount(env, n); got != before+1 {
		t.Errorf("comments = %d, want %d", got, before+1)
	}
	// A blank body is refused before any request.
	e := wireEnvelope(t, env.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: " \n\t"}), true)
	if !contracttest.Envelope(t, "blank body", e, contract.CodeInvalidField, contract.NotStarted) || !contracttest.Field(t, "blank body", e, "body") {
		t.FailNow()
	}
	wantUpstream(t, env)
	// Forced error: an issue that does not exist.
	e = wireEnvelope(t, env.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue, Body: "hello"}), true)
	if !contracttest.Envelope(t, "missing issue", e, contract.CodeIssueNotFound, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	if !contracttest.RepairTool(t, "missing issue", e.Repair, toolkit.NameSearchIssues) {
		t.FailNow()
	}
}

func TestAddCommentIdempotencyKeyReplays(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := emulator.DemoManyCommentsIssue
	before := commentCount(env, n)
	in := issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "Once only", IdempotencyKey: "k-1"}
	first := addComment(t, env, in)
	env.Upstream()
	again := addComment(t, env, in)
	wantUpstream(t, env) // replayed from the store: no request at all
	if !again.Replayed {
		t.Errorf("repeat: Replayed = false, want true")
	}
	if again.Comment.ID != first.Comment.ID {
		t.Errorf("repeat: Comment.ID = %d, want the first's %d", again.Comment.ID, first.Comment.ID)
	}
	if got := commentCount(env, n); got != before+1 {
		t.Errorf("repeat: comments = %d, want %d", got, before+1)
	}
	// The same key for another request is refused, nothing written.
	in.Body = "Something else"
	e := wireEnvelope(t, env.Call(t, toolkit.NameAddComment, in), true)
	if !contracttest.Envelope(t, "reused key", e, contract.CodeIdempotencyKeyReused, contract.NotStarted) {
		t.FailNow()
	}
	if !contracttest.RepairTool(t, "reused key", e.Repair, toolkit.NameAddComment) {
		t.FailNow()
	}
	// The repair is the same call with a fresh key: sent as given, it posts
	// the new comment once.
	var fixed issues.AddCommentOut
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	res.Decode(t, &fixed)
	if res.IsError {
		t.Fatalf("the repair's call failed: %s", res.JSON)
	}
	if fixed.Replayed {
		t.Errorf("the repair's call: Replayed = true, want false")
	}
	if fixed.Comment.ID == first.Comment.ID {
		t.Errorf("the repair's call: Comment.ID = %d, the first's; want a new comment", fixed.Comment.ID)
	}
	if got := commentCount(env, n); got != before+2 {
		t.Errorf("after the repair's call: comments = %d, want %d", got, before+2)
	}
	env.Upstream()
	// Keys are scoped per tool and repository: the same key elsewhere is new.
	other := addComment(t, env, issues.AddCommentIn{Owner: "acme", Repo: "gadgets", IssueNumber: firstIssue, Body: "Once only", IdempotencyKey: "k-1"})
	if other.Replayed {
		t.Fatalf("Replayed = true in another repository, want false: the key leaked across repositories")
	}
	wantUpstream(t, env, "POST /repos/acme/gadgets/issues/1/comments")
}

func TestAddCommentIdempotencyKeySurvivesRestart(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "state.db")
	in := issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Body: "Across restarts", IdempotencyKey: "restart-1"}
	first := servertest.Start(t, servertest.Options{StorePath: path})
	out := addComment(t, first, in)
	if err := first.Stack.Close(); err != nil {
		t.Fatal(err)
	}
	second := servertest.Start(t, servertest.Options{StorePath: path})
	second.Upstream()
	again := addComment(t, second, in)
	wantUpstream(t, second)
	if !again.Replayed {
		t.Errorf("after restart: Replayed = false, want true")
	}
	if again.Comment.ID != out.Comment.ID {
		t.Errorf("after restart: Comment.ID = %d, want the first's %d", again.Comment.ID, out.Comment.ID)
	}
}

func TestAddCommentSettlementUnderFaults(t *testing.T) {
	t.Parallel()
	n := emulator.DemoManyCommentsIssue
	post := fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", n)
	cases := []struct {
		kind       emulator.FaultKind
		status     int
		code       contract.Code
		settlement contract.Settlement
		applied    bool
	}{
		{emulator.FaultStatus, 500, contract.CodeUpstreamUnavailable, contract.NoRemoteSuccessKnown, false},
		{emulator.FaultDropBefore, 0, contract.CodeUpstreamUnavailable, contract.Indeterminate, false},
		{emulator.FaultDropAfter, 0, contract.CodeUpstreamUnavailable, contract.Indeterminate, true},
		{emulator.FaultMalformedAfter, 0, contract.CodeMalformedResponse, contract.RemoteSuccessKnown, true},
	}
	for _, c := range cases {
		t.Run(string(c.kind), func(t *testing.T) {
			t.Parallel()
			env := servertest.Start(t, servertest.Options{})
			before := commentCount(env, n)
			in := issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "Under " + string(c.kind), IdempotencyKey: toolkit.IdempotencyKey("fault-" + string(c.kind))}
			addFault(t, env, emulator.Fault{Method: "POST", Path: post, Kind: c.kind, Status: c.status, Times: 1})
			e := wireEnvelope(t, env.Call(t, toolkit.NameAddComment, in), true)
			// With the key, the same call is safe to repeat: temporary.
			if !contracttest.Envelope(t, "first attempt", e, c.code, c.settlement) {
				t.FailNow()
			}
			if !e.Temporary {
				t.Fatalf("first attempt: temporary = false, want true")
			}
			if got, want := commentCount(env, n)-before, map[bool]int{false: 0, true: 1}[c.applied]; got != want {
				t.Fatalf("first attempt wrote %d comments, want %d", got, want)
			}
			// The repair is the same call with the same key: it looks for the
			// first attempt's comment before posting.
			if !contracttest.RepairTool(t, "first attempt", e.Repair, toolkit.NameAddComment) {
				t.FailNow()
			}
			env.Upstream()
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			var out issues.AddCommentOut
			res.Decode(t, &out)
			if res.IsError {
				t.Fatalf("repeat failed: %s", res.JSON)
			}
			if out.Comment.Body != in.Body {
				t.Fatalf("repeat: comment.body = %q, want %q", out.Comment.Body, in.Body)
			}
			look := []string{"GET /user", "GET " + post}
			if c.applied {
				wantUpstream(t, env, look...)
			} else {
				wantUpstream(t, env, append(look, "POST "+post)...)
			}
			if out.Replayed != c.applied {
				t.Errorf("repeat: Replayed = %v, want %v", out.Replayed, c.applied)
			}
			if got := commentCount(env, n) - before; got != 1 {
				t.Fatalf("repeat: %d comments written in all, want 1", got)
			}
			// And a third call replays from the store without a request.
			third := addComment(t, env, in)
			wantUpstream(t, env)
			if !third.Replayed {
				t.Errorf("third call: Replayed = false, want true")
			}
			if third.Comment.ID != out.Comment.ID {
				t.Errorf("third call: Comment.ID = %d, want %d", third.Comment.ID, out.Comment.ID)
			}
		})
	}
}

func TestAddCommentWithoutKeyUnderDrop(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := emulator.DemoManyCommentsIssue
	addFault(t, env, emulator.Fault{Method: "POST", Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/comments", n), Kind: emulator.FaultDropAfter, Times: 1})
	e := wireEnvelope(t, env.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "no key"}), true)
	if e.Settlement != contract.Indeterminate {
		t.Fatalf("dropped without key: settlement = %q, want %q", e.Settlement, contract.Indeterminate)
	}
	if !contracttest.RepairTool(t, "dropped without key", e.Repair, toolkit.NameListIssueItems) {
		t.FailNow()
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("repair as given: %s", res.JSON)
	}
}

func TestAddCommentLockedAndScoped(t *testing.T) {
	t.Parallel()
	// carol has read access only: a locked conversation refuses her.
	carol := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	n := emulator.DemoLockedIssue
	carol.Upstream()
	e := wireEnvelope(t, carol.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "me too", IdempotencyKey: "locked-1"}), true)
	if !contracttest.Envelope(t, "locked", e, contract.CodeIssueLocked, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	if e.Temporary {
		t.Errorf("locked: temporary = true, want false")
	}
	if e.RetryAfterMS != nil {
		t.Errorf("locked: retry_after_ms = %d, want null", *e.RetryAfterMS)
	}
	wantUpstream(t, carol, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/comments", n), fmt.Sprintf("GET /repos/acme/widgets/issues/%d", n))
	// The refusal wrote nothing, so the key was released: the same call
	// asks GitHub again rather than replaying a stale refusal.
	wireEnvelope(t, carol.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "me too", IdempotencyKey: "locked-1"}), true)
	wantUpstream(t, carol, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/comments", n), fmt.Sprintf("GET /repos/acme/widgets/issues/%d", n))
	// alice (admin) may comment on the locked issue.
	alice := servertest.Start(t, servertest.Options{})
	addComment(t, alice, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: "Maintainer note"})

	scoped := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	scoped.Upstream()
	e = wireEnvelope(t, scoped.Call(t, toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Body: "hi"}), true)
	if !contracttest.Envelope(t, "creator scope", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted) {
		t.FailNow()
	}
	wantUpstream(t, scoped, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoManyCommentsIssue))
}
