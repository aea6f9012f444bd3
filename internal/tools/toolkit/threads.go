package toolkit

import (
	"regexp"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// Thread is a pull request's review thread as agents see it, in
// github_list_issue_items' review_threads rows and in every answer of
// github_update_review_thread.
type Thread struct {
	ThreadID string `json:"thread_id" jsonschema:"pass to github_update_review_thread"`
	Path     string `json:"path"`
	// Line is absent when the thread is outdated: a later push moved its
	// line out of the diff.
	Line              int             `json:"line,omitempty"`
	Resolved          bool            `json:"resolved"`
	Outdated          bool            `json:"outdated,omitempty"`
	Comments          []ThreadComment `json:"comments"`
	CommentsTruncated bool            `json:"comments_truncated,omitempty" jsonschema:"only the first 20 comments are shown"`
}

// ThreadComment is one comment of a review thread, its body sanitized as
// every issue and comment body is, or withheld under lockdown.
type ThreadComment struct {
	ID        int64             `json:"id"`
	Author    string            `json:"author"`
	Body      string            `json:"body,omitempty"`
	CreatedAt string            `json:"created_at"`
	Sanitized *contract.Removed `json:"sanitized,omitempty"`
	Withheld  *WithheldText     `json:"withheld_untrusted,omitempty" jsonschema:"lockdown withheld the body"`
}

// ThreadOf renders a thread read from GitHub, its text as it is: for an
// answer to the agent's own write. A read renders through
// [Untrusted.Thread], which applies lockdown.
func ThreadOf(t *github.ReviewThread) Thread {
	out := Thread{ThreadID: t.ID, Path: t.Path, Line: t.Line, Resolved: t.Resolved, Outdated: t.Outdated,
		Comments: []ThreadComment{}, CommentsTruncated: t.CommentsTotal > len(t.Comments)}
	for _, c := range t.Comments {
		body, removed := contract.Sanitize(c.Body)
		tc := ThreadComment{ID: c.ID, Author: c.Author, Body: body, CreatedAt: c.CreatedAt.UTC().Format(time.RFC3339)}
		if removed.Any() {
			tc.Sanitized = &removed
		}
		out.Comments = append(out.Comments, tc)
	}
	return out
}

// threadIDShape is a review thread's GraphQL node id as GitHub mints
// them (PRRT_ and base64url): the only kind ghgate hands out as thread_id.
var threadIDShape = regexp.MustCompile(`^PRRT_[A-Za-z0-9_-]{1,200}$`)

// ValidThreadID reports whether id has a review thread id's shape.
func ValidThreadID(id string) bool { return threadIDShape.MatchString(id) }
