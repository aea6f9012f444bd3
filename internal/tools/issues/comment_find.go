package issues

import (
	"context"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// findPages bounds the comment pages (of 100) read while looking.
const findPages = 10

// findComment looks for the comment an earlier attempt under an
// idempotency key may have posted: on the issue, by the credential's own
// user, with the same body, made no earlier than the key's reservation
// (see recoveryWindow). Two reads: the viewer, then the comments updated
// since. When several match, the first made after the reservation is
// taken; a match only within recoveryWindow's slack before it is the fallback.
func findComment(ctx context.Context, c *github.Client, in AddCommentIn, reserved time.Time) (*issueview.Comment, error) {
	me, _, err := c.Viewer(ctx)
	if err != nil {
		return nil, err
	}
	login := me.GetLogin()
	from, at := recoveryWindow(c, reserved)
	var fallback *github.CommentRow
	for page := 1; page <= findPages; page++ {
		list, meta, err := c.ListComments(ctx, in.Owner, in.Repo, int(in.IssueNumber), github.ListCommentsOptions{Since: from, Page: page, PerPage: toolkit.MaxPageSize})
		if err != nil {
			return nil, toolkit.NotFoundIssue(err, in.Owner, in.Repo, int(in.IssueNumber))
		}
		for _, cm := range list {
			if !strings.EqualFold(cm.User.Login, login) || !sameBody(cm.Body, in.Body) || cm.CreatedAt.IsZero() || cm.CreatedAt.Before(from) {
				continue
			}
			if !cm.CreatedAt.Before(at.Truncate(time.Second)) {
				v := commentView(cm)
				return &v, nil
			}
			if fallback == nil {
				fallback = cm
			}
		}
		if meta.NextPage == 0 {
			break
		}
	}
	if fallback != nil {
		v := commentView(fallback)
		return &v, nil
	}
	return nil, nil
}

// sameBody compares bodies as GitHub stores them: line endings may be
// normalized and surrounding space trimmed.
func sameBody(stored, sent string) bool {
	norm := func(s string) string { return strings.TrimSpace(strings.ReplaceAll(s, "\r\n", "\n")) }
	return norm(stored) == norm(sent)
}
