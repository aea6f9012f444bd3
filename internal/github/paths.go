package github

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	gh "github.com/google/go-github/v88/github"
)

// repoRef is an owner and repository whose names passed the one name
// check (checkRepo). Every method naming a repository takes its names from
// one, whether go-github builds the path or path does: a name GitHub would
// not accept ("widgets/issues/2?") must never reach into another endpoint.
type repoRef struct{ owner, repo string }

// refRepo checks owner and repo; a refusal is invalid_argument, settled
// not started for a write.
func refRepo(owner, repo string, write bool) (repoRef, error) {
	if err := checkRepo(owner, repo); err != nil {
		return repoRef{}, invalidArgument(write, err.Error())
	}
	return repoRef{owner: owner, repo: repo}, nil
}

// refOwner checks an owner named alone (an organization or a user).
func refOwner(owner string) (string, error) {
	if err := CheckOwner(owner); err != nil {
		return "", invalidArgument(false, err.Error())
	}
	return owner, nil
}

// path builds "repos/OWNER/REPO/SEGMENT/..." relative to the REST root,
// each segment escaped (label names hold spaces, colons and slashes).
func (r repoRef) path(segments ...any) string {
	parts := []string{"repos", url.PathEscape(r.owner), url.PathEscape(r.repo)}
	for _, s := range segments {
		parts = append(parts, url.PathEscape(fmt.Sprint(s)))
	}
	return strings.Join(parts, "/")
}

// filePath is the contents path of a repository file: each of the file
// path's segments escaped, its slashes kept.
func (r repoRef) filePath(file string) string {
	parts := strings.Split(file, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return r.path("contents") + "/" + strings.Join(parts, "/")
}

// listQuery is page and per_page as go-github sends them: each only when
// not zero.
func listQuery(o gh.ListOptions) url.Values {
	q := url.Values{}
	if o.Page != 0 {
		q.Set("page", strconv.Itoa(o.Page))
	}
	if o.PerPage != 0 {
		q.Set("per_page", strconv.Itoa(o.PerPage))
	}
	return q
}

// getJSON reads one hand-built REST path (for endpoints go-github lacks,
// or answers whose fields its types drop) into a fresh T.
func getJSON[T any](ctx context.Context, c *Client, path string, q url.Values) (T, Meta, error) {
	var out T
	if len(q) > 0 {
		path += "?" + q.Encode()
	}
	m, err := c.read(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, "GET", path, nil)
		if err != nil {
			return nil, err
		}
		// The body is read whole and decoded in one pass: go-github's
		// streaming decoder takes about three times as long over a large
		// page, which the transport has in memory anyway.
		var body bytes.Buffer
		resp, err := c.rest.Do(req, &body)
		if err != nil || body.Len() == 0 {
			return resp, err
		}
		var v T // fresh per call: a failed read must not leave a half-decoded value
		if err := decodeJSON(body.Bytes(), &v); err != nil {
			return resp, err
		}
		out = v
		return resp, nil
	})
	return out, m, err
}

// send makes one hand-built REST write, once, decoding the answer into out
// when out is not nil. As in getJSON, the answer is read whole and decoded
// in one pass, as go-github's decoder read it: the first value, nothing
// from an answer of only white space.
func (c *Client) send(ctx context.Context, method, path string, body, out any) (Settlement, error) {
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		req, err := c.rest.NewRequest(ctx, method, path, body)
		if err != nil {
			return nil, err
		}
		if out == nil {
			return c.rest.Do(req, nil)
		}
		var answer bytes.Buffer
		resp, err := c.rest.Do(req, &answer)
		if err != nil {
			return resp, err
		}
		return resp, decodeFirstJSON(answer.Bytes(), out)
	})
}
