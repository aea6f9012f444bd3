package tools

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
	gh "github.com/google/go-github/v88/github"
)

// repoPath builds "repos/OWNER/REPO/..." with every segment escaped: the
// paths below are built by hand for endpoints go-github lacks, and an
// owner or repository name must never reach into another path.
func repoPath(owner, repo string, segments ...any) string {
	parts := []string{"repos", url.PathEscape(owner), url.PathEscape(repo)}
	for _, s := range segments {
		parts = append(parts, url.PathEscape(fmt.Sprint(s)))
	}
	return strings.Join(parts, "/")
}

// pageQuery is GitHub's page and per_page parameters.
func pageQuery(page, perPage int) url.Values {
	q := url.Values{}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	if perPage > 0 {
		q.Set("per_page", strconv.Itoa(perPage))
	}
	return q
}

// getJSON reads one REST resource into a fresh T through the access layer
// (conditional requests, bounded retries, error mapping).
func getJSON[T any](ctx context.Context, c *github.Client, path string, q url.Values) (T, github.Meta, error) {
	var out T
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	m, err := c.Read(ctx, func(ctx context.Context, rest *gh.Client) (*gh.Response, error) {
		req, err := c.NewRequest(ctx, "GET", path, nil)
		if err != nil {
			return nil, err
		}
		var v T // fresh per attempt: a retried read must not merge into a half-decoded value
		resp, err := rest.Do(req, &v)
		out = v
		return resp, err
	})
	return out, m, err
}

// sendJSON makes one REST write (never retried) and decodes its answer
// into out when out is not nil.
func sendJSON(ctx context.Context, c *github.Client, method, path string, body, out any) (github.Settlement, error) {
	return c.Write(ctx, func(ctx context.Context, rest *gh.Client) (*gh.Response, error) {
		req, err := c.NewRequest(ctx, method, path, body)
		if err != nil {
			return nil, err
		}
		return rest.Do(req, out)
	})
}
