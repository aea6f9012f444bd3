package graphql_test

import (
	"net/http/httptest"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// ghPullRequestList is the query gh pr list sends (pkg/cmd/pr/shared's
// lister in gh v2.83.0) with its default fields, verbatim.
const ghPullRequestList = `fragment pr on PullRequest{number,title,state,url,headRefName,headRepositoryOwner{id,login,...on User{name}},isCrossRepository,isDraft,createdAt}
    query PullRequestList(
      $owner: String!,
      $repo: String!,
      $limit: Int!,
      $endCursor: String,
      $baseBranch: String,
      $headBranch: String,
      $state: [PullRequestState!] = OPEN
    ) {
      repository(owner: $owner, name: $repo) {
        pullRequests(
          states: $state,
          baseRefName: $baseBranch,
          headRefName: $headBranch,
          first: $limit,
          after: $endCursor,
          orderBy: {field: CREATED_AT, direction: DESC}
        ) {
          totalCount
          nodes {
            ...pr
          }
          pageInfo {
            hasNextPage
            endCursor
          }
        }
      }
    }`

// ghPullRequestByNumber is the query gh pr view sends with its default
// fields, verbatim.
const ghPullRequestByNumber = `query PullRequestByNumber($owner: String!, $repo: String!, $pr_number: Int!) {
    repository(owner: $owner, name: $repo) {
      pullRequest(number: $pr_number) {url,number,title,state,body,author{login,...on User{id,name}},autoMergeRequest {authorEmail,commitBody,commitHeadline,mergeMethod,enabledAt,enabledBy{login,...on User{id,name}}},isDraft,maintainerCanModify,mergeable,additions,deletions,commits{totalCount},baseRefName,headRefName,headRepositoryOwner{id,login,...on User{name}},headRepository{id,name},isCrossRepository,reviewRequests(first: 100) {nodes {requestedReviewer {__typename,...on User{login},...on Team{organization{login}name,slug}}}},reviews(first: 100) {nodes {id,author{login},authorAssociation,submittedAt,body,state,commit{oid},reactionGroups{content,users{totalCount}}}pageInfo{hasNextPage,endCursor}totalCount},assignees(first:100){nodes{id,login,name},totalCount},labels(first:100){nodes{id,name,description,color},totalCount},milestone{number,title,description,dueOn},comments(first: 100) {nodes {id,author{login,...on User{id,name}},authorAssociation,body,createdAt,includesCreatedEdit,isMinimized,minimizedReason,reactionGroups{content,users{totalCount}},url,viewerDidAuthor},pageInfo{hasNextPage,endCursor},totalCount},reactionGroups{content,users{totalCount}},createdAt,statusCheckRollup: commits(last: 1) {nodes {commit {statusCheckRollup {contexts(first:100) {nodes {__typename...on StatusContext {context,state,targetUrl,createdAt,description},...on CheckRun {name,checkSuite{workflowRun{workflow{name}}},status,conclusion,startedAt,completedAt,detailsUrl}},pageInfo{hasNextPage,endCursor}}}}}},id}
    }
  }`

// ghStatusCounts is gh's rollup with counts by state (pr status).
const ghStatusCounts = `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) {
	statusCheckRollup: commits(last: 1) {nodes {commit {statusCheckRollup {contexts {checkRunCount,checkRunCountsByState {state,count},statusContextCount,statusContextCountsByState {state,count}}}}}}
	reviewDecision mergeStateStatus latestReviews(first: 10) { nodes { author { login } state } }
	reviewThreads(first: 10) { nodes { isResolved isOutdated path line comments(first: 5) { nodes { body replyTo { id } } } } }
	files(first: 10) { nodes { path additions deletions changeType } }
	closingIssuesReferences(first: 5) { nodes { number } }
	mergeCommit { oid } mergedBy { login } mergedAt
} } }`

func demoGQLWorld(t *testing.T) *gqlWorld {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow})
	if err != nil {
		t.Fatal(err)
	}
	w := &gqlWorld{t: t, emu: emu, count: &fidelityCount{}}
	w.srv = httptest.NewServer(emu)
	t.Cleanup(w.srv.Close)
	return w
}

func TestGraphQLGhPulls(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)

	var list struct {
		Repository struct {
			PullRequests struct {
				TotalCount int
				Nodes      []struct {
					Number              int
					State               string
					HeadRefName         string
					IsDraft             bool
					IsCrossRepository   bool
					HeadRepositoryOwner struct{ Login string }
				}
			}
		}
	}
	w.query(seed.DemoTokenCarol, ghPullRequestList, map[string]any{"owner": "acme", "repo": "widgets", "limit": 30, "state": []string{"OPEN"}}).ok(t, &list)
	prs := list.Repository.PullRequests
	if prs.TotalCount != 4 {
		t.Errorf("open pull requests totalCount = %d, want 4", prs.TotalCount)
	}
	if len(prs.Nodes) != 4 {
		t.Errorf("open pull requests = %d nodes %+v, want 4", len(prs.Nodes), prs.Nodes)
	} else {
		if prs.Nodes[0].Number != 155 {
			t.Errorf("first open pull request = #%d, want #155", prs.Nodes[0].Number)
		}
		if !prs.Nodes[0].IsDraft {
			t.Errorf("#%d isDraft = false, want true", prs.Nodes[0].Number)
		}
		if got, want := prs.Nodes[1].HeadRefName, "fix/145-chart-widget-loses-unsaved-changes-after"; got != want {
			t.Errorf("second open pull request headRefName = %q, want %q", got, want)
		}
		if got := prs.Nodes[1].HeadRepositoryOwner.Login; got != "acme" {
			t.Errorf("second open pull request headRepositoryOwner = %q, want acme", got)
		}
	}
	var byHead struct {
		Repository struct{ PullRequests struct{ TotalCount int } }
	}
	w.query(seed.DemoTokenCarol, ghPullRequestList, map[string]any{"owner": "acme", "repo": "widgets", "limit": 30,
		"state": []string{"MERGED", "CLOSED", "OPEN"}, "baseBranch": "main", "headBranch": prs.Nodes[1].HeadRefName}).ok(t, &byHead)
	if byHead.Repository.PullRequests.TotalCount != 1 {
		t.Errorf("headRefName filter found %d, want 1", byHead.Repository.PullRequests.TotalCount)
	}

	var view struct {
		Repository struct {
			PullRequest struct {
				Mergeable           string
				MaintainerCanModify bool
				AutoMergeRequest    *struct{}
				Additions           int
				Commits             struct{ TotalCount int }
				ReviewRequests      struct {
					Nodes []struct {
						RequestedReviewer struct {
							Typename string `json:"__typename"`
							Login    string
							Slug     string
						}
					}
				}
				Reviews struct {
					TotalCount int
					Nodes      []struct {
						State  string
						Commit struct{ Oid string }
					}
				}
				StatusCheckRollup struct {
					Nodes []struct {
						Commit struct {
							StatusCheckRollup struct {
								Contexts struct {
									Nodes []struct {
										Typename   string `json:"__typename"`
										Name       string
										Context    string
										Conclusion *string
										CheckSuite struct {
											WorkflowRun struct{ Workflow struct{ Name string } }
										}
									}
								}
							}
						}
					}
				}
			}
		}
	}
	w.query(seed.DemoTokenCarol, ghPullRequestByNumber, map[string]any{"owner": "acme", "repo": "widgets", "pr_number": 133}).ok(t, &view)
	pr := view.Repository.PullRequest
	reqs := pr.ReviewRequests.Nodes
	if pr.Mergeable != "MERGEABLE" {
		t.Errorf("#133 mergeable = %s, want MERGEABLE", pr.Mergeable)
	}
	if pr.AutoMergeRequest != nil {
		t.Errorf("#133 autoMergeRequest = %+v, want null", pr.AutoMergeRequest)
	}
	if pr.Commits.TotalCount != 2 {
		t.Errorf("#133 commits = %d, want 2", pr.Commits.TotalCount)
	}
	if pr.Additions == 0 {
		t.Errorf("#133 additions = 0, want some")
	}
	if len(reqs) != 2 {
		t.Errorf("#133 reviewRequests = %+v, want 2", reqs)
	} else {
		if got := reqs[0].RequestedReviewer.Typename; got != "User" {
			t.Errorf("#133 first requested reviewer is a %s, want User", got)
		}
		if got := reqs[1].RequestedReviewer.Slug; got != "maintainers" {
			t.Errorf("#133 second requested reviewer slug = %q, want maintainers", got)
		}
	}
	if pr.Reviews.TotalCount != 0 {
		t.Errorf("#133 reviews = %d, want 0", pr.Reviews.TotalCount)
	}
	ctxs := pr.StatusCheckRollup.Nodes[0].Commit.StatusCheckRollup.Contexts.Nodes
	if len(ctxs) != 3 {
		t.Errorf("#133 rollup = %d contexts %+v, want 3", len(ctxs), ctxs)
	} else {
		if ctxs[0].Typename != "CheckRun" {
			t.Errorf("#133 first context is a %s, want CheckRun", ctxs[0].Typename)
		}
		if got := ctxs[0].CheckSuite.WorkflowRun.Workflow.Name; got != "CI" {
			t.Errorf("#133 first context's workflow = %q, want CI", got)
		}
		if ctxs[1].Conclusion != nil {
			t.Errorf("#133 second context conclusion = %q, want null (still running)", *ctxs[1].Conclusion)
		}
	}

	type counts struct {
		Repository struct {
			PullRequest struct {
				StatusCheckRollup struct {
					Nodes []struct {
						Commit struct {
							StatusCheckRollup struct {
								Contexts struct {
									CheckRunCount, StatusContextCount int
									CheckRunCountsByState             []struct {
										State string
										Count int
									}
								}
							}
						}
					}
				}
				ReviewDecision, MergeStateStatus string
				LatestReviews                    struct{ Nodes []struct{ State string } }
				ReviewThreads                    struct {
					Nodes []struct {
						IsResolved, IsOutdated bool
						Path                   string
						Line                   *int
					}
				}
				Files struct {
					Nodes []struct {
						Path       string
						ChangeType string
					}
				}
				ClosingIssuesReferences struct{ Nodes []struct{ Number int } }
				MergeCommit             *struct{ Oid string }
				MergedBy                *struct{ Login string }
			}
		}
	}
	var approved counts
	w.query(seed.DemoTokenCarol, ghStatusCounts, map[string]any{"n": 146}).ok(t, &approved)
	a := approved.Repository.PullRequest
	roll := a.StatusCheckRollup.Nodes[0].Commit.StatusCheckRollup.Contexts
	if a.ReviewDecision != "APPROVED" {
		t.Errorf("#146 reviewDecision = %s, want APPROVED", a.ReviewDecision)
	}
	if a.MergeStateStatus != "CLEAN" {
		t.Errorf("#146 mergeStateStatus = %s, want CLEAN", a.MergeStateStatus)
	}
	if roll.CheckRunCount != 3 {
		t.Errorf("#146 checkRunCount = %d, want 3", roll.CheckRunCount)
	}
	if roll.StatusContextCount != 1 {
		t.Errorf("#146 statusContextCount = %d, want 1", roll.StatusContextCount)
	}
	if len(roll.CheckRunCountsByState) != 1 {
		t.Errorf("#146 checkRunCountsByState = %+v, want 1 state", roll.CheckRunCountsByState)
	} else if got := roll.CheckRunCountsByState[0].State; got != "SUCCESS" {
		t.Errorf("#146 checkRunCountsByState state = %s, want SUCCESS", got)
	}
	if len(a.ReviewThreads.Nodes) != 1 {
		t.Errorf("#146 reviewThreads = %+v, want 1", a.ReviewThreads.Nodes)
	} else {
		if !a.ReviewThreads.Nodes[0].IsResolved {
			t.Errorf("#146 review thread isResolved = false, want true")
		}
		if a.ReviewThreads.Nodes[0].IsOutdated {
			t.Errorf("#146 review thread isOutdated = true, want false")
		}
	}
	if len(a.Files.Nodes) != 2 {
		t.Errorf("#146 files = %+v, want 2", a.Files.Nodes)
	} else if got := a.Files.Nodes[0].ChangeType; got != "ADDED" {
		t.Errorf("#146 first file changeType = %s, want ADDED", got)
	}
	if len(a.ClosingIssuesReferences.Nodes) != 1 {
		t.Errorf("#146 closingIssuesReferences = %+v, want 1", a.ClosingIssuesReferences.Nodes)
	} else if got := a.ClosingIssuesReferences.Nodes[0].Number; got != 145 {
		t.Errorf("#146 closes #%d, want #145", got)
	}
	if a.MergeCommit != nil {
		t.Errorf("#146 mergeCommit = %+v, want null", a.MergeCommit)
	}
	var changes counts
	w.query(seed.DemoTokenCarol, ghStatusCounts, map[string]any{"n": 121}).ok(t, &changes)
	c := changes.Repository.PullRequest
	if c.ReviewDecision != "CHANGES_REQUESTED" {
		t.Errorf("#121 reviewDecision = %s, want CHANGES_REQUESTED", c.ReviewDecision)
	}
	if len(c.ReviewThreads.Nodes) != 1 {
		t.Errorf("#121 reviewThreads = %+v, want 1", c.ReviewThreads.Nodes)
	} else {
		if !c.ReviewThreads.Nodes[0].IsOutdated {
			t.Errorf("#121 review thread isOutdated = false, want true")
		}
		if l := c.ReviewThreads.Nodes[0].Line; l != nil {
			t.Errorf("#121 outdated thread line = %d, want null", *l)
		}
	}
	var merged counts
	w.query(seed.DemoTokenCarol, ghStatusCounts, map[string]any{"n": 96}).ok(t, &merged)
	m := merged.Repository.PullRequest
	if m.MergeCommit == nil {
		t.Errorf("#96 mergeCommit = null, want the merge commit")
	}
	if m.MergedBy == nil {
		t.Errorf("#96 mergedBy = null, want who merged it")
	}
	if m.MergeStateStatus != "UNKNOWN" {
		t.Errorf("#96 mergeStateStatus = %s, want UNKNOWN", m.MergeStateStatus)
	}
	if got := len(m.LatestReviews.Nodes); got != 2 {
		t.Errorf("#96 latestReviews = %d, want 2", got)
	}
	if n := w.count.validated.Load(); n < 5 {
		t.Errorf("%d documents were validated against GitHub's schema, want at least 5", n)
	}
}
