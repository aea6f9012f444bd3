package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// ListAssignees lists one page of the users who can be assigned to the
// repository's issues.
//
// GET /repos/{owner}/{repo}/assignees
func (c *Client) ListAssignees(ctx context.Context, owner, repo string, o gh.ListOptions) ([]*gh.User, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out []*gh.User
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListAssignees(ctx, r.owner, r.repo, &o)
		return resp, err
	})
	return out, m, err
}

// AddAssignees assigns logins to an issue, keeping its other assignees,
// once, and returns the issue after.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/assignees
func (c *Client) AddAssignees(ctx context.Context, owner, repo string, number int, logins []string) (*gh.Issue, Settlement, error) {
	return c.assign(ctx, owner, repo, number, logins, true)
}

// RemoveAssignees unassigns logins from an issue, once, and returns the
// issue after.
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees
func (c *Client) RemoveAssignees(ctx context.Context, owner, repo string, number int, logins []string) (*gh.Issue, Settlement, error) {
	return c.assign(ctx, owner, repo, number, logins, false)
}

func (c *Client) assign(ctx context.Context, owner, repo string, number int, logins []string, add bool) (*gh.Issue, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	var out *gh.Issue
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		if add {
			out, resp, err = c.rest.Issues.AddAssignees(ctx, r.owner, r.repo, number, logins)
		} else {
			out, resp, err = c.rest.Issues.RemoveAssignees(ctx, r.owner, r.repo, number, logins)
		}
		return resp, err
	})
	return out, s, err
}
