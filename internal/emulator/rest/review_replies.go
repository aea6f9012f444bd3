package rest

import (
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// replyToReviewComment is POST /repos/{o}/{r}/pulls/{n}/comments/{id}/replies:
// a reply in the review thread the comment starts, published at once as a
// review of its own holding only the reply, as GitHub does (and as GraphQL's
// addPullRequestReviewThreadReply does). GitHub threads replies flat: the
// reply answers the thread's first comment, whichever comment of the thread
// is named. Anyone who can read the pull request may reply; a locked one
// takes replies from collaborators with write access only.
func replyToReviewComment(c *call) {
	r, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	id, ok := c.pathID("comment_id")
	if !ok {
		return
	}
	var target *state.ReviewComment
	for _, t := range is.Pull.Threads {
		if i := slices.IndexFunc(t.Comments, func(cm *state.ReviewComment) bool { return cm.ID == id }); i >= 0 {
			target = t.Comments[i]
		}
	}
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
	const doc = "rest/pulls/comments#create-a-reply-for-a-review-comment"
	if strings.TrimSpace(in.Body) == "" {
		c.Invalid("Validation Failed", doc, wire.FieldError{Resource: "PullRequestReviewComment", Field: "body", Code: "missing_field"})
		return
	}
	if c.Viewer == nil {
		c.Forbidden()
		return
	}
	if is.Locked && c.Token.Permission(r) < state.PermWrite {
		c.Forbidden()
		return
	}
	now := c.State.Now()
	rv := c.State.AddReview(is, c.Viewer, "COMMENTED", "", now)
	reply := c.State.AddReviewComment(rv, target.Thread.Comments[0], "", 0, in.Body, now)
	c.State.Touch(is)
	c.W.Header().Set("Location", c.Links.Repo(r)+"/pulls/comments/"+strconv.FormatInt(reply.ID, 10))
	c.JSON(http.StatusCreated, c.reviewCommentJSON(reply))
}
