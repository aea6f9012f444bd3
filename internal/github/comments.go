package github

import (
	"context"
	"strings"
	"time"

	gh "github.com/google/go-github/v88/github"
)

// ListCommentsOptions page through an issue's comments, oldest first.
type ListCommentsOptions struct {
	// Since keeps comments updated at or after this time; zero keeps all.
	Since   time.Time
	Page    int
	PerPage int
}

// ListComments lists one page of an issue's comments.
func (c *Client) ListComments(ctx context.Context, owner, repo string, number int, o ListCommentsOptions) ([]*gh.IssueComment, Meta, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	opts := &gh.IssueListCommentsOptions{ListOptions: lo}
	if !o.Since.IsZero() {
		opts.Since = &o.Since
	}
	var out []*gh.IssueComment
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListComments(ctx, owner, repo, number, opts)
		return resp, err
	})
	return out, m, err
}

// CreateComment comments on an issue, once: it is never retried.
func (c *Client) CreateComment(ctx context.Context, owner, repo string, number int, body string) (*gh.IssueComment, Settlement, error) {
	if err := checkIssue(owner, repo, number); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	if strings.TrimSpace(body) == "" {
		return nil, NotStarted, invalidArgument(true, "a comment needs a body")
	}
	var out *gh.IssueComment
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.CreateComment(ctx, owner, repo, number, &gh.IssueComment{Body: &body})
		return resp, err
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}
