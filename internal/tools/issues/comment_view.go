package issues

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
)

// commentView renders a comment, its body as it is: for the answer to
// the agent's own write. Reads render through views, which apply
// lockdown.
func commentView(c *github.CommentRow) issueview.Comment {
	body, removed := contract.Sanitize(c.Body)
	v := issueview.Comment{ID: c.ID, Author: c.User.Login, Body: body, CreatedAt: stampOf(c.CreatedAt),
		Edited: !c.UpdatedAt.IsZero() && !c.CreatedAt.IsZero() && c.UpdatedAt.After(c.CreatedAt)}
	if removed.Any() {
		v.Sanitized = &removed
	}
	return v
}
