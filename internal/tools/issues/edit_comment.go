package issues

import (
	"context"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// EditCommentIn are github_edit_comment's arguments.
type EditCommentIn struct {
	Owner     string            `json:"owner"`
	Repo      string            `json:"repo"`
	CommentID toolkit.CommentID `json:"comment_id"`
	Body      string            `json:"body,omitempty" jsonschema:"new Markdown; omit only to delete"`
	Delete    bool              `json:"delete,omitempty" jsonschema:"default false"`
}

// Validate requires exactly one of body and delete.
func (in *EditCommentIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if e := toolkit.CheckLength("body", in.Body, toolkit.MaxBodyChars); e != nil {
		return e
	}
	switch {
	case in.Delete && in.Body != "":
		return contract.Errorf(contract.CodeInvalidField, "give body to edit or delete: true to delete, not both").
			WithField("body", "omit body when delete is true")
	case !in.Delete && strings.TrimSpace(in.Body) == "":
		return contract.Errorf(contract.CodeInvalidField, "give a non-empty body to edit, or delete: true to delete").
			WithField("body", "is required (non-empty) unless delete is true")
	}
	return nil
}

// EditCommentOut is the edited comment, or the id of the deleted one.
type EditCommentOut struct {
	Comment     *issueview.Comment `json:"comment,omitempty" jsonschema:"the comment after the edit"`
	IssueNumber int                `json:"issue_number,omitempty"`
	Deleted     bool               `json:"deleted,omitempty"`
	CommentID   int64              `json:"comment_id,omitempty" jsonschema:"the deleted comment"`
}

func (s *Tools) editComment(ctx context.Context, in EditCommentIn) (EditCommentOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return EditCommentOut{}, toolkit.NotStarted(err)
	}
	if err := s.commentInScope(ctx, c, in); err != nil {
		return EditCommentOut{}, err
	}
	if in.Delete {
		if _, err := c.DeleteComment(ctx, in.Owner, in.Repo, int64(in.CommentID)); err != nil {
			return EditCommentOut{}, commentWriteFailed(err, in)
		}
		return EditCommentOut{Deleted: true, CommentID: int64(in.CommentID)}, nil
	}
	cm, _, err := c.EditComment(ctx, in.Owner, in.Repo, int64(in.CommentID), in.Body)
	if err != nil {
		return EditCommentOut{}, commentWriteFailed(err, in)
	}
	v := commentView(github.CommentRowOf(cm))
	out := EditCommentOut{Comment: &v}
	if ref := refFromAPIURL(cm.GetIssueURL(), in.Owner, in.Repo); ref != nil {
		out.IssueNumber = ref.Number
	}
	return out, nil
}

// commentInScope enforces the creator scope: the comment's issue must have
// been opened by the allowed user. It costs two reads (the comment, for
// its issue, then the issue), made only when the scope is set.
func (s *Tools) commentInScope(ctx context.Context, c *github.Client, in EditCommentIn) error {
	if s.AllowedIssueCreator == "" {
		return nil
	}
	cm, _, err := c.GetComment(ctx, in.Owner, in.Repo, int64(in.CommentID))
	if err != nil {
		return toolkit.NotStarted(commentNotFound(err, in))
	}
	ref := refFromAPIURL(cm.GetIssueURL(), in.Owner, in.Repo)
	if ref == nil || ref.Repo != "" {
		e := contract.Errorf(contract.CodeInternal, "the comment's issue could not be determined")
		e.Settlement = contract.NotStarted
		return e
	}
	rec, err := fetchIssue(ctx, c, in.Owner, in.Repo, ref.Number)
	if err != nil {
		return toolkit.NotStarted(err)
	}
	if !s.CreatorAllowed(rec.GetUser().GetLogin()) {
		return s.creatorRefusal(in.Owner, in.Repo, ref.Number)
	}
	return nil
}

// commentNotFound explains a 404 for a comment. GitHub answers 404 alike
// for a comment that never existed, one already deleted, and one the
// credential cannot see, so the message says all three; it never claims
// an earlier deletion it cannot know about.
func commentNotFound(err error, in EditCommentIn) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	if e.Code != contract.CodeNotFound {
		return e
	}
	e.Code = contract.CodeCommentNotFound
	e.Message = fmt.Sprintf("comment %d in %s/%s does not exist, was already deleted, or is not visible to this credential", in.CommentID, in.Owner, in.Repo)
	e.WithField("comment_id", "no such comment visible here")
	e.Repair = &contract.Repair{NextStep: "if you deleted this comment earlier, nothing is left to do; otherwise list the issue's comments for the right id",
		Alternative: toolkit.NameListIssueItems + " with collection comments"}
	return e
}

func commentWriteFailed(err error, in EditCommentIn) error {
	mapped := commentNotFound(err, in)
	e, ok := contract.AsError(mapped)
	if !ok {
		return mapped
	}
	if e.Settlement == contract.Indeterminate || e.Settlement == contract.RemoteSuccessKnown {
		// The edit or deletion may have been applied. Both are safe to
		// repeat: an edit sets the same body again, and a deletion that
		// was applied answers not_found, which then means it is done.
		e.Temporary = true
		step := "call again with the same arguments: an edit already applied is applied again, changing nothing"
		if in.Delete {
			step = "call again with the same arguments: not_found then means the first attempt deleted it"
		}
		e.Repair = &contract.Repair{NextStep: step, Tool: toolkit.NameEditComment, Arguments: in}
	}
	return e
}

// EditComment is github_edit_comment.
func (s *Tools) EditComment() tooldef.Spec {
	return tooldef.Tool[EditCommentIn, EditCommentOut]{
		Name:        toolkit.NameEditComment,
		Toolset:     Toolset,
		Title:       "Edit comment",
		Description: "Replace a comment's body or delete it.",
		Mode:        tooldef.Write,
		Destructive: true,
		Idempotent:  true,
		Unlisted:    []string{"comment_id"}, // the argument, repeated when deleted
		Run:         s.editComment,
	}
}
