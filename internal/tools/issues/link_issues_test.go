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
	gocmp "github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// loneIssue finds an open issue in acme/widgets with no links at all.
func loneIssue(t *testing.T, env *servertest.Env, skip ...int) int {
	t.Helper()
	n := 0
	withState(env, func(*emulator.State) {
		for _, is := range widgets(env).Issues {
			if !is.IsPull && !is.Deleted && is.Parent == nil && len(is.SubIssues) == 0 && len(is.BlockedBy) == 0 &&
				len(is.Blocking) == 0 && is.Number > 60 && !slices.Contains(skip, is.Number) {
				n = is.Number
				return
			}
		}
	})
	if n == 0 {
		t.Fatal("no unlinked issue in the seed, want one")
	}
	return n
}

func link(t *testing.T, env *servertest.Env, in issues.LinkIssuesIn) issues.LinkIssuesOut {
	t.Helper()
	out := servertest.CallOK[issues.LinkIssuesOut](t, env, toolkit.NameLinkIssues, in)
	if out.Note == "" {
		t.Fatalf("note is empty, want the relation in words: %+v for %+v", out, in)
	}
	if out.Relation == (issues.LinkRelation{}) {
		t.Fatalf("relation is empty, want the relation as it stands: %+v for %+v", out, in)
	}
	return out
}

// wantStands checks that a link's answer gives the relation as it now
// stands, which way it points, and says so in words.
func wantStands(t *testing.T, out issues.LinkIssuesOut, noOp bool, rel issues.LinkRelation, note string) {
	t.Helper()
	want := issues.LinkIssuesOut{Relation: rel, Note: note, NoOp: noOp}
	if diff := gocmp.Diff(want, out, cmpopts.IgnoreFields(issues.LinkIssuesOut{}, "SubIssues")); diff != "" {
		t.Fatalf("relation, note, no_op mismatch (-want +got):\n%s", diff)
	}
}

// widgetsRef names an issue of acme/widgets as a relation does.
func widgetsRef(n int) string { return fmt.Sprintf("acme/widgets#%d", n) }

func subIssueNumbers(env *servertest.Env, parent int) []int {
	var out []int
	withState(env, func(*emulator.State) {
		for _, c := range widgets(env).Issue(parent).SubIssues {
			out = append(out, c.Number)
		}
	})
	return out
}

func TestLinkIssuesSubIssueAddRemoveAndNoOps(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	child := loneIssue(t, env)
	parent := emulator.DemoParentIssue
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "add", TargetIssueNumber: toolkit.IssueNumber(child)}
	getChild := fmt.Sprintf("GET /repos/acme/widgets/issues/%d", child)
	env.Upstream()

	linked := issues.LinkRelation{Parent: widgetsRef(parent), SubIssue: widgetsRef(child), Linked: true}
	unlinked := issues.LinkRelation{Parent: widgetsRef(parent), SubIssue: widgetsRef(child)}

	out := link(t, env, in)
	wantUpstream(t, env, getChild, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/sub_issues", parent))
	if out.SubIssues == nil || *out.SubIssues != 5 {
		t.Fatalf("add: sub_issues = %s, want 5", ptr(out.SubIssues))
	}
	if now := subIssueNumbers(env, parent); !slices.Contains(now, child) {
		t.Fatalf("add: sub-issues of #%d = %v, want #%d among them", parent, now, child)
	}
	wantStands(t, out, false, linked, fmt.Sprintf("acme/widgets#%d is now a sub-issue of acme/widgets#%d", child, parent))
	// Already there: a successful no-op, known from the target's own
	// record, so nothing is written.
	out = link(t, env, in)
	wantUpstream(t, env, getChild)
	wantStands(t, out, true, linked, fmt.Sprintf("acme/widgets#%d is already a sub-issue of acme/widgets#%d", child, parent))

	in.Action = "remove"
	out = link(t, env, in)
	wantUpstream(t, env, getChild, fmt.Sprintf("DELETE /repos/acme/widgets/issues/%d/sub_issue", parent))
	if out.SubIssues == nil || *out.SubIssues != 4 {
		t.Fatalf("remove: sub_issues = %s, want 4", ptr(out.SubIssues))
	}
	if now := subIssueNumbers(env, parent); slices.Contains(now, child) {
		t.Fatalf("remove: sub-issues of #%d = %v, want #%d not among them", parent, now, child)
	}
	wantStands(t, out, false, unlinked, fmt.Sprintf("acme/widgets#%d is no longer a sub-issue of acme/widgets#%d", child, parent))
	out = link(t, env, in)
	wantUpstream(t, env, getChild)
	wantStands(t, out, true, unlinked, fmt.Sprintf("acme/widgets#%d is not a sub-issue of acme/widgets#%d", child, parent))
}

func TestLinkIssuesRefusals(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	env.Upstream()
	// Self-links are refused before any request.
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		Relation: "blocked_by", Action: "add", TargetIssueNumber: emulator.DemoParentIssue}), true)
	if !contracttest.Envelope(t, "self link", e, contract.CodeSelfLink, contract.NotStarted) {
		t.FailNow()
	}
	// Argument rules that span fields.
	for _, bad := range []issues.LinkIssuesIn{
		{Relation: "blocked_by", Action: "reorder", TargetIssueNumber: jobsSubIssue, AfterIssueNumber: pdfSubIssue},
		{Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue},
		{Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue, AfterIssueNumber: pdfSubIssue, BeforeIssueNumber: docsSubIssue},
		{Relation: "sub_issue", Action: "add", TargetIssueNumber: jobsSubIssue, AfterIssueNumber: pdfSubIssue},
		{Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue, BeforeIssueNumber: jobsSubIssue},
		// Anchors count from 1, like every issue number: a negative one is
		// refused by name before the sub-issues are read.
		{Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue, AfterIssueNumber: -1},
		{Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue, BeforeIssueNumber: -1},
	} {
		t.Run(string(bad.Relation)+" "+string(bad.Action), func(t *testing.T) {
			bad.Owner, bad.Repo, bad.IssueNumber = "acme", "widgets", 12
			e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, bad), true)
			what := fmt.Sprintf("%+v", bad)
			if !contracttest.Envelope(t, what, e, contract.CodeInvalidField, contract.NotStarted) {
				t.FailNow()
			}
			if e.Details == nil {
				t.Fatalf("%s: details = nil, want the field named", what)
			}
			if e.Details.Field == "" {
				t.Fatalf("%s: details.field is empty, want the field named", what)
			}
		})
	}
	wantUpstream(t, env)

	// A sub-issue of another parent: refused before writing, with the
	// repair that frees it.
	e = wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		Relation: "sub_issue", Action: "add", TargetIssueNumber: csvSubIssue}), true)
	if !contracttest.Envelope(t, "other parent", e, contract.CodeValidationFailed, contract.NotStarted) {
		t.FailNow()
	}
	if !contracttest.RepairTool(t, "other parent", e.Repair, toolkit.NameLinkIssues) {
		t.FailNow()
	}
	wantUpstream(t, env, "GET /repos/acme/widgets/issues/17")
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("repair as given: %s", res.JSON)
	}
	link(t, env, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue, Relation: "sub_issue", Action: "add", TargetIssueNumber: csvSubIssue})

	// A cycle is GitHub's refusal, reported as validation_failed.
	e = wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: jobsSubIssue,
		Relation: "sub_issue", Action: "add", TargetIssueNumber: emulator.DemoParentIssue}), true)
	if !contracttest.Envelope(t, "sub-issue cycle", e, contract.CodeValidationFailed, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "cycle") {
		t.Fatalf("sub-issue cycle: message = %q, want it to say cycle", e.Message)
	}
	if !contracttest.Field(t, "sub-issue cycle", e, "target_issue_number") {
		t.FailNow()
	}
	// A blocked-by cycle: 53 blocks 54 blocks 55, so 53 cannot be blocked by 55.
	env.Upstream()
	e = wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoBlockerIssue,
		Relation: "blocked_by", Action: "add", TargetIssueNumber: emulator.DemoBlockedIssue}), true)
	if !contracttest.Envelope(t, "dependency cycle", e, contract.CodeValidationFailed, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
	if !strings.Contains(e.Message, "cycle") {
		t.Fatalf("dependency cycle: message = %q, want it to say cycle", e.Message)
	}
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoBlockedIssue),
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/dependencies/blocked_by", emulator.DemoBlockerIssue),
		fmt.Sprintf("GET /repos/acme/widgets/issues/%d/dependencies/blocked_by", emulator.DemoBlockerIssue))

	// Forced error: a target that does not exist.
	e = wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		Relation: "blocked_by", Action: "add", TargetIssueNumber: missingIssue}), true)
	if !contracttest.Envelope(t, "missing target", e, contract.CodeIssueNotFound, contract.NotStarted) {
		t.FailNow()
	}
	if !contracttest.Field(t, "missing target", e, "target_issue_number") {
		t.FailNow()
	}
	// carol reads but cannot link.
	carol := servertest.Start(t, servertest.Options{Token: emulator.DemoTokenCarol})
	e = wireEnvelope(t, carol.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		Relation: "sub_issue", Action: "add", TargetIssueNumber: toolkit.IssueNumber(loneIssue(t, carol))}), true)
	if !contracttest.Envelope(t, "read-only user", e, contract.CodeInsufficientScope, contract.NoRemoteSuccessKnown) {
		t.FailNow()
	}
}

func TestLinkIssuesBlockedBy(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	issue, blocker := loneIssue(t, env), emulator.DemoBlockerIssue
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(issue), Relation: "blocked_by", Action: "add", TargetIssueNumber: toolkit.IssueNumber(blocker)}
	base := fmt.Sprintf("/repos/acme/widgets/issues/%d/dependencies/blocked_by", issue)
	getBlocker := fmt.Sprintf("GET /repos/acme/widgets/issues/%d", blocker)
	blockedBy := func() []int {
		var out []int
		withState(env, func(*emulator.State) {
			for _, b := range widgets(env).Issue(issue).BlockedBy {
				out = append(out, b.Number)
			}
		})
		return out
	}
	linked := issues.LinkRelation{Issue: widgetsRef(issue), BlockedBy: widgetsRef(blocker), Linked: true}
	unlinked := issues.LinkRelation{Issue: widgetsRef(issue), BlockedBy: widgetsRef(blocker)}
	env.Upstream()
	out := link(t, env, in)
	if !slices.Equal(blockedBy(), []int{blocker}) {
		t.Fatalf("add: #%d blocked by %v, want [%d]", issue, blockedBy(), blocker)
	}
	wantStands(t, out, false, linked, fmt.Sprintf("acme/widgets#%d is now blocked by acme/widgets#%d", issue, blocker))
	wantUpstream(t, env, getBlocker, "POST "+base)

	// Adding it again: GitHub's 422, confirmed by a read, is a no-op.
	wantStands(t, link(t, env, in), true, linked, fmt.Sprintf("acme/widgets#%d is already blocked by acme/widgets#%d", issue, blocker))
	wantUpstream(t, env, getBlocker, "POST "+base, "GET "+base)

	in.Action = "remove"
	var blockerID int64
	withState(env, func(*emulator.State) { blockerID = widgets(env).Issue(blocker).ID })
	out = link(t, env, in)
	if len(blockedBy()) != 0 {
		t.Fatalf("remove: #%d blocked by %v, want none", issue, blockedBy())
	}
	wantStands(t, out, false, unlinked, fmt.Sprintf("acme/widgets#%d is no longer blocked by acme/widgets#%d", issue, blocker))
	wantUpstream(t, env, getBlocker, fmt.Sprintf("DELETE %s/%d", base, blockerID))

	// Removing it again: GitHub's 404, with the issue confirmed to exist,
	// is a no-op.
	wantStands(t, link(t, env, in), true, unlinked, fmt.Sprintf("acme/widgets#%d was not blocked by acme/widgets#%d", issue, blocker))
	wantUpstream(t, env, getBlocker, fmt.Sprintf("DELETE %s/%d", base, blockerID), fmt.Sprintf("GET /repos/acme/widgets/issues/%d", issue))

	// Removing from an issue that does not exist is not_found, not a no-op.
	in.IssueNumber = missingIssue
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, in), true)
	if !contracttest.Code(t, "missing issue", e, contract.CodeIssueNotFound) {
		t.FailNow()
	}
}

func TestLinkIssuesReorder(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	parent := emulator.DemoParentIssue
	list := fmt.Sprintf("GET /repos/acme/widgets/issues/%d/sub_issues", parent)
	patch := fmt.Sprintf("PATCH /repos/acme/widgets/issues/%d/sub_issues/priority", parent)
	in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "reorder", TargetIssueNumber: docsSubIssue, AfterIssueNumber: jobsSubIssue}
	env.Upstream()
	out := link(t, env, in)
	if out.SubIssues == nil || *out.SubIssues != 4 {
		t.Fatalf("reorder: sub_issues = %s, want 4", ptr(out.SubIssues))
	}
	wantUpstream(t, env, list, patch)
	got := subIssueNumbers(env, parent)
	if want := []int{13, 16, emulator.DemoNestedParentIssue, 15}; !slices.Equal(got, want) {
		t.Fatalf("order after: %v, want %v", got, want)
	}
	// The result says where the sub-issue now stands, as the list does.
	at := slices.Index(got, docsSubIssue) + 1
	placed := issues.LinkRelation{Parent: widgetsRef(parent), SubIssue: widgetsRef(docsSubIssue), Linked: true, Position: at}
	wantStands(t, out, false, placed, fmt.Sprintf("acme/widgets#%d is now sub-issue %d of 4 of acme/widgets#%d", docsSubIssue, at, parent))
	// Already in place: no write, and the same place.
	wantStands(t, link(t, env, in), true, placed,
		fmt.Sprintf("acme/widgets#%d is sub-issue %d of 4 of acme/widgets#%d, already right after #%d", docsSubIssue, at, parent, jobsSubIssue))
	wantUpstream(t, env, list)
	in.AfterIssueNumber, in.BeforeIssueNumber = 0, 13
	out = link(t, env, in)
	wantUpstream(t, env, list, patch)
	if want := []int{16, 13, emulator.DemoNestedParentIssue, 15}; !slices.Equal(subIssueNumbers(env, parent), want) {
		t.Fatalf("order after before: %v, want %v; result %+v", subIssueNumbers(env, parent), want, out)
	}
	placed.Position = 1
	wantStands(t, out, false, placed, fmt.Sprintf("acme/widgets#%d is now sub-issue 1 of 4 of acme/widgets#%d", docsSubIssue, parent))
	// A target that is not a sub-issue is refused before writing.
	in.TargetIssueNumber = 17
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, in), true)
	if !contracttest.Envelope(t, "not a sub-issue", e, contract.CodeValidationFailed, contract.NotStarted) {
		t.FailNow()
	}
	if !contracttest.Field(t, "not a sub-issue", e, "target_issue_number") {
		t.FailNow()
	}
	if e.Repair == nil {
		t.Fatalf("not a sub-issue: repair = nil, want one")
	}
	wantUpstream(t, env, list)
}

func TestLinkIssuesSettlementUnderFaults(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	parent := emulator.DemoParentIssue
	post := fmt.Sprintf("/repos/acme/widgets/issues/%d/sub_issues", parent)
	cases := []struct {
		fault      emulator.Fault
		code       contract.Code
		settlement contract.Settlement
		applied    bool
	}{
		{emulator.Fault{Kind: emulator.FaultStatus, Status: 500}, contract.CodeUpstreamUnavailable, contract.NoRemoteSuccessKnown, false},
		{emulator.Fault{Kind: emulator.FaultDropBefore}, contract.CodeUpstreamUnavailable, contract.Indeterminate, false},
		{emulator.Fault{Kind: emulator.FaultDropAfter}, contract.CodeUpstreamUnavailable, contract.Indeterminate, true},
	}
	var used []int
	for _, c := range cases {
		t.Run(string(c.fault.Kind), func(t *testing.T) {
			child := loneIssue(t, env, used...)
			used = append(used, child)
			c.fault.Method, c.fault.Path, c.fault.Times = "POST", post, 1
			addFault(t, env, c.fault)
			in := issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "add", TargetIssueNumber: toolkit.IssueNumber(child)}
			e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, in), true)
			if !contracttest.Envelope(t, string(c.fault.Kind), e, c.code, c.settlement) {
				t.FailNow()
			}
			if applied := slices.Contains(subIssueNumbers(env, parent), child); applied != c.applied {
				t.Fatalf("%s: applied = %v, want %v", c.fault.Kind, applied, c.applied)
			}
			if c.settlement == contract.Indeterminate {
				// The repair repeats the call: link edits are idempotent, so the
				// repeat either applies the link or reports the no-op.
				if !contracttest.RepairTool(t, string(c.fault.Kind), e.Repair, toolkit.NameLinkIssues) {
					t.FailNow()
				}
				if e.Temporary {
					t.Fatalf("%s: temporary = true, want false", c.fault.Kind)
				}
				var out issues.LinkIssuesOut
				res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
				res.Decode(t, &out)
				if res.IsError {
					t.Fatalf("%s: repeat failed: %s", c.fault.Kind, res.JSON)
				}
				if out.NoOp != c.applied {
					t.Errorf("%s: repeat no_op = %v, want %v", c.fault.Kind, out.NoOp, c.applied)
				}
				if now := subIssueNumbers(env, parent); !slices.Contains(now, child) {
					t.Errorf("%s: after the repeat, sub-issues of #%d = %v, want #%d among them", c.fault.Kind, parent, now, child)
				}
			}
		})
	}
	// GitHub applied it but its answer could not be read: the link is in
	// place, which is all the result needs, so it succeeds and says so.
	child := loneIssue(t, env, used...)
	addFault(t, env, emulator.Fault{Method: "POST", Path: post, Kind: emulator.FaultMalformedAfter, Times: 1})
	out := link(t, env, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "add", TargetIssueNumber: toolkit.IssueNumber(child)})
	if !slices.Contains(subIssueNumbers(env, parent), child) {
		t.Fatalf("malformed_after: sub-issues of #%d = %v, want #%d among them", parent, subIssueNumbers(env, parent), child)
	}
	wantStands(t, out, false, issues.LinkRelation{Parent: widgetsRef(parent), SubIssue: widgetsRef(child), Linked: true},
		fmt.Sprintf("acme/widgets#%d is now a sub-issue of acme/widgets#%d (GitHub confirmed the change, but its answer could not be read)", child, parent))
}

func TestLinkIssuesCreatorScope(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	env.Upstream()
	e := wireEnvelope(t, env.Call(t, toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoParentIssue,
		Relation: "sub_issue", Action: "add", TargetIssueNumber: freeIssue}), true)
	if !contracttest.Envelope(t, "creator scope", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted) {
		t.FailNow()
	}
	wantUpstream(t, env, fmt.Sprintf("GET /repos/acme/widgets/issues/%d", emulator.DemoParentIssue))
}
