package issues_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/go-cmp/cmp"
)

// labelColor reads a repository label back through GitHub's labels API
// ("" when there is none).
func labelColor(t *testing.T, env *servertest.Env, name string) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, env.Emu.URL+"/repos/acme/widgets/labels/"+url.PathEscape(name), nil)
	req.Header.Set("Authorization", "Bearer "+emulator.DemoTokenAlice)
	resp, err := env.Emu.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return ""
	}
	var l struct {
		Color string `json:"color"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&l); err != nil {
		t.Fatalf("label %q: %v", name, err)
	}
	return l.Color
}

// labelsArgs is github_update_issue's call on widgets issue n with a
// labels edit in raw JSON.
func labelsArgs(n int, labels string) json.RawMessage {
	return json.RawMessage(fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":%s}`, n, labels))
}

func wantLabelsDone(t *testing.T, why string, got *issues.LabelsDone, want issues.LabelsDone) {
	t.Helper()
	if got == nil {
		got = &issues.LabelsDone{}
	}
	if d := cmp.Diff(want, *got); d != "" {
		t.Errorf("%s: labels mismatch (-want +got):\n%s", why, d)
	}
}

// swap with several targets drops every label of the family the targets
// do not name and adds the targets, in one add request and one delete per
// label dropped. A target already on the issue stays (and is not dropped
// though it has the prefix), a target without the prefix is added all the
// same, and a target named twice is added once.
func TestUpdateIssueSwapToSeveralLabels(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Two states", Labels: []string{"bug", "status: triage", "status: in progress"}})
	out := ciUpdateRaw(t, env, labelsArgs(n,
		`{"swap":{"prefix":"Status: ","to":["status: blocked","STATUS: in progress","priority: high","Status: Blocked"]}}`))
	ciWantCalls(t, env, "swap to several",
		"POST /graphql",
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n),
		fmt.Sprintf("DELETE /repos/acme/widgets/issues/%d/labels/status: triage", n))
	labels, _ := ciIssue(env, n)
	if want := []string{"bug", "priority: high", "status: blocked", "status: in progress"}; !slices.Equal(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
	wantLabelsDone(t, "swap to several", out.Labels, issues.LabelsDone{Added: []string{"status: blocked", "priority: high"}, Removed: []string{"status: triage"}})
	if !slices.Equal(out.ChangedFields, []string{"labels"}) {
		t.Errorf("changed_fields = %q, want [labels]", out.ChangedFields)
	}
	if notes := strings.Join(out.Notes, "; "); !strings.Contains(notes, `"status: in progress" was already on the issue`) {
		t.Errorf("notes = %q, want the target already on the issue named", out.Notes)
	}
}

// A single string to keeps working, and the answer names what it did.
func TestUpdateIssueSwapToOneString(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "One state", Labels: []string{"bug", "status: triage"}})
	out := ciUpdateRaw(t, env, labelsArgs(n, `{"swap":{"prefix":"status: ","to":"status: blocked"}}`))
	ciWantCalls(t, env, "swap to one",
		"POST /graphql",
		fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n),
		fmt.Sprintf("DELETE /repos/acme/widgets/issues/%d/labels/status: triage", n))
	labels, _ := ciIssue(env, n)
	if want := []string{"bug", "status: blocked"}; !slices.Equal(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
	wantLabelsDone(t, "swap to one", out.Labels, issues.LabelsDone{Added: []string{"status: blocked"}, Removed: []string{"status: triage"}})

	// Asked again, nothing is left to do: no labels field, a no-op.
	out = ciUpdateRaw(t, env, labelsArgs(n, `{"swap":{"prefix":"status: ","to":"status: blocked"}}`))
	if !out.NoOp {
		t.Errorf("repeat: no_op = false, want true")
	}
	if out.Labels != nil {
		t.Errorf("repeat: labels = %+v, want nil: a no-op names no labels", *out.Labels)
	}
}

// Bad targets and colours are refused by name before any request.
func TestUpdateIssueRefusesBadSwapTargetsAndColours(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, tc := range []struct{ labels, field string }{
		{`{"swap":{"prefix":"status: ","to":[]}}`, "labels.swap.to"},
		{`{"swap":{"prefix":"status: ","to":["status: blocked"," "]}}`, "labels.swap"},
		{`{"swap":{"prefix":"status: ","to":""}}`, "labels.swap"},
		{`{"swap":{"prefix":"status: ","to":[1]}}`, "labels.swap.to"},
		{`{"swap":{"prefix":"status: ","to":["status: blocked"]},"remove":["Status: Blocked"]}`, "labels.remove"},
		{`{"add":["x"],"create_missing":"red"}`, "labels.create_missing"},
		{`{"add":["x"],"create_missing":"#12345g"}`, "labels.create_missing"},
		{`{"add":["x"],"create_missing":"d73a4a4"}`, "labels.create_missing"},
		{`{"add":["x"],"create_missing":""}`, "labels.create_missing"},
		{`{"add":["x"],"create_missing":1}`, "labels.create_missing"},
	} {
		e := env.Call(t, toolkit.NameUpdateIssue, labelsArgs(firstIssue, tc.labels)).Envelope(t)
		if e.Code != contract.CodeInvalidField {
			t.Errorf("%s: code = %q, want invalid_field", tc.labels, e.Code)
		}
		if e.Settlement != contract.NotStarted {
			t.Errorf("%s: settlement = %q, want not_started", tc.labels, e.Settlement)
		}
		if e.Details == nil {
			t.Errorf("%s: details = nil, want field %s", tc.labels, tc.field)
		} else if !strings.HasPrefix(e.Details.Field, tc.field) {
			t.Errorf("%s: details.field = %q, want %s...", tc.labels, e.Details.Field, tc.field)
		}
	}
	ciWantCalls(t, env, "refusals are made before any request")
}

// create_missing: a colour makes the label in that colour, true in
// GitHub's grey; the answer names the label created and added.
func TestUpdateIssueCreateMissingColour(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Colours", Labels: []string{"bug"}})
	for _, tc := range []struct{ label, createMissing, color string }{
		{"needs design", `"#d73a4a"`, "d73a4a"},
		{"needs copy", `"0E8A16"`, "0E8A16"},
		{"needs review", `true`, "ededed"},
	} {
		out := ciUpdateRaw(t, env, labelsArgs(n, fmt.Sprintf(`{"add":[%q],"create_missing":%s}`, tc.label, tc.createMissing)))
		ciWantCalls(t, env, tc.createMissing, "POST /graphql", "POST /repos/acme/widgets/labels",
			fmt.Sprintf("POST /repos/acme/widgets/issues/%d/labels", n))
		if got := labelColor(t, env, tc.label); got != tc.color {
			t.Errorf("create_missing %s: label %q color = %q, want %q", tc.createMissing, tc.label, got, tc.color)
		}
		wantLabelsDone(t, tc.createMissing, out.Labels, issues.LabelsDone{Added: []string{tc.label}, Created: []string{tc.label}})
	}
	labels, _ := ciIssue(env, n)
	if want := []string{"bug", "needs copy", "needs design", "needs review"}; !slices.Equal(labels, want) {
		t.Errorf("labels = %q, want %q", labels, want)
	}
}

// add, remove and set each say what they did.
func TestUpdateIssueNamesLabelsAddedAndRemoved(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Named", Labels: []string{"bug", "status: triage"}})
	out := ciUpdateRaw(t, env, labelsArgs(n, `{"add":["Enhancement","bug"],"remove":["STATUS: triage","wontfix"]}`))
	// The issue's spelling of what it removes, the repository's of what
	// it adds; what was already so is a note, not a change.
	wantLabelsDone(t, "add and remove", out.Labels, issues.LabelsDone{Added: []string{"enhancement"}, Removed: []string{"status: triage"}})
	out = ciUpdateRaw(t, env, labelsArgs(n, `{"set":["bug","priority: high"]}`))
	wantLabelsDone(t, "set", out.Labels, issues.LabelsDone{Added: []string{"priority: high"}, Removed: []string{"enhancement"}})
	if labels, _ := ciIssue(env, n); !slices.Equal(labels, []string{"bug", "priority: high"}) {
		t.Errorf("labels = %q, want [bug priority: high]", labels)
	}
}

// A dry run names the labels the call would add, remove and create, and
// creates none of them.
func TestUpdateIssueDryRunNamesLabels(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	n := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Forecast", Labels: []string{"bug", "status: triage"}})
	args := fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"dry_run":true,`+
		`"labels":{"swap":{"prefix":"status: ","to":["status: blocked","needs triage"]},"create_missing":"fbca04"}}`, n)
	r := env.Call(t, toolkit.NameUpdateIssue, json.RawMessage(args))
	if r.IsError {
		t.Fatalf("dry run: %s", r.JSON)
	}
	var a dryRunAnswer
	r.Decode(t, &a)
	if len(a.Preview.Items) != 1 {
		t.Fatalf("preview items = %d, want 1: %s", len(a.Preview.Items), r.JSON)
	}
	wantLabelsDone(t, "dry run", a.Preview.Items[0].Labels, issues.LabelsDone{
		Added: []string{"status: blocked", "needs triage"}, Removed: []string{"status: triage"}, Created: []string{"needs triage"}})
	if got := wireWrites(env.Upstream()); len(got) != 0 {
		t.Errorf("a dry run sent writes %q, want none", got)
	}
	if got := labelColor(t, env, "needs triage"); got != "" {
		t.Errorf("a dry run created the label (color %q), want it not created", got)
	}
}

// A bulk edit creates missing labels once, in the colour asked, and says
// so once; each item says what it added and removed, in the real call and
// in its dry run alike.
func TestBulkUpdateNamesLabelsPerItem(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	a := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Bulk a", Labels: []string{"bug", "status: triage"}})
	b := ciNewIssue(t, env, issues.CreateIssueIn{Title: "Bulk b", Labels: []string{"status: blocked"}})
	args := fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_numbers":[%d,%d],`+
		`"changes":{"labels":{"swap":{"prefix":"status: ","to":["status: blocked","bulk: seen"]},"create_missing":"#5319e7"}}}`, a, b)
	wantA := issues.LabelsDone{Added: []string{"status: blocked", "bulk: seen"}, Removed: []string{"status: triage"}}
	wantB := issues.LabelsDone{Added: []string{"bulk: seen"}}

	dry := env.Call(t, toolkit.NameBulkUpdateIssues, json.RawMessage(strings.Replace(args, "{", `{"dry_run":true,`, 1)))
	if dry.IsError {
		t.Fatalf("dry run: %s", dry.JSON)
	}
	var d dryRunAnswer
	dry.Decode(t, &d)
	wantLabelsDone(t, "dry run, created once", d.Preview.Labels, issues.LabelsDone{Created: []string{"bulk: seen"}})
	if len(d.Preview.Items) != 2 {
		t.Fatalf("dry run items = %d, want 2: %s", len(d.Preview.Items), dry.JSON)
	}
	wantLabelsDone(t, "dry run, first item", d.Preview.Items[0].Labels, wantA)
	wantLabelsDone(t, "dry run, second item", d.Preview.Items[1].Labels, wantB)
	if got := wireWrites(env.Upstream()); len(got) != 0 {
		t.Errorf("a dry run sent writes %q, want none", got)
	}

	out := servertest.CallOK[issues.BulkUpdateIssuesOut](t, env, toolkit.NameBulkUpdateIssues, json.RawMessage(args))
	wantLabelsDone(t, "created once", out.Labels, issues.LabelsDone{Created: []string{"bulk: seen"}})
	if len(out.Items) != 2 {
		t.Fatalf("items = %d, want 2", len(out.Items))
	}
	wantLabelsDone(t, "first item", out.Items[0].Labels, wantA)
	wantLabelsDone(t, "second item", out.Items[1].Labels, wantB)
	if got := labelColor(t, env, "bulk: seen"); got != "5319e7" {
		t.Errorf("created label color = %q, want 5319e7", got)
	}
	la, _ := ciIssue(env, a)
	lb, _ := ciIssue(env, b)
	if want := []string{"bug", "bulk: seen", "status: blocked"}; !slices.Equal(la, want) {
		t.Errorf("#%d labels = %q, want %q", a, la, want)
	}
	if want := []string{"bulk: seen", "status: blocked"}; !slices.Equal(lb, want) {
		t.Errorf("#%d labels = %q, want %q", b, lb, want)
	}
}

// The operator's label rules see every swap target and every label
// create_missing would make, whatever its colour.
func TestLabelRulesCoverSwapTargetsAndColouredCreates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		rules  policy.Rules
		labels string
		rule   string
	}{
		{policy.Rules{AllowedLabels: []string{"status: *"}}, `{"swap":{"prefix":"status: ","to":["status: blocked","priority: high"]}}`, "allowed_labels"},
		{policy.Rules{Deny: []policy.Kind{policy.KindLabelAdmin}}, `{"add":["brand new"],"create_missing":"d73a4a"}`, "deny"},
	} {
		env := servertest.Start(t, servertest.Options{Policy: tc.rules})
		e := env.Call(t, toolkit.NameUpdateIssue, labelsArgs(firstIssue, tc.labels)).Envelope(t)
		if e.Code != contract.CodePolicyRefused {
			t.Errorf("%s: code = %q, want policy_refused", tc.labels, e.Code)
		}
		if e.Details == nil {
			t.Errorf("%s: details = nil, want rule %s", tc.labels, tc.rule)
		} else if e.Details.Rule != tc.rule {
			t.Errorf("%s: details.rule = %q, want %q", tc.labels, e.Details.Rule, tc.rule)
		}
		if got := wireWrites(env.Upstream()); len(got) != 0 {
			t.Errorf("%s: refused call sent writes %q, want none", tc.labels, got)
		}
	}
}
