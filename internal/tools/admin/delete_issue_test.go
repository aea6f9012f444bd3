package admin_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
	if !out.Deleted || out.NoOp || out.IssueNumber != deletable || out.Title == "" || !strings.Contains(out.Note, "cannot be undone") {
		t.Fatalf("delete: %+v", out)
	}
	if !deleted(t, env, deletable) {
		t.Fatal("the emulator still holds the issue")
	}
	out = servertest.CallOK[admin.DeleteIssueOut](t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	wantUpstream(t, env, "GET "+path)
	if out.Deleted || !out.NoOp || !strings.Contains(out.Note, "already deleted") || !strings.Contains(out.Note, "cannot be undone") {
		t.Fatalf("delete again: %+v", out)
	}
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
	if e.Code != contract.CodeConfirmationMismatch || e.Settlement != contract.NotStarted || e.Details == nil ||
		e.Details.Field != "confirm_issue_number" || e.Repair == nil || e.Repair.Tool != toolkit.NameGetIssue {
		t.Fatalf("mismatch: %+v", e)
	}
	// The confirmation is required, not defaulted.
	e = refused(t, env, toolkit.NameDeleteIssue, `{"owner":"acme","repo":"widgets","issue_number":60}`)
	if e.Code != contract.CodeInvalidField || e.Details.Field != "confirm_issue_number" {
		t.Fatalf("no confirmation: %+v", e)
	}

	pull := emulator.DemoFirstPull
	e = refused(t, env, toolkit.NameDeleteIssue, deleteIn(pull))
	wantUpstream(t, env, "GET /repos/acme/widgets/issues/"+strconv.Itoa(pull))
	if e.Code != contract.CodeIsPullRequest || e.Settlement != contract.NotStarted || e.Details.Field != "issue_number" {
		t.Fatalf("pull request: %+v", e)
	}
	if deleted(t, env, pull) {
		t.Fatal("the pull request was deleted")
	}

	e = refused(t, env, toolkit.NameDeleteIssue, deleteIn(9999))
	if e.Code != contract.CodeIssueNotFound || e.Settlement != contract.NotStarted {
		t.Fatalf("missing: %+v", e)
	}
	if deleted(t, env, deletable) {
		t.Fatal("a refusal deleted the issue")
	}
}

// bob may write to acme/widgets but is not an admin: GitHub refuses the
// mutation, and the envelope says what permission is missing.
func TestDeleteIssueNeedsAdmin(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	e := refused(t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	if e.Code != contract.CodeInsufficientScope || e.Settlement != contract.NoRemoteSuccessKnown || e.Temporary ||
		!strings.Contains(e.Message, "admin") || e.Repair == nil || e.Repair.Tool != toolkit.NameUpdateIssue ||
		e.Details == nil || len(e.Details.RequiredScopes) != 1 || e.Details.RequiredScopes[0] != "admin:acme/widgets" {
		t.Fatalf("bob: %+v", e)
	}
	if deleted(t, env, deletable) {
		t.Fatal("deleted without admin permission")
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
			if e.Settlement != c.settlement || !e.Temporary || e.Repair == nil || e.Repair.Tool != toolkit.NameDeleteIssue {
				t.Fatalf("first attempt: %+v", e)
			}
			if deleted(t, env, deletable) != c.applied {
				t.Fatalf("deleted %v, want %v", !c.applied, c.applied)
			}
			out := servertest.CallOK[admin.DeleteIssueOut](t, env, toolkit.NameDeleteIssue, repairArgs(t, e))
			if out.NoOp != c.applied || out.Deleted == c.applied || !deleted(t, env, deletable) {
				t.Fatalf("the repeat: %+v", out)
			}
		})
	}
}

// A deployment limited to one user's issues deletes none of another's.
func TestDeleteIssueHonoursTheCreatorScope(t *testing.T) {
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"admin"}, AllowedIssueCreator: "nobody-here"})
	e := refused(t, env, toolkit.NameDeleteIssue, deleteIn(deletable))
	if e.Code != contract.CodeIssueCreatorNotAllowed || e.Settlement != contract.NotStarted {
		t.Fatalf("creator scope: %+v", e)
	}
	if deleted(t, env, deletable) {
		t.Fatal("deleted outside the creator scope")
	}
}
