package graphql_test

import (
	"slices"
	"strconv"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The Linked pull requests and Reviewers values of the roadmap's items,
// read with gh's own fragments (pkg/cmd/project/shared/queries) and
// checked against the issues' closedByPullRequestsReferences and the pull
// requests' reviewRequests, which other resolvers answer.

const projectLinksDoc = `query($n: Int!, $after: String) { organization(login: "acme") { projectV2(number: $n) {
  items(first: 50, after: $after) { pageInfo { hasNextPage endCursor } nodes {
    content { __typename
      ... on Issue { url closedByPullRequestsReferences(first: 20, includeClosedPrs: true) { nodes { url } } }
      ... on PullRequest { url reviewRequests(first: 20) { nodes { requestedReviewer { __typename ... on User { login } ... on Team { name } } } } } }
    fieldValues(first: 100) { nodes { __typename
      ... on ProjectV2ItemFieldPullRequestValue { pullRequests(first: 10) { nodes { url } } field { ... on ProjectV2FieldCommon { name } } }
      ... on ProjectV2ItemFieldReviewerValue { reviewers(first: 10) { nodes { __typename ... on Team { name } ... on User { login } } }
        field { ... on ProjectV2FieldCommon { name } } }
    } }
  } }
} } }`

type linkNodes struct {
	Nodes []struct {
		Typename          string `json:"__typename"`
		URL               string
		Login, Name       string
		RequestedReviewer struct {
			Typename    string `json:"__typename"`
			Login, Name string
		}
	}
}

func testProjectLinkedValues(t *testing.T, w *gqlWorld) {
	// The seed links nothing: a pull request on the board asks bob and a
	// team for review and says it fixes an issue on the board; another
	// pull request, in the other repository, fixes the same issue.
	st := w.emu.State()
	st.Lock()
	board := st.Project(st.Account(seed.DemoOrg), seed.DemoProjectNumber)
	var pull, issue *state.Issue
	for _, it := range board.Items {
		if it.Issue != nil && it.Issue.IsPull && pull == nil {
			pull = it.Issue
		}
	}
	for _, it := range board.Items {
		if pull != nil && it.Issue != nil && !it.Issue.IsPull && issue == nil && it.Issue.Repo == pull.Repo {
			issue = it.Issue
		}
	}
	if pull == nil {
		st.Unlock()
		t.Fatal("the roadmap has no pull request, want one")
	}
	if issue == nil {
		st.Unlock()
		t.Fatalf("the roadmap has no issue of %s, the pull request's repository, want one", pull.Repo.FullName())
	}
	pull.Pull.RequestedReviewers = append(pull.Pull.RequestedReviewers, st.Account("bob"))
	pull.Pull.RequestedTeams = append(pull.Pull.RequestedTeams, st.Teams(seed.DemoOrg)[0])
	body := "Fixes #" + strconv.Itoa(issue.Number)
	st.SetBody(pull, pull.User, &body)
	resolves := "Resolves " + issue.Repo.FullName() + "#" + strconv.Itoa(issue.Number)
	st.AddIssue(st.Repo(seed.DemoOrg, "gadgets"), st.Account("alice"), "Gadget side of the fix", &resolves, true, st.Now())
	st.Unlock()

	var linked, reviewed int
	var after any
	for range 5 {
		var d struct {
			Organization struct {
				ProjectV2 struct {
					Items struct {
						PageInfo struct {
							HasNextPage bool
							EndCursor   string
						}
						Nodes []struct {
							Content *struct {
								Typename                       string `json:"__typename"`
								URL                            string
								ClosedByPullRequestsReferences linkNodes
								ReviewRequests                 linkNodes
							}
							FieldValues struct {
								Nodes []struct {
									Typename     string `json:"__typename"`
									PullRequests *linkNodes
									Reviewers    *linkNodes
									Field        struct{ Name string }
								}
							}
						}
					}
				}
			}
		}
		w.query(seed.DemoTokenAlice, projectLinksDoc, map[string]any{"n": seed.DemoProjectNumber, "after": after}).ok(t, &d)
		items := d.Organization.ProjectV2.Items
		for _, it := range items.Nodes {
			var wantPulls, wantReviewers, gotPulls, gotReviewers []string
			if c := it.Content; c != nil {
				for _, n := range c.ClosedByPullRequestsReferences.Nodes {
					wantPulls = append(wantPulls, n.URL)
				}
				for _, n := range c.ReviewRequests.Nodes {
					wantReviewers = append(wantReviewers, n.RequestedReviewer.Typename+":"+n.RequestedReviewer.Login+n.RequestedReviewer.Name)
				}
			}
			for _, v := range it.FieldValues.Nodes {
				switch v.Typename {
				case "ProjectV2ItemFieldPullRequestValue":
					if v.Field.Name != "Linked pull requests" {
						t.Errorf("pull request value's field = %q, want %q", v.Field.Name, "Linked pull requests")
					}
					if v.PullRequests == nil {
						t.Errorf("pull request value on %q: pullRequests = null, want a list", v.Field.Name)
					}
					if v.Field.Name != "Linked pull requests" || v.PullRequests == nil {
						continue
					}
					for _, n := range v.PullRequests.Nodes {
						gotPulls = append(gotPulls, n.URL)
					}
				case "ProjectV2ItemFieldReviewerValue":
					if v.Field.Name != "Reviewers" {
						t.Errorf("reviewer value's field = %q, want Reviewers", v.Field.Name)
					}
					if v.Reviewers == nil {
						t.Errorf("reviewer value on %q: reviewers = null, want a list", v.Field.Name)
					}
					if v.Field.Name != "Reviewers" || v.Reviewers == nil {
						continue
					}
					for _, n := range v.Reviewers.Nodes {
						gotReviewers = append(gotReviewers, n.Typename+":"+n.Login+n.Name)
					}
				}
			}
			item := "without content"
			if it.Content != nil {
				item = it.Content.URL
			}
			if !slices.Equal(gotPulls, wantPulls) {
				t.Errorf("item %s: linked pull requests %v, want %v", item, gotPulls, wantPulls)
			}
			if !slices.Equal(gotReviewers, wantReviewers) {
				t.Errorf("item %s: reviewers %v, want %v", item, gotReviewers, wantReviewers)
			}
			if len(gotPulls) > 0 {
				linked++
			}
			if len(gotReviewers) > 0 {
				reviewed++
			}
		}
		if !items.PageInfo.HasNextPage {
			break
		}
		after = items.PageInfo.EndCursor
	}
	if linked != 1 {
		t.Errorf("%d items with linked pull requests, want 1", linked)
	}
	if reviewed != 1 {
		t.Errorf("%d items with reviewers, want 1", reviewed)
	}
}
