package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// Related issues ("Relates to"). GitHub serves them only in REST API
// version 2026-03-10 ("List issues related to an issue", "Add a related
// issue", "Remove a related issue" at
// docs.github.com/rest/issues/issues?apiVersion=2026-03-10): these calls name
// that version, while every other call keeps APIVersion. A server that
// does not serve them (an older GitHub Enterprise Server) answers 404, or
// 400 when it does not know the version; the caller tells those apart from
// a missing issue.

// RelatedAPIVersion is the REST API version that serves related issues.
const RelatedAPIVersion = "2026-03-10"

// ListRelated lists one page of the issues related to number.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/related
func (c *Client) ListRelated(ctx context.Context, owner, repo string, number int, o gh.ListOptions) ([]*gh.Issue, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	path := r.path("issues", number, "related")
	if q := listQuery(o); len(q) > 0 {
		path += "?" + q.Encode()
	}
	var out []*gh.Issue
	m, err := c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, "GET", path, nil, gh.WithVersion(RelatedAPIVersion))
		if err != nil {
			return nil, err
		}
		var v []*gh.Issue // fresh per call: a failed read must not leave a half-decoded value
		resp, err := c.rest.Do(req, &v)
		out = v
		return resp, err
	})
	noteIssuesRead(ctx, out)
	return out, m, err
}

// AddRelated relates the issue with database id otherID to number (and so
// number to it), once.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/related
func (c *Client) AddRelated(ctx context.Context, owner, repo string, number int, otherID int64) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.sendVersioned(ctx, "POST", r.path("issues", number, "related"), map[string]int64{"issue_id": otherID})
}

// RemoveRelated removes that link from both issues, once.
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/related/{issue_id}
func (c *Client) RemoveRelated(ctx context.Context, owner, repo string, number int, otherID int64) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.sendVersioned(ctx, "DELETE", r.path("issues", number, "related", otherID), nil)
}

func (c *Client) sendVersioned(ctx context.Context, method, path string, body any) (Settlement, error) {
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, method, path, body, gh.WithVersion(RelatedAPIVersion))
		if err != nil {
			return nil, err
		}
		return c.rest.Do(req, nil)
	})
}
