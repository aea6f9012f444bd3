package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// GetRepo reads a repository.
//
// GET /repos/{owner}/{repo}
func (c *Client) GetRepo(ctx context.Context, owner, repo string) (*gh.Repository, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out *gh.Repository
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.Get(ctx, r.owner, r.repo)
		return resp, err
	})
	return out, m, err
}

// ListRepoIssueTypes lists the issue types enabled for a repository, whole
// (GitHub does not page it). go-github v88 has only the organization's
// list, so the path is built here.
//
// GET /repos/{owner}/{repo}/issue-types
func (c *Client) ListRepoIssueTypes(ctx context.Context, owner, repo string) ([]*gh.IssueType, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[[]*gh.IssueType](ctx, c, r.path("issue-types"), nil)
}

// ListViewerRepos lists one page of the repositories the credential's user
// can reach.
//
// GET /user/repos
func (c *Client) ListViewerRepos(ctx context.Context, o gh.ListOptions) ([]*gh.Repository, Meta, error) {
	var out []*gh.Repository
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.ListByAuthenticatedUser(ctx, &gh.RepositoryListByAuthenticatedUserOptions{ListOptions: o})
		return resp, err
	})
	return out, m, err
}

// ListOrgRepos lists one page of an organization's repositories, in name
// order (GitHub's default for organizations is newest first, which moves
// every repository down a page when one is created between two reads).
//
// GET /orgs/{org}/repos
func (c *Client) ListOrgRepos(ctx context.Context, org string, o gh.ListOptions) ([]*gh.Repository, Meta, error) {
	org, err := refOwner(org)
	if err != nil {
		return nil, Meta{}, err
	}
	var out []*gh.Repository
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.ListByOrg(ctx, org, &gh.RepositoryListByOrgOptions{Sort: "full_name", Direction: "asc", ListOptions: o})
		return resp, err
	})
	return out, m, err
}

// ListUserRepos lists one page of a user's public repositories, in name
// order.
//
// GET /users/{username}/repos
func (c *Client) ListUserRepos(ctx context.Context, user string, o gh.ListOptions) ([]*gh.Repository, Meta, error) {
	user, err := refOwner(user)
	if err != nil {
		return nil, Meta{}, err
	}
	var out []*gh.Repository
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.ListByUser(ctx, user, &gh.RepositoryListByUserOptions{Sort: "full_name", Direction: "asc", ListOptions: o})
		return resp, err
	})
	return out, m, err
}
