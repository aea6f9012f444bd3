package issues

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// reviewThreads reads one page of a pull request's review threads (one
// GraphQL query) from the upstream cursor after, and returns the cursor
// of the next page ("" on the last). An issue's number is refused with
// not_a_pull_request: only pull requests have review threads. Each
// comment's text is decided by u (lockdown); withheld counts those it
// withheld.
func reviewThreads(ctx context.Context, c *github.Client, u *toolkit.Untrusted, in ListIssueItemsIn, after string) (rows []IssueItem, next string, withheld int, err error) {
	page, err := c.ListReviewThreads(ctx, in.Owner, in.Repo, int(in.IssueNumber), int(in.PageSize), after)
	if err != nil {
		return nil, "", 0, err
	}
	if !page.IsPull {
		return nil, "", 0, NotAPullRequest(in.Owner, in.Repo, int(in.IssueNumber), "issue_number")
	}
	rows = make([]IssueItem, 0, len(page.Threads))
	for _, t := range page.Threads {
		if t.Repo == "" {
			t.Repo = in.Owner + "/" + in.Repo
		}
		v, n, err := u.Thread(t)
		if err != nil {
			return nil, "", 0, err
		}
		withheld += n
		rows = append(rows, IssueItem{ThreadID: v.ThreadID, Path: v.Path, Line: v.Line, Resolved: &v.Resolved, Outdated: v.Outdated,
			Comments: v.Comments, CommentsTruncated: v.CommentsTruncated})
	}
	return rows, page.Next, withheld, nil
}

// NotAPullRequest refuses a pull request's collection or action asked of
// an issue, with the issue's comments as the repair: an issue's
// conversation is its comments.
func NotAPullRequest(owner, repo string, number int, field string) *contract.Error {
	e := contract.Errorf(contract.CodeNotAPullRequest, "%s/%s#%d is an issue, not a pull request: only pull requests have review threads", owner, repo, number).
		WithField(field, "names an issue")
	return e.WithRepair(contract.Repair{NextStep: "read the issue's comments instead, or name a pull request's number",
		Tool: toolkit.NameListIssueItems, Arguments: map[string]any{"owner": owner, "repo": repo, "issue_number": number, "collection": "comments"}})
}
