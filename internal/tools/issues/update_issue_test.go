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
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	if want := []string{"bug", "priority: high", "status: in progress"}; !slices.Equal(labels, want) {
		t.Fatalf("labels after swap = %q, want %q", labels, want)
	}
	wantStrings(t, "ChangedFields", out.ChangedFields, []string{"labels"})
	if out.NoOp {
		t.Errorf("NoOp = true, want false for a swap that changed labels")
	}
	if got := ciVersion(t, env, n); out.Version != got {
		t.Errorf("Version = %q, want get_issue's %q", out.Version, got)
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
		t.Fatalf("label events = %q, want %q", touched, want)
	}
}

func TestUpdateIssueAddRemoveTouchOnlyNamedLabels(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Labels", Labels: []string{"bug", "area: api"}})

	// Another writer adds a label the agent never saw; add and remove keep it.
	if res := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"help wanted"}}}}); res.IsError {
		t.Fatalf("add help wanted: got an error, want success: %s", res.JSON)
	}
	env.Upstream()
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"Documentation", "BUG"}, Remove: []string{"area: API", "wontfix"}}}})
	labels, _ := ciIssue(env, n)
	if want := []string{"bug", "documentation", "help wanted"}; !slices.Equal(labels, want) {
		t.Fatalf("labels = %q, want %q", labels, want)
	}
	notes := strings.Join(out.Notes, "; ")
	for _, want := range []string{`"bug" was already on the issue`, `"wontfix" was not on the issue`} {
		if !strings.Contains(notes, want) {
			t.Fatalf("Notes = %q, want one saying %s", out.Notes, want)
		}
	}
	calls := ciCalls(env)
	if len(calls) != 3 {
		t.Fatalf("upstream calls = %q (%d), want 3", calls, len(calls))
	}
	if slices.ContainsFunc(calls, func(c string) bool { return strings.HasPrefix(c, "PUT ") || strings.HasPrefix(c, "PATCH ") }) {
		t.Fatalf("upstream calls = %q, want no PUT or PATCH", calls)
	}

	// Asking for what is already so is a successful no-op that writes nothing.
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"bug"}, Remove: []string{"area: api"}}}})
	if !out.NoOp {
		t.Errorf("no-op: NoOp = false, want true")
	}
	if len(out.ChangedFields) != 0 {
		t.Errorf("no-op: ChangedFields = %q, want none", out.ChangedFields)
	}
	if len(out.Notes) != 2 {
		t.Errorf("no-op: Notes = %q (%d), want 2", out.Notes, len(out.Notes))
	}
	ciWantCalls(t, env, "no-op", "POST /graphql")

	// set replaces the whole set, in one PATCH after the read.
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Set: []string{"Enhancement", "bug"}}}})
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "enhancement"}) {
		t.Fatalf("labels after set = %q, want %q", labels, []string{"bug", "enhancement"})
	}
	ciWantCalls(t, env, "set", "POST /graphql", fmt.Sprintf("PATCH /repos/acme/widgets/issues/%d", n))
}

func TestUpdateIssueUnknownLabelRepairFlow(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Typo", Labels: []string{"bug"}})
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Typo fixed"), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"priorty: high"}}}}).Envelope(t)
	contracttest.Envelope(t, "", e, contract.CodeLabelNotFound, contract.NotStarted)
	if e.Repair == nil {
		t.Fatalf("unknown label: repair = nil, want one: %+v", e)
	}
	if e.Details == nil {
		t.Fatalf("unknown label: details = nil, want the closest names: %+v", e)
	}
	if got := fmt.Sprint(e.Details.Value); !strings.Contains(got, "priority: high") {
		t.Fatalf("unknown label: details.value = %s, want one naming %q", got, "priority: high")
	}
	for _, c := range ciCalls(env) {
		if !strings.HasPrefix(c, "POST /graphql") && !strings.HasPrefix(c, "GET ") {
			t.Fatalf("upstream call %s before the refusal, want only reads", c)
		}
	}
	// First repair: the call as given succeeds and lists the labels.
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if res.IsError {
		t.Fatalf("repair %s: got an error, want success: %s", e.Repair.Tool, res.JSON)
	}
	if !strings.Contains(string(res.JSON), `"priority: high"`) {
		t.Fatalf("repair %s = %s, want it to list \"priority: high\"", e.Repair.Tool, res.JSON)
	}
	// The corrected update succeeds.
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Typo fixed"), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"priority: high"}}}})
	if want := []string{"title", "labels"}; !slices.Equal(out.ChangedFields, want) {
		t.Fatalf("corrected: ChangedFields = %q, want %q", out.ChangedFields, want)
	}

	// create_missing creates the label first, then adds it.
	env.Upstream()
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"needs design"}, CreateMissing: issues.CreateMissing{On: true}}}})
	ciWantCalls(t, env, "create_missing", "POST /graphql", "POST /repos/acme/widgets/labels",
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n))
	if labels, _ := ciIssue(env, n); !slices.Contains(labels, "needs design") {
		t.Fatalf("labels = %q, want them to include %q", labels, "needs design")
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
	contracttest.Envelope(t, "", e, contract.CodeConflict, contract.NotStarted)
	if e.Repair == nil {
		t.Fatalf("conflict: repair = nil, want %s: %+v", toolkit.NameGetIssue, e)
	}
	if e.Repair.Tool != toolkit.NameGetIssue {
		t.Fatalf("conflict: repair.tool = %q, want %q", e.Repair.Tool, toolkit.NameGetIssue)
	}
	ciWantCalls(t, env, "conflict is found before any write", "POST /graphql")
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	var fresh issues.GetIssueOut
	res.Decode(t, &fresh)
	if res.IsError {
		t.Fatalf("re-read: got an error, want the issue: %s", res.JSON)
	}
	if fresh.Issue.Version == v1 {
		t.Fatalf("re-read: version = %q, want a new one after the other edit", fresh.Issue.Version)
	}
	if fresh.Issue.Body != "someone else's edit" {
		t.Fatalf("re-read: body = %q, want %q", fresh.Issue.Body, "someone else's edit")
	}
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Mine"), ExpectedVersion: fresh.Issue.Version})
	if out.Version == fresh.Issue.Version {
		t.Errorf("update after re-read: Version = %q, want it changed from the one read", out.Version)
	}
	if got := ciVersion(t, env, n); out.Version != got {
		t.Errorf("update after re-read: Version = %q, want get_issue's %q", out.Version, got)
	}
	wantStrings(t, "update after re-read: ChangedFields", out.ChangedFields, []string{"title"})
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
		if !out.NoOp {
			t.Errorf("#%d: NoOp = false, want true for removing an absent label", n)
		}
		if out.Version != want {
			t.Errorf("#%d: update's Version = %q, want get_issue's %q", n, out.Version, want)
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
		t.Fatalf("milestone = %v, want #%d kept when the milestone is absent", is.Milestone, v150)
	}
	out := ciUpdateRaw(t, env, json.RawMessage(fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"milestone":null}`, n)))
	if _, is := ciIssue(env, n); is.Milestone != nil {
		t.Fatalf("milestone after null = %+v, want nil", is.Milestone)
	}
	if want := []string{"milestone"}; !slices.Equal(out.ChangedFields, want) {
		t.Fatalf("milestone null: ChangedFields = %q, want %q", out.ChangedFields, want)
	}
	// An unknown milestone on the unread path is GitHub's 422, mapped.
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Milestone: toolkit.Some(99)}}).Envelope(t)
	contracttest.Envelope(t, "", e, contract.CodeMilestoneNotFound, contract.NoRemoteSuccessKnown)
	if e.Repair == nil {
		t.Fatalf("unknown milestone: repair = nil, want one: %+v", e)
	}
	// type: null clears too.
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Type: toolkit.Some("task")}})
	ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Type: toolkit.Null[string]()}})
	if _, is := ciIssue(env, n); is.Type != nil {
		t.Fatalf("type after null = %+v, want nil", is.Type)
	}

	// The schema says what null and absence mean.
	tl, err := env.Session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	for _, tool := range tl.Tools {
		if tool.Name != toolkit.NameUpdateIssue {
			continue
		}
		b, _ := json.Marshal(tool.InputSchema)
		if want := `"milestone":{"description":"null clears","type":["integer","null"]}`; !strings.Contains(string(b), want) {
			t.Fatalf("input schema = %s, want it to hold %s", b, want)
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
			contracttest.Envelope(t, "", e, contract.CodeInvalidField, contract.NotStarted)
			if e.Details == nil {
				t.Fatalf("%s: details = nil, want field %q: %+v", tc.args, tc.field, e)
			}
			if e.Details.Field != tc.field {
				t.Errorf("%s: details.field = %q, want %q", tc.args, e.Details.Field, tc.field)
			}
			if !strings.Contains(e.Details.Reason, tc.reason) {
				t.Errorf("%s: details.reason = %q, want one saying %q", tc.args, e.Details.Reason, tc.reason)
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
	contracttest.Envelope(t, "", e, contract.CodePartialSuccess, contract.RemoteSuccessKnown)
	if e.Details == nil {
		t.Fatalf("partial success: details = nil, want applied and not_applied: %+v", e)
	}
	wantStrings(t, "partial success: details.applied", e.Details.Applied, []string{`added "status: in progress"`})
	wantStrings(t, "partial success: details.not_applied", e.Details.NotApplied, []string{`remove "status: triage"`})
	if e.FollowUp == nil {
		t.Fatalf("partial success: follow_up = nil, want one: %+v", e)
	}
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "status: in progress", "status: triage"}) {
		t.Fatalf("labels after the half = %q, want %q", labels, []string{"bug", "status: in progress", "status: triage"})
	}
	res := env.Call(t, e.FollowUp.Tool, e.FollowUp.Arguments)
	if res.IsError {
		t.Fatalf("follow-up as given: got an error, want success: %s", res.JSON)
	}
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "status: in progress"}) {
		t.Fatalf("labels after the follow-up = %q, want %q", labels, []string{"bug", "status: in progress"})
	}

	// The PATCH applied, the lock failed.
	ciFault(t, env, emulator.Fault{Kind: emulator.FaultStatus, Status: 502, Method: "PUT",
		Path: fmt.Sprintf("/repos/acme/widgets/issues/%d/lock", n), Times: 1})
	e = env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		Title: ptrTo("Locked soon"), Locked: ptrTo(true), LockReason: "resolved"}).Envelope(t)
	if e.Code != contract.CodePartialSuccess {
		t.Errorf("lock failure: code = %q, want %q", e.Code, contract.CodePartialSuccess)
	}
	if e.Details == nil {
		t.Fatalf("lock failure: details = nil, want applied: %+v", e)
	}
	wantStrings(t, "lock failure: details.applied", e.Details.Applied, []string{"set title"})
	if e.FollowUp == nil {
		t.Fatalf("lock failure: follow_up = nil, want one: %+v", e)
	}
	var follow issues.UpdateIssueIn
	b, _ := json.Marshal(e.FollowUp.Arguments)
	_ = json.Unmarshal(b, &follow)
	if follow.Title != nil {
		t.Errorf("follow-up title = %q, want none (the title was applied): %s", *follow.Title, b)
	}
	if follow.Locked == nil {
		t.Errorf("follow-up locked = nil, want true: %s", b)
	} else if !*follow.Locked {
		t.Errorf("follow-up locked = false, want true: %s", b)
	}
	if follow.LockReason != "resolved" {
		t.Errorf("follow-up lock_reason = %q, want %q: %s", follow.LockReason, "resolved", b)
	}
	ciUpdate(t, env, follow)
	_, is := ciIssue(env, n)
	if !is.Locked {
		t.Errorf("after follow-up: locked = false, want true")
	}
	if is.Title != "Locked soon" {
		t.Errorf("after follow-up: title = %q, want %q", is.Title, "Locked soon")
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
				t.Fatalf("settlement = %q, want %q: %+v", e.Settlement, tc.settlement, e)
			}
			if _, is := ciIssue(env, n); (is.Title == title) != tc.applied {
				t.Fatalf("applied = %v (title %q), want %v", is.Title == title, is.Title, tc.applied)
			}
			if tc.settlement == contract.Indeterminate || tc.settlement == contract.RemoteSuccessKnown {
				// An uncertain write must send the agent to re-read.
				if e.Repair == nil {
					t.Fatalf("repair = nil, want %s: %+v", toolkit.NameGetIssue, e)
				}
				if e.Repair.Tool != toolkit.NameGetIssue {
					t.Fatalf("repair.tool = %q, want %q", e.Repair.Tool, toolkit.NameGetIssue)
				}
				if e.Temporary {
					t.Fatalf("temporary = true, want false: re-read rather than retry")
				}
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
		t.Fatalf("read failure: settlement = %q, want %q: %+v", e.Settlement, contract.NotStarted, e)
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
	_, is := ciIssue(env, n)
	wantClosedAs(t, is, "duplicate")
	wantStrings(t, "ChangedFields", out.ChangedFields, []string{"state", "state_reason"})
	if got := ciVersion(t, env, n); out.Version != got {
		t.Errorf("Version = %q, want get_issue's %q", out.Version, got)
	}
	if out.Issue.StateReason != "duplicate" {
		t.Errorf("Issue.StateReason = %q, want %q", out.Issue.StateReason, "duplicate")
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
	wantNoOpNote(t, "closing a closed issue", out, "already closed")
	// GitHub applies a state_reason only with a change of state: a closed
	// issue keeps its reason, and the answer says so and how to change it.
	_, was := ciIssue(env, n)
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "not_planned"}})
	wantNoOpNote(t, "re-closing as not planned", out, "reopen")
	if _, is := ciIssue(env, n); *is.StateReason != *was.StateReason {
		t.Fatalf("state_reason = %s, want %s unchanged", *is.StateReason, *was.StateReason)
	}
	// The same when the issue is read first (expected_version): nothing is
	// written.
	env.Upstream()
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed", StateReason: "duplicate"},
		ExpectedVersion: ciVersion(t, env, n)})
	if !out.NoOp {
		t.Errorf("re-closing as duplicate after a read: NoOp = false, want true")
	}
	if !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "reopen") }) {
		t.Errorf("re-closing as duplicate after a read: Notes = %q, want one saying %q", out.Notes, "reopen")
	}
	for _, c := range ciCalls(env) {
		if strings.HasPrefix(c, "PATCH") {
			t.Fatalf("upstream call %s, want no PATCH (later calls: %v)", c, ciCalls(env))
		}
	}
	// A not-planned issue closed again keeps its reason.
	np := emulator.DemoNotPlannedIssue
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(np), IssueChanges: issues.IssueChanges{State: "closed"}})
	if !out.NoOp {
		t.Errorf("closing not-planned #%d again: NoOp = false, want true", np)
	}
	if _, is := ciIssue(env, np); is.StateReason == nil || *is.StateReason != "not_planned" {
		t.Errorf("closing not-planned #%d again: state_reason = %s, want not_planned", np, strPtr(is.StateReason))
	}
	// A close that does close is reported as a change.
	open := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Open then closed"})
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(open), IssueChanges: issues.IssueChanges{State: "closed"}})
	if out.NoOp {
		t.Errorf("closing an open issue: NoOp = true, want false")
	}
	wantStrings(t, "closing an open issue: ChangedFields", out.ChangedFields, []string{"state"})
}

// A state_reason without the state it explains would be ignored by GitHub
// silently; it is refused with the call that does what was meant.
func TestUpdateIssueStateReasonNeedsState(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Reason alone"})
	env.Upstream()
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{StateReason: "not_planned"}}).Envelope(t)
	if e.Code != contract.CodeInvalidField {
		t.Fatalf("code = %q, want %q: %+v", e.Code, contract.CodeInvalidField, e)
	}
	if e.Details == nil || e.Details.Field != "state_reason" {
		t.Fatalf("details = %+v, want field %q", e.Details, "state_reason")
	}
	if e.Repair == nil || e.Repair.Tool != toolkit.NameUpdateIssue {
		t.Fatalf("repair = %+v, want a call to %s", e.Repair, toolkit.NameUpdateIssue)
	}
	if calls := env.Upstream(); len(calls) != 0 {
		t.Fatalf("upstream calls before refusing = %v, want none", calls)
	}
	res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
	if res.IsError {
		t.Fatalf("repair: got an error, want success: %s", res.JSON)
	}
	_, is := ciIssue(env, n)
	wantClosedAs(t, is, "not_planned")
}

func TestUpdateIssueAssigneesAndLock(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "People", Assignees: []string{"carol"}})
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Assignees: &issues.AssigneesEdit{Add: []string{"BOB"}, Remove: []string{"carol", "alice"}}}, Locked: ptrTo(true), LockReason: "too heated"})
	_, is := ciIssue(env, n)
	if len(is.Assignees) != 1 || is.Assignees[0].Login != "bob" {
		t.Errorf("assignees = %+v, want only bob", is.Assignees)
	}
	if !is.Locked {
		t.Errorf("locked = false, want true")
	}
	wantStrings(t, "ChangedFields", out.ChangedFields, []string{"assignees", "locked", "lock_reason"})
	if !strings.Contains(strings.Join(out.Notes, ";"), "alice was not assigned") {
		t.Errorf("Notes = %q, want one saying %q", out.Notes, "alice was not assigned")
	}
	if got := ciVersion(t, env, n); out.Version != got {
		t.Fatalf("Version = %q, want get_issue's %q", out.Version, got)
	}
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n),
		IssueChanges: issues.IssueChanges{Assignees: &issues.AssigneesEdit{Add: []string{"dave"}}}}).Envelope(t)
	contracttest.Envelope(t, "", e, contract.CodeAssigneeNotFound, contract.NotStarted)
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), Locked: ptrTo(false)})
	if _, is := ciIssue(env, n); is.Locked {
		t.Errorf("unlock: locked = true, want false")
	}
	wantStrings(t, "unlock: ChangedFields", out.ChangedFields, []string{"locked", "lock_reason"})
}

func TestUpdateIssueCreatorScope(t *testing.T) {
	t.Parallel()
	// alice opens the issue where no scope holds (the scope refuses her
	// create), then a deployment scoped to bob's issues is asked to close it.
	open := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, open, issues.CreateIssueIn{Title: "Alice's"})
	env := servertest.Start(t, servertest.Options{AllowedIssueCreator: "bob", Emu: open.Emu})
	e := env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{State: "closed"}}).Envelope(t)
	contracttest.Envelope(t, "", e, contract.CodeIssueCreatorNotAllowed, contract.NotStarted)
	ciWantCalls(t, env, "refused after the read, before any write", "POST /graphql")
	if _, is := ciIssue(env, n); is.State != "open" {
		t.Fatalf("state = %q, want open (unchanged)", is.State)
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
	contracttest.Envelope(t, "", e, contract.CodeLabelNotFound, contract.NotStarted)
	if e.Details == nil || e.Details.Field != "labels.remove" {
		t.Fatalf("details = %+v, want field %q", e.Details, "labels.remove")
	}
	if !strings.Contains(fmt.Sprint(e.Details.Value), "status: in progress") {
		t.Fatalf("details.value = %v, want a close match %q", e.Details.Value, "status: in progress")
	}
	for _, call := range ciCalls(env) {
		if !strings.HasPrefix(call, "POST /graphql") && !strings.HasPrefix(call, "GET ") {
			t.Fatalf("upstream call %s, want only reads", call)
		}
	}
	if _, is := ciIssue(env, n); len(is.Labels) != 2 {
		t.Fatalf("labels = %d, want 2 (unchanged)", len(is.Labels))
	}
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(n), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Remove: []string{"question"}}}})
	if !out.NoOp {
		t.Errorf("removing an absent repository label: NoOp = false, want true")
	}
	if !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, "was not on the issue") }) {
		t.Errorf("removing an absent repository label: Notes = %q, want one saying %q", out.Notes, "was not on the issue")
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
	if out.NoOp {
		t.Fatalf("NoOp = true, want false for adding a label")
	}
	if out.Issue.Comments == 0 || out.Issue.Comments != before.Issue.Comments {
		t.Fatalf("Issue.Comments = %d, want get_issue's %d (not 0)", out.Issue.Comments, before.Issue.Comments)
	}
	if out.Issue.UpdatedAt != "" && out.Issue.UpdatedAt <= before.Issue.UpdatedAt {
		t.Fatalf("Issue.UpdatedAt = %s, want empty or later than the one read before the write (%s)", out.Issue.UpdatedAt, before.Issue.UpdatedAt)
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
			if !slices.Equal(out.ChangedFields, tc.want) {
				t.Errorf("%s: ChangedFields = %q, want %q (notes %q)", tc.name, out.ChangedFields, tc.want, out.Notes)
			}
			if want := tc.want == nil; out.NoOp != want {
				t.Errorf("%s: NoOp = %v, want %v (notes %q)", tc.name, out.NoOp, want, out.Notes)
			}
		})
	}
}

// wantNoOpNote checks an update that changed nothing: no_op, no changed
// fields, and a note saying note.
func wantNoOpNote(t *testing.T, what string, out issues.UpdateIssueOut, note string) {
	t.Helper()
	if !out.NoOp {
		t.Errorf("%s: NoOp = false, want true", what)
	}
	if len(out.ChangedFields) != 0 {
		t.Errorf("%s: ChangedFields = %q, want none", what, out.ChangedFields)
	}
	if !slices.ContainsFunc(out.Notes, func(s string) bool { return strings.Contains(s, note) }) {
		t.Errorf("%s: Notes = %q, want one saying %q", what, out.Notes, note)
	}
}

// wantClosedAs checks that the emulator holds is closed with reason.
func wantClosedAs(t *testing.T, is emulator.Issue, reason string) {
	t.Helper()
	if is.State != "closed" {
		t.Errorf("#%d: state = %q, want closed", is.Number, is.State)
	}
	if got := strPtr(is.StateReason); got != reason {
		t.Errorf("#%d: state_reason = %s, want %s", is.Number, got, reason)
	}
}
