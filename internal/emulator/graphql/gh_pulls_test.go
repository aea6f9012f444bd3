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
	if prs.TotalCount != 4 || len(prs.Nodes) != 4 || prs.Nodes[0].Number != 155 || !prs.Nodes[0].IsDraft ||
		prs.Nodes[1].HeadRefName != "fix/145-chart-widget-loses-unsaved-changes-after" || prs.Nodes[1].HeadRepositoryOwner.Login != "acme" {
		t.Errorf("open pull requests = %+v", prs)
	}
	var byHead struct {
		Repository struct{ PullRequests struct{ TotalCount int } }
	}
	w.query(seed.DemoTokenCarol, ghPullRequestList, map[string]any{"owner": "acme", "repo": "widgets", "limit": 30,
		"state": []string{"MERGED", "CLOSED", "OPEN"}, "baseBranch": "main", "headBranch": prs.Nodes[1].HeadRefName}).ok(t, &byHead)
	if byHead.Repository.PullRequests.TotalCount != 1 {
		t.Errorf("headRefName filter found %d", byHead.Repository.PullRequests.TotalCount)
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
	if pr.Mergeable != "MERGEABLE" || pr.AutoMergeRequest != nil || pr.Commits.TotalCount != 2 || pr.Additions == 0 ||
		len(reqs) != 2 || reqs[0].RequestedReviewer.Typename != "User" || reqs[1].RequestedReviewer.Slug != "maintainers" || pr.Reviews.TotalCount != 0 {
		t.Errorf("pull request 133 = %+v", pr)
	}
	ctxs := pr.StatusCheckRollup.Nodes[0].Commit.StatusCheckRollup.Contexts.Nodes
	if len(ctxs) != 3 || ctxs[0].Typename != "CheckRun" || ctxs[0].CheckSuite.WorkflowRun.Workflow.Name != "CI" || ctxs[1].Conclusion != nil {
		t.Errorf("rollup of 133 = %+v", ctxs)
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
	if a.ReviewDecision != "APPROVED" || a.MergeStateStatus != "CLEAN" || roll.CheckRunCount != 3 || roll.StatusContextCount != 1 ||
		len(roll.CheckRunCountsByState) != 1 || roll.CheckRunCountsByState[0].State != "SUCCESS" ||
		len(a.ReviewThreads.Nodes) != 1 || !a.ReviewThreads.Nodes[0].IsResolved || a.ReviewThreads.Nodes[0].IsOutdated ||
		len(a.Files.Nodes) != 2 || a.Files.Nodes[0].ChangeType != "ADDED" ||
		len(a.ClosingIssuesReferences.Nodes) != 1 || a.ClosingIssuesReferences.Nodes[0].Number != 145 || a.MergeCommit != nil {
		t.Errorf("pull request 146 = %+v", a)
	}
	var changes counts
	w.query(seed.DemoTokenCarol, ghStatusCounts, map[string]any{"n": 121}).ok(t, &changes)
	c := changes.Repository.PullRequest
	if c.ReviewDecision != "CHANGES_REQUESTED" || len(c.ReviewThreads.Nodes) != 1 || !c.ReviewThreads.Nodes[0].IsOutdated ||
		c.ReviewThreads.Nodes[0].Line != nil {
		t.Errorf("pull request 121 = %+v", c)
	}
	var merged counts
	w.query(seed.DemoTokenCarol, ghStatusCounts, map[string]any{"n": 96}).ok(t, &merged)
	m := merged.Repository.PullRequest
	if m.MergeCommit == nil || m.MergedBy == nil || m.MergeStateStatus != "UNKNOWN" || len(m.LatestReviews.Nodes) != 2 {
		t.Errorf("pull request 96 = %+v", m)
	}
	if n := w.count.validated.Load(); n < 5 {
		t.Errorf("only %d documents were validated against GitHub's schema", n)
	}
}
