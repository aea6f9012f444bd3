package github

import (
	"context"
	"errors"
	"time"
)

// ReviewThread is a pull request's review thread: a conversation on a
// line of its diff, resolvable as a whole.
type ReviewThread struct {
	ID       string // GitHub's node id (PRRT_...)
	Path     string
	Line     int // 0 when the thread is outdated: it has no line in the current diff
	Resolved bool
	Outdated bool
	// Repo (owner/name) and Pull say which pull request the thread is on.
	Repo     string
	Pull     int
	Comments []ReviewComment
	// CommentsTotal counts every comment, read or not.
	CommentsTotal int
}

// ReviewComment is one comment of a review thread.
type ReviewComment struct {
	ID     int64 // the database id REST and web links use
	Author string
	// Association is the author's author_association in the repository
	// (OWNER, MEMBER, COLLABORATOR, CONTRIBUTOR, NONE, …).
	Association string
	Body        string
	CreatedAt   time.Time
}

// ThreadComments is how many comments of each thread are read.
const ThreadComments = 20

// threadFields selects what [ReviewThread] holds.
const threadFields = `id path line isResolved isOutdated pullRequest { number repository { nameWithOwner } }
  comments(first: 20) { totalCount nodes { databaseId author { __typename login } authorAssociation body createdAt } }`

type threadJSON struct {
	ID          string `json:"id"`
	Path        string `json:"path"`
	Line        *int   `json:"line"`
	IsResolved  bool   `json:"isResolved"`
	IsOutdated  bool   `json:"isOutdated"`
	PullRequest struct {
		Number     int `json:"number"`
		Repository struct {
			NameWithOwner string `json:"nameWithOwner"`
		} `json:"repository"`
	} `json:"pullRequest"`
	Comments struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			DatabaseID int64 `json:"databaseId"`
			Author     *struct {
				Typename string `json:"__typename"`
				Login    string `json:"login"`
			} `json:"author"`
			AuthorAssociation string    `json:"authorAssociation"`
			Body              string    `json:"body"`
			CreatedAt         time.Time `json:"createdAt"`
		} `json:"nodes"`
	} `json:"comments"`
}

func (t *threadJSON) thread() *ReviewThread {
	out := &ReviewThread{ID: t.ID, Path: t.Path, Resolved: t.IsResolved, Outdated: t.IsOutdated,
		Repo: t.PullRequest.Repository.NameWithOwner, Pull: t.PullRequest.Number, CommentsTotal: t.Comments.TotalCount}
	if t.Line != nil {
		out.Line = *t.Line
	}
	for _, c := range t.Comments.Nodes {
		rc := ReviewComment{ID: c.DatabaseID, Association: c.AuthorAssociation, Body: c.Body, CreatedAt: c.CreatedAt}
		if c.Author != nil { // a deleted account's comment has no author
			rc.Author = c.Author.Login
			if c.Author.Typename == "Bot" {
				// GraphQL names a bot without the suffix REST gives it;
				// ghgate shows every author by the REST login.
				rc.Author += "[bot]"
			}
		}
		out.Comments = append(out.Comments, rc)
	}
	return out
}

// ThreadPage is one page of a pull request's review threads.
type ThreadPage struct {
	// IsPull is false when the number names an issue, not a pull request
	// (Threads is then empty).
	IsPull  bool
	Threads []*ReviewThread
	// Next is the GraphQL cursor of the next page, "" on the last.
	Next string
}

// ListReviewThreads reads one page of the review threads of pull request
// number, from the GraphQL cursor after ("" for the first page). An issue
// number answers IsPull false; a number that names nothing is GitHub's
// NOT_FOUND.
//
// POST /graphql
func (c *Client) ListReviewThreads(ctx context.Context, owner, repo string, number, first int, after string) (ThreadPage, error) {
	const doc = `query($owner: String!, $name: String!, $number: Int!, $first: Int!, $after: String) {
  repository(owner: $owner, name: $name) { issueOrPullRequest(number: $number) { __typename
    ... on PullRequest { reviewThreads(first: $first, after: $after) { pageInfo { hasNextPage endCursor } nodes { ` + threadFields + ` } } } } } }`
	vars := map[string]any{"owner": owner, "name": repo, "number": number, "first": first}
	if after != "" {
		vars["after"] = after
	}
	var out struct {
		Repository *struct {
			Item *struct {
				Typename      string `json:"__typename"`
				ReviewThreads struct {
					PageInfo struct {
						HasNextPage bool   `json:"hasNextPage"`
						EndCursor   string `json:"endCursor"`
					} `json:"pageInfo"`
					Nodes []threadJSON `json:"nodes"`
				} `json:"reviewThreads"`
			} `json:"issueOrPullRequest"`
		} `json:"repository"`
	}
	if err := c.Query(ctx, doc, vars, &out); err != nil {
		return ThreadPage{}, err
	}
	if out.Repository == nil || out.Repository.Item == nil {
		return ThreadPage{}, &Error{Code: NotFound, Status: 200, Message: "Could not resolve to an issue or pull request"}
	}
	it := out.Repository.Item
	page := ThreadPage{IsPull: it.Typename == "PullRequest"}
	for i := range it.ReviewThreads.Nodes {
		page.Threads = append(page.Threads, it.ReviewThreads.Nodes[i].thread())
	}
	if it.ReviewThreads.PageInfo.HasNextPage {
		page.Next = it.ReviewThreads.PageInfo.EndCursor
	}
	return page, nil
}

// GetReviewThread reads a review thread by its node id; nil when the id
// names nothing visible, or something that is not a review thread.
//
// POST /graphql
func (c *Client) GetReviewThread(ctx context.Context, id string) (*ReviewThread, error) {
	const doc = `query($id: ID!) { node(id: $id) { __typename ... on PullRequestReviewThread { ` + threadFields + ` } } }`
	var out struct {
		Node *struct {
			Typename string `json:"__typename"`
			threadJSON
		} `json:"node"`
	}
	err := c.Query(ctx, doc, map[string]any{"id": id}, &out)
	var ge *Error
	if errors.As(err, &ge) && ge.Code == NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if out.Node == nil || out.Node.Typename != "PullRequestReviewThread" {
		return nil, nil
	}
	return out.Node.thread(), nil
}

// SetThreadResolved resolves (or unresolves) a review thread with
// GitHub's resolveReviewThread / unresolveReviewThread mutation, and
// returns the thread as it then stands.
//
// POST /graphql
func (c *Client) SetThreadResolved(ctx context.Context, id string, resolved bool) (*ReviewThread, Settlement, error) {
	op := "unresolveReviewThread"
	if resolved {
		op = "resolveReviewThread"
	}
	doc := `mutation($id: ID!) { ` + op + `(input: {threadId: $id}) { thread { ` + threadFields + ` } } }`
	var out map[string]*struct {
		Thread *threadJSON `json:"thread"`
	}
	s, err := c.Mutate(ctx, doc, map[string]any{"id": id}, &out)
	if err != nil {
		return nil, s, err
	}
	p := out[op]
	if p == nil || p.Thread == nil {
		return nil, Indeterminate, &Error{Code: MalformedResponse, Status: 200, Settlement: Indeterminate, Message: "GitHub's " + op + " answer held no thread"}
	}
	return p.Thread.thread(), RemoteSuccessKnown, nil
}

// ReplyToThread answers a review thread with GitHub's
// addPullRequestReviewThreadReply mutation (published at once, as a
// review of its own) and returns the new comment's database id.
//
// POST /graphql
func (c *Client) ReplyToThread(ctx context.Context, id, body string) (int64, Settlement, error) {
	const doc = `mutation($id: ID!, $body: String!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: $body}) { comment { databaseId } } }`
	var out struct {
		Reply *struct {
			Comment *struct {
				DatabaseID int64 `json:"databaseId"`
			} `json:"comment"`
		} `json:"addPullRequestReviewThreadReply"`
	}
	s, err := c.Mutate(ctx, doc, map[string]any{"id": id, "body": body}, &out)
	if err != nil {
		return 0, s, err
	}
	if out.Reply == nil || out.Reply.Comment == nil {
		return 0, Indeterminate, &Error{Code: MalformedResponse, Status: 200, Settlement: Indeterminate, Message: "GitHub's addPullRequestReviewThreadReply answer held no comment"}
	}
	return out.Reply.Comment.DatabaseID, RemoteSuccessKnown, nil
}
