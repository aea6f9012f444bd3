package github

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

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

// MilestoneFields are a milestone's editable fields as GitHub's milestone
// routes take them. Empty Title and State are left out; Description, when
// not nil, is sent even when empty; DueOn, when not nil, is sent as the
// time it points at, or as null (which clears the due date) when that is
// the zero time.
type MilestoneFields struct {
	Title       string
	State       string // open, closed
	Description *string
	DueOn       *time.Time
}

// MarshalJSON sends only the fields set, due_on as null to clear it.
func (f MilestoneFields) MarshalJSON() ([]byte, error) {
	body := map[string]any{}
	if f.Title != "" {
		body["title"] = f.Title
	}
	if f.State != "" {
		body["state"] = f.State
	}
	if f.Description != nil {
		body["description"] = *f.Description
	}
	if f.DueOn != nil {
		if f.DueOn.IsZero() {
			body["due_on"] = nil
		} else {
			body["due_on"] = f.DueOn.UTC().Format(time.RFC3339)
		}
	}
	return json.Marshal(body)
}

// refMilestone is refRepo for a method naming a milestone.
func refMilestone(owner, repo string, number int, write bool) (repoRef, error) {
	r, err := refRepo(owner, repo, write)
	if err != nil {
		return r, err
	}
	if number < 1 {
		return repoRef{}, invalidArgument(write, fmt.Sprintf("milestone number %d: numbers start at 1", number))
	}
	return r, nil
}

// GetMilestone reads one milestone by number.
//
// GET /repos/{owner}/{repo}/milestones/{milestone_number}
func (c *Client) GetMilestone(ctx context.Context, owner, repo string, number int) (*gh.Milestone, Meta, error) {
	r, err := refMilestone(owner, repo, number, false)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[*gh.Milestone](ctx, c, r.path("milestones", number), nil)
}

// CreateMilestone creates a milestone (Title required).
//
// POST /repos/{owner}/{repo}/milestones
func (c *Client) CreateMilestone(ctx context.Context, owner, repo string, f MilestoneFields) (*gh.Milestone, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if f.Title == "" {
		return nil, NotStarted, invalidArgument(true, "no milestone title")
	}
	var out *gh.Milestone
	s, err := c.send(ctx, "POST", r.path("milestones"), f, &out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// EditMilestone changes a milestone and returns it as it stands after.
//
// PATCH /repos/{owner}/{repo}/milestones/{milestone_number}
func (c *Client) EditMilestone(ctx context.Context, owner, repo string, number int, f MilestoneFields) (*gh.Milestone, Settlement, error) {
	r, err := refMilestone(owner, repo, number, true)
	if err != nil {
		return nil, NotStarted, err
	}
	var out *gh.Milestone
	s, err := c.send(ctx, "PATCH", r.path("milestones", number), f, &out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// DeleteMilestone deletes a milestone; its issues keep existing, without
// a milestone.
//
// DELETE /repos/{owner}/{repo}/milestones/{milestone_number}
func (c *Client) DeleteMilestone(ctx context.Context, owner, repo string, number int) (Settlement, error) {
	r, err := refMilestone(owner, repo, number, true)
	if err != nil {
		return NotStarted, err
	}
	return c.send(ctx, "DELETE", r.path("milestones", number), nil, nil)
}
