package admin_test

import (
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// deletable is an ordinary open issue of acme/widgets with no relations.
const deletable = 60

func deleteIn(n int) admin.DeleteIssueIn {
	return admin.DeleteIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), ConfirmIssueNumber: toolkit.IssueNumber(n)}
}

// deleted reports whether the emulator holds issue n as deleted.
func deleted(t *testing.T, env *servertest.Env, n int) bool {
	t.Helper()
	gone := false
	inWidgets(env, func(r *emulator.Repo) {
		is := r.Issue(n)
		if is == nil {
			t.Fatalf("no issue #%d in the seed", n)
		}
		gone = is.Deleted
	})
	return gone
}

// An admin deletes an issue: one read, one deleteIssue mutation, and the
// result says it cannot be undone. Again: GitHub answers 410 for the
// issue, and the call is a no-op success.
func TestDeleteIssue(t *testing.T) {
	env := start(t, "")
	path := "/repos/acme/widgets/issues/" + strconv.Itoa(deletable)
	out := servertest.CallOK[admin.DeleteIssueOut](t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	wantUpstream(t, env, "GET "+path, "POST /api/graphql")
	wantDeleted(t, "delete", out.Deleted, true)
	wantNoOp(t, "delete", out.NoOp, false)
	if out.IssueNumber != deletable {
		t.Errorf("delete: issue_number = %d, want %d", out.IssueNumber, deletable)
	}
	if out.Title == "" {
		t.Errorf("delete: title = \"\", want the deleted issue's")
	}
	wantContains(t, "delete", "note", out.Note, "cannot be undone")
	if !deleted(t, env, deletable) {
		t.Fatalf("delete: the emulator still holds #%d", deletable)
	}
	out = servertest.CallOK[admin.DeleteIssueOut](t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	wantUpstream(t, env, "GET "+path)
	wantDeleted(t, "delete again", out.Deleted, false)
	wantNoOp(t, "delete again", out.NoOp, true)
	wantContains(t, "delete again", "note", out.Note, "already deleted")
	wantContains(t, "delete again", "note", out.Note, "cannot be undone")
}

// Every refusal, none of which deletes anything: a confirmation that does
// not repeat the number (refused before any request, with a read of the
// issue as the repair), a pull request's number, a missing issue, and a
// credential without admin permission.
func TestDeleteIssueRefusals(t *testing.T) {
	env := start(t, "")
	in := deleteIn(deletable)
	in.ConfirmIssueNumber = deletable + 1
	e := refused(t, env, toolkit.NameDeleteIssue, in)
	wantUpstream(t, env)
	contracttest.Envelope(t, "mismatch", e, contract.CodeConfirmationMismatch, contract.NotStarted)
	contracttest.Field(t, "mismatch", e, "confirm_issue_number")
	contracttest.RepairTool(t, "mismatch", e.Repair, toolkit.NameGetIssue)
	// The confirmation is required, not defaulted.
	e = refused(t, env, toolkit.NameDeleteIssue, `{"owner":"acme","repo":"widgets","issue_number":60}`)
	contracttest.Code(t, "no confirmation", e, contract.CodeInvalidField)
	contracttest.Field(t, "no confirmation", e, "confirm_issue_number")

	pull := emulator.DemoFirstPull
	e = refused(t, env, toolkit.NameDeleteIssue, deleteIn(pull))
	wantUpstream(t, env, "GET /repos/acme/widgets/issues/"+strconv.Itoa(pull))
	contracttest.Envelope(t, "pull request", e, contract.CodeIsPullRequest, contract.NotStarted)
	contracttest.Field(t, "pull request", e, "issue_number")
	if deleted(t, env, pull) {
		t.Fatalf("pull request: #%d was deleted", pull)
	}

	e = refused(t, env, toolkit.NameDeleteIssue, deleteIn(9999))
	contracttest.Envelope(t, "missing", e, contract.CodeIssueNotFound, contract.NotStarted)
	if deleted(t, env, deletable) {
		t.Fatalf("#%d deleted by a refusal, want it standing", deletable)
	}
}

// bob may write to acme/widgets but is not an admin: GitHub refuses the
// mutation, and the envelope says what permission is missing.
func TestDeleteIssueNeedsAdmin(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	e := refused(t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	contracttest.Envelope(t, "bob", e, contract.CodeInsufficientScope, contract.NoRemoteSuccessKnown)
	contracttest.Temporary(t, "bob", e, false)
	wantContains(t, "bob", "message", e.Message, "admin")
	contracttest.RepairTool(t, "bob", e.Repair, toolkit.NameUpdateIssue)
	if e.Details == nil {
		t.Errorf("bob: details = nil, want required_scopes [admin:acme/widgets]")
	} else if diff := cmp.Diff([]string{"admin:acme/widgets"}, e.Details.RequiredScopes); diff != "" {
		t.Errorf("bob: required_scopes mismatch (-want +got):\n%s", diff)
	}
	if deleted(t, env, deletable) {
		t.Fatalf("bob: #%d deleted without admin permission, want it standing", deletable)
	}
}

// Under each injected fault on the mutation the settlement is what is
// known, and the repair taken as given finishes: it deletes, or finds the
// issue already gone.
func TestDeleteIssueUnderFaults(t *testing.T) {
	for _, c := range []struct {
		kind       emulator.FaultKind
		status     int
		settlement contract.Settlement
		applied    bool
	}{
		{emulator.FaultDropAfter, 0, contract.Indeterminate, true},
		{emulator.FaultMalformedAfter, 0, contract.Indeterminate, true},
		{emulator.FaultStatus, 502, contract.NoRemoteSuccessKnown, false},
		{emulator.FaultDropBefore, 0, contract.Indeterminate, false},
	} {
		t.Run(string(c.kind), func(t *testing.T) {
			env := start(t, "")
			addFault(t, env, emulator.Fault{Method: "POST", Path: "/api/graphql", Kind: c.kind, Status: c.status, Times: 1})
			e := refused(t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
			contracttest.Settlement(t, "first attempt", e, c.settlement)
			contracttest.Temporary(t, "first attempt", e, true)
			contracttest.RepairTool(t, "first attempt", e.Repair, toolkit.NameDeleteIssue)
			if got := deleted(t, env, deletable); got != c.applied {
				t.Fatalf("first attempt: deleted %v, want %v", got, c.applied)
			}
			out := servertest.CallOK[admin.DeleteIssueOut](t, env, toolkit.NameDeleteIssue, repairArgs(t, e))
			wantNoOp(t, "the repeat", out.NoOp, c.applied)
			wantDeleted(t, "the repeat", out.Deleted, !c.applied)
			if !deleted(t, env, deletable) {
				t.Errorf("the repeat: #%d still stands, want it deleted", deletable)
			}
		})
	}
}

// A deployment limited to one user's issues deletes none of another's.
func TestDeleteIssueHonoursTheCreatorScope(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"admin"}, AllowedIssueCreator: "nobody-here"})
	e := refused(t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	contracttest.Envelope(t, "creator scope", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted)
	if deleted(t, env, deletable) {
		t.Fatalf("creator scope: #%d deleted outside it, want it standing", deletable)
	}
}
