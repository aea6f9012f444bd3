package github

import (
	"context"
	"strings"
	"time"

	gh "github.com/google/go-github/v88/github"
	"github.com/google/go-querystring/query"
)

// ListCommentsOptions page through an issue's comments, oldest first.
type ListCommentsOptions struct {
	// Since keeps comments updated at or after this time; zero keeps all.
	Since   time.Time
	Page    int
	PerPage int
}

// CommentRow is an issue comment with only what a view of it shows: a
// comment's user object alone holds some thirty fields go-github decodes
// and no view reads.
type CommentRow struct {
	ID                int64     `json:"id"`
	Body              string    `json:"body"`
	AuthorAssociation string    `json:"author_association"`
	User              RowUser   `json:"user"`
	CreatedAt         time.Time `json:"created_at"`
	UpdatedAt         time.Time `json:"updated_at"`
}

// CommentRowOf is c as a row, for the reads and writes that decode
// go-github's IssueComment (one comment, the answer to a write).
func CommentRowOf(c *gh.IssueComment) *CommentRow {
	return &CommentRow{ID: c.GetID(), Body: c.GetBody(), AuthorAssociation: c.GetAuthorAssociation(),
		User: RowUser{Login: c.GetUser().GetLogin()}, CreatedAt: c.GetCreatedAt().Time, UpdatedAt: c.GetUpdatedAt().Time}
}

// ListComments lists one page of an issue's comments.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/comments
func (c *Client) ListComments(ctx context.Context, owner, repo string, number int, o ListCommentsOptions) ([]*CommentRow, Meta, error) {
	r, err := refIssue(owner, repo, number, false)
	if err != nil {
		return nil, Meta{}, err
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	opts := &gh.IssueListCommentsOptions{ListOptions: lo}
	if !o.Since.IsZero() {
		opts.Since = &o.Since
	}
	// The query go-github would send (so cached answers stay keyed
	// alike), read through getJSON's one-pass decode.
	q, err := query.Values(opts)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	return getJSON[[]*CommentRow](ctx, c, r.path("issues", number, "comments"), q)
}

// CreateComment comments on an issue, once: it is never retried.
//
// POST /repos/{owner}/{repo}/issues/{issue_number}/comments
func (c *Client) CreateComment(ctx context.Context, owner, repo string, number int, body string) (*CommentRow, Settlement, error) {
	r, err := refIssue(owner, repo, number, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if strings.TrimSpace(body) == "" {
		return nil, NotStarted, invalidArgument(true, "a comment needs a body")
	}
	out := new(CommentRow)
	s, err := c.send(ctx, "POST", r.path("issues", number, "comments"), &gh.IssueComment{Body: &body}, out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// GetComment reads one issue comment by id. The path is built here
// because go-github's GetComment asks for the reactions preview media type,
// a separate cache entry from the plain JSON this read has always asked for.
//
// GET /repos/{owner}/{repo}/issues/comments/{comment_id}
func (c *Client) GetComment(ctx context.Context, owner, repo string, id int64) (*gh.IssueComment, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	cm, m, err := getJSON[gh.IssueComment](ctx, c, r.path("issues", "comments", id), nil)
	if err != nil {
		return nil, m, err
	}
	return &cm, m, nil
}

// EditComment replaces a comment's body, once.
//
// PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}
func (c *Client) EditComment(ctx context.Context, owner, repo string, id int64, body string) (*gh.IssueComment, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	var out *gh.IssueComment
	s, err := c.write(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.EditComment(ctx, r.owner, r.repo, id, &gh.IssueComment{Body: &body})
		return resp, err
	})
	if err != nil {
		out = nil
	}
	return out, s, err
}

// DeleteComment deletes a comment, once.
//
// DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}
func (c *Client) DeleteComment(ctx context.Context, owner, repo string, id int64) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		return c.rest.Issues.DeleteComment(ctx, r.owner, r.repo, id)
	})
}
