package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	gh "github.com/google/go-github/v88/github"
)

// GetIssue reads one issue (or pull request, which GitHub also serves as
// an issue).
func (c *Client) GetIssue(ctx context.Context, owner, repo string, number int) (*gh.Issue, Meta, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	var out *gh.Issue
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.Get(ctx, owner, repo, number)
		return resp, err
	})
	return out, m, err
}

// ListIssuesOptions filter a repository's issues, as GitHub's list
// endpoint does. Zero values are left to GitHub's defaults (open issues,
// newest first, 30 per page).
type ListIssuesOptions struct {
	State     string // open, closed, all
	Labels    []string
	Assignee  string // a login, "none" or "*"
	Creator   string
	Milestone string // a number, "none" or "*"
	Type      string // an issue type name, "none" or "*"
	Since     time.Time
	Sort      string // created, updated, comments
	Direction string // asc, desc
	Page      int
	PerPage   int
}

// ListIssues lists one page of a repository's issues. GitHub includes pull
// requests (they carry a pull_request key). Meta.NextPage says whether
// there is more.
func (c *Client) ListIssues(ctx context.Context, owner, repo string, o ListIssuesOptions) ([]*gh.Issue, Meta, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	opts := &gh.IssueListByRepoOptions{State: o.State, Labels: o.Labels, Assignee: o.Assignee, Creator: o.Creator,
		Milestone: o.Milestone, Type: o.Type, Since: o.Since, Sort: o.Sort, Direction: o.Direction, ListOptions: lo}
	var out []*gh.Issue
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListByRepo(ctx, owner, repo, opts)
		return resp, err
	})
	return out, m, err
}

// NewIssue is an issue to create. Labels, assignees, milestone and type
// need triage access; GitHub silently drops them for others.
type NewIssue struct {
	Title     string
	Body      string
	Labels    []string
	Assignees []string
	Milestone *int
	Type      string
}

// CreateIssue creates an issue, once: it is never retried.
func (c *Client) CreateIssue(ctx context.Context, owner, repo string, in NewIssue) (*gh.Issue, Settlement, error) {
	if err := checkRepo(owner, repo); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, NotStarted, invalidArgument(true, "an issue needs a title")
	}
	req := &gh.IssueRequest{Title: &in.Title, Milestone: in.Milestone}
	if in.Body != "" {
		req.Body = &in.Body
	}
	if len(in.Labels) > 0 {
		req.Labels = &in.Labels
	}
	if len(in.Assignees) > 0 {
		req.Assignees = &in.Assignees
	}
	if in.Type != "" {
		req.Type = &in.Type
	}
	var out *gh.Issue
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.Create(ctx, owner, repo, req)
		return resp, err
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}

// IssueEdit is a partial update: nil fields are left as they are. Labels
// and Assignees replace the whole set (a pointer to an empty slice clears
// it); use AddLabels and RemoveLabel to change one label without racing
// other writers.
type IssueEdit struct {
	Title       *string   `json:"title,omitempty"`
	Body        *string   `json:"body,omitempty"`
	State       *string   `json:"state,omitempty"`        // open, closed
	StateReason *string   `json:"state_reason,omitempty"` // completed, not_planned, duplicate, reopened
	Labels      *[]string `json:"labels,omitempty"`
	Assignees   *[]string `json:"assignees,omitempty"`
	// Milestone sets the milestone by number; ClearMilestone removes it.
	Milestone      *int `json:"-"`
	ClearMilestone bool `json:"-"`
	// Type sets the issue type by name; ClearType removes it.
	Type      *string `json:"-"`
	ClearType bool    `json:"-"`
}

// MarshalJSON sends milestone and type as JSON null when cleared, which
// go-github's IssueRequest cannot express.
func (e IssueEdit) MarshalJSON() ([]byte, error) {
	type fields IssueEdit // without this method
	wire := struct {
		fields
		Milestone json.RawMessage `json:"milestone,omitempty"`
		Type      json.RawMessage `json:"type,omitempty"`
	}{fields: fields(e)}
	var err error
	switch {
	case e.ClearMilestone:
		wire.Milestone = json.RawMessage("null")
	case e.Milestone != nil:
		wire.Milestone, err = json.Marshal(*e.Milestone)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case e.ClearType:
		wire.Type = json.RawMessage("null")
	case e.Type != nil:
		wire.Type, err = json.Marshal(*e.Type)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(wire)
}

func (e IssueEdit) check() error {
	if e.Title == nil && e.Body == nil && e.State == nil && e.StateReason == nil && e.Labels == nil &&
		e.Assignees == nil && e.Milestone == nil && !e.ClearMilestone && e.Type == nil && !e.ClearType {
		return errors.New("the edit changes nothing")
	}
	if e.Title != nil && strings.TrimSpace(*e.Title) == "" {
		return errors.New("an issue's title cannot be empty")
	}
	if e.Milestone != nil && e.ClearMilestone || e.Type != nil && e.ClearType {
		return errors.New("a field cannot be both set and cleared")
	}
	return nil
}

// EditIssue updates an issue, once: it is never retried.
func (c *Client) EditIssue(ctx context.Context, owner, repo string, number int, edit IssueEdit) (*gh.Issue, Settlement, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	if err := edit.check(); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	var out *gh.Issue
	s, err := c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, "PATCH", fmt.Sprintf("repos/%s/%s/issues/%d", owner, repo, number), edit)
		if err != nil {
			return nil, err
		}
		out = new(gh.Issue)
		return c.rest.Do(req, out)
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}

// AddLabels adds labels to an issue, keeping the ones it has, and returns
// the issue's labels after. Labels the repository lacks are created.
func (c *Client) AddLabels(ctx context.Context, owner, repo string, number int, labels []string) ([]*gh.Label, Settlement, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	if len(labels) == 0 {
		return nil, NotStarted, invalidArgument(true, "no labels to add")
	}
	var out []*gh.Label
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.AddLabelsToIssue(ctx, owner, repo, number, labels)
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
func (c *Client) RemoveLabel(ctx context.Context, owner, repo string, number int, label string) ([]*gh.Label, Settlement, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	if label == "" {
		return nil, NotStarted, invalidArgument(true, "no label to remove")
	}
	var out []*gh.Label
	s, err := c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		// Label names may hold spaces, colons, slashes: escape the segment.
		u := fmt.Sprintf("repos/%s/%s/issues/%d/labels/%s", owner, repo, number, url.PathEscape(label))
		req, err := c.rest.NewRequest(ctx, "DELETE", u, nil)
		if err != nil {
			return nil, err
		}
		return c.rest.Do(req, &out)
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}
