package github

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"
)

// PullChecks is an open pull request with its head commit's checks, as
// GitHub's statusCheckRollup shows them: the latest check run per check
// and the latest commit status per context, in one answer.
type PullChecks struct {
	Number  int
	Title   string
	URL     string
	HeadSHA string
	// Rollup is GitHub's combined state (SUCCESS, FAILURE, ERROR,
	// PENDING, EXPECTED), "" when the commit has no checks at all.
	Rollup string
	Checks []Check
	// ChecksCut is true when the commit has more checks than one page
	// (ChecksPerPull) holds: Checks is then a prefix, and Rollup covers
	// the rest.
	ChecksCut bool
}

// Check is one check run or one legacy commit status of a commit.
type Check struct {
	// Status is set for a commit status (its context in Name).
	Status bool
	Name   string
	// State is a check run's status (QUEUED, IN_PROGRESS, COMPLETED, ...)
	// or a commit status's state (SUCCESS, FAILURE, ERROR, PENDING).
	State string
	// Conclusion is a completed check run's (SUCCESS, FAILURE, NEUTRAL,
	// CANCELLED, SKIPPED, TIMED_OUT, ACTION_REQUIRED, STARTUP_FAILURE,
	// STALE), "" otherwise.
	Conclusion string
	// JobID is the check run's id, which is the Actions job's id when the
	// run belongs to a workflow.
	JobID int64
	// Workflow, RunID and RunURL name the Actions run; empty for a check
	// run another app made, and for a commit status.
	Workflow string
	RunID    int64
	RunURL   string
	// URL is the check's details page or the status's target.
	URL string
}

// ChecksPerPull is how many checks of a commit one rollup page holds.
const ChecksPerPull = 100

// ciFields selects [PullChecks]: the last commit's rollup with its first
// page of contexts, each check run with the workflow run it belongs to.
const ciFields = `fragment ci on PullRequest { number title url headRefOid
  commits(last: 1) { nodes { commit { statusCheckRollup { state
    contexts(first: 100) { pageInfo { hasNextPage } nodes { __typename
      ... on CheckRun { databaseId name status conclusion detailsUrl checkSuite { workflowRun { databaseId url workflow { name } } } }
      ... on StatusContext { context state targetUrl } } } } } } } }`

// [PullsChecksDoc] and PullChecksDoc are the documents ListPullsChecks and
// GetPullChecks send (exported for the schema-validity test).
const (
	PullsChecksDoc = `query($owner: String!, $name: String!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) {
    pullRequests(states: OPEN, first: $first, after: $after, orderBy: {field: CREATED_AT, direction: ASC}) {
      pageInfo { hasNextPage endCursor } nodes { ...ci } } } }
` + ciFields
	PullChecksDoc = `query($owner: String!, $name: String!, $number: Int!) {
  repository(owner: $owner, name: $name) { pullRequest(number: $number) { ...ci } } }
` + ciFields
)

type pullChecksJSON struct {
	Number     int    `json:"number"`
	Title      string `json:"title"`
	URL        string `json:"url"`
	HeadRefOid string `json:"headRefOid"`
	Commits    struct {
		Nodes []struct {
			Commit struct {
				Rollup *struct {
					State    string `json:"state"`
					Contexts struct {
						PageInfo struct {
							HasNextPage bool `json:"hasNextPage"`
						} `json:"pageInfo"`
						Nodes []contextJSON `json:"nodes"`
					} `json:"contexts"`
				} `json:"statusCheckRollup"`
			} `json:"commit"`
		} `json:"nodes"`
	} `json:"commits"`
}

type contextJSON struct {
	Typename   string `json:"__typename"`
	DatabaseID int64  `json:"databaseId"`
	Name       string `json:"name"`
	Status     string `json:"status"`
	Conclusion string `json:"conclusion"`
	DetailsURL string `json:"detailsUrl"`
	CheckSuite *struct {
		WorkflowRun *struct {
			DatabaseID int64  `json:"databaseId"`
			URL        string `json:"url"`
			Workflow   struct {
				Name string `json:"name"`
			} `json:"workflow"`
		} `json:"workflowRun"`
	} `json:"checkSuite"`
	Context   string `json:"context"`
	State     string `json:"state"`
	TargetURL string `json:"targetUrl"`
}

func (p *pullChecksJSON) pull() PullChecks {
	out := PullChecks{Number: p.Number, Title: p.Title, URL: p.URL, HeadSHA: p.HeadRefOid}
	if len(p.Commits.Nodes) == 0 || p.Commits.Nodes[0].Commit.Rollup == nil {
		return out
	}
	ro := p.Commits.Nodes[0].Commit.Rollup
	out.Rollup, out.ChecksCut = strings.ToUpper(ro.State), ro.Contexts.PageInfo.HasNextPage
	for _, n := range ro.Contexts.Nodes {
		if n.Typename == "StatusContext" {
			out.Checks = append(out.Checks, Check{Status: true, Name: n.Context, State: n.State, URL: n.TargetURL})
			continue
		}
		ch := Check{Name: n.Name, State: n.Status, Conclusion: n.Conclusion, JobID: n.DatabaseID, URL: n.DetailsURL}
		if n.CheckSuite != nil && n.CheckSuite.WorkflowRun != nil {
			w := n.CheckSuite.WorkflowRun
			ch.Workflow, ch.RunID, ch.RunURL = w.Workflow.Name, w.DatabaseID, w.URL
		}
		out.Checks = append(out.Checks, ch)
	}
	return out
}

// PullChecksPage is one page of a repository's open pull requests, oldest
// first, each with its checks.
type PullChecksPage struct {
	Pulls []PullChecks
	// Next is the GraphQL cursor after this page, "" on the last.
	Next string
}

// ListPullsChecks reads first (1..100) of a repository's open pull
// requests after the GraphQL cursor after ("" from the start), oldest
// first, each with its head commit's checks: one request however many
// checks pass. A repository that is not there is GitHub's NOT_FOUND.
//
// POST /graphql
func (c *Client) ListPullsChecks(ctx context.Context, owner, repo string, first int, after string) (PullChecksPage, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return PullChecksPage{}, err
	}
	if first < 1 || first > 100 {
		return PullChecksPage{}, invalidArgument(false, "first must be 1..100")
	}
	vars := map[string]any{"owner": r.owner, "name": r.repo, "first": first}
	if after != "" {
		vars["after"] = after
	}
	var out struct {
		Repository *struct {
			PullRequests struct {
				PageInfo struct {
					HasNextPage bool   `json:"hasNextPage"`
					EndCursor   string `json:"endCursor"`
				} `json:"pageInfo"`
				Nodes []pullChecksJSON `json:"nodes"`
			} `json:"pullRequests"`
		} `json:"repository"`
	}
	if err := c.Query(ctx, PullsChecksDoc, vars, &out); err != nil {
		return PullChecksPage{}, err
	}
	if out.Repository == nil {
		return PullChecksPage{}, &Error{Code: NotFound, Status: 200, Message: "Could not resolve to a Repository with the name '" + owner + "/" + repo + "'."}
	}
	var page PullChecksPage
	for i := range out.Repository.PullRequests.Nodes {
		page.Pulls = append(page.Pulls, out.Repository.PullRequests.Nodes[i].pull())
	}
	if pi := out.Repository.PullRequests.PageInfo; pi.HasNextPage {
		page.Next = pi.EndCursor
	}
	return page, nil
}

// GetPullChecks reads one pull request with its head commit's checks. A
// number that names no pull request (or an issue) is GitHub's NOT_FOUND,
// as is a repository that is not there; Error.Message tells them apart.
//
// POST /graphql
func (c *Client) GetPullChecks(ctx context.Context, owner, repo string, number int) (PullChecks, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return PullChecks{}, err
	}
	var out struct {
		Repository *struct {
			PullRequest *pullChecksJSON `json:"pullRequest"`
		} `json:"repository"`
	}
	if err := c.Query(ctx, PullChecksDoc, map[string]any{"owner": r.owner, "name": r.repo, "number": number}, &out); err != nil {
		return PullChecks{}, err
	}
	if out.Repository == nil || out.Repository.PullRequest == nil {
		return PullChecks{}, &Error{Code: NotFound, Status: 200, Message: "Could not resolve to a PullRequest with the number of " + strconv.Itoa(number) + "."}
	}
	return out.Repository.PullRequest.pull(), nil
}

// PullMissing reports whether err is GitHub's NOT_FOUND for the pull
// request GetPullChecks named, rather than for its repository: the
// error's path ends at the pullRequest field.
func PullMissing(err error) bool {
	var e *Error
	if !errors.As(err, &e) || e.Code != NotFound {
		return false
	}
	if len(e.GraphQL) == 0 {
		return strings.Contains(e.Message, "PullRequest") // the repository resolved, the pull did not
	}
	for _, ge := range e.GraphQL {
		if n := len(ge.Path); n > 0 {
			var last string
			if json.Unmarshal(ge.Path[n-1], &last) == nil && last == "pullRequest" {
				return true
			}
		}
	}
	return false
}
