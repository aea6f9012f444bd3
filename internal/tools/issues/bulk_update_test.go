package issues_test

import (
	"context"
	"encoding/json"
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
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bulkTargets returns k open issues of acme/widgets without the label
// (and not locked), skipping the numbers given.
func bulkTargets(t *testing.T, env *servertest.Env, k int, label string, skip ...int) []int {
	t.Helper()
	var out []int
	withState(env, func(*emulator.State) {
		for _, is := range widgets(env).Issues {
			if len(out) == k {
				return
			}
			if is.IsPull || is.Deleted || is.Locked || is.State != "open" || slices.Contains(skip, is.Number) ||
				slices.ContainsFunc(is.Labels, func(l *emulator.Label) bool { return strings.EqualFold(l.Name, label) }) {
				continue
			}
			out = append(out, is.Number)
		}
	})
	if len(out) < k {
		t.Fatalf("only %d open issues without %q", len(out), label)
	}
	return out
}

// pullNumber is a pull request's number in acme/widgets.
func pullNumber(t *testing.T, env *servertest.Env) int {
	t.Helper()
	n := 0
	withState(env, func(*emulator.State) {
		for _, is := range widgets(env).Issues {
			if is.IsPull && !is.Deleted {
				n = is.Number
				return
			}
		}
	})
	if n == 0 {
		t.Fatal("no pull request in the seed, want one")
	}
	return n
}

func hasLabel(env *servertest.Env, n int, label string) bool {
	labels, _ := ciIssue(env, n)
	return slices.ContainsFunc(labels, func(l string) bool { return strings.EqualFold(l, label) })
}

func numbers(ns []int) []toolkit.IssueNumber {
	out := make([]toolkit.IssueNumber, len(ns))
	for i, n := range ns {
		out[i] = toolkit.IssueNumber(n)
	}
	return out
}

func addLabel(ns []int, label string, cont bool) issues.BulkUpdateIssuesIn {
	return issues.BulkUpdateIssuesIn{Owner: "acme", Repo: "widgets", IssueNumbers: numbers(ns), ContinueOnError: cont,
		Changes: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{label}}}}
}

func bulkOK(t *testing.T, env *servertest.Env, in any) issues.BulkUpdateIssuesOut {
	t.Helper()
	return servertest.CallOK[issues.BulkUpdateIssuesOut](t, env, toolkit.NameBulkUpdateIssues, in)
}

// settlements maps each issue to its item's settlement, failing the test
// unless the items come back one per number, in the order given.
func settlements(t *testing.T, out issues.BulkUpdateIssuesOut, ns []int) map[int]issues.BulkSettlement {
	t.Helper()
	got := map[int]issues.BulkSettlement{}
	for i, it := range out.Items {
		if i >= len(ns) {
			t.Fatalf("item %d (#%d) is past the %d numbers given, want one item per number: %v", i, it.IssueNumber, len(ns), ns)
		}
		if it.IssueNumber != ns[i] {
			t.Fatalf("item %d is #%d, want #%d (the numbers in order %v)", i, it.IssueNumber, ns[i], ns)
		}
		if (it.Settlement == issues.BulkFailed) != (it.Error != nil) {
			t.Fatalf("#%d: settlement %s with error %+v, want an error exactly when failed", it.IssueNumber, it.Settlement, it.Error)
		}
		got[it.IssueNumber] = it.Settlement
	}
	if len(out.Items) != len(ns) {
		t.Fatalf("%d items, want one per number: %d", len(out.Items), len(ns))
	}
	return got
}

// writes are the upstream calls since the last check other than reads and
// the GraphQL preflight, sorted (items run concurrently).
func writes(env *servertest.Env) []string {
	var out []string
	for _, c := range ciCalls(env) {
		if !strings.HasPrefix(c, "GET ") && c != "POST /graphql" {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

func TestBulkUpdateIssuesLabelsAtMinimum(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ns := bulkTargets(t, env, 4, "documentation")
	done := bulkTargets(t, env, 1, "", ns...)[0]
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(done),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"documentation"}}}})
	all := append(slices.Clone(ns), done)
	env.Upstream()

	out := bulkOK(t, env, addLabel(all, "Documentation", false))
	// One preflight reads every issue and checks the label; each issue
	// that lacks it costs one POST of the label, nothing more.
	var want []string
	for _, n := range ns {
		want = append(want, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n))
	}
	slices.Sort(want)
	calls := ciCalls(env)
	// One preflight, then the writes.
	if calls[0] != "POST /graphql" {
		t.Errorf("first upstream call = %q, want the preflight POST /graphql; calls %q", calls[0], calls)
	}
	if slices.Index(calls[1:], "POST /graphql") >= 0 {
		t.Errorf("upstream calls %q: want a single POST /graphql, the preflight", calls)
	}
	if len(calls) != 1+len(ns) {
		t.Errorf("%d upstream calls, want %d (one preflight, %d writes): %q", len(calls), 1+len(ns), len(ns), calls)
	}
	got := slices.Sorted(slices.Values(calls[1:]))
	if !slices.Equal(got, want) {
		t.Errorf("writes %q, want %q", got, want)
	}
	st := settlements(t, out, all)
	for _, n := range ns {
		if st[n] != issues.BulkApplied {
			t.Errorf("#%d: settlement = %s, want %s", n, st[n], issues.BulkApplied)
		}
		if !hasLabel(env, n, "documentation") {
			t.Errorf("#%d: not labelled documentation, want labelled", n)
		}
	}
	if st[done] != issues.BulkNoOp {
		t.Errorf("#%d already had the label: settlement = %s, want %s", done, st[done], issues.BulkNoOp)
	}
	// An applied item says what changed and the version.
	it := out.Items[0]
	if want := []string{"labels"}; !slices.Equal(it.ChangedFields, want) {
		t.Errorf("#%d: changed_fields = %q, want %q", it.IssueNumber, it.ChangedFields, want)
	}
	if !contract.IsVersion(it.Version) {
		t.Errorf("#%d: version = %q, want a version", it.IssueNumber, it.Version)
	}
	// Nothing to retry.
	if out.Retry != nil {
		t.Errorf("retry = %+v, want nil", out.Retry)
	}
	if out.Stopped != "" {
		t.Errorf("stopped = %q, want empty", out.Stopped)
	}

	// A repeat is all no-ops, and writes nothing.
	again := bulkOK(t, env, addLabel(all, "documentation", false))
	for n, s := range settlements(t, again, all) {
		if s != issues.BulkNoOp {
			t.Errorf("repeat: #%d settlement = %s, want %s", n, s, issues.BulkNoOp)
		}
	}
	ciWantCalls(t, env, "a repeat", "POST /graphql")
}

func TestBulkUpdateIssuesStateAndOtherFields(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ns := bulkTargets(t, env, 3, "")
	v150 := ciMilestone(t, env, "v1.5.0")
	in := issues.BulkUpdateIssuesIn{Owner: "acme", Repo: "widgets", IssueNumbers: numbers(ns), Changes: issues.IssueChanges{
		State: "closed", StateReason: "not_planned", Milestone: toolkit.Some(v150), Assignees: &issues.AssigneesEdit{Add: []string{"alice"}}}}
	alice := func(a *emulator.Account) bool { return a.Login == "alice" }
	// changed_fields is what differs from before, as github_update_issue says it.
	want := map[int][]string{}
	for _, n := range ns {
		_, is := ciIssue(env, n)
		want[n] = []string{"state", "state_reason"}
		if !slices.ContainsFunc(is.Assignees, alice) {
			want[n] = append(want[n], "assignees")
		}
		if is.Milestone == nil || is.Milestone.Number != v150 {
			want[n] = append(want[n], "milestone")
		}
	}
	out := bulkOK(t, env, in)
	for _, it := range out.Items {
		_, is := ciIssue(env, it.IssueNumber)
		if it.Settlement != issues.BulkApplied {
			t.Errorf("#%d: settlement = %s, want %s", it.IssueNumber, it.Settlement, issues.BulkApplied)
		}
		if is.State != "closed" {
			t.Errorf("#%d: state = %q, want closed", it.IssueNumber, is.State)
		}
		if is.StateReason == nil || *is.StateReason != "not_planned" {
			t.Errorf("#%d: state_reason = %s, want not_planned", it.IssueNumber, ptr(is.StateReason))
		}
		if is.Milestone == nil {
			t.Errorf("#%d: milestone = nil, want #%d", it.IssueNumber, v150)
		} else if is.Milestone.Number != v150 {
			t.Errorf("#%d: milestone = #%d, want #%d", it.IssueNumber, is.Milestone.Number, v150)
		}
		if !slices.ContainsFunc(is.Assignees, alice) {
			t.Errorf("#%d: alice not among the assignees, want her added", it.IssueNumber)
		}
		if !slices.Equal(it.ChangedFields, want[it.IssueNumber]) {
			t.Errorf("#%d: changed_fields %v, want %v", it.IssueNumber, it.ChangedFields, want[it.IssueNumber])
		}
	}
	// A repeat is all no-ops.
	again := bulkOK(t, env, in)
	if !slices.ContainsFunc(again.Items, func(it issues.BulkItem) bool { return it.Settlement == issues.BulkNoOp }) {
		t.Errorf("repeat: no item is %s, want all: %+v", issues.BulkNoOp, again.Items)
	}
	for _, it := range again.Items {
		if it.Settlement != issues.BulkNoOp {
			t.Errorf("repeat: #%d settlement = %s, want %s", it.IssueNumber, it.Settlement, issues.BulkNoOp)
		}
	}
}

// Every refusal of the run writes nothing at all and says how to repair it.
func TestBulkUpdateIssuesRefusals(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ns := bulkTargets(t, env, 3, "documentation")
	base := addLabel(ns, "documentation", false)
	with := func(f func(in *issues.BulkUpdateIssuesIn)) issues.BulkUpdateIssuesIn {
		in := base
		in.IssueNumbers = slices.Clone(base.IssueNumbers)
		f(&in)
		return in
	}
	var fifty []toolkit.IssueNumber
	for i := 1; i <= 51; i++ {
		fifty = append(fifty, toolkit.IssueNumber(i))
	}
	cases := []struct {
		name  string
		args  any
		code  contract.Code
		field string
		// repairTool is the tool the repair calls; "" when it has none.
		repairTool string
	}{
		{"unknown label", with(func(in *issues.BulkUpdateIssuesIn) {
			in.Changes.Labels = &issues.LabelsEdit{Add: []string{"documentation", "documentaton"}}
		}), contract.CodeLabelNotFound, "changes.labels", toolkit.NameListRepoMetadata},
		{"unknown label removed", with(func(in *issues.BulkUpdateIssuesIn) {
			in.Changes.Labels = &issues.LabelsEdit{Remove: []string{"no such label"}}
		}), contract.CodeLabelNotFound, "changes.labels.remove", toolkit.NameListRepoMetadata},
		{"unknown assignee", with(func(in *issues.BulkUpdateIssuesIn) {
			in.Changes.Labels, in.Changes.Assignees = nil, &issues.AssigneesEdit{Add: []string{"nobody-at-all"}}
		}), contract.CodeAssigneeNotFound, "changes.assignees.add", toolkit.NameListRepoMetadata},
		{"unknown milestone", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes.Milestone = toolkit.Some(999) }),
			contract.CodeMilestoneNotFound, "changes.milestone", toolkit.NameListRepoMetadata},
		{"unknown type", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes.Type = toolkit.Some("Epic saga") }),
			contract.CodeIssueTypeNotFound, "changes.type", toolkit.NameListRepoMetadata},
		{"no numbers", with(func(in *issues.BulkUpdateIssuesIn) { in.IssueNumbers = []toolkit.IssueNumber{} }),
			contract.CodeInvalidField, "issue_numbers", toolkit.NameBulkUpdateIssues},
		{"51 numbers", with(func(in *issues.BulkUpdateIssuesIn) { in.IssueNumbers = fifty }),
			contract.CodeInvalidField, "issue_numbers", toolkit.NameBulkUpdateIssues},
		{"a number twice", with(func(in *issues.BulkUpdateIssuesIn) { in.IssueNumbers = append(in.IssueNumbers, in.IssueNumbers[0]) }),
			contract.CodeInvalidField, "issue_numbers", toolkit.NameBulkUpdateIssues},
		{"no changes", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes = issues.IssueChanges{} }),
			contract.CodeInvalidField, "changes", toolkit.NameBulkUpdateIssues},
		{"state_reason without state", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes.StateReason = "not_planned" }),
			contract.CodeInvalidField, "changes.state_reason", toolkit.NameBulkUpdateIssues},
		{"open with not_planned", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes.State, in.Changes.StateReason = "open", "not_planned" }),
			contract.CodeInvalidField, "changes.state_reason", toolkit.NameBulkUpdateIssues},
		{"closed with reopened", with(func(in *issues.BulkUpdateIssuesIn) { in.Changes.State, in.Changes.StateReason = "closed", "reopened" }),
			contract.CodeInvalidField, "changes.state_reason", toolkit.NameBulkUpdateIssues},
		{"bad state_reason", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
			"changes": map[string]any{"state": "closed", "state_reason": "bored"}}, contract.CodeInvalidField, "changes.state_reason", toolkit.NameBulkUpdateIssues},
		{"a field update_issue has but a batch does not", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
			"changes": map[string]any{"title": "Same title everywhere", "labels": map[string]any{"add": []string{"documentation"}}}},
			contract.CodeInvalidField, "changes.title", toolkit.NameBulkUpdateIssues},
		// The default toolsets do not serve github_update_project_item, so
		// a bulk edit may not write a board either.
		{"project without the projects toolset", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
			"continue_on_error": true, "changes": map[string]any{"project": map[string]any{"owner": "acme", "project_number": 1,
				"fields": map[string]any{"Priority": nil}}}},
			contract.CodeInvalidField, "changes.project", toolkit.NameBulkUpdateIssues},
		{"labels.set empty", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
			"changes": map[string]any{"labels": map[string]any{"set": []string{}}}},
			contract.CodeInvalidField, "changes.labels.set", toolkit.NameBulkUpdateIssues},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			env.Upstream()
			e := wireEnvelope(t, env.Call(t, toolkit.NameBulkUpdateIssues, c.args), true)
			if !contracttest.Envelope(t, "refusal", e, c.code, contract.NotStarted) || !contracttest.Field(t, "refusal", e, c.field) {
				t.FailNow()
			}
			if w := writes(env); len(w) > 0 {
				t.Fatalf("a refusal wrote %q, want nothing", w)
			}
			if !contracttest.RepairTool(t, "refusal", e.Repair, c.repairTool) {
				t.FailNow()
			}
		})
	}
	for _, n := range ns {
		if hasLabel(env, n, "documentation") {
			t.Errorf("#%d is labelled documentation, want it not: only refused runs were made", n)
		}
	}
}

// A literal repair, taken as given, is a call that works.
func TestBulkUpdateIssuesRepairsAreCallable(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ns := bulkTargets(t, env, 2, "")
	// state_reason without state: the repair adds state closed.
	in := issues.BulkUpdateIssuesIn{Owner: "acme", Repo: "widgets", IssueNumbers: numbers(ns),
		Changes: issues.IssueChanges{StateReason: "not_planned"}}
	e := wireEnvelope(t, env.Call(t, toolkit.NameBulkUpdateIssues, in), true)
	out := bulkOK(t, env, e.Repair.Arguments)
	for _, n := range ns {
		if _, is := ciIssue(env, n); is.State != "closed" {
			t.Errorf("#%d: state = %q after the repair, want closed: %+v", n, is.State, out)
		}
	}
	// A number given twice: the repair names each once.
	in = addLabel([]int{ns[0], ns[1], ns[0]}, "bug", true)
	e = wireEnvelope(t, env.Call(t, toolkit.NameBulkUpdateIssues, in), true)
	if out := bulkOK(t, env, e.Repair.Arguments); len(out.Items) != 2 {
		t.Errorf("deduplicated repair: %d items, want 2: %+v", len(out.Items), out)
	}
	// A stray nested field: the repair drops it.
	res := env.Call(t, toolkit.NameBulkUpdateIssues, map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
		"changes": map[string]any{"body": "x", "labels": map[string]any{"add": []string{"question"}}}})
	e = wireEnvelope(t, res, true)
	out = bulkOK(t, env, e.Repair.Arguments)
	if len(out.Items) != 2 {
		t.Errorf("repair without the stray field: %d items, want 2: %+v", len(out.Items), out)
	}
	if !hasLabel(env, ns[0], "question") {
		t.Errorf("repair without the stray field: #%d not labelled question, want labelled", ns[0])
	}
}

// A pull request's number and a missing issue fail their own items before
// any write; the others proceed with continue_on_error, or are not started.
func TestBulkUpdateIssuesNonIssuesAmongNumbers(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	pr := pullNumber(t, env)
	good := bulkTargets(t, env, 2, "question")
	ns := []int{good[0], pr, missingIssue, good[1]}

	// Stop at the first failure: nothing is written.
	env.Upstream()
	out := bulkOK(t, env, addLabel(ns, "question", false))
	st := settlements(t, out, ns)
	want := map[int]issues.BulkSettlement{pr: issues.BulkFailed, missingIssue: issues.BulkFailed,
		good[0]: issues.BulkNotStarted, good[1]: issues.BulkNotStarted}
	if diff := gocmp.Diff(want, st); diff != "" {
		t.Fatalf("stopped run: settlements mismatch (-want +got):\n%s", diff)
	}
	if w := writes(env); len(w) > 0 {
		t.Fatalf("a stopped run wrote %q, want nothing", w)
	}
	if out.Stopped == "" {
		t.Fatalf("stopped run: stopped is empty, want why")
	}
	pe, me := out.Items[1].Error, out.Items[2].Error
	if pe.Code != contract.CodeInvalidField {
		t.Errorf("pull request item: code = %q (%q), want %q", pe.Code, pe.Message, contract.CodeInvalidField)
	}
	if pe.Settlement != contract.NotStarted {
		t.Errorf("pull request item: settlement = %q, want %q", pe.Settlement, contract.NotStarted)
	}
	if !contracttest.RepairTool(t, "pull request item", pe.Repair, toolkit.NameUpdateIssue) {
		t.FailNow()
	}
	if me.Code != contract.CodeIssueNotFound {
		t.Errorf("missing issue item: code = %q (%q), want %q", me.Code, me.Message, contract.CodeIssueNotFound)
	}
	if me.Settlement != contract.NotStarted {
		t.Errorf("missing issue item: settlement = %q, want %q", me.Settlement, contract.NotStarted)
	}
	// The pull request's repair edits it on its own.
	res := env.Call(t, pe.Repair.Tool, pe.Repair.Arguments)
	if res.IsError {
		t.Errorf("the pull request's repair failed: %s", res.JSON)
	}
	if !hasLabel(env, pr, "question") {
		t.Errorf("after the pull request's repair: #%d not labelled question, want labelled", pr)
	}
	// The retry leaves out what would fail again, and finishes the job.
	if out.Retry == nil {
		t.Fatalf("retry = nil, want a call leaving out #%d", missingIssue)
	}
	if !strings.Contains(out.Retry.NextStep, fmt.Sprintf("#%d", missingIssue)) {
		t.Fatalf("retry.next_step = %q, want it to name #%d", out.Retry.NextStep, missingIssue)
	}
	again := retry(t, env, out)
	want = map[int]issues.BulkSettlement{good[0]: issues.BulkApplied, good[1]: issues.BulkApplied}
	if diff := gocmp.Diff(want, settlements(t, again, good)); diff != "" {
		t.Fatalf("retry: settlements mismatch (-want +got):\n%s", diff)
	}

	// With continue_on_error the good items are written at once.
	more := bulkTargets(t, env, 2, "question")
	ns = []int{more[0], pr, missingIssue, more[1]}
	out = bulkOK(t, env, addLabel(ns, "question", true))
	st = settlements(t, out, ns)
	for n, want := range map[int]issues.BulkSettlement{more[0]: issues.BulkApplied, more[1]: issues.BulkApplied, missingIssue: issues.BulkFailed} {
		if st[n] != want {
			t.Errorf("continue_on_error run: #%d settlement = %s, want %s", n, st[n], want)
		}
	}
	if out.Retry != nil {
		t.Errorf("continue_on_error run: retry = %+v, want nil", out.Retry)
	}
}

// retry makes the retry call of out exactly as given: its arguments
// decoded from the wire, not rebuilt.
func retry(t *testing.T, env *servertest.Env, out issues.BulkUpdateIssuesOut) issues.BulkUpdateIssuesOut {
	t.Helper()
	if !contracttest.RepairTool(t, "retry", out.Retry, toolkit.NameBulkUpdateIssues) {
		t.FailNow()
	}
	raw, err := json.Marshal(out.Retry.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return bulkOK(t, env, json.RawMessage(raw))
}

// labels.create_missing creates a missing label once for the whole run,
// not once per issue.
func TestBulkUpdateIssuesCreatesAMissingLabelOnce(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	ns := bulkTargets(t, env, 3, "")
	env.Upstream()
	in := issues.BulkUpdateIssuesIn{Owner: "acme", Repo: "widgets", IssueNumbers: numbers(ns),
		Changes: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"bulk: new"}, CreateMissing: issues.CreateMissing{On: true}}}}
	out := bulkOK(t, env, in)
	want := []string{"POST /repos/acme/widgets/labels"}
	for _, n := range ns {
		want = append(want, fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n))
	}
	slices.Sort(want)
	if got := writes(env); !slices.Equal(got, want) {
		t.Errorf("writes %q, want %q", got, want)
	}
	for n, s := range settlements(t, out, ns) {
		if s != issues.BulkApplied {
			t.Errorf("#%d: settlement = %s, want %s", n, s, issues.BulkApplied)
		}
		if !hasLabel(env, n, "bulk: new") {
			t.Errorf("#%d: not labelled %q, want labelled", n, "bulk: new")
		}
	}
}

// Under the creator scope, another user's issue fails its own item and
// nothing is written to it; the retry leaves it out, as it would fail again.
func TestBulkUpdateIssuesCreatorScope(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{AllowedIssueCreator: "nobody-here"})
	ns := bulkTargets(t, env, 2, "documentation")
	env.Upstream()
	out := bulkOK(t, env, addLabel(ns, "documentation", true))
	for _, it := range out.Items {
		if it.Settlement != issues.BulkFailed {
			t.Errorf("#%d: settlement = %s, want %s", it.IssueNumber, it.Settlement, issues.BulkFailed)
		}
		if it.Error == nil {
			t.Fatalf("#%d: error = nil, want %s", it.IssueNumber, contract.CodeIssueCreatorNotAllowed)
		}
		if it.Error.Code != contract.CodeIssueCreatorNotAllowed {
			t.Errorf("#%d: error.code = %q, want %q", it.IssueNumber, it.Error.Code, contract.CodeIssueCreatorNotAllowed)
		}
		if it.Error.Settlement != contract.NotStarted {
			t.Errorf("#%d: error.settlement = %q, want %q", it.IssueNumber, it.Error.Settlement, contract.NotStarted)
		}
	}
	if w := writes(env); len(w) > 0 {
		t.Errorf("writes %q, want none", w)
	}
	if out.Retry != nil {
		t.Errorf("retry = %+v, want nil: the items would fail again", out.Retry)
	}
}

// TestBulkUpdateIssuesListing pins what tools/list says about the tool:
// honest hints (it can replace label sets and close issues; a repeat adds
// nothing), changes listed by its description only, and its share of the
// default set's bytes.
func TestBulkUpdateIssuesListing(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res, err := env.Session.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(res.Tools, func(tool *mcp.Tool) bool { return tool.Name == toolkit.NameBulkUpdateIssues })
	if i < 0 {
		t.Fatal("not in the default tools/list, want it listed")
	}
	tool := res.Tools[i]
	if a := tool.Annotations; a == nil {
		t.Errorf("annotations = nil, want hints")
	} else {
		if a.ReadOnlyHint {
			t.Errorf("readOnlyHint = true, want false")
		}
		if !a.IdempotentHint {
			t.Errorf("idempotentHint = false, want true")
		}
		if a.DestructiveHint == nil || !*a.DestructiveHint {
			t.Errorf("destructiveHint = %s, want true", ptr(a.DestructiveHint))
		}
	}
	b, _ := json.Marshal(tool)
	var listed struct {
		InputSchema struct {
			Properties map[string]map[string]any `json:"properties"`
		} `json:"inputSchema"`
	}
	if err := json.Unmarshal(b, &listed); err != nil {
		t.Fatal(err)
	}
	// changes is listed by its description only.
	ch := listed.InputSchema.Properties["changes"]
	if ch["type"] != "object" {
		t.Errorf("changes: type = %v, want object", ch["type"])
	}
	if ch["properties"] != nil {
		t.Errorf("changes: properties = %v, want none listed", ch["properties"])
	}
	if d := fmt.Sprint(ch["description"]); !strings.Contains(d, "github_update_issue") {
		t.Errorf("changes: description = %q, want it to name github_update_issue", d)
	}
	const maxBytes = 850
	if len(b) > maxBytes {
		t.Errorf("%d bytes in tools/list, want at most %d", len(b), maxBytes)
	}
	t.Logf("%d bytes", len(b))
}
