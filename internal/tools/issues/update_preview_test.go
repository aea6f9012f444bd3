package issues_test

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract/contracttest"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
)

// dryRunAnswer is a dry run's answer as an agent reads it.
type dryRunAnswer struct {
	DryRun struct {
		Writes []struct {
			Kind string `json:"kind"`
		} `json:"writes"`
	} `json:"dry_run"`
	Preview issues.UpdatePreview `json:"preview"`
}

// wireWrites are the REST requests that change GitHub's state, as
// "METHOD /path" with the path unescaped (as the test's transport records
// it), relative to the API root as a forecast names them. GraphQL is
// left out: the preflight read is a GraphQL query.
func wireWrites(reqs []string) []string {
	var out []string
	for _, r := range reqs {
		if !strings.HasPrefix(r, "GET ") && !strings.HasPrefix(r, "HEAD ") && !strings.HasSuffix(r, "/graphql") {
			out = append(out, strings.Replace(r, " /api/v3/", " /", 1))
		}
	}
	slices.Sort(out)
	return out
}

// forecastWrites are a preview's requests in the same form: the method
// and path, without the note in parentheses.
func forecastWrites(t *testing.T, p issues.UpdatePreview) []string {
	t.Helper()
	all := append([]string(nil), p.Requests...)
	for _, it := range p.Items {
		all = append(all, it.Requests...)
	}
	var out []string
	for _, r := range all {
		r, _, _ = strings.Cut(r, " (")
		method, path, _ := strings.Cut(r, " ")
		unescaped, err := url.PathUnescape(path)
		if err != nil {
			t.Fatalf("forecast request %q: %v", r, err)
		}
		out = append(out, method+" "+unescaped)
	}
	slices.Sort(out)
	return out
}

// A bulk edit's dry run says, item by item, what the real call then does:
// the same settlements, and exactly the write requests it sends.
func TestBulkDryRunForecastsEachItemAndItsRequests(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	// #1 already holds the edit, #2 does not, #9999 does not exist.
	servertest.CallOK[issues.UpdateIssueOut](t, env, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets",
		"issue_number": 1, "state": "closed", "labels": map[string]any{"add": []string{"bug"}, "remove": []string{"enhancement"}}})
	servertest.CallOK[issues.UpdateIssueOut](t, env, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets",
		"issue_number": 2, "state": "open", "labels": map[string]any{"remove": []string{"bug"}, "add": []string{"enhancement"}}})
	args := map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": []int{1, 2, 9999}, "continue_on_error": true,
		"changes": map[string]any{"state": "closed", "labels": map[string]any{"add": []string{"bug"}, "remove": []string{"enhancement"}}}}
	env.Upstream()

	dry := args
	dry["dry_run"] = true
	r := env.Call(t, "github_bulk_update_issues", dry)
	if r.IsError {
		t.Fatalf("dry run: got an error, want a preview: %s", r.JSON)
	}
	var a dryRunAnswer
	r.Decode(t, &a)
	if sent := wireWrites(env.Upstream()); len(sent) != 0 {
		t.Fatalf("dry run writes = %v, want none", sent)
	}
	got := map[int]issues.IssuePreview{}
	for _, it := range a.Preview.Items {
		got[it.IssueNumber] = it
	}
	want := map[int]issues.BulkSettlement{1: issues.BulkNoOp, 2: issues.BulkApplied, 9999: issues.BulkFailed}
	for n, s := range want {
		if got[n].Settlement != s {
			t.Errorf("forecast for #%d: settlement = %q, want %q (%s)", n, got[n].Settlement, s, r.JSON)
		}
	}
	if e := got[9999].Error; e == nil || e.Code != "issue_not_found" {
		t.Errorf("forecast for #9999: error = %+v, want issue_not_found", e)
	}
	// #1 is already closed and labelled bug.
	if len(got[1].Requests) != 0 {
		t.Errorf("forecast for #1: requests = %v, want none", got[1].Requests)
	}
	if len(got[1].Changes) != 0 {
		t.Errorf("forecast for #1: changes = %+v, want none", got[1].Changes)
	}
	changes := map[string]issues.FieldChange{}
	for _, c := range got[2].Changes {
		changes[c.Field] = c
	}
	if c := changes["state"]; c.Before != "open" {
		t.Errorf("forecast for #2: state before = %v, want open", c.Before)
	} else if c.After != "closed" {
		t.Errorf("forecast for #2: state after = %v, want closed", c.After)
	}
	if c, ok := changes["labels"]; !ok {
		t.Errorf("forecast for #2: changes = %+v, want one of labels", got[2].Changes)
	} else {
		if after := anyStrings(c.After); !slices.Contains(after, "bug") {
			t.Errorf("forecast for #2: labels after = %q, want bug among them", after)
		} else if slices.Contains(after, "enhancement") {
			t.Errorf("forecast for #2: labels after = %q, want no enhancement", after)
		} else if before := anyStrings(c.Before); !slices.Contains(before, "enhancement") {
			t.Errorf("forecast for #2: labels before = %q, want enhancement among them", before)
		}
	}
	for _, s := range []issues.BulkSettlement{issues.BulkApplied, issues.BulkNoOp, issues.BulkFailed} {
		if n := a.Preview.Settlements[s]; n != 1 {
			t.Errorf("settlements[%s] = %d, want 1 (%v)", s, n, a.Preview.Settlements)
		}
	}
	forecast := forecastWrites(t, a.Preview)

	// The real call settles each item as forecast and sends exactly the
	// write requests the forecast named.
	delete(args, "dry_run")
	out := servertest.CallOK[issues.BulkUpdateIssuesOut](t, env, "github_bulk_update_issues", args)
	for _, it := range out.Items {
		if it.Settlement != want[it.IssueNumber] {
			t.Errorf("real run #%d: settlement = %q, want the forecast %q", it.IssueNumber, it.Settlement, want[it.IssueNumber])
		}
	}
	if sent := wireWrites(env.Upstream()); !slices.Equal(sent, forecast) {
		t.Errorf("real run writes = %v\nwant the dry run's forecast %v", sent, forecast)
	}
}

// github_update_issue's dry run shows each field before and after, and
// refuses what the real call would refuse.
func TestUpdateDryRunShowsFieldsBeforeAndAfter(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	before := servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3})
	r := env.Call(t, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3,
		"title": "A clearer title", "body": "twelve bytes", "dry_run": true})
	if r.IsError {
		t.Fatalf("dry run: got an error, want a preview: %s", r.JSON)
	}
	var a dryRunAnswer
	r.Decode(t, &a)
	if len(a.Preview.Items) != 1 {
		t.Fatalf("preview items = %d, want 1: %s", len(a.Preview.Items), r.JSON)
	}
	it := a.Preview.Items[0]
	fields := map[string]issues.FieldChange{}
	for _, c := range it.Changes {
		fields[c.Field] = c
	}
	c := fields["title"]
	if c.Before != before.Issue.Title {
		t.Errorf("title before = %v, want %q", c.Before, before.Issue.Title)
	}
	if c.After != "A clearer title" {
		t.Errorf("title after = %v, want %q", c.After, "A clearer title")
	}
	if c := fields["body"]; c.After != "12 bytes" {
		t.Errorf("body after = %v, want its length, 12 bytes", c.After)
	}
	wantStrings(t, "requests", it.Requests, []string{"PATCH /repos/acme/widgets/issues/3 (title, body)"})
	if it.Settlement != issues.BulkApplied {
		t.Errorf("settlement = %q, want %q", it.Settlement, issues.BulkApplied)
	}
	now := servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3})
	if now.Issue.Title != before.Issue.Title {
		t.Fatalf("title after the dry run = %q, want %q unchanged", now.Issue.Title, before.Issue.Title)
	}

	// An unknown label is refused in the dry run as in the real call.
	e := servertest.Refused(t, env, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 3,
		"labels": map[string]any{"add": []string{"no such label"}}, "dry_run": true})
	contracttest.Envelope(t, "", e, "label_not_found", "not_started")
}

func anyStrings(v any) []string {
	list, _ := v.([]any)
	out := make([]string, 0, len(list))
	for _, x := range list {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
