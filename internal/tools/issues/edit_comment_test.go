package issues_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// commentBy returns the id of the first comment login wrote on issue n.
func commentBy(t *testing.T, env *servertest.Env, n int, login string) int64 {
	t.Helper()
	var id int64
	withState(env, func(*emulator.State) {
		for _, c := range widgets(env).Issue(n).Comments {
			if c.User.Login == login {
				id = c.ID
				return
			}
		}
	})
	if id == 0 {
		t.Fatalf("no comment by %s on #%d", login, n)
	}
	return id
}

func commentBody(env *servertest.Env, id int64) (string, bool) {
	var body string
	var ok bool
	withState(env, func(*emulator.State) {
		if c := widgets(env).FindComment(id); c != nil {
			body, ok = c.Body, true
		}
	})
	return body, ok
}

func TestEditCommentEditAndDelete(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	id := commentBy(t, env, emulator.DemoManyCommentsIssue, "alice")
	path := fmt.Sprintf("/repos/acme/widgets/issues/comments/%d", id)
	env.Upstream()

	var out issues.EditCommentOut
	res := env.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(id), Body: "Edited: a<b && c"})
	res.Decode(t, &out)
	wantUpstream(t, env, "PATCH "+path)
	if res.IsError {
		t.Fatalf("edit failed: %s", res.JSON)
	}
	if out.Comment == nil {
		t.Fatalf("edit: comment = nil, want the edited comment: %s", res.JSON)
	}
	if want := "Edited: a<b && c"; out.Comment.Body != want {
		t.Errorf("edit: comment.body = %q, want %q", out.Comment.Body, want)
	}
	if out.Comment.ID != id {
		t.Errorf("edit: comment.id = %d, want %d", out.Comment.ID, id)
	}
	if out.IssueNumber != emulator.DemoManyCommentsIssue {
		t.Errorf("edit: issue_number = %d, want %d", out.IssueNumber, emulator.DemoManyCommentsIssue)
	}
	if out.Deleted {
		t.Errorf("edit: deleted = true, want false")
	}
	if body, _ := commentBody(env, id); body != "Edited: a<b && c" {
		t.Fatalf("stored body = %q, want %q", body, "Edited: a<b && c")
	}

	res = env.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(id), Delete: true})
	out = issues.EditCommentOut{}
	res.Decode(t, &out)
	wantUpstream(t, env, "DELETE "+path)
	if res.IsError {
		t.Fatalf("delete failed: %s", res.JSON)
	}
	if !out.Deleted {
		t.Errorf("delete: deleted = false, want true")
	}
	if out.CommentID != id {
		t.Errorf("delete: comment_id = %d, want %d", out.CommentID, id)
	}
	if out.Comment != nil {
		t.Errorf("delete: comment = %+v, want nil", *out.Comment)
	}
	if _, ok := commentBody(env, id); ok {
		t.Fatal("after the delete the comment is still there, want it gone")
	}
	// Deleting it again: GitHub's 404 cannot tell "already deleted" from
	// "never there" or "not visible", so neither does the answer.
	e := wireEnvelope(t, env.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(id), Delete: true}), true)
	if !contracttest.Envelope(t, "second delete", e, contract.CodeCommentNotFound, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "already deleted") {
		t.Fatalf("second delete: message = %q, want it to say %q", e.Message, "already deleted")
	}
	if !contracttest.Field(t, "second delete", e, "comment_id") {
		t.FailNow()
	}
}

func TestEditCommentRefusals(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	id := commentBy(t, env, emulator.DemoManyCommentsIssue, "alice")
	env.Upstream()
	for _, raw := range []string{
		fmt.Sprintf(`{"owner":"acme","repo":"widgets","comment_id":%d,"body":"x","delete":true}`, id),
		fmt.Sprintf(`{"owner":"acme","repo":"widgets","comment_id":%d}`, id),
		fmt.Sprintf(`{"owner":"acme","repo":"widgets","comment_id":%d,"body":"  \n"}`, id),
	} {
		t.Run(raw, func(t *testing.T) {
			e := wireEnvelope(t, env.Call(t, toolkit.NameEditComment, raw), true)
			if !contracttest.Envelope(t, raw, e, contract.CodeInvalidField, contract.NotStarted) || !contracttest.Field(t, raw, e, "body") {
				t.FailNow()
			}
		})
	}
	wantUpstream(t, env)

	// carol may read but not edit someone else's comment.
	carol := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	e := wireEnvelope(t, carol.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(commentBy(t, carol, emulator.DemoManyCommentsIssue, "alice")), Body: "mine now"}), true)
	if !contracttest.Envelope(t, "read-only user", e, contract.CodeInsufficientScope, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}

	// The creator scope reads the comment's issue first.
	scoped := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	sid := commentBy(t, scoped, emulator.DemoManyCommentsIssue, "alice")
	scoped.Upstream()
	e = wireEnvelope(t, scoped.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(sid), Delete: true}), true)
	if !contracttest.Envelope(t, "creator scope", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted) {
		t.FailNow()
	}
	wantUpstream(t, scoped, fmt.Sprintf("GET /repos/acme/widgets/issues/comments/%d", sid),
		fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoManyCommentsIssue))
	if _, ok := commentBody(scoped, sid); !ok {
		t.Fatal("the comment is gone despite the creator scope, want it kept")
	}
}

func TestEditCommentSettlementUnderFaults(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
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
	id := commentBy(t, env, emulator.DemoManyCommentsIssue, "alice")
	before, _ := commentBody(env, id)
	for i, c := range cases {
		body := fmt.Sprintf("edit %d", i)
		addFault(t, env, emulator.Fault{Method: "PATCH", Path: fmt.Sprintf("/repos/acme/widgets/issues/comments/%d", id), Kind: c.kind, Status: c.status, Times: 1})
		e := wireEnvelope(t, env.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(id), Body: body}), true)
		if !contracttest.Envelope(t, string(c.kind), e, c.code, c.settlement) {
			t.FailNow()
		}
		// An edit is safe to repeat: the repair is the same call, and it
		// succeeds.
		if c.settlement != contract.NoRemoteSuccessKnown {
			if !e.Temporary {
				t.Fatalf("%s: an unknown outcome: temporary = false, want true", c.kind)
			}
			if !contracttest.RepairTool(t, string(c.kind)+": an unknown outcome", e.Repair, toolkit.NameEditComment) {
				t.FailNow()
			}
		}
		got, _ := commentBody(env, id)
		if (got == body) != c.applied {
			t.Fatalf("%s: body = %q (before %q), want the edit applied = %v (%q)", c.kind, got, before, c.applied, body)
		}
		if c.settlement != contract.NoRemoteSuccessKnown {
			if res := env.Call(t, toolkit.NameEditComment, e.Repair.Arguments); res.IsError {
				t.Fatalf("%s: repeating the edit: %s", c.kind, res.JSON)
			}
			if got, _ := commentBody(env, id); got != body {
				t.Fatalf("%s: after the repeat the body = %q, want %q", c.kind, got, body)
			}
		}
	}
	// Deletion under a dropped answer: the comment is gone, the answer says
	// the outcome is unknown.
	addFault(t, env, emulator.Fault{Method: "DELETE", Path: fmt.Sprintf("/repos/acme/widgets/issues/comments/%d", id), Kind: emulator.FaultDropAfter, Times: 1})
	e := wireEnvelope(t, env.Call(t, toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: toolkit.CommentID(id), Delete: true}), true)
	if e.Settlement != contract.Indeterminate {
		t.Fatalf("dropped delete: settlement = %q, want %q", e.Settlement, contract.Indeterminate)
	}
	if e.Repair == nil {
		t.Fatalf("dropped delete: repair = nil, want one saying how to check it was deleted")
	}
	if !strings.Contains(e.Repair.NextStep, "deleted") {
		t.Fatalf("dropped delete: repair.next_step = %q, want it to say deleted", e.Repair.NextStep)
	}
}

func TestCommentAndLinkWritesWithoutCredential(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{Token: "-"})
	for tool, args := range map[string]any{
		toolkit.NameAddComment:  issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Body: "x"},
		toolkit.NameEditComment: issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: 1, Delete: true},
		toolkit.NameLinkIssues:  issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Relation: "sub_issue", Action: "add", TargetIssueNumber: jobsSubIssue},
	} {
		e := wireEnvelope(t, env.Call(t, tool, args), true)
		if e.Code != contract.CodeMissingCredential {
			t.Errorf("%s: code = %q (%q), want %q", tool, e.Code, e.Message, contract.CodeMissingCredential)
		}
		if e.Settlement != contract.NotStarted {
			t.Errorf("%s: settlement = %q, want %q", tool, e.Settlement, contract.NotStarted)
		}
	}
	for tool, args := range map[string]any{
		toolkit.NameListIssueItems:   issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoManyCommentsIssue, Collection: "comments"},
		toolkit.NameListRepoMetadata: issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "labels"},
	} {
		if e := wireEnvelope(t, env.Call(t, tool, args), false); e.Code != contract.CodeMissingCredential {
			t.Errorf("%s: code = %q (%q), want %q", tool, e.Code, e.Message, contract.CodeMissingCredential)
		}
	}
}
