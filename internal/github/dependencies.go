package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// go-github v88 has no issue-dependency endpoints: their paths are built
// here.

// ListBlockedBy lists one page of the issues blocking number.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by
func (c *Client) ListBlockedBy(ctx context.Context, owner, repo string, number int, o gh.ListOptions) ([]*gh.Issue, Meta, error) {
	return c.listDependencies(ctx, owner, repo, number, "blocked_by", o)
}

// ListBlocking lists one page of the issues number blocks.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking
func (c *Client) ListBlocking(ctx context.Context, owner, repo string, number int, o gh.ListOptions) ([]*gh.Issue, Meta, error) {
	return c.listDependencies(ctx, owner, repo, number, "blocking", o)
}

func (c *Client) listDependencies(ctx context.Context, owner, repo string, number int, kind string, o gh.ListOptions) ([]*gh.Issue, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	out, m, err := getJSON[[]*gh.Issue](ctx, c, r.path("issues", number, "dependencies", kind), listQuery(o))
	noteIssuesRead(ctx, out)
	return out, m, err
}

// AddBlockedBy records that the issue with database id blockerID blocks
// number, once.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by
func (c *Client) AddBlockedBy(ctx context.Context, owner, repo string, number int, blockerID int64) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.send(ctx, "POST", r.path("issues", number, "dependencies", "blocked_by"), map[string]int64{"issue_id": blockerID}, nil)
}

// RemoveBlockedBy removes that dependency, once.
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}
func (c *Client) RemoveBlockedBy(ctx context.Context, owner, repo string, number int, blockerID int64) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.send(ctx, "DELETE", r.path("issues", number, "dependencies", "blocked_by", blockerID), nil, nil)
}
