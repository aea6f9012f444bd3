package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// The sub-issue writes build their paths here: go-github's SubIssueService
// decodes the parent into SubIssue, which drops sub_issues_summary, the
// count the link tools report.

// ListSubIssues lists one page of an issue's sub-issues, in their order.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/sub_issues
func (c *Client) ListSubIssues(ctx context.Context, owner, repo string, number int, o gh.ListOptions) ([]*gh.Issue, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var subs []*gh.SubIssue
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		subs, resp, err = c.rest.SubIssue.ListByIssue(ctx, r.owner, r.repo, int64(number), &o)
		return resp, err
	})
	out := make([]*gh.Issue, 0, len(subs))
	for _, s := range subs {
		out = append(out, (*gh.Issue)(s))
	}
	noteIssuesRead(ctx, out)
	return out, m, err
}

// AddSubIssue makes the issue with database id subID a sub-issue of
// number, once, and returns the parent after.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/sub_issues
func (c *Client) AddSubIssue(ctx context.Context, owner, repo string, number int, subID int64) (*IssueRecord, Settlement, error) {
	return c.subIssueWrite(ctx, owner, repo, "POST", number, "sub_issues", map[string]int64{"sub_issue_id": subID})
}

// RemoveSubIssue detaches the sub-issue with database id subID from
// number, once, and returns the parent after.
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/sub_issue
func (c *Client) RemoveSubIssue(ctx context.Context, owner, repo string, number int, subID int64) (*IssueRecord, Settlement, error) {
	return c.subIssueWrite(ctx, owner, repo, "DELETE", number, "sub_issue", map[string]int64{"sub_issue_id": subID})
}

// SubIssueMove places a sub-issue right after AfterID or right before
// BeforeID (database ids of siblings); set one of them.
type SubIssueMove struct {
	SubIssueID, AfterID, BeforeID int64
}

// ReprioritizeSubIssue moves a sub-issue among its siblings, once, and
// returns the parent after.
//
// PATCH /repos/{owner}/{repo}/issues/{issue_number}/sub_issues/priority
func (c *Client) ReprioritizeSubIssue(ctx context.Context, owner, repo string, number int, mv SubIssueMove) (*IssueRecord, Settlement, error) {
	body := map[string]int64{"sub_issue_id": mv.SubIssueID}
	if mv.AfterID != 0 {
		body["after_id"] = mv.AfterID
	}
	if mv.BeforeID != 0 {
		body["before_id"] = mv.BeforeID
	}
	return c.subIssueWrite(ctx, owner, repo, "PATCH", number, "sub_issues/priority", body)
}

func (c *Client) subIssueWrite(ctx context.Context, owner, repo, method string, number int, tail string, body map[string]int64) (*IssueRecord, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	var rec IssueRecord
	s, err := c.send(ctx, method, r.path("issues", number)+"/"+tail, body, &rec)
	if err != nil {
		return nil, s, err
	}
	return &rec, s, nil
}
