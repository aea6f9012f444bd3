package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// ListPulls lists one page of a repository's pull requests in state
// (open, closed, all). Reports use it where the issues list cannot serve
// pull requests: a repository with issues turned off answers its issues
// list with 410.
//
// GET /repos/{owner}/{repo}/pulls
func (c *Client) ListPulls(ctx context.Context, owner, repo, state string, o gh.ListOptions) ([]*gh.PullRequest, Meta, error) {
	return c.ListPullsBy(ctx, owner, repo, PullsQuery{State: state, Page: o.Page, PerPage: o.PerPage})
}
