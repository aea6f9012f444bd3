package github

import (
	"context"
	"net/url"

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

// OwnerRepo is a repository as an owner's listing shows it, with only the
// fields ghgate reads from it: a listing page of 100 repositories is about
// half a megabyte, which go-github's full Repository type takes several
// times longer to decode.
type OwnerRepo struct {
	Name      string `json:"name"`
	Archived  bool   `json:"archived"`
	HasIssues bool   `json:"has_issues"`
}

// GetName, GetArchived and GetHasIssues read a repository that may be nil.
func (r *OwnerRepo) GetName() string    { return get(r).Name }
func (r *OwnerRepo) GetArchived() bool  { return get(r).Archived }
func (r *OwnerRepo) GetHasIssues() bool { return get(r).HasIssues }

func get(r *OwnerRepo) OwnerRepo {
	if r == nil {
		return OwnerRepo{}
	}
	return *r
}

// ListOrgRepos lists one page of an organization's repositories, in name
// order (GitHub's default for organizations is newest first, which moves
// every repository down a page when one is created between two reads).
//
// GET /orgs/{org}/repos
func (c *Client) ListOrgRepos(ctx context.Context, org string, o gh.ListOptions) ([]*OwnerRepo, Meta, error) {
	org, err := refOwner(org)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[[]*OwnerRepo](ctx, c, "orgs/"+url.PathEscape(org)+"/repos", byName(o))
}

// ListUserRepos lists one page of a user's public repositories, in name
// order.
//
// GET /users/{username}/repos
func (c *Client) ListUserRepos(ctx context.Context, user string, o gh.ListOptions) ([]*OwnerRepo, Meta, error) {
	user, err := refOwner(user)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[[]*OwnerRepo](ctx, c, "users/"+url.PathEscape(user)+"/repos", byName(o))
}

// byName is a repository listing's query, sorted by full name ascending.
func byName(o gh.ListOptions) url.Values {
	q := listQuery(o)
	q.Set("sort", "full_name")
	q.Set("direction", "asc")
	return q
}
