package github

import (
	"context"
	"net/http"

	gh "github.com/google/go-github/v88/github"
)

// Read runs any go-github read through this layer: conditional requests,
// bounded retries, budget tracking and error mapping all apply. Tools use
// it for endpoints the typed helpers here do not wrap.
func (c *Client) Read(ctx context.Context, do func(ctx context.Context, rest *gh.Client) (*gh.Response, error)) (Meta, error) {
	return c.read(ctx, func(ctx context.Context) (*gh.Response, error) { return do(ctx, c.rest) })
}

// Write runs any go-github write, once, and settles it.
func (c *Client) Write(ctx context.Context, do func(ctx context.Context, rest *gh.Client) (*gh.Response, error)) (Settlement, error) {
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) { return do(ctx, c.rest) })
}

// NewRequest builds a REST request relative to the API base, for endpoints
// go-github has no method for (issue dependencies, say); send it with
// rest.Do inside Read or Write.
func (c *Client) NewRequest(ctx context.Context, method, path string, body any) (*http.Request, error) {
	return c.rest.NewRequest(ctx, method, path, body)
}
