package issues_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
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
			if e.Repair == nil || e.Repair.NextStep == "" {
				t.Fatalf("%s: no repair: %+v", e.Code, e)
			}
			if !tc.callable {
				return
			}
			if e.Repair.Tool == "" || e.Repair.Arguments == nil {
				t.Fatalf("repair names no call: %+v", e.Repair)
			}
			res := env.Call(t, e.Repair.Tool, e.Repair.Arguments)
			if res.IsError {
				if again := res.Envelope(t); again.Code == contract.CodeInvalidField {
					t.Fatalf("the repair call is refused for its arguments: %s", res.JSON)
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
					if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "repo" {
						t.Errorf("%s with repo %q: %+v", c.tool, repo, e)
					}
					if sent := env.Upstream(); len(sent) != 0 {
						t.Errorf("%s with repo %q sent %v", c.tool, repo, sent)
					}
				})
			}
		})
	}
	if e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme/widgets", Repo: "widgets", IssueNumber: plainIssue}).Envelope(t); e.Details == nil || e.Details.Field != "owner" {
		t.Fatalf("owner with a slash: %+v", e)
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
	if !out.Issue.IsPR || !slices.Contains(out.Issue.Labels, "question") || out.Version != ciVersion(t, env, pr) {
		t.Fatalf("labelling PR #%d: %+v", pr, out)
	}
	out = ciUpdate(t, env, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(pr), Title: ptrTo("Retitled PR")})
	if !out.Issue.IsPR || out.Issue.Title != "Retitled PR" {
		t.Fatalf("retitling PR #%d: %+v", pr, out)
	}
	env.Upstream()
	e := env.Call(t, toolkit.NameCreateIssue, issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Child of a PR", ParentIssueNumber: toolkit.IssueNumber(pr)}).Envelope(t)
	if e.Code != contract.CodeInvalidField || e.Details == nil || e.Details.Field != "parent_issue_number" || !strings.Contains(e.Message, "pull request") {
		t.Fatalf("a PR as parent: %+v", e)
	}
	for _, call := range env.Upstream() {
		if !strings.HasPrefix(call, "POST /api/graphql") && !strings.HasPrefix(call, "GET ") {
			t.Fatalf("wrote: %s", call)
		}
	}
	// A number that is nothing is still not_found.
	e = env.Call(t, toolkit.NameUpdateIssue, issues.UpdateIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue, Title: ptrTo("x"), ExpectedVersion: "v1.AAAAAAAAAAAAAAAA"}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound {
		t.Fatalf("missing issue: %+v", e)
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
			if e.Code != contract.CodeRepoNotFound || !strings.Contains(e.Message, "acme/nope does not exist") || e.Repair == nil || e.Repair.Tool == "" {
				t.Fatalf("%s: %+v", c.tool, e)
			}
			if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
				t.Fatalf("%s: the repair failed: %s", c.tool, res.JSON)
			}
		})
	}
	// A missing issue in a real repository keeps the issue's repair.
	e := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: missingIssue}).Envelope(t)
	if e.Code != contract.CodeIssueNotFound || !strings.Contains(e.Message, fmt.Sprintf("#%d", missingIssue)) {
		t.Fatalf("missing issue: %+v", e)
	}
	if res := env.Call(t, e.Repair.Tool, e.Repair.Arguments); res.IsError {
		t.Fatalf("the missing issue's repair failed: %s", res.JSON)
	}
}
