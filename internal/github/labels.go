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

// LabelFields are a repository label's editable fields as GitHub's label
// routes take them. Empty strings are left out; Description, when not
// nil, is sent even when empty (that clears it).
type LabelFields struct {
	Name        string  `json:"name,omitempty"`
	NewName     string  `json:"new_name,omitempty"`
	Color       string  `json:"color,omitempty"`
	Description *string `json:"description,omitempty"`
}

// GetLabel reads one repository label by name; GitHub matches the name
// without regard to case, so the answer carries the label's own spelling.
//
// GET /repos/{owner}/{repo}/labels/{name}
func (c *Client) GetLabel(ctx context.Context, owner, repo, name string) (*gh.Label, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	if name == "" {
		return nil, Meta{}, invalidArgument(false, "no label name")
	}
	return getJSON[*gh.Label](ctx, c, r.path("labels", name), nil)
}

// CreateRepoLabel creates a repository label with the fields given
// (Name required; NewName is not sent).
//
// POST /repos/{owner}/{repo}/labels
func (c *Client) CreateRepoLabel(ctx context.Context, owner, repo string, f LabelFields) (*gh.Label, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if f.Name == "" {
		return nil, NotStarted, invalidArgument(true, "no label name")
	}
	f.NewName = ""
	var out *gh.Label
	s, err := c.send(ctx, "POST", r.path("labels"), f, &out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// EditLabel changes the label called name (NewName renames it; Name is
// not sent) and returns it as it stands after.
//
// PATCH /repos/{owner}/{repo}/labels/{name}
func (c *Client) EditLabel(ctx context.Context, owner, repo, name string, f LabelFields) (*gh.Label, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if name == "" {
		return nil, NotStarted, invalidArgument(true, "no label name")
	}
	f.Name = ""
	var out *gh.Label
	s, err := c.send(ctx, "PATCH", r.path("labels", name), f, &out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// DeleteLabel deletes a repository label, which also takes it off every
// issue and pull request that carries it.
//
// DELETE /repos/{owner}/{repo}/labels/{name}
func (c *Client) DeleteLabel(ctx context.Context, owner, repo, name string) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	if name == "" {
		return NotStarted, invalidArgument(true, "no label name")
	}
	return c.send(ctx, "DELETE", r.path("labels", name), nil, nil)
}
