package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Review comments written over REST (rest/pulls/comments): a reply in a
// review thread, through .../comments/{id}/replies or through
// .../comments with in_reply_to (how GitHub's MCP server's
// add_reply_to_pull_request_comment sends it), and a new thread on a line
// of the diff. Each is published at once as a review of its own holding
// only the comment, as GitHub does (and as GraphQL's
// addPullRequestReviewThreadReply does). Anyone who can read the pull
// request may comment; a locked one takes comments from collaborators with
// write access only.

const reviewCommentsDoc = "rest/pulls/comments#create-a-review-comment-for-a-pull-request"

// reviewCommentTarget resolves the pull request a comment goes on, and
// checks the caller may comment on it; nil with the answer written when
// not.
func (c *call) reviewCommentTarget() (*state.Repo, *state.Issue) {
	r, is := c.repoPull(state.PermRead)
	if is == nil {
		return nil, nil
	}
	if c.Viewer == nil || (is.Locked && c.Token.Permission(r) < state.PermWrite) {
		c.Forbidden()
		return nil, nil
	}
	return r, is
}

// threadComment finds comment id in one of the pull request's published
// review threads.
func threadComment(is *state.Issue, id int64) *state.ReviewComment {
	for _, t := range is.Pull.Threads {
		if i := slices.IndexFunc(t.Comments, func(cm *state.ReviewComment) bool { return cm.ID == id }); i >= 0 {
			return t.Comments[i]
		}
	}
	return nil
}

// publishReviewComment records body as a review of its own: a reply in
// target's thread, or with target nil a new thread on line of path. GitHub
// threads replies flat: a reply answers the thread's first comment,
// whichever comment of the thread was named.
func (c *call) publishReviewComment(r *state.Repo, is *state.Issue, target *state.ReviewComment, path string, line int, body string) {
	now := c.State.Now()
	rv := c.State.AddReview(is, c.Viewer, "COMMENTED", "", now)
	var replyTo *state.ReviewComment
	if target != nil {
		replyTo = target.Thread.Comments[0]
	}
	cm := c.State.AddReviewComment(rv, replyTo, path, line, body, now)
	c.State.Touch(is)
	c.W.Header().Set("Location", c.Links.Repo(r)+"/pulls/comments/"+strconv.FormatInt(cm.ID, 10))
	c.JSON(http.StatusCreated, c.reviewCommentJSON(cm))
}

// replyToReviewComment is POST .../pulls/{n}/comments/{comment_id}/replies.
func replyToReviewComment(c *call) {
	r, is := c.reviewCommentTarget()
	if is == nil {
		return
	}
	id, ok := c.pathID("comment_id")
	if !ok {
		return
	}
	target := threadComment(is, id)
	if target == nil {
		c.NotFound()
		return
	}
	var in struct {
		Body string `json:"body"`
	}
	if !c.Decode(&in) {
		return
	}
	if strings.TrimSpace(in.Body) == "" {
		c.Invalid("Validation Failed", "rest/pulls/comments#create-a-reply-for-a-review-comment",
			wire.FieldError{Resource: "PullRequestReviewComment", Field: "body", Code: "missing_field"})
		return
	}
	c.publishReviewComment(r, is, target, "", 0, in.Body)
}

// createReviewComment is POST .../pulls/{n}/comments. With in_reply_to
// it is a reply and every other parameter is ignored, as GitHub documents.
// Otherwise it starts a thread on line (on the RIGHT side) of path in the
// head commit's diff. The emulator keeps single-line comments on the head
// commit: a multi-line range, a file-level comment, the deprecated
// position, the LEFT side or an older commit_id are refused.
func createReviewComment(c *call) {
	r, is := c.reviewCommentTarget()
	if is == nil {
		return
	}
	var in struct {
		Body        string `json:"body"`
		CommitID    string `json:"commit_id"`
		Path        string `json:"path"`
		Line        *int   `json:"line"`
		Side        string `json:"side"`
		StartLine   *int   `json:"start_line"`
		Position    *int   `json:"position"`
		SubjectType string `json:"subject_type"`
		InReplyTo   *int64 `json:"in_reply_to"`
	}
	if !c.Decode(&in) {
		return
	}
	invalid := func(field, code string) {
		c.Invalid("Validation Failed", reviewCommentsDoc, wire.FieldError{Resource: "PullRequestReviewComment", Field: field, Code: code})
	}
	if strings.TrimSpace(in.Body) == "" {
		invalid("body", "missing_field")
		return
	}
	if in.InReplyTo != nil {
		target := threadComment(is, *in.InReplyTo)
		if target == nil {
			c.NotFound()
			return
		}
		c.publishReviewComment(r, is, target, "", 0, in.Body)
		return
	}
	switch {
	case in.CommitID == "":
		invalid("commit_id", "missing_field")
	case in.Path == "":
		invalid("path", "missing_field")
	case in.CommitID != is.Pull.Head.SHA:
		c.Invalid("Validation Failed: the emulator anchors review comments on the pull request's head commit only", reviewCommentsDoc,
			wire.FieldError{Resource: "PullRequestReviewComment", Field: "commit_id", Code: "invalid"})
	case in.Line == nil || in.Position != nil || in.StartLine != nil || in.SubjectType == "file":
		c.Invalid("Validation Failed: the emulator keeps review comments on one line, given by line", reviewCommentsDoc,
			wire.FieldError{Resource: "PullRequestReviewComment", Field: "line", Code: "missing_field"})
	case in.Side == "LEFT" || !is.Pull.LineInDiff(in.Path, *in.Line):
		c.Invalid("Validation Failed", reviewCommentsDoc, wire.FieldError{Resource: "PullRequestReviewComment", Field: "line", Code: "invalid",
			Message: "pull_request_review_thread.line must be part of the diff"})
	default:
		c.publishReviewComment(r, is, nil, in.Path, *in.Line, in.Body)
	}
}
