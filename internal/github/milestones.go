package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// ListMilestones lists one page of a repository's milestones in state
// (open, closed, all; "" is GitHub's default, open).
//
// GET /repos/{owner}/{repo}/milestones
func (c *Client) ListMilestones(ctx context.Context, owner, repo, state string, o gh.ListOptions) ([]*gh.Milestone, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	opts := &gh.MilestoneListOptions{State: state, ListOptions: o}
	var out []*gh.Milestone
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListMilestones(ctx, r.owner, r.repo, opts)
		return resp, err
	})
	return out, m, err
}
