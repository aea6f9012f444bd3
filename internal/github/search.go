package github

import (
	"context"
	"strings"

	gh "github.com/google/go-github/v88/github"
)

// SearchOptions order and page search results. GitHub returns at most
// 1,000 results for any query.
type SearchOptions struct {
	Sort    string // comments, created, updated; "" is best match
	Order   string // asc, desc
	Page    int
	PerPage int
}

// SearchIssues runs an issue search (GitHub's search syntax: repo:,
// is:issue, label:, ...). Search draws on its own, smaller rate budget
// ("search", 30 a minute).
//
// GET /search/issues
func (c *Client) SearchIssues(ctx context.Context, query string, o SearchOptions) (*gh.IssuesSearchResult, Meta, error) {
	if strings.TrimSpace(query) == "" {
		return nil, Meta{}, invalidArgument(false, "an empty search query")
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	opts := &gh.SearchOptions{Sort: o.Sort, Order: o.Order, ListOptions: lo}
	var out *gh.IssuesSearchResult
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Search.Issues(ctx, query, opts)
		return resp, err
	})
	if out != nil {
		noteIssuesRead(ctx, out.Issues)
	}
	return out, m, err
}
