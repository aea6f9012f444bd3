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
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	var out []*gh.PullRequest
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.PullRequests.List(ctx, r.owner, r.repo, &gh.PullRequestListOptions{State: state, ListOptions: lo})
		return resp, err
	})
	return out, m, err
}
