package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// Viewer reads the credential's own user.
//
// GET /user
func (c *Client) Viewer(ctx context.Context) (*gh.User, Meta, error) {
	var out *gh.User
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Users.Get(ctx, "")
		return resp, err
	})
	return out, m, err
}
