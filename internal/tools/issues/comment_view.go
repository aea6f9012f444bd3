package issues

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Comment is an issue comment as agents see it.
type Comment struct {
	ID        int64             `json:"id"`
	Author    string            `json:"author"`
	Body      string            `json:"body,omitempty"`
	CreatedAt string            `json:"created_at"`
	Edited    bool              `json:"edited,omitempty"`
	Sanitized *contract.Removed `json:"sanitized,omitempty"`
	// Withheld stands for the body where lockdown withheld it.
	Withheld *toolkit.WithheldText `json:"withheld_untrusted,omitempty" jsonschema:"lockdown withheld the body"`
	// BodyWindow says where a body longer than one window was cut (reads
	// only: mirror files and the answers to writes hold bodies whole).
	BodyWindow *BodyWindow `json:"body_window,omitempty" jsonschema:"the body is cut to this window"`
	// Association is the author's author_association, kept in mirror
	// files only (see Issue.Association).
	Association string `json:"association,omitempty" jsonschema:"mirror files only"`
}

// commentView renders a comment, its body as it is: for the answer to
// the agent's own write. Reads render through views, which apply
// lockdown.
func commentView(c *github.CommentRow) Comment {
	body, removed := contract.Sanitize(c.Body)
	v := Comment{ID: c.ID, Author: c.User.Login, Body: body, CreatedAt: stampOf(c.CreatedAt),
		Edited: !c.UpdatedAt.IsZero() && !c.CreatedAt.IsZero() && c.UpdatedAt.After(c.CreatedAt)}
	if removed.Any() {
		v.Sanitized = &removed
	}
	return v
}
