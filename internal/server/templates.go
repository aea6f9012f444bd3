package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The templates. Query variables are RFC 6570 form-style expansions: a
// list is comma-separated and a space is %20
// (github://acme/widgets/issues?labels=status%3A%20triage,bug).
const (
	issueTemplate    = "github://{owner}/{repo}/issues/{issue_number}"
	commentsTemplate = "github://{owner}/{repo}/issues/{issue_number}/comments{?chunk}"
	issuesTemplate   = "github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}"
	labelsTemplate   = "github://{owner}/{repo}/labels"
)

// template is one resource template: its definition, the tool that
// answers it (it is served only with that tool), the variables completion
// offers values for, and its reader.
type template struct {
	def       mcp.ResourceTemplate
	tool      string
	completes []string
	read      func(r *resources, ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error)
}

const jsonMIME = "application/json"

// templateTable lists the templates in the order they are listed.
func templateTable() []template {
	return []template{
		{def: mcp.ResourceTemplate{URITemplate: issueTemplate, Name: "issue", MIMEType: jsonMIME,
			Description: "One issue as github_get_issue returns it, with the first chunk of 30 comments and next_chunk_uri when there are more; " +
				"private to this credential, ttlMs 30000; annotations.lastModified is the issue's updated_at"},
			tool: toolkit.NameGetIssue, completes: []string{"owner", "repo"}, read: (*resources).readIssue},
		{def: mcp.ResourceTemplate{URITemplate: commentsTemplate, Name: "issue-comments", MIMEType: jsonMIME,
			Description: "An issue's comments in chunks of 30 (chunk from 1, default 1); next_chunk_uri names the next chunk until the last; " +
				"private to this credential, ttlMs 30000"},
			tool: toolkit.NameGetIssue, completes: []string{"owner", "repo"}, read: (*resources).readComments},
		{def: mcp.ResourceTemplate{URITemplate: issuesTemplate, Name: "issue-index", MIMEType: jsonMIME,
			Description: "A repository's issues for triage, most recently updated first, 30 at a time: uri, title, state, labels, assignees, a short preview, size (body bytes) " +
				"and annotations.lastModified, never bodies; state open (default), closed or all; labels all of these, comma-separated; " +
				"assignee a login or none; updated_after YYYY-MM-DD or RFC 3339 (colons as %3A); private to this credential, ttlMs 30000"},
			tool: toolkit.NameSearchIssues, completes: []string{"owner", "repo", "state", "labels"}, read: (*resources).readIndex},
		{def: mcp.ResourceTemplate{URITemplate: labelsTemplate, Name: "labels", MIMEType: jsonMIME,
			Description: "A repository's labels (first 100), as github_list_repo_metadata lists them; private to this credential, ttlMs 30000"},
			tool: toolkit.NameListRepoMetadata, completes: []string{"owner", "repo"}, read: (*resources).readLabels},
	}
}

// issueStamp is the part of github_get_issue's output a read's freshness
// and chunking come from.
type issueStamp struct {
	Issue struct {
		UpdatedAt string `json:"updated_at"`
		Comments  int    `json:"comments"`
	} `json:"issue"`
	Comments        json.RawMessage `json:"comments"`
	CommentsHasMore bool            `json:"comments_has_more"`
}

func (r *resources) readIssue(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	owner, repo, number, e := issueArgs(uri)
	if e != nil {
		return nil, r.fail(uri, e)
	}
	body, err := r.viaTool(ctx, uri, r.getIssue, issues.GetIssueIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number)})
	if err != nil {
		return nil, err
	}
	var stamp issueStamp
	var doc map[string]json.RawMessage
	if json.Unmarshal(body, &stamp) != nil || json.Unmarshal(body, &doc) != nil {
		return nil, r.fail(uri, contract.Errorf(contract.CodeInternal, "ghgate could not read its own issue document"))
	}
	// The issue carries the first chunk; the rest are resources of their
	// own, named in band rather than by a cursor that expires.
	delete(doc, "comments_has_more")
	delete(doc, "comments_next_cursor")
	if stamp.CommentsHasMore {
		doc["next_chunk_uri"], _ = json.Marshal(commentsURI(owner, repo, number, 2))
	}
	out, _ := json.Marshal(doc)
	return withLastModified(hinted(text(uri, jsonMIME, string(out)), githubTTL, scopePrivate), stamp.Issue.UpdatedAt), nil
}

// commentsChunk is one chunk of an issue's comments.
type commentsChunk struct {
	Chunk int `json:"chunk"`
	// Chunks is how many there are, from the issue's comment count.
	Chunks       int             `json:"chunks"`
	Comments     json.RawMessage `json:"comments"`
	NextChunkURI string          `json:"next_chunk_uri,omitempty"`
}

func (r *resources) readComments(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	owner, repo, number, chunk, e := commentsArgs(uri)
	if e != nil {
		return nil, r.fail(uri, e)
	}
	in := issues.GetIssueIn{Owner: owner, Repo: repo, IssueNumber: toolkit.IssueNumber(number),
		CommentsCursor: issues.CommentsCursor(r.svc, owner, repo, number, chunk)}
	body, err := r.viaTool(ctx, uri, r.getIssue, in)
	if err != nil {
		return nil, err
	}
	var stamp issueStamp
	if json.Unmarshal(body, &stamp) != nil {
		return nil, r.fail(uri, contract.Errorf(contract.CodeInternal, "ghgate could not read its own issue document"))
	}
	out := commentsChunk{Chunk: chunk, Comments: stamp.Comments,
		Chunks: (stamp.Issue.Comments + issues.CommentsPerChunk - 1) / issues.CommentsPerChunk}
	if len(out.Comments) == 0 {
		out.Comments = json.RawMessage(`[]`)
	}
	if stamp.CommentsHasMore {
		out.NextChunkURI = commentsURI(owner, repo, number, chunk+1)
	}
	b, _ := json.Marshal(out)
	// A new or edited comment moves the issue's updated_at: the chunk is
	// as fresh as the issue.
	return withLastModified(hinted(text(uri, jsonMIME, string(b)), githubTTL, scopePrivate), stamp.Issue.UpdatedAt), nil
}

// commentsURI names chunk (from 1) of an issue's comments.
func commentsURI(owner, repo string, number, chunk int) string {
	u := fmt.Sprintf("github://%s/%s/issues/%d/comments", owner, repo, number)
	if chunk > 1 {
		u += "?chunk=" + strconv.Itoa(chunk)
	}
	return u
}

// indexEntry is one issue of the index: what triage needs to choose what
// to read, never the body.
type indexEntry struct {
	URI       string   `json:"uri"`
	Number    int      `json:"number"`
	Title     string   `json:"title"`
	State     string   `json:"state"`
	Labels    []string `json:"labels"`
	Assignees []string `json:"assignees"`
	Comments  int      `json:"comments,omitempty"`
	// Preview is the body's opening, whitespace folded, at most
	// previewRunes characters.
	Preview string `json:"preview,omitempty"`
	// Size is the body's length in bytes, as the issue resource carries it.
	Size int `json:"size"`
	// Withheld is set where lockdown withheld the body (no preview, size
	// 0): the marker says whose it is and how long.
	Withheld    *toolkit.Withheld `json:"withheld_untrusted,omitempty"`
	Annotations mcp.Annotations   `json:"annotations"`
}

// issueIndex is the issue-index document.
type issueIndex struct {
	Issues []indexEntry `json:"issues"`
	// TotalCount is every match, where it is known: the list endpoint
	// counts nothing, so it is given when the index holds them all or one
	// upstream page did (see github_search_issues' total_count).
	TotalCount *int `json:"total_count,omitempty"`
	HasMore    bool `json:"has_more,omitempty"`
	// NextCursor continues the listing with github_search_issues and the
	// same filters.
	NextCursor         string `json:"next_cursor,omitempty"`
	RateLimitRemaining *int   `json:"rate_limit_remaining,omitempty"`
}

const previewRunes = 120

func (r *resources) readIndex(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	in, e := indexArgs(uri)
	if e != nil {
		return nil, r.fail(uri, e)
	}
	body, err := r.viaTool(ctx, uri, r.searchIssues, in)
	if err != nil {
		return nil, err
	}
	var found issues.SearchIssuesOut
	if err := json.Unmarshal(body, &found); err != nil {
		return nil, r.fail(uri, contract.Errorf(contract.CodeInternal, "ghgate could not read its own search result"))
	}
	idx := issueIndex{Issues: []indexEntry{}, HasMore: found.HasMore, NextCursor: found.NextCursor,
		RateLimitRemaining: found.RateLimitRemaining}
	switch {
	case found.TotalCount > 0:
		idx.TotalCount = &found.TotalCount
	case !found.HasMore:
		// An index is always a first page: without more, its rows and
		// those withheld are every match.
		n := len(found.Items) + found.Withheld
		idx.TotalCount = &n
	}
	for _, is := range found.Items {
		idx.Issues = append(idx.Issues, indexEntry{URI: fmt.Sprintf("github://%s/%s/issues/%d", in.Owner, in.Repo, is.Number),
			Number: is.Number, Title: is.Title, State: is.State, Labels: is.Labels, Assignees: is.Assignees, Comments: is.Comments,
			Preview: preview(is.Body), Size: len(is.Body), Withheld: is.WithheldUntrusted, Annotations: mcp.Annotations{LastModified: is.UpdatedAt}})
	}
	b, _ := json.Marshal(idx)
	return hinted(text(uri, jsonMIME, string(b)), githubTTL, scopePrivate), nil
}

// preview is the opening of a body, whitespace folded to single spaces.
func preview(body string) string {
	s := strings.Join(strings.Fields(body), " ")
	if utf8.RuneCountInString(s) <= previewRunes {
		return s
	}
	return string([]rune(s)[:previewRunes-1]) + "…"
}

func (r *resources) readLabels(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
	case len(rest) != 1 || rest[0] != "labels":
		e = unservedURI("does not name a repository's labels")
	case u.RawQuery != "":
		e = unservedURI("a labels URI takes no query")
	}
	if e != nil {
		return nil, r.fail(uri, e)
	}
	body, err := r.viaTool(ctx, uri, r.listMetadata, issues.ListRepoMetadataIn{Owner: owner, Repo: repo, Kind: "labels"})
	if err != nil {
		return nil, err
	}
	return hinted(text(uri, jsonMIME, string(body)), githubTTL, scopePrivate), nil
}

// issueArgs reads github://owner/repo/issues/n.
func issueArgs(uri string) (owner, repo string, number int, e *contract.Error) {
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
		return "", "", 0, e
	case len(rest) != 2 || rest[0] != "issues":
		return "", "", 0, unservedURI("does not name an issue")
	case u.RawQuery != "":
		return "", "", 0, unservedURI("an issue's URI takes no query")
	}
	if number, e = positive(rest[1], "issue_number"); e != nil {
		return "", "", 0, e
	}
	return owner, repo, number, nil
}

// commentsArgs reads github://owner/repo/issues/n/comments[?chunk=k].
func commentsArgs(uri string) (owner, repo string, number, chunk int, e *contract.Error) {
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
		return "", "", 0, 0, e
	case len(rest) != 3 || rest[0] != "issues" || rest[2] != "comments":
		return "", "", 0, 0, unservedURI("does not name an issue's comments")
	}
	if number, e = positive(rest[1], "issue_number"); e != nil {
		return "", "", 0, 0, e
	}
	q, e := queryValues(u.RawQuery, "chunk")
	if e != nil {
		return "", "", 0, 0, e
	}
	chunk = 1
	if v, ok := q["chunk"]; ok {
		if chunk, e = positive(strings.Join(v, ","), "chunk"); e != nil {
			return "", "", 0, 0, e
		}
	}
	return owner, repo, number, chunk, nil
}

// indexArgs reads github://owner/repo/issues[?state=&labels=&assignee=&updated_after=]
// as github_search_issues's arguments (full detail: the preview and size
// come from the body, which the index leaves out).
func indexArgs(uri string) (issues.SearchIssuesIn, *contract.Error) {
	u, owner, repo, rest, e := parseRepoURI(uri)
	switch {
	case e != nil:
		return issues.SearchIssuesIn{}, e
	case len(rest) != 1 || rest[0] != "issues":
		return issues.SearchIssuesIn{}, unservedURI("does not name a repository's issues")
	}
	q, e := queryValues(u.RawQuery, "state", "labels", "assignee", "updated_after")
	if e != nil {
		return issues.SearchIssuesIn{}, e
	}
	one := func(k string) string { return strings.Join(q[k], ",") }
	return issues.SearchIssuesIn{Owner: owner, Repo: repo, State: issues.SearchState(one("state")), Labels: issues.SearchLabels(q["labels"]),
		Assignee: one("assignee"), UpdatedAfter: one("updated_after"), Sort: "updated", Detail: issues.Full}, nil
}

// positive reads a whole number from 1.
func positive(s, name string) (int, *contract.Error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return 0, unservedURI(name + " must be a positive whole number")
	}
	return n, nil
}

// parseRepoURI splits github://owner/repo/rest...
func parseRepoURI(raw string) (u *url.URL, owner, repo string, rest []string, e *contract.Error) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "github" {
		return nil, "", "", nil, unservedURI("is not a github:// URI ghgate can parse")
	}
	parts := strings.Split(strings.TrimPrefix(u.Path, "/"), "/")
	if u.Host == "" || len(parts) < 2 || parts[0] == "" {
		return nil, "", "", nil, unservedURI("must name an owner and a repository")
	}
	return u, u.Host, parts[0], parts[1:], nil
}

// queryValues reads an RFC 6570 form-style query: each of allowed at most
// once, a value a comma-separated list of percent-encoded items, none
// empty. A comma inside an item is %2C, so the list is split before the
// items are decoded.
func queryValues(rawQuery string, allowed ...string) (map[string][]string, *contract.Error) {
	out := map[string][]string{}
	if rawQuery == "" {
		return out, nil
	}
	for _, pair := range strings.Split(rawQuery, "&") {
		k, v, _ := strings.Cut(pair, "=")
		known := false
		for _, a := range allowed {
			known = known || k == a
		}
		switch {
		case !known:
			return nil, unservedURI("takes no query parameter but " + strings.Join(allowed, ", "))
		case out[k] != nil:
			return nil, unservedURI(k + " may be given once")
		case v == "":
			return nil, unservedURI(k + " must not be empty")
		}
		for _, item := range strings.Split(v, ",") {
			dec, err := url.PathUnescape(item)
			if err != nil || dec == "" {
				return nil, unservedURI(k + " must be a comma-separated list of percent-encoded values, none empty")
			}
			out[k] = append(out[k], dec)
		}
	}
	return out, nil
}
