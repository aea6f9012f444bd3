package issues_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
	if out.Issue.State != "closed" || out.Issue.StateReason != "duplicate" ||
		!slices.Equal(out.ChangedFields, []string{"state", "state_reason", "duplicate_of"}) {
		t.Fatalf("result: %+v", out)
	}
	_, is := ciIssue(env, dup)
	if is.State != "closed" || is.StateReason == nil || *is.StateReason != "duplicate" || is.DuplicateOf == nil || is.DuplicateOf.Number != original {
		t.Fatalf("emulator: state %s, duplicate of %v", is.State, is.DuplicateOf)
	}
	var events []string
	for _, ev := range is.Events {
		events = append(events, ev.Event)
	}
	if i := slices.Index(events, "marked_as_duplicate"); i < 0 || i+1 >= len(events) || events[i+1] != "closed" {
		t.Fatalf("timeline %v: want marked_as_duplicate, then closed", events)
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
		if e.Code != c.code || e.Settlement != contract.NotStarted || e.Details == nil || e.Details.Field != "duplicate_of" {
			t.Errorf("%+v: %+v", c.in, e)
		}
	}
	if _, is := ciIssue(env, int(n)); is.State != "open" {
		t.Fatalf("a refused duplicate_of closed #%d", n)
	}
	e := wireEnvelope(t, env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: n, DuplicateOfRepo: "acme/gadgets"}), true)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "duplicate_of_repo" {
		t.Errorf("duplicate_of_repo alone: %+v", e)
	}

	// The original may be in another repository; the same number there is
	// not the issue itself.
	out = servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue,
		issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: n, DuplicateOf: 1, DuplicateOfRepo: "acme/gadgets"})
	if out.Issue.StateReason != "duplicate" || !slices.Contains(out.ChangedFields, "duplicate_of") {
		t.Fatalf("cross-repository duplicate: %+v", out)
	}
	if _, is := ciIssue(env, int(n)); is.DuplicateOf == nil || is.DuplicateOf.Number != 1 || is.DuplicateOf.Repo.Name != emulator.DemoGadgetsRepo {
		t.Fatalf("emulator: duplicate of %+v", is.DuplicateOf)
	}
}
