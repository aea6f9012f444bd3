package issues_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
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
		t.Fatal("no pull request in the seed")
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
		if i >= len(ns) || it.IssueNumber != ns[i] {
			t.Fatalf("item %d is #%d, want the numbers in order %v", i, it.IssueNumber, ns)
		}
		if (it.Settlement == issues.BulkFailed) != (it.Error != nil) {
			t.Fatalf("#%d: settlement %s with error %+v", it.IssueNumber, it.Settlement, it.Error)
		}
		got[it.IssueNumber] = it.Settlement
	}
	if len(out.Items) != len(ns) {
		t.Fatalf("%d items for %d numbers", len(out.Items), len(ns))
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
	if calls[0] != "POST /graphql" || slices.Index(calls[1:], "POST /graphql") >= 0 || len(calls) != 1+len(ns) {
		t.Errorf("upstream calls %q: want one preflight then %d writes", calls, len(ns))
	}
	got := slices.Sorted(slices.Values(calls[1:]))
	if !slices.Equal(got, want) {
		t.Errorf("writes %q, want %q", got, want)
	}
	st := settlements(t, out, all)
	for _, n := range ns {
		if st[n] != issues.BulkApplied || !hasLabel(env, n, "documentation") {
			t.Errorf("#%d: %s, labelled %v", n, st[n], hasLabel(env, n, "documentation"))
		}
	}
	if st[done] != issues.BulkNoOp {
		t.Errorf("#%d already had the label: %s", done, st[done])
	}
	if it := out.Items[0]; !slices.Equal(it.ChangedFields, []string{"labels"}) || !contract.IsVersion(it.Version) {
		t.Errorf("an applied item says what changed and the version: %+v", it)
	}
	if out.Retry != nil || out.Stopped != "" {
		t.Errorf("nothing to retry: %+v", out)
	}

	// A repeat is all no-ops, and writes nothing.
	again := bulkOK(t, env, addLabel(all, "documentation", false))
	for n, s := range settlements(t, again, all) {
		if s != issues.BulkNoOp {
			t.Errorf("repeat: #%d %s", n, s)
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
		if it.Settlement != issues.BulkApplied || is.State != "closed" || is.StateReason == nil || *is.StateReason != "not_planned" ||
			is.Milestone == nil || is.Milestone.Number != v150 || !slices.ContainsFunc(is.Assignees, alice) {
			t.Errorf("#%d: %+v, issue %s %v", it.IssueNumber, it, is.State, is.Milestone)
		}
		if !slices.Equal(it.ChangedFields, want[it.IssueNumber]) {
			t.Errorf("#%d: changed_fields %v, want %v", it.IssueNumber, it.ChangedFields, want[it.IssueNumber])
		}
	}
	if again := bulkOK(t, env, in); !slices.ContainsFunc(again.Items, func(it issues.BulkItem) bool { return it.Settlement == issues.BulkNoOp }) ||
		slices.ContainsFunc(again.Items, func(it issues.BulkItem) bool { return it.Settlement != issues.BulkNoOp }) {
		t.Errorf("repeat: %+v", again.Items)
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
			if e.Code != c.code || e.Details == nil || e.Details.Field != c.field || e.Settlement != contract.NotStarted {
				t.Fatalf("got %+v (details %+v), want %s on %s, not_started", e, e.Details, c.code, c.field)
			}
			if w := writes(env); len(w) > 0 {
				t.Fatalf("a refusal wrote %q", w)
			}
			if e.Repair == nil || e.Repair.Tool != c.repairTool {
				t.Fatalf("repair %+v, want a call to %s", e.Repair, c.repairTool)
			}
		})
	}
	for _, n := range ns {
		if hasLabel(env, n, "documentation") {
			t.Errorf("#%d was labelled by a refused run", n)
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
			t.Errorf("#%d not closed by the repair: %+v", n, out)
		}
	}
	// A number given twice: the repair names each once.
	in = addLabel([]int{ns[0], ns[1], ns[0]}, "bug", true)
	e = wireEnvelope(t, env.Call(t, toolkit.NameBulkUpdateIssues, in), true)
	if out := bulkOK(t, env, e.Repair.Arguments); len(out.Items) != 2 {
		t.Errorf("deduplicated repair: %+v", out)
	}
	// A stray nested field: the repair drops it.
	res := env.Call(t, toolkit.NameBulkUpdateIssues, map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": ns,
		"changes": map[string]any{"body": "x", "labels": map[string]any{"add": []string{"question"}}}})
	e = wireEnvelope(t, res, true)
	if out := bulkOK(t, env, e.Repair.Arguments); len(out.Items) != 2 || !hasLabel(env, ns[0], "question") {
		t.Errorf("repair without the stray field: %+v", out)
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
	if st[pr] != issues.BulkFailed || st[missingIssue] != issues.BulkFailed || st[good[0]] != issues.BulkNotStarted || st[good[1]] != issues.BulkNotStarted {
		t.Fatalf("stopped run: %v", st)
	}
	if w := writes(env); len(w) > 0 || out.Stopped == "" {
		t.Fatalf("a stopped run wrote %q, stopped %q", w, out.Stopped)
	}
	pe, me := out.Items[1].Error, out.Items[2].Error
	if pe.Code != contract.CodeInvalidField || pe.Settlement != contract.NotStarted || pe.Repair == nil || pe.Repair.Tool != toolkit.NameUpdateIssue {
		t.Errorf("pull request item: %+v", pe)
	}
	if me.Code != contract.CodeIssueNotFound || me.Settlement != contract.NotStarted {
		t.Errorf("missing issue item: %+v", me)
	}
	// The pull request's repair edits it on its own.
	res := env.Call(t, pe.Repair.Tool, pe.Repair.Arguments)
	if res.IsError || !hasLabel(env, pr, "question") {
		t.Errorf("the pull request's repair: %s", res.JSON)
	}
	// The retry leaves out what would fail again, and finishes the job.
	if out.Retry == nil || !strings.Contains(out.Retry.NextStep, fmt.Sprintf("#%d", missingIssue)) {
		t.Fatalf("retry %+v", out.Retry)
	}
	again := retry(t, env, out)
	if st := settlements(t, again, good); st[good[0]] != issues.BulkApplied || st[good[1]] != issues.BulkApplied {
		t.Fatalf("retry: %v", st)
	}

	// With continue_on_error the good items are written at once.
	more := bulkTargets(t, env, 2, "question")
	ns = []int{more[0], pr, missingIssue, more[1]}
	out = bulkOK(t, env, addLabel(ns, "question", true))
	st = settlements(t, out, ns)
	if st[more[0]] != issues.BulkApplied || st[more[1]] != issues.BulkApplied || st[missingIssue] != issues.BulkFailed || out.Retry != nil {
		t.Fatalf("continue_on_error run: %v, retry %+v", st, out.Retry)
	}
}

// retry makes the retry call of out exactly as given: its arguments
// decoded from the wire, not rebuilt.
func retry(t *testing.T, env *servertest.Env, out issues.BulkUpdateIssuesOut) issues.BulkUpdateIssuesOut {
	t.Helper()
	if out.Retry == nil || out.Retry.Tool != toolkit.NameBulkUpdateIssues {
		t.Fatalf("no retry call: %+v", out)
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
		if s != issues.BulkApplied || !hasLabel(env, n, "bulk: new") {
			t.Errorf("#%d: %s", n, s)
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
		if it.Settlement != issues.BulkFailed || it.Error.Code != contract.CodeIssueCreatorNotAllowed || it.Error.Settlement != contract.NotStarted {
			t.Errorf("#%d: %s %+v", it.IssueNumber, it.Settlement, it.Error)
		}
	}
	if w := writes(env); len(w) > 0 || out.Retry != nil {
		t.Errorf("writes %q, retry %+v", w, out.Retry)
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
		t.Fatal("not in the default tools/list")
	}
	tool := res.Tools[i]
	if a := tool.Annotations; a == nil || a.ReadOnlyHint || !a.IdempotentHint || a.DestructiveHint == nil || !*a.DestructiveHint {
		t.Errorf("annotations %+v", a)
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
	if ch := listed.InputSchema.Properties["changes"]; ch["type"] != "object" || ch["properties"] != nil ||
		!strings.Contains(fmt.Sprint(ch["description"]), "github_update_issue") {
		t.Errorf("changes listed as %v", ch)
	}
	const maxBytes = 850
	if len(b) > maxBytes {
		t.Errorf("%d bytes in tools/list, budget %d", len(b), maxBytes)
	}
	t.Logf("%d bytes", len(b))
}
