package issues_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// duplicate_of closes through closeIssue with duplicateIssueId: GitHub (the
// emulator) records the original and writes marked_as_duplicate, and the
// result says so.
func TestUpdateIssueDuplicateOf(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	dup, original := emulator.DemoUntriagedFrom, emulator.DemoManyCommentsIssue
	out := servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue,
		issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(dup), DuplicateOf: toolkit.IssueNumber(original)})
	if out.Issue.State != "closed" {
		t.Errorf("result: state = %q, want closed", out.Issue.State)
	}
	if out.Issue.StateReason != "duplicate" {
		t.Errorf("result: state_reason = %q, want duplicate", out.Issue.StateReason)
	}
	wantStrings(t, "result: ChangedFields", out.ChangedFields, []string{"state", "state_reason", "duplicate_of"})
	_, is := ciIssue(env, dup)
	wantClosedAs(t, is, "duplicate")
	if is.DuplicateOf == nil || is.DuplicateOf.Number != original {
		t.Fatalf("emulator: duplicate of %+v, want #%d", is.DuplicateOf, original)
	}
	var events []string
	for _, ev := range is.Events {
		events = append(events, ev.Event)
	}
	if i := slices.Index(events, "marked_as_duplicate"); i < 0 || i+1 >= len(events) || events[i+1] != "closed" {
		t.Fatalf("timeline = %v, want marked_as_duplicate, then closed", events)
	}

	// The original must exist; naming the issue itself, or another state,
	// is refused before any write.
	n := toolkit.IssueNumber(dup + 1)
	for _, c := range []struct {
		in   issues.UpdateIssueIn
		code contract.Code
	}{
		{issues.UpdateIssueIn{DuplicateOf: 99999}, contract.CodeIssueNotFound},
		{issues.UpdateIssueIn{DuplicateOf: n}, contract.CodeSelfLink},
		{issues.UpdateIssueIn{DuplicateOf: toolkit.IssueNumber(original), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "not_planned"}}, contract.CodeInvalidField},
	} {
		c.in.Owner, c.in.Repo, c.in.IssueNumber = "acme", "widgets", n
		e := wireEnvelope(t, env.Call(t, toolkit.NameUpdateIssue, c.in), true)
		contracttest.Envelope(t, "", e, c.code, contract.NotStarted)
		if e.Details == nil || e.Details.Field != "duplicate_of" {
			t.Errorf("%+v: details = %+v, want field duplicate_of", c.in, e.Details)
		}
	}
	if _, is := ciIssue(env, int(n)); is.State != "open" {
		t.Fatalf("#%d after refused duplicate_of: state = %q, want open", n, is.State)
	}
	e := wireEnvelope(t, env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: n, DuplicateOfRepo: "acme/gadgets"}), true)
	contracttest.Code(t, "", e, contract.CodeInvalidField)
	contracttest.Field(t, "", e, "duplicate_of_repo")

	// The original may be in another repository; the same number there is
	// not the issue itself.
	out = servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue,
		issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: n, DuplicateOf: 1, DuplicateOfRepo: "acme/gadgets"})
	if out.Issue.StateReason != "duplicate" {
		t.Errorf("cross-repository duplicate: state_reason = %q, want duplicate", out.Issue.StateReason)
	}
	if !slices.Contains(out.ChangedFields, "duplicate_of") {
		t.Errorf("cross-repository duplicate: ChangedFields = %q, want duplicate_of among them", out.ChangedFields)
	}
	_, is = ciIssue(env, int(n))
	if is.DuplicateOf == nil {
		t.Fatalf("emulator: duplicate_of = nil, want acme/gadgets#1")
	}
	if is.DuplicateOf.Number != 1 || is.DuplicateOf.Repo.Name != emulator.DemoGadgetsRepo {
		t.Fatalf("emulator: duplicate of %s#%d, want %s#1", is.DuplicateOf.Repo.Name, is.DuplicateOf.Number, emulator.DemoGadgetsRepo)
	}
}
