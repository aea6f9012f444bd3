package issues_test

import (
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// triageFields is one issue object as sent: a key absent is not the same
// as a key present with [] or null.
type triageFields map[string]json.RawMessage

func (f triageFields) check(t *testing.T, where string) {
	t.Helper()
	for _, name := range []string{"labels", "assignees", "milestone"} {
		if _, ok := f[name]; !ok {
			t.Errorf("%s: #%s has no %s field, want it present ([] or null): absent reads as not included", where, f["number"], name)
		}
	}
}

// Summary rows and get_issue state an issue's labels, assignees and
// milestone even when it has none, and summary rows carry the issue type.
func TestTriageStateIsAlwaysPresent(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 100})
	if res.IsError {
		t.Fatalf("search: got an error, want a page: %s", res.JSON)
	}
	var page struct {
		Items []triageFields `json:"items"`
	}
	if err := json.Unmarshal(res.JSON, &page); err != nil {
		t.Fatalf("decode search page: %v: %s", err, res.JSON)
	}
	if len(page.Items) == 0 {
		t.Fatalf("search: 0 rows, want some: %s", res.JSON)
	}
	var empty, typed bool
	for _, row := range page.Items {
		row.check(t, "search row")
		if string(row["labels"]) == "[]" && string(row["milestone"]) == "null" && string(row["assignees"]) == "[]" {
			empty = true
		}
		typed = typed || len(row["type"]) > 2
	}
	if !empty {
		t.Errorf("no row is unlabelled, unassigned and without a milestone, want one")
	}
	if !typed {
		t.Errorf("no row carries an issue type, want one")
	}
	res = env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: emulator.DemoUntriagedFrom})
	var got struct {
		Issue triageFields `json:"issue"`
	}
	if res.IsError {
		t.Fatalf("get_issue: got an error, want the issue: %s", res.JSON)
	}
	if err := json.Unmarshal(res.JSON, &got); err != nil {
		t.Fatalf("decode get_issue: %v: %s", err, res.JSON)
	}
	got.Issue.check(t, "get_issue")
	if string(got.Issue["labels"]) != "[]" {
		t.Fatalf("#%d labels = %s, want []", emulator.DemoUntriagedFrom, got.Issue["labels"])
	}
}

// Summary rows stay within 230 bytes an issue on the demo seed, measured
// as the bench measures them: the whole response over the rows.
func TestSummaryRowsStayWithinBudget(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	res := env.Call(t, toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", State: "all", PageSize: 30})
	var out issues.SearchIssuesOut
	res.Decode(t, &out)
	if len(out.Items) != 30 {
		t.Fatalf("rows = %d, want 30", len(out.Items))
	}
	if per := len(res.JSON) / len(out.Items); per > 230 {
		t.Fatalf("summary rows = %d bytes an issue, want at most 230", per)
	}
}
