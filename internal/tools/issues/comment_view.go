package issues

import (
	"github.com/ghgate/ghgate/internal/contract"
	gh "github.com/google/go-github/v88/github"
)

// Comment is an issue comment as agents see it.
type Comment struct {
	ID        int64             `json:"id"`
	Author    string            `json:"author"`
	Body      string            `json:"body"`
	CreatedAt string            `json:"created_at"`
	Edited    bool              `json:"edited,omitempty"`
	Sanitized *contract.Removed `json:"sanitized,omitempty"`
}

func commentView(c *gh.IssueComment) Comment {
	body, removed := contract.Sanitize(c.GetBody())
	v := Comment{ID: c.GetID(), Author: c.GetUser().GetLogin(), Body: body, CreatedAt: stamp(c.CreatedAt),
		Edited: c.UpdatedAt != nil && c.CreatedAt != nil && c.UpdatedAt.After(c.CreatedAt.Time)}
	if removed.Any() {
		v.Sanitized = &removed
	}
	return v
}
