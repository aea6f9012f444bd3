package github

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"

	gh "github.com/google/go-github/v88/github"
)

// The reads github_report_release_prs makes beyond the lists every report
// uses: a pull request's head and base, the pull requests against one
// base branch, a file at a commit, and the releases.

// PullsQuery selects and orders one page of a repository's pull
// requests: State is open, closed or all; Base keeps those into one
// branch; Sort is created, updated, popularity or long-running.
type PullsQuery struct {
	State, Base, Sort, Direction string
	Page, PerPage                int
}

// ListPullsBy lists one page of a repository's pull requests as q says.
//
// GET /repos/{owner}/{repo}/pulls
func (c *Client) ListPullsBy(ctx context.Context, owner, repo string, q PullsQuery) ([]*gh.PullRequest, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	lo, err := pageOpts(q.Page, q.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	opts := &gh.PullRequestListOptions{State: q.State, Base: q.Base, Sort: q.Sort, Direction: q.Direction, ListOptions: lo}
	var out []*gh.PullRequest
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.PullRequests.List(ctx, r.owner, r.repo, opts)
		return resp, err
	})
	return out, m, err
}

// GetPull reads one pull request: its head commit and base branch, which
// a search result does not carry.
//
// GET /repos/{owner}/{repo}/pulls/{pull_number}
func (c *Client) GetPull(ctx context.Context, owner, repo string, number int) (*gh.PullRequest, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out *gh.PullRequest
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.PullRequests.Get(ctx, r.owner, r.repo, number)
		return resp, err
	})
	return out, m, err
}

// GetFileAt reads a repository file as it is at ref (a commit SHA, branch
// or tag, sent as the ref query parameter; "" is the default branch). A
// 404 means the file is not there at that ref (or the ref does not exist).
// A path that names a directory is answered with its listing, an array:
// that is an entry of Type "dir" (no content), so a caller looking for a
// file goes on as it does for any entry that is not one.
//
// GET /repos/{owner}/{repo}/contents/{path}
func (c *Client) GetFileAt(ctx context.Context, owner, repo, file, ref string) (ContentEntry, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return ContentEntry{}, Meta{}, err
	}
	var q url.Values
	if ref != "" {
		q = url.Values{"ref": {ref}}
	}
	raw, m, err := getJSON[json.RawMessage](ctx, c, r.filePath(file), q)
	if err != nil {
		return ContentEntry{}, m, err
	}
	if b := bytes.TrimLeft(raw, " \t\r\n"); len(b) > 0 && b[0] == '[' {
		return ContentEntry{Type: "dir", Path: file}, m, nil
	}
	var out ContentEntry
	if err := decodeJSON(raw, &out); err != nil {
		return ContentEntry{}, m, &Error{Code: MalformedResponse, Status: 200, Temporary: true, cause: err,
			Message: "GitHub's contents answer could not be read: " + err.Error()}
	}
	return out, m, nil
}

// rawFileLimit is how much of a file GetRawFileAt keeps: a changelog's
// newest entries are at its top, and a file can be 100 MB.
const rawFileLimit = 8 << 20

// GetRawFileAt reads a file's bytes at ref through the raw media type,
// which serves files up to 100 MB: for one over 1 MB the contents API's
// JSON carries no content (encoding "none"). The first rawFileLimit bytes
// are kept.
//
// GET /repos/{owner}/{repo}/contents/{path}
func (c *Client) GetRawFileAt(ctx context.Context, owner, repo, file, ref string) ([]byte, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	path := r.filePath(file)
	if ref != "" {
		path += "?" + url.Values{"ref": {ref}}.Encode()
	}
	var out prefixWriter
	m, err := c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, "GET", path, nil)
		if err != nil {
			return nil, err
		}
		req.Header.Set("Accept", "application/vnd.github.raw+json")
		out = prefixWriter{limit: rawFileLimit} // fresh per attempt
		return c.rest.Do(req, &out)
	})
	return out.buf, m, err
}

// GetReadmeAt reads the repository's preferred README at ref (GitHub
// chooses it: any README name and extension, in .github, the root or
// docs), as the contents API answers a file: over 1 MB its content is
// left out (encoding "none"), and GetRawFileAt reads it by its Path. A
// 404 means there is no README at that ref.
//
// GET /repos/{owner}/{repo}/readme
func (c *Client) GetReadmeAt(ctx context.Context, owner, repo, ref string) (ContentEntry, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return ContentEntry{}, Meta{}, err
	}
	var q url.Values
	if ref != "" {
		q = url.Values{"ref": {ref}}
	}
	return getJSON[ContentEntry](ctx, c, r.path("readme"), q)
}

// prefixWriter keeps the first limit bytes written to it and drops the
// rest without failing, so the answer is read to its end.
type prefixWriter struct {
	buf   []byte
	limit int
}

func (w *prefixWriter) Write(p []byte) (int, error) {
	if room := w.limit - len(w.buf); room > 0 {
		w.buf = append(w.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

// ListReleases lists one page of a repository's releases, newest first
// (drafts only to those who may push).
//
// GET /repos/{owner}/{repo}/releases
func (c *Client) ListReleases(ctx context.Context, owner, repo string, o gh.ListOptions) ([]*gh.RepositoryRelease, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	var out []*gh.RepositoryRelease
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Repositories.ListReleases(ctx, r.owner, r.repo, &lo)
		return resp, err
	})
	return out, m, err
}
