package github

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"time"

	gh "github.com/google/go-github/v88/github"
)

// IssueChanges is one page of a repository's issues listed for a mirror:
// every state, most recently updated first.
type IssueChanges struct {
	Issues []*IssueRecord
	// ETag is the page's validator: sent back as If-None-Match, GitHub
	// answers 304 while the page is unchanged.
	ETag string
	// NotModified is true when GitHub answered 304 to the ETag sent:
	// Issues is then empty and nothing on the page changed.
	NotModified bool
	Meta        Meta
}

// ListIssueChanges lists one page of owner/repo's issues (pull requests
// included, as GitHub lists them) of every state, sorted by last update,
// newest first, updated at or after since when it is not zero. With an
// etag the request is conditional on it, and a 304 is an answer, not an
// error: a page sorted newest first changes whenever any issue on it or
// after it is updated, so an unchanged first page says nothing was. The
// query is state=all, sort=updated, direction=desc, per_page=100.
//
// GET /repos/{owner}/{repo}/issues
func (c *Client) ListIssueChanges(ctx context.Context, owner, repo string, since time.Time, page int, etag string) (IssueChanges, error) {
	var out IssueChanges
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return out, err
	}
	q := url.Values{"state": {"all"}, "sort": {"updated"}, "direction": {"desc"}, "per_page": {"100"}}
	if !since.IsZero() {
		q.Set("since", since.UTC().Format(time.RFC3339))
	}
	if page > 1 {
		q.Set("page", strconv.Itoa(page))
	}
	path := r.path("issues") + "?" + q.Encode()
	out.Meta, err = c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, http.MethodGet, path, nil)
		if err != nil {
			return nil, err
		}
		if etag != "" {
			// Set here, the transport leaves the request to this caller:
			// it neither adds its own validator nor swallows the 304.
			req.Header.Set("If-None-Match", etag)
		}
		var v []*IssueRecord
		resp, err := c.rest.Do(req, &v)
		if resp != nil && resp.Response != nil && resp.StatusCode == http.StatusNotModified && etag != "" {
			out.NotModified, out.ETag = true, etag
			return resp, nil
		}
		if err == nil && resp != nil {
			out.Issues, out.ETag = v, resp.Header.Get("ETag")
		}
		return resp, err
	})
	return out, err
}
