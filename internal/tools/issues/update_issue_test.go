package issues_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ciNewIssue creates an acme/widgets issue for a test to change.
func ciNewIssue(t *testing.T, env *servertest.Env, in issues.CreateIssueIn) int {
	t.Helper()
	in.Owner, in.Repo = "acme", "widgets"
	n := ciCreate(t, env, in).Issue.Number
	env.Upstream()
	return n
}

// ciIssue returns a copy of what the emulator holds for widgets issue n.
func ciIssue(env *servertest.Env, n int) (labels []string, is emulator.Issue) {
	st := env.Emu.Emu.State()
	st.Lock()
	defer st.Unlock()
	live := st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issue(n)
	for _, l := range live.Labels {
		labels = append(labels, l.Name)
	}
	slices.Sort(labels)
	return labels, *live
}

func ciUpdate(t *testing.T, env *servertest.Env, in issues.UpdateIssueIn) issues.UpdateIssueOut {
	t.Helper()
	return servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, in)
}

func ciVersion(t *testing.T, env *servertest.Env, n int) string {
	t.Helper()
	var got issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n)}).Decode(t, &got)
	return got.Issue.Version
}

func ptrTo[T any](v T) *T { return &v }

func TestUpdateIssueSwapStatusLabelAtMinimum(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Swap me", Labels: []string{"bug", "status: triage", "priority: high"}})
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Swap: &issues.LabelSwap{Prefix: "Status: ", To: issues.LabelNames{"STATUS: in progress"}}}}})
	// The REST minimum: read the issue (here one GraphQL request that also
	// checks the new label exists), add, remove. No PUT of the whole set.
	ciWantCalls(t, env, "swap a status label",
		"POST /graphql",
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n),
		fmt.Sprintf("DELETE /repos/acme/widgets/issues/%d/labels/status: triage", n))
	labels, _ := ciIssue(env, n)
	if !slices.Equal(labels, []string{"bug", "priority: high", "status: in progress"}) {
		t.Fatalf("labels after swap: %v", labels)
	}
	if !slices.Equal(out.ChangedFields, []string{"labels"}) || out.NoOp || out.Version != ciVersion(t, env, n) {
		t.Fatalf("output: %+v", out)
	}
	// Only the named labels were touched: the timeline shows one labeled and
	// one unlabeled event since the create, for those two names.
	_, is := ciIssue(env, n)
	var touched []string
	for _, ev := range is.Events {
		if (ev.Event == "labeled" || ev.Event == "unlabeled") && ev.Label != nil {
			touched = append(touched, ev.Event+" "+ev.Label.Name)
		}
	}
	want := []string{"labeled bug", "labeled status: triage", "labeled priority: high", "labeled status: in progress", "unlabeled status: triage"}
	if !slices.Equal(touched, want) {
		t.Fatalf("label events: %q", touched)
	}
}

func TestUpdateIssueAddRemoveTouchOnlyNamedLabels(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Labels", Labels: []string{"bug", "area: api"}})

	// Another writer adds a label the agent never saw; add and remove keep it.
	if res := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"help wanted"}}}}); res.IsError {
		t.Fatal(string(res.JSON))
	}
	env.Upstream()
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"Documentation", "BUG"}, Remove: []string{"area: API", "wontfix"}}}})
	labels, _ := ciIssue(env, n)
	if !slices.Equal(labels, []string{"bug", "documentation", "help wanted"}) {
		t.Fatalf("labels: %v", labels)
	}
	notes := strings.Join(out.Notes, "; ")
	if !strings.Contains(notes, `"bug" was already on the issue`) || !strings.Contains(notes, `"wontfix" was not on the issue`) {
		t.Fatalf("no-op parts not reported: %q", out.Notes)
	}
	calls := ciCalls(env)
	if len(calls) != 3 || slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, "PUT ") || strings.HasPrefix(c, "PATCH ") }) {
		t.Fatalf("calls: %q", calls)
	}

	// Asking for what is already so is a successful no-op that writes nothing.
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"bug"}, Remove: []string{"area: api"}}}})
	if !out.NoOp || len(out.ChangedFields) != 0 || len(out.Notes) != 2 {
		t.Fatalf("no-op: %+v", out)
	}
	ciWantCalls(t, env, "no-op", "POST /graphql")

	// set replaces the whole set, in one PATCH after the read.
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Set: []string{"Enhancement", "bug"}}}})
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "enhancement"}) {
		t.Fatalf("set: %v", labels)
	}
	ciWantCalls(t, env, "set", "POST /graphql", fmt.Sprintf("PATCH /repos/acme/widgets/issues/%d", n))
}

func TestUpdateIssueUnknownLabelRepairFlow(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Typo", Labels: []string{"bug"}})
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Typo fixed"), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"priorty: high"}}}}).Envelope(t)
	if e.Code != contract.CodeLabelNotFound || e.Settlement != contract.NotStarted || e.Repair == nil ||
		!strings.Contains(fmt.Sprint(e.Details.Value), "priority: high") {
		t.Fatalf("unknown label: %+v", e)
	}
	for _, c := range ciCalls(env) {
		if !strings.HasPrefix(c, "POST /graphql") && !strings.HasPrefix(c, "GET ") {
			t.Fatalf("a write was sent before the refusal: %s", c)
		}
	}
	// First repair: the call as given succeeds and lists the labels.
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if res.IsError || !strings.Contains(string(res.JSON), `"priority: high"`) {
		t.Fatalf("repair: %s", res.JSON)
	}
	// The corrected update succeeds.
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Typo fixed"), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"priority: high"}}}})
	if !slices.Equal(out.ChangedFields, []string{"title", "labels"}) {
		t.Fatalf("corrected: %+v", out)
	}

	// create_missing creates the label first, then adds it.
	env.Upstream()
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"needs design"}, CreateMissing: issues.CreateMissing{On: true}}}})
	ciWantCalls(t, env, "create_missing", "POST /graphql", "POST /repos/acme/widgets/labels",
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n))
	if labels, _ := ciIssue(env, n); !slices.Contains(labels, "needs design") {
		t.Fatalf("labels: %v", labels)
	}
}

func TestUpdateIssueConflictFlow(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Versioned"})
	v1 := ciVersion(t, env, n)
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Body: ptrTo("someone else's edit")})
	env.Upstream()

	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Mine"), ExpectedVersion: v1}).Envelope(t)
	if e.Code != contract.CodeConflict || e.Settlement != contract.NotStarted || e.Repair == nil || e.Repair.Tool != toolkit.NameGetIssue {
		t.Fatalf("conflict: %+v", e)
	}
	ciWantCalls(t, env, "conflict is found before any write", "POST /graphql")
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	var fresh issues.GetIssueOut
	res.Decode(t, &fresh)
	if res.IsError || fresh.Issue.Version == v1 || fresh.Issue.Body != "someone else's edit" {
		t.Fatalf("re-read: %s", res.JSON)
	}
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Mine"), ExpectedVersion: fresh.Issue.Version})
	if out.Version == fresh.Issue.Version || out.Version != ciVersion(t, env, n) || !slices.Equal(out.ChangedFields, []string{"title"}) {
		t.Fatalf("update after re-read: %+v", out)
	}
}

func TestUpdateIssueVersionMatchesGetIssue(t *testing.T) {
	t.Parallel()
	// The update reads through GraphQL, get_issue through REST; the same
	// state must give the same version, or expected_version would always
	// conflict. A no-op update reports the version it read.
	env := servertest.Start(t, servertest.Options{})
	var labels issues.ListRepoMetadataOut
	env.Call(t, toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "widgets", Kind: "labels"}).Decode(t, &labels)
	for _, n := range []int{emulator.DemoLockedIssue, emulator.DemoNotPlannedIssue, emulator.DemoDuplicateIssue,
		emulator.DemoParentIssue, emulator.DemoHostileIssue, emulator.DemoManyCommentsIssue, 100} {
		want := ciVersion(t, env, n)
		// Removing a repository label the issue does not carry changes nothing.
		_, is := ciIssue(env, n)
		absent := ""
		for _, l := range labels.Items {
			if !slices.ContainsFunc(is.Labels, func(x *emulator.Label) bool { return strings.EqualFold(x.Name, l.Name) }) {
				absent = l.Name
				break
			}
		}
		out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
			IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Remove: []string{absent}}}, ExpectedVersion: want})
		if !out.NoOp || out.Version != want {
			t.Errorf("#%d: update saw %s, get_issue %s", n, out.Version, want)
		}
	}
}

func TestUpdateIssueMilestoneNullClearsAbsentLeaves(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	v150 := ciMilestone(t, env, "v1.5.0")
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Milestoned", Milestone: toolkit.MilestoneNumber(v150)})
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Title: ptrTo("Still milestoned")})
	if _, is := ciIssue(env, n); is.Milestone == nil || is.Milestone.Number != v150 {
		t.Fatal("an absent milestone changed the milestone")
	}
	out := ciUpdateRaw(t, env, json.RawMessage(fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"milestone":null}`, n)))
	if _, is := ciIssue(env, n); is.Milestone != nil || !slices.Equal(out.ChangedFields, []string{"milestone"}) {
		t.Fatalf("null did not clear the milestone: %+v", out)
	}
	// An unknown milestone on the unread path is GitHub's 422, mapped.
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Milestone: toolkit.Some(99)}}).Envelope(t)
	if e.Code != contract.CodeMilestoneNotFound || e.Settlement != contract.NoRemoteSuccessKnown || e.Repair == nil {
		t.Fatalf("unknown milestone: %+v", e)
	}
	// type: null clears too.
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Type: toolkit.Some("task")}})
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Type: toolkit.Null[string]()}})
	if _, is := ciIssue(env, n); is.Type != nil {
		t.Fatal("type: null did not clear the type")
	}

	// The schema says what null and absence mean.
	tl, err := env.Session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tl.Tools {
		if tool.Name != toolkit.NameUpdateIssue {
			continue
		}
		b, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(b), `"milestone":{"description":"null clears","type":["integer","null"]}`) {
			t.Fatalf("milestone schema: %s", b)
		}
	}
}

func ciUpdateRaw(t *testing.T, env *servertest.Env, raw json.RawMessage) issues.UpdateIssueOut {
	t.Helper()
	return servertest.CallOK[issues.UpdateIssueOut](t, env, toolkit.NameUpdateIssue, raw)
}

func TestUpdateIssueRefusesBadLabelSets(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, tc := range []struct{ args, field, reason string }{
		{`{"set":[]}`, "labels.set", "cannot clear every label; use remove"},
		{`{"set":["bug"],"add":["x"]}`, "labels.set", ""},
		{`{"add":["bug"],"remove":["BUG"]}`, "labels.remove", ""},
		{`{"swap":{"prefix":" ","to":"x"}}`, "labels.swap", ""},
		{`{}`, "labels.add", ""},
	} {
		t.Run(tc.args, func(t *testing.T) {
			raw := json.RawMessage(fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":`, firstIssue) + tc.args + `}`)
			e := env.Call(t, toolkit.NameUpdateIssue, raw).Envelope(t)
			if e.Code != contract.CodeInvalidField || e.Settlement != contract.NotStarted || e.Details.Field != tc.field ||
				!strings.Contains(e.Details.Reason, tc.reason) {
				t.Errorf("%s: %+v", tc.args, e)
			}
		})
	}
	ciWantCalls(t, env, "refusals are made before any request")
}

func TestUpdateIssuePartialSuccess(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Half done", Labels: []string{"bug", "status: triage"}})
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "DELETE",
		Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/labels/*", n), Times: 1})
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Swap: &issues.LabelSwap{Prefix: "status: ", To: issues.LabelNames{"status: in progress"}}}}}).Envelope(t)
	if e.Code != contract.CodePartialSuccess || e.Settlement != contract.RemoteSuccessKnown ||
		!slices.Equal(e.Details.Applied, []string{`added "status: in progress"`}) ||
		!slices.Equal(e.Details.NotApplied, []string{`remove "status: triage"`}) || e.FollowUp == nil {
		t.Fatalf("partial success: %+v", e)
	}
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "status: in progress", "status: triage"}) {
		t.Fatalf("labels after the half: %v", labels)
	}
	res := env.Call(t, e.FollowUp.Tool, e.FollowUp.Arguments)
	if res.IsError {
		t.Fatalf("follow-up as given: %s", res.JSON)
	}
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "status: in progress"}) {
		t.Fatalf("labels after the follow-up: %v", labels)
	}

	// The PATCH applied, the lock failed.
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "PUT",
		Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/lock", n), Times: 1})
	e = env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Locked soon"), Locked: ptrTo(true), LockReason: "resolved"}).Envelope(t)
	if e.Code != contract.CodePartialSuccess || !slices.Equal(e.Details.Applied, []string{"set title"}) || e.FollowUp == nil {
		t.Fatalf("lock failure: %+v", e)
	}
	var follow issues.UpdateIssueIn
	b, _ := json.Marshal(e.FollowUp.Arguments)
	_ = json.Unmarshal(b, &follow)
	if follow.Title != nil || follow.Locked == nil || !*follow.Locked || follow.LockReason != "resolved" {
		t.Fatalf("follow-up repeats applied work or misses the lock: %s", b)
	}
	ciUpdate(t, env, follow)
	if _, is := ciIssue(env, n); !is.Locked || is.Title != "Locked soon" {
		t.Fatalf("after follow-up: locked=%v title=%q", is.Locked, is.Title)
	}
}

func TestUpdateIssueSettlementUnderFaults(t *testing.T) {
	t.Parallel()
	cases := []struct {
		kind       emulator.FaultKind
		status     int
		settlement contract.Settlement
		applied    bool
	}{
		{emulator.FaultDropBefore, 0, contract.Indeterminate, false},
		{emulator.FaultDropAfter, 0, contract.Indeterminate, true},
		{emulator.FaultMalformedAfter, 0, contract.RemoteSuccessKnown, true},
		{emulator.FaultStatus, 500, contract.NoRemoteSuccessKnown, false},
	}
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Faulty"})
	for _, tc := range cases {
		t.Run(string(tc.kind), func(t *testing.T) {
			title := "Faulty " + string(tc.kind)
			ciFault(t, env, emulator.Fault{Kind: tc.kind, Status: tc.status, Method: "PATCH", Path: fmt.Sprintf("/repos/acme/widgets/issues/%d", n), Times: 1})
			e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Title: &title}).Envelope(t)
			if e.Settlement != tc.settlement {
				t.Fatalf("settlement %q, want %q: %+v", e.Settlement, tc.settlement, e)
			}
			if _, is := ciIssue(env, n); (is.Title == title) != tc.applied {
				t.Fatalf("applied=%v, want %v", is.Title == title, tc.applied)
			}
			if (tc.settlement == contract.Indeterminate || tc.settlement == contract.RemoteSuccessKnown) &&
				(e.Repair == nil || e.Repair.Tool != toolkit.NameGetIssue || e.Temporary) {
				t.Fatalf("an uncertain write must send the agent to re-read: %+v", e)
			}
		})
	}
	// A fault on the read: nothing was written.
	for _, path := range []string{"/graphql", "/api/graphql"} {
		ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 500, Method: "POST", Path: path})
	}
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"bug"}}}}).Envelope(t)
	if e.Settlement != contract.NotStarted {
		t.Fatalf("read failure: %+v", e)
	}
}

func TestUpdateIssueCloseAsDuplicateAtMinimum(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Dup"})
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "duplicate"}})
	// A close with state_reason duplicate and no original named: one
	// PATCH (duplicate_of, which names it, goes through closeIssue; see
	// update_duplicate_test.go).
	ciWantCalls(t, env, "close as duplicate", fmt.Sprintf("PATCH /repos/acme/widgets/issues/%d", n))
	if _, is := ciIssue(env, n); is.State != "closed" || is.StateReason == nil || *is.StateReason != "duplicate" {
		t.Fatalf("state %s", is.State)
	}
	if !slices.Equal(out.ChangedFields, []string{"state", "state_reason"}) || out.Version != ciVersion(t, env, n) || out.Issue.StateReason != "duplicate" {
		t.Fatalf("output: %+v", out)
	}
	// With expected_version: one read, one PATCH.
	v := ciVersion(t, env, n)
	env.Upstream()
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "open"}, ExpectedVersion: v})
	ciWantCalls(t, env, "reopen with expected_version", "POST /graphql", fmt.Sprintf("PATCH /repos/acme/widgets/issues/%d", n))
}

// Closing a closed issue is a successful no-op that says so, also when the
// issue was not read first: GitHub's closed_at shows it closed before.
func TestUpdateIssueCloseClosedIsNoOp(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := emulator.DemoBlockerIssue
	if _, is := ciIssue(env, n); is.State != "closed" {
		t.Fatalf("seed: #%d is %s, want closed", n, is.State)
	}
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed"}})
	if !out.NoOp || len(out.ChangedFields) != 0 || !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "already closed") }) {
		t.Fatalf("closing a closed issue: %+v", out)
	}
	// GitHub applies a state_reason only with a change of state: a closed
	// issue keeps its reason, and the answer says so and how to change it.
	_, was := ciIssue(env, n)
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "not_planned"}})
	if !out.NoOp || len(out.ChangedFields) != 0 || !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "reopen") }) {
		t.Fatalf("re-closing as not planned: %+v", out)
	}
	if _, is := ciIssue(env, n); *is.StateReason != *was.StateReason {
		t.Fatalf("the close reason changed from %s to %s", *was.StateReason, *is.StateReason)
	}
	// The same when the issue is read first (expected_version): nothing is
	// written.
	env.Upstream()
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "duplicate"},
		ExpectedVersion: ciVersion(t, env, n)})
	if !out.NoOp || !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "reopen") }) {
		t.Fatalf("re-closing as duplicate after a read: %+v", out)
	}
	for _, c := range ciCalls(env) {
		if strings.HasPrefix(c, "PATCH") {
			t.Fatalf("a PATCH was sent: %v", ciCalls(env))
		}
	}
	// A not-planned issue closed again keeps its reason.
	np := emulator.DemoNotPlannedIssue
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(np), IssueChanges: issues.IssueChanges{State: "closed"}})
	if _, is := ciIssue(env, np); !out.NoOp || is.StateReason == nil || *is.StateReason != "not_planned" {
		t.Fatalf("closing not-planned #%d again: %+v, reason now %v", np, out, is.StateReason)
	}
	// A close that does close is reported as a change.
	open := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Open then closed"})
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(open), IssueChanges: issues.IssueChanges{State: "closed"}})
	if out.NoOp || !slices.Equal(out.ChangedFields, []string{"state"}) {
		t.Fatalf("closing an open issue: %+v", out)
	}
}

// A state_reason without the state it explains would be ignored by GitHub
// silently; it is refused with the call that does what was meant.
func TestUpdateIssueStateReasonNeedsState(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Reason alone"})
	env.Upstream()
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{StateReason: "not_planned"}}).Envelope(t)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "state_reason" || e.Repair == nil || e.Repair.Tool != toolkit.NameUpdateIssue {
		t.Fatalf("envelope: %+v", e)
	}
	if calls := env.Upstream(); len(calls) != 0 {
		t.Fatalf("calls before refusing: %v", calls)
	}
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if res.IsError {
		t.Fatalf("repair failed: %s", res.JSON)
	}
	if _, is := ciIssue(env, n); is.State != "closed" || is.StateReason == nil || *is.StateReason != "not_planned" {
		t.Fatalf("after the repair: %s %v", is.State, is.StateReason)
	}
}

func TestUpdateIssueAssigneesAndLock(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "People", Assignees: []string{"carol"}})
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Assignees: &issues.AssigneesEdit{Add: []string{"BOB"}, Remove: []string{"carol", "alice"}}}, Locked: ptrTo(true), LockReason: "too heated"})
	_, is := ciIssue(env, n)
	if len(is.Assignees) != 1 || is.Assignees[0].Login != "bob" || !is.Locked {
		t.Fatalf("state: %+v locked=%v", is.Assignees, is.Locked)
	}
	if !slices.Equal(out.ChangedFields, []string{"assignees", "locked", "lock_reason"}) || !strings.Contains(strings.Join(out.Notes, ";"), "alice was not assigned") {
		t.Fatalf("output: %+v", out)
	}
	if out.Version != ciVersion(t, env, n) {
		t.Fatal("version differs from get_issue's")
	}
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Assignees: &issues.AssigneesEdit{Add: []string{"dave"}}}}).Envelope(t)
	if e.Code != contract.CodeAssigneeNotFound || e.Settlement != contract.NotStarted {
		t.Fatalf("unassignable: %+v", e)
	}
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Locked: ptrTo(false)})
	if _, is := ciIssue(env, n); is.Locked || !slices.Equal(out.ChangedFields, []string{"locked", "lock_reason"}) {
		t.Fatalf("unlock: %+v", out)
	}
}

func TestUpdateIssueCreatorScope(t *testing.T) {
	t.Parallel()
	// alice opens the issue where no scope holds (the scope refuses her
	// create), then a deployment scoped to bob's issues is asked to close it.
	open := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, open, issues.CreateIssueIn{Title: "Alice's"})
	env := servertest.Start(t, servertest.Options{AllowedIssueCreator: "bob", Emu: open.Emu})
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed"}}).Envelope(t)
	if e.Code != contract.CodeIssueCreatorNotAllowed || e.Settlement != contract.NotStarted {
		t.Fatalf("creator scope: %+v", e)
	}
	ciWantCalls(t, env, "refused after the read, before any write", "POST /graphql")
	if _, is := ciIssue(env, n); is.State != "open" {
		t.Fatal("the issue was changed")
	}
}

// Removing a label the repository does not have is a misspelling, not a
// no-op: it is refused before anything is written, with close matches.
// Removing a real label the issue lacks is a no-op that says so.
func TestUpdateIssueRemoveRefusesUnknownLabels(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Remove typo", Labels: []string{"bug", "status: in progress"}})
	env.Upstream()
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Remove: []string{"BUG", "status: in progres"}}}}).Envelope(t)
	if e.Code != contract.CodeLabelNotFound || e.Details == nil || e.Details.Field != "labels.remove" || e.Settlement != contract.NotStarted {
		t.Fatalf("envelope: %+v", e)
	}
	if !strings.Contains(fmt.Sprint(e.Details.Value), "status: in progress") {
		t.Fatalf("no close match offered: %v", e.Details.Value)
	}
	for _, call := range ciCalls(env) {
		if !strings.HasPrefix(call, "POST /graphql") && !strings.HasPrefix(call, "GET ") {
			t.Fatalf("a write was sent: %s", call)
		}
	}
	if _, is := ciIssue(env, n); len(is.Labels) != 2 {
		t.Fatalf("labels changed: %d left", len(is.Labels))
	}
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Remove: []string{"question"}}}})
	if !out.NoOp || !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "was not on the issue") }) {
		t.Fatalf("removing an absent repository label: %+v", out)
	}
}

// The issue a label edit returns is not older than the edit: it keeps the
// comment count, and leaves out an updated_at that the write changed.
func TestUpdateIssueOutputIsNotStale(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := emulator.DemoManyCommentsIssue
	var before issues.GetIssueOut
	env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n)}).Decode(t, &before)
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"question"}}}})
	if out.NoOp || out.Issue.Comments == 0 || out.Issue.Comments != before.Issue.Comments {
		t.Fatalf("comments: %d, get_issue said %d", out.Issue.Comments, before.Issue.Comments)
	}
	if out.Issue.UpdatedAt != "" && out.Issue.UpdatedAt <= before.Issue.UpdatedAt {
		t.Fatalf("updated_at %s is the one read before the write", out.Issue.UpdatedAt)
	}
}

// An update that does not read first still reports a request that changed
// nothing as a no-op: GitHub's updated_at did not move, by its own clock
// (the Date of its answer).
func TestUnreadUpdateThatChangesNothingIsNoOp(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	clock := time.Now().UTC().Truncate(time.Second)
	env := servertest.Start(t, servertest.Options{Emulator: emulator.Options{Now: func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		return clock
	}}})
	later := func() {
		mu.Lock()
		clock = clock.Add(10 * time.Second)
		mu.Unlock()
	}
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Already so", Milestone: 1})
	for _, tc := range []struct {
		name string
		in   issues.UpdateIssueIn
		want []string
	}{
		{"milestone cleared", issues.UpdateIssueIn{IssueChanges: issues.IssueChanges{Milestone: toolkit.Null[int]()}}, []string{"milestone"}},
		{"milestone cleared again", issues.UpdateIssueIn{IssueChanges: issues.IssueChanges{Milestone: toolkit.Null[int]()}}, nil},
		{"same title", issues.UpdateIssueIn{Title: ptrTo("Already so")}, nil},
		{"closed as duplicate", issues.UpdateIssueIn{IssueChanges: issues.IssueChanges{State: "closed", StateReason: "duplicate"}}, []string{"state", "state_reason"}},
		{"closed as duplicate again", issues.UpdateIssueIn{IssueChanges: issues.IssueChanges{State: "closed", StateReason: "duplicate"}}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			later()
			tc.in.Owner, tc.in.Repo, tc.in.IssueNumber = "acme", "widgets", toolkit.IssueNumber(n)
			out := ciUpdate(t, env, tc.in)
			if !slices.Equal(out.ChangedFields, tc.want) || out.NoOp != (tc.want == nil) {
				t.Errorf("%s: changed %v, no_op %v, notes %v", tc.name, out.ChangedFields, out.NoOp, out.Notes)
			}
		})
	}
}
