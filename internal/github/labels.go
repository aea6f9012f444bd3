package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// AddLabels adds labels to an issue, keeping the ones it has, and returns
// the issue's labels after. Labels the repository lacks are created.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/labels
func (c *Client) AddLabels(ctx context.Context, owner, repo string, number int, labels []string) ([]*gh.Label, Settlement, error) {
	r, err := refIssue(owner, repo, number, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if len(labels) == 0 {
		return nil, NotStarted, invalidArgument(true, "no labels to add")
	}
	var out []*gh.Label
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.AddLabelsToIssue(ctx, r.owner, r.repo, number, labels)
		return resp, err
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}

// RemoveLabel takes one label off an issue and returns the labels left.
// GitHub answers not_found both when the issue is missing and when the
// label is not on it; the message tells them apart ("Label does not
// exist").
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}
func (c *Client) RemoveLabel(ctx context.Context, owner, repo string, number int, label string) ([]*gh.Label, Settlement, error) {
	r, err := refIssue(owner, repo, number, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if label == "" {
		return nil, NotStarted, invalidArgument(true, "no label to remove")
	}
	var out []*gh.Label
	// go-github's RemoveLabelForIssue discards the labels GitHub returns.
	s, err := c.send(ctx, "DELETE", r.path("issues", number, "labels", label), nil, &out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// ListLabels lists one page of a repository's labels.
//
// GET /repos/{owner}/{repo}/labels
func (c *Client) ListLabels(ctx context.Context, owner, repo string, o gh.ListOptions) ([]*gh.Label, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out []*gh.Label
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListLabels(ctx, r.owner, r.repo, &o)
		return resp, err
	})
	return out, m, err
}

// CreateLabel creates a repository label, once.
//
// POST /repos/{owner}/{repo}/labels
func (c *Client) CreateLabel(ctx context.Context, owner, repo, name, color string) (*gh.Label, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	var out *gh.Label
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.CreateLabel(ctx, r.owner, r.repo, &gh.Label{Name: &name, Color: &color})
		return resp, err
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}
