package github

import (
	"context"
	"encoding/base64"
	"strings"
)

// The contents paths are built here: go-github's GetContents escapes the
// file path as a whole URL path (leaving ';' and ',' as they are, and
// prefixing "./" to a first segment holding a colon), where ghgate escapes
// each segment.

// ContentEntry is the part of GitHub's contents answer ghgate reads: one
// entry of a directory listing, or a file with its content.
type ContentEntry struct {
	Type     string `json:"type"`
	Name     string `json:"name"`
	Path     string `json:"path"`
	Encoding string `json:"encoding"`
	Content  string `json:"content"`
}

// Decoded is the file's content as bytes: base64 decoded (GitHub wraps
// it at 60 characters), nil when it does not decode.
func (e ContentEntry) Decoded() []byte {
	if e.Encoding != "base64" {
		return []byte(e.Content)
	}
	b, err := base64.StdEncoding.DecodeString(strings.NewReplacer("\n", "", "\r", "").Replace(e.Content))
	if err != nil {
		return nil
	}
	return b
}

// ListDirectory lists a repository directory on the default branch.
//
// GET /repos/{owner}/{repo}/contents/{path}
func (c *Client) ListDirectory(ctx context.Context, owner, repo, dir string) ([]ContentEntry, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[[]ContentEntry](ctx, c, r.filePath(dir), nil)
}

// GetFile reads a repository file on the default branch, its content
// encoded as Encoding says (base64).
//
// GET /repos/{owner}/{repo}/contents/{path}
func (c *Client) GetFile(ctx context.Context, owner, repo, file string) (ContentEntry, Meta, error) {
	return c.GetFileAt(ctx, owner, repo, file, "")
}
