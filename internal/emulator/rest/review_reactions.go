package rest

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Reactions to pull request review comments (rest/reactions/reactions),
// as to issue comments (reactions.go).

// reviewCommentFor resolves {comment_id}: a review comment of one of r's
// pull requests that the viewer may see (a pending review's only by its
// author).
func (c *call) reviewCommentFor(r *state.Repo) *state.ReviewComment {
	id, ok := c.pathID("comment_id")
	if !ok {
		return nil
	}
	for _, is := range r.Issues {
		if is.Pull == nil || is.Deleted {
			continue
		}
		for _, rv := range is.Pull.VisibleReviews(c.Viewer) {
			for _, cm := range rv.Comments {
				if cm.ID == id {
					return cm
				}
			}
		}
	}
	c.NotFound()
	return nil
}

func listReviewCommentReactions(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if cm := c.reviewCommentFor(r); cm != nil {
		c.listReactions(cm.Reactions)
	}
}

func createReviewCommentReaction(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	if cm := c.reviewCommentFor(r); cm != nil {
		c.createReaction(&cm.Reactions, reactionDocs+"#create-reaction-for-a-pull-request-review-comment")
	}
}
