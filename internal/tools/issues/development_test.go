package issues_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

func development(t *testing.T, env *servertest.Env, number int) issues.ListIssueItemsOut {
	t.Helper()
	return servertest.CallOK[issues.ListIssueItemsOut](t, env, toolkit.NameListIssueItems,
		issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(number), Collection: "development"})
}

// The development collection lists an issue's linked branches, then the
// pull requests that will close it, as GitHub's Development section shows
// them; an issue with neither lists nothing. The seed links a branch to
// issues an open pull request fixes, so the demo shows both kinds.
func TestListDevelopment(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	var issue, pull, bare int
	var branch string
	withState(env, func(s *emulator.State) {
		for _, is := range widgets(env).Issues {
			if len(is.LinkedBranches) > 0 && issue == 0 {
				issue, branch = is.Number, is.LinkedBranches[0].Name
			}
			if !is.IsPull && !is.Deleted && len(is.LinkedBranches) == 0 && bare == 0 && is.Number != emulator.DemoTriageIssue {
				bare = is.Number
			}
		}
		for _, pr := range widgets(env).Issues {
			if pr.IsPull && pr.State == "open" && issue != 0 && emulator.PullCloses(pr, widgets(env).Issue(issue)) {
				pull = pr.Number
			}
		}
		// The bare issue must have no closing pull request either.
		for _, pr := range widgets(env).Issues {
			if pr.IsPull && emulator.PullCloses(pr, widgets(env).Issue(bare)) {
				bare = 0
			}
		}
	})
	if issue == 0 {
		t.Fatalf("the seed has no issue with a linked branch, want one")
	}
	if pull == 0 {
		t.Fatalf("the seed has no open pull request closing #%d, want one", issue)
	}
	if bare == 0 {
		t.Fatalf("the seed has no issue without a linked branch or closing pull request, want one")
	}
	out := development(t, env, issue)
	if len(out.Items) < 2 {
		t.Fatalf("development of #%d: %d items, want at least a branch and a pull request: %+v", issue, len(out.Items), out.Items)
	}
	if out.HasMore {
		t.Errorf("development of #%d: has_more = true, want false", issue)
	}
	if out.Truncated {
		t.Errorf("development of #%d: truncated = true, want false", issue)
	}
	b := out.Items[0]
	if b.Kind != "branch" {
		t.Errorf("branch row: kind = %q, want branch", b.Kind)
	}
	if b.Name != branch {
		t.Errorf("branch row: name = %q, want %q", b.Name, branch)
	}
	if b.Repo != "" {
		t.Errorf("branch row: repo = %q, want none (the issue's own)", b.Repo)
	}
	if want := "/acme/widgets/tree/" + branch; !strings.HasSuffix(b.URL, want) {
		t.Errorf("branch row: url = %q, want it to end with %q", b.URL, want)
	}
	if b.Number != 0 {
		t.Errorf("branch row: number = %d, want none", b.Number)
	}
	found := false
	for _, it := range out.Items[1:] {
		if it.Kind != "pull_request" {
			t.Errorf("after the branches, a %q row, want pull_request: %+v", it.Kind, it)
		}
		if it.Number == pull {
			found = true
			if it.State != "open" {
				t.Errorf("pull row #%d: state = %q, want open", pull, it.State)
			}
			if it.Title == "" {
				t.Errorf("pull row #%d: title is empty, want the pull request's", pull)
			}
			if want := fmt.Sprintf("/acme/widgets/pull/%d", pull); !strings.HasSuffix(it.URL, want) {
				t.Errorf("pull row #%d: url = %q, want it to end with %q", pull, it.URL, want)
			}
		}
		if it.State != "open" && it.State != "closed" && it.State != "merged" {
			t.Errorf("pull row #%d: state = %q, want open, closed or merged", it.Number, it.State)
		}
	}
	if !found {
		t.Errorf("#%d, which fixes #%d, is not listed, want it listed: %+v", pull, issue, out.Items)
	}

	// An issue with neither lists nothing.
	res := env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(bare), Collection: "development"})
	if res.IsError {
		t.Fatalf("development of #%d failed: %s", bare, res.JSON)
	}
	if strings.Contains(string(res.JSON), `"items"`) {
		t.Fatalf("development of #%d lists items, want none: %s", bare, res.JSON)
	}
	// A draft pull request in another repository that closes it by
	// OWNER/REPO#N is listed with its repository and draft flag.
	var draft int
	withState(env, func(s *emulator.State) {
		g := s.Repo(emulator.DemoOrg, emulator.DemoGadgetsRepo)
		body := fmt.Sprintf("Shares the fix.\n\nFixes acme/widgets#%d", bare)
		draft = s.CreatePull(g, s.Account("bob"), "Share the widget fix", &body, g, "main", "main", true).Number
	})
	out = development(t, env, bare)
	if len(out.Items) != 1 {
		t.Fatalf("development of #%d: %d items, want 1: %+v", bare, len(out.Items), out.Items)
	}
	it := out.Items[0]
	if it.Kind != "pull_request" {
		t.Errorf("cross-repository draft row: kind = %q, want pull_request", it.Kind)
	}
	if it.Number != draft {
		t.Errorf("cross-repository draft row: number = %d, want %d", it.Number, draft)
	}
	if it.Repo != "acme/gadgets" {
		t.Errorf("cross-repository draft row: repo = %q, want acme/gadgets", it.Repo)
	}
	if !it.Draft {
		t.Errorf("cross-repository draft row: draft = false, want true")
	}
	if it.State != "open" {
		t.Errorf("cross-repository draft row: state = %q, want open", it.State)
	}
}
