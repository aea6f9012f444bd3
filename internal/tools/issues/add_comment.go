package issues

import (
	"context"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// AddCommentIn are github_add_comment's arguments.
type AddCommentIn struct {
	Owner          string                 `json:"owner"`
	Repo           string                 `json:"repo"`
	IssueNumber    toolkit.IssueNumber    `json:"issue_number"`
	Body           string                 `json:"body"`
	IdempotencyKey toolkit.IdempotencyKey `json:"idempotency_key,omitempty" jsonschema:"reuse in 10 min returns it; absent: none"`
}

// Validate refuses a blank body before any request.
func (in *AddCommentIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if e := toolkit.CheckLength("body", in.Body, toolkit.MaxBodyChars); e != nil {
		return e
	}
	if strings.TrimSpace(in.Body) == "" {
		return contract.Errorf(contract.CodeInvalidField, "a comment needs a body").WithField("body", "must hold a non-space character")
	}
	return nil
}

// AddCommentOut is the new comment. It does not repeat the issue_number
// the call named: the agent has it, and tools/list would not list it.
type AddCommentOut struct {
	Comment            issueview.Comment `json:"comment"`
	Replayed           bool              `json:"replayed,omitempty" jsonschema:"an earlier call with this idempotency_key made it; nothing was written now"`
	RateLimitRemaining *int              `json:"rate_limit_remaining,omitempty"`
}

// AddComment is github_add_comment.
func (s *Tools) AddComment() tooldef.Spec {
	guard := &toolkit.KeyGuard{}
	return tooldef.Tool[AddCommentIn, AddCommentOut]{
		Name:        toolkit.NameAddComment,
		Toolset:     Toolset,
		Title:       "Add comment",
		Description: "Comment on an issue.",
		Mode:        tooldef.Write,
		Run:         func(ctx context.Context, in AddCommentIn) (AddCommentOut, error) { return s.addComment(ctx, in, guard) },
	}
}

// addComment posts the comment, once per idempotency key. Upstream calls:
// one POST (plus a read of the issue under the creator scope). A repeat of
// a completed key makes none; a repeat of a key whose first attempt lost
// its answer makes two reads to find that attempt's comment (see
// findComment) before it would post.
func (s *Tools) addComment(ctx context.Context, in AddCommentIn, guard *toolkit.KeyGuard) (AddCommentOut, error) {
	const tool = toolkit.NameAddComment
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return AddCommentOut{}, toolkit.NotStarted(err)
	}
	if s.AllowedIssueCreator != "" {
		rec, err := fetchIssue(ctx, c, in.Owner, in.Repo, int(in.IssueNumber))
		if err != nil {
			return AddCommentOut{}, toolkit.NotStarted(err)
		}
		if !s.CreatorAllowed(rec.GetUser().GetLogin()) {
			return AddCommentOut{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
		}
	}
	if in.IdempotencyKey == "" {
		return s.postComment(ctx, c, in)
	}
	request := in
	request.IdempotencyKey = ""
	k, err := s.OpenKey(ctx, guard, in.Owner, in.Repo, tool, string(in.IdempotencyKey), request)
	if err != nil {
		return AddCommentOut{}, toolkit.NotStarted(err)
	}
	return toolkit.RunKeyed(ctx, k, toolkit.KeyedWrite[AddCommentOut]{
		Adopt: func(since time.Time) (AddCommentOut, bool, error) {
			found, err := findComment(ctx, c, in, since)
			if err != nil || found == nil {
				return AddCommentOut{}, false, err
			}
			return AddCommentOut{Comment: *found}, true, nil
		},
		Write:    func() (AddCommentOut, error) { return s.postComment(ctx, c, in) },
		Clear:    clearComment,
		Replayed: func(out *AddCommentOut) { out.Replayed = true },
		Again: func(key toolkit.IdempotencyKey) any {
			again := in
			again.IdempotencyKey = key
			return again
		},
	})
}

func (s *Tools) postComment(ctx context.Context, c *github.Client, in AddCommentIn) (AddCommentOut, error) {
	cm, _, err := c.CreateComment(ctx, in.Owner, in.Repo, int(in.IssueNumber), in.Body)
	if err != nil {
		return AddCommentOut{}, commentFailed(ctx, c, err, in)
	}
	return AddCommentOut{Comment: commentView(cm), RateLimitRemaining: toolkit.LowBudget(c, "core")}, nil
}

// clearComment drops what belongs to one call, not to the stored result.
func clearComment(out *AddCommentOut) { out.RateLimitRemaining = nil }

// commentFailed reports a comment that was not (known to be) posted. A
// 403 on an issue that turns out to be locked is `locked`: only
// collaborators with write access may comment there, and retrying will not
// help. The issue is read on that path alone, since GitHub's 403 says the
// same for a locked conversation and for a credential without access.
func commentFailed(ctx context.Context, c *github.Client, err error, in AddCommentIn) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	switch e.Code {
	case contract.CodeNotFound:
		nf, _ := contract.AsError(toolkit.NotFoundIssue(err, in.Owner, in.Repo, int(in.IssueNumber)))
		nf.Settlement = e.Settlement
		return nf
	case contract.CodeInsufficientScope:
		if is, _, rerr := c.GetIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber)); rerr == nil && is.GetLocked() {
			l := contract.Errorf(contract.CodeIssueLocked, "%s/%s#%d is locked: only collaborators with write access can comment; nothing was written",
				in.Owner, in.Repo, in.IssueNumber)
			l.Settlement = e.Settlement
			return l.WithRepair(contract.Repair{NextStep: "do not retry; ask a maintainer to unlock the issue or to comment"})
		}
	}
	if !toolkit.MayHaveWritten(e) {
		return e
	}
	return lostWrite(e, in.IdempotencyKey != "",
		contract.Repair{NextStep: "call again with the same arguments and idempotency_key: ghgate first looks for the comment this call may have made",
			Tool: toolkit.NameAddComment, Arguments: in},
		contract.Repair{NextStep: "the comment may have been posted: list the issue's comments before posting it again",
			Tool: toolkit.NameListIssueItems, Arguments: ListIssueItemsIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber, Collection: "comments", PageSize: toolkit.MaxPageSize}})
}

// lostWrite finishes the envelope of a create or comment that may have
// been written. With an idempotency key the same call is safe to repeat
// (it looks before writing), so the failure is temporary and the repair is
// that call; without one, repeating it could write twice: not temporary,
// and the repair looks first.
func lostWrite(e *contract.Error, keyed bool, repeat, look contract.Repair) *contract.Error {
	e.Temporary = keyed
	if keyed {
		return e.WithRepair(repeat)
	}
	return e.WithRepair(look)
}
