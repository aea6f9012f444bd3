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
)

// Every refusal of a call's arguments says what to do next; where the fix
// can be written down, the repair's arguments are that call, and making it
// does not fail on its arguments again.
func TestArgumentRefusalsCarryRepairs(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	parent := emulator.DemoParentIssue
	cases := []struct {
		name     string
		tool     string
		args     any
		callable bool
	}{
		{"unknown field", toolkit.NameGetIssue, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"extra":1}`, firstIssue), true},
		{"unknown nested field", toolkit.NameUpdateIssue, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":{"add":["bug"],"extra":true}}`, plainIssue), true},
		{"self link", toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, Relation: "sub_issue", Action: "add", TargetIssueNumber: plainIssue}, true},
		{"anchor outside reorder", toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "blocked_by", Action: "add", TargetIssueNumber: plainIssue, AfterIssueNumber: jobsSubIssue}, true},
		{"two anchors", toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue, AfterIssueNumber: pdfSubIssue, BeforeIssueNumber: docsSubIssue}, false},
		{"no anchor", toolkit.NameLinkIssues, issues.LinkIssuesIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(parent), Relation: "sub_issue", Action: "reorder", TargetIssueNumber: jobsSubIssue}, true},
		{"repo without owner", toolkit.NameSearchIssues, issues.SearchIssuesIn{Repo: "widgets"}, false},
		{"label with a comma", toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{"a,b"}}, false},
		{"label with a quote", toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", Labels: []string{`say "hi"`}}, false},
		{"bad date", toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: "widgets", UpdatedAfter: "yesterday"}, false},
		{"empty label set", toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Set: []string{}}}}, false},
		{"add and remove one label", toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"bug"}, Remove: []string{"bug"}}}}, false},
		{"version never issued", toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, Title: ptrTo("x"), ExpectedVersion: "v1.garbage"}, true},
		{"lock reason without lock", toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, LockReason: "resolved"}, true},
		{"empty key", toolkit.NameAddComment, fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"body":"x","idempotency_key":""}`, plainIssue), false},
		{"long title", toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: strings.Repeat("t", 257)}, false},
		{"long body", toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, Body: ptrTo(strings.Repeat("b", 65537))}, false},
		{"long comment", toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, Body: strings.Repeat("b", 65537)}, false},
		{"blank comment", toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: "widgets", IssueNumber: plainIssue, Body: " "}, false},
		{"blank title", toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: " "}, false},
		{"edit and delete", toolkit.NameEditComment, issues.EditCommentIn{Owner: "acme", Repo: "widgets", CommentID: 1, Body: "x", Delete: true}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := env.Call(t, tc.tool, tc.args).Envelope(t)
			if e.Repair == nil {
				t.Fatalf("%s: repair = nil, want one: %+v", e.Code, e)
			}
			if e.Repair.NextStep == "" {
				t.Fatalf("%s: repair.next_step is empty, want one: %+v", e.Code, e.Repair)
			}
			if !tc.callable {
				return
			}
			if e.Repair.Tool == "" {
				t.Fatalf("repair.tool is empty, want a call: %+v", e.Repair)
			}
			if e.Repair.Arguments == nil {
				t.Fatalf("repair.arguments = nil, want the call's: %+v", e.Repair)
			}
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			if res.IsError {
				if again := res.Envelope(t); again.Code == contract.CodeInvalidField {
					t.Fatalf("repair call: code = %q, want it not refused for its arguments: %s", again.Code, res.JSON)
				}
			}
		})
	}
}

// An owner or repository that is not a GitHub name is refused before it
// reaches a request path, by every tool, with nothing sent upstream.
func TestNamesAreCheckedBeforeAnyRequest(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, repo := range []string{"widgets/issues/2?", "widgets?x=1", "widgets/../gadgets", ".."} {
		t.Run(repo, func(t *testing.T) {
			calls := []struct {
				tool string
				args any
			}{
				{toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: repo, IssueNumber: plainIssue}},
				{toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: repo, IssueNumber: plainIssue, Collection: "comments"}},
				{toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: repo, Kind: "labels"}},
				{toolkit.NameSearchIssues, issues.SearchIssuesIn{Owner: "acme", Repo: repo}},
				{toolkit.NameAddComment, issues.AddCommentIn{Owner: "acme", Repo: repo, IssueNumber: plainIssue, Body: "x"}},
			}
			for _, c := range calls {
				t.Run(c.tool, func(t *testing.T) {
					env.Upstream()
					e := env.Call(t, c.tool, c.args).Envelope(t)
					contracttest.Code(t, "", e, contract.CodeInvalidField)
					contracttest.Field(t, "", e, "repo")
					if sent := env.Upstream(); len(sent) != 0 {
						t.Errorf("%s with repo %q: upstream calls = %v, want none", c.tool, repo, sent)
					}
				})
			}
		})
	}
	if e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme/widgets", Repo: "widgets", IssueNumber: plainIssue}).Envelope(t); e.Details == nil || e.Details.Field != "owner" {
		t.Fatalf("owner with a slash: details = %+v, want field owner", e.Details)
	}
}

// A pull request is an issue to GitHub's Issues API: update_issue edits
// one the same way whether it reads first or not, and its version is
// get_issue's. Only an issue can be a parent: a pull request's number
// there is refused as such, before anything is written.
func TestPullRequestNumbers(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	pr := emulator.DemoFirstPull
	out := ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(pr), IssueChanges: issues.IssueChanges{Labels: &issues.LabelsEdit{Add: []string{"question"}}}})
	if !out.Issue.IsPR {
		t.Errorf("labelling PR #%d: is_pr = false, want true", pr)
	}
	if !slices.Contains(out.Issue.Labels, "question") {
		t.Errorf("labelling PR #%d: labels = %q, want them to include question", pr, out.Issue.Labels)
	}
	if got := ciVersion(t, env, pr); out.Version != got {
		t.Errorf("labelling PR #%d: version = %q, want get_issue's %q", pr, out.Version, got)
	}
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(pr), Title: ptrTo("Retitled PR")})
	if !out.Issue.IsPR {
		t.Errorf("retitling PR #%d: is_pr = false, want true", pr)
	}
	if out.Issue.Title != "Retitled PR" {
		t.Errorf("retitling PR #%d: title = %q, want %q", pr, out.Issue.Title, "Retitled PR")
	}
	env.Upstream()
	e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Child of a PR", ParentIssueNumber: toolkit.IssueNumber(pr)}).Envelope(t)
	contracttest.Code(t, "", e, contract.CodeInvalidField)
	contracttest.Field(t, "", e, "parent_issue_number")
	if !strings.Contains(e.Message, "pull request") {
		t.Errorf("a PR as parent: message = %q, want one saying pull request", e.Message)
	}
	for _, call := range env.Upstream() {
		if !strings.HasPrefix(call, "POST /api/graphql") && !strings.HasPrefix(call, "GET ") {
			t.Fatalf("upstream call %s, want only reads", call)
		}
	}
	// A number that is nothing is still not_found.
	e = env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue, Title: ptrTo("x"), ExpectedVersion: "v1.AAAAAAAAAAAAAAAA"}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound {
		t.Fatalf("missing issue: code = %q, want %q: %+v", e.Code, contract.CodeIssueNotFound, e)
	}
}

// A repository that does not exist is named as such, and the repair (a
// search of the owner's issues) succeeds as given.
func TestMissingRepositoryRepairWorks(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	for _, c := range []struct {
		tool string
		args any
	}{
		{toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "nope", IssueNumber: firstIssue}},
		{toolkit.NameListRepoMetadata, issues.ListRepoMetadataIn{Owner: "acme", Repo: "nope", Kind: "labels"}},
	} {
		t.Run(c.tool, func(t *testing.T) {
			e := env.Call(t, c.tool, c.args).Envelope(t)
			if e.Code != contract.CodeRepoNotFound {
				t.Errorf("code = %q, want %q", e.Code, contract.CodeRepoNotFound)
			}
			if !strings.Contains(e.Message, "acme/nope does not exist") {
				t.Errorf("message = %q, want one saying acme/nope does not exist", e.Message)
			}
			if e.Repair == nil || e.Repair.Tool == "" {
				t.Fatalf("repair = %+v, want a call", e.Repair)
			}
			if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
				t.Fatalf("%s: repair: got an error, want success: %s", c.tool, res.JSON)
			}
		})
	}
	// A missing issue in a real repository keeps the issue's repair.
	e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound {
		t.Fatalf("missing issue: code = %q, want %q: %+v", e.Code, contract.CodeIssueNotFound, e)
	}
	if want := fmt.Sprintf("#%d", missingIssue); !strings.Contains(e.Message, want) {
		t.Fatalf("missing issue: message = %q, want one naming %s", e.Message, want)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("the missing issue's repair: got an error, want success: %s", res.JSON)
	}
}
