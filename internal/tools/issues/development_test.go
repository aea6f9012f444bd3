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
	if issue == 0 || pull == 0 || bare == 0 {
		t.Fatalf("the seed has no issue with a linked branch and a closing pull request (%d, %d) or none without (%d)", issue, pull, bare)
	}
	out := development(t, env, issue)
	if len(out.Items) < 2 || out.HasMore || out.Truncated {
		t.Fatalf("development of #%d: %+v", issue, out)
	}
	b := out.Items[0]
	if b.Kind != "branch" || b.Name != branch || b.Repo != "" || !strings.HasSuffix(b.URL, "/acme/widgets/tree/"+branch) || b.Number != 0 {
		t.Errorf("branch row: %+v", b)
	}
	found := false
	for _, it := range out.Items[1:] {
		if it.Kind != "pull_request" {
			t.Errorf("after the branches, a %q row: %+v", it.Kind, it)
		}
		if it.Number == pull {
			found = true
			if it.State != "open" || it.Title == "" || !strings.HasSuffix(it.URL, fmt.Sprintf("/acme/widgets/pull/%d", pull)) {
				t.Errorf("pull row: %+v", it)
			}
		}
		if it.State != "open" && it.State != "closed" && it.State != "merged" {
			t.Errorf("pull row state %q", it.State)
		}
	}
	if !found {
		t.Errorf("#%d, which fixes #%d, is not listed: %+v", pull, issue, out.Items)
	}

	// An issue with neither lists nothing.
	if res := env.Call(t, toolkit.NameListIssueItems, issues.ListIssueItemsIn{Owner: "acme", Repo: "widgets", IssueNumber: toolkit.IssueNumber(bare), Collection: "development"}); res.IsError || strings.Contains(string(res.JSON), `"items"`) {
		t.Fatalf("an issue with no development lists nothing: %s", res.JSON)
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
		t.Fatalf("development of #%d: %+v", bare, out.Items)
	}
	if it := out.Items[0]; it.Kind != "pull_request" || it.Number != draft || it.Repo != "acme/gadgets" || !it.Draft || it.State != "open" {
		t.Errorf("cross-repository draft row: %+v", it)
	}
}
