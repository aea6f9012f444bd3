package pullrequests

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// ThreadAction is what github_update_review_thread does to the thread.
type ThreadAction string

// JSONSchema implements [tooldef.SelfDescribing].
func (ThreadAction) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum("resolve", "unresolve", "reply"), nil
}

// UpdateReviewThreadIn are github_update_review_thread's arguments.
type UpdateReviewThreadIn struct {
	Owner string              `json:"owner"`
	Repo  string              `json:"repo"`
	Pull  toolkit.IssueNumber `json:"pull"`
	// One of the two names the thread.
	ThreadID       string                 `json:"thread_id,omitempty" jsonschema:"from review_threads rows; omit with comment_id"`
	CommentID      toolkit.CommentID      `json:"comment_id,omitempty" jsonschema:"a review comment's id; omit with thread_id"`
	Action         ThreadAction           `json:"action"`
	Body           string                 `json:"body,omitempty" jsonschema:"the reply; omit to resolve or unresolve"`
	IdempotencyKey toolkit.IdempotencyKey `json:"idempotency_key,omitempty" jsonschema:"reply: reuse in 10 min returns it; absent: none"`
}

// Validate checks the arguments before any request.
func (in *UpdateReviewThreadIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	switch {
	case (in.ThreadID == "") == (in.CommentID == 0):
		return contract.Errorf(contract.CodeInvalidField, "name the thread with exactly one of thread_id and comment_id").
			WithField("thread_id", "give thread_id or comment_id, not both or neither").WithRepair(listThreads(*in))
	case in.ThreadID != "" && !toolkit.ValidThreadID(in.ThreadID):
		return contract.Errorf(contract.CodeInvalidField, "thread_id is not a review thread id (PRRT_...)").
			WithField("thread_id", "use a thread_id from the review_threads rows").WithRepair(listThreads(*in))
	}
	if e := toolkit.CheckLength("body", in.Body, toolkit.MaxBodyChars); e != nil {
		return e
	}
	blank := strings.TrimSpace(in.Body) == ""
	if in.Action == "reply" && blank {
		return contract.Errorf(contract.CodeInvalidField, "a reply needs a body; nothing was written").
			WithField("body", "must hold a non-space character").
			WithRepair(contract.Repair{NextStep: "call again with body holding the reply's text; read the thread first to answer it",
				Tool: toolkit.NameListIssueItems, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": int(in.Pull), "collection": "review_threads"}})
	}
	if in.Action != "reply" && (in.Body != "" || in.IdempotencyKey != "") {
		// A body sent with resolve would be lost without a word.
		again := *in
		again.Body, again.IdempotencyKey = "", ""
		return contract.Errorf(contract.CodeInvalidField, "body and idempotency_key belong to reply; %s takes neither, and nothing was written", in.Action).
			WithField("body", "reply only").
			WithRepair(contract.Repair{NextStep: "call without body to " + string(in.Action) + " (then reply separately, if a reply was meant)",
				Tool: toolkit.NameUpdateReviewThread, Arguments: again})
	}
	return nil
}

// UpdateReviewThreadOut is the thread as it now stands, and what the call
// did to it.
type UpdateReviewThreadOut struct {
	Thread             toolkit.Thread `json:"thread"`
	Pull               int            `json:"pull"`
	NoOp               bool           `json:"no_op,omitempty" jsonschema:"it already was so; nothing was written"`
	ReplyID            int64          `json:"reply_id,omitempty" jsonschema:"the new comment"`
	Replayed           bool           `json:"replayed,omitempty" jsonschema:"an earlier call with this idempotency_key made it; nothing was written now"`
	Note               string         `json:"note,omitempty"`
	RateLimitRemaining *int           `json:"rate_limit_remaining,omitempty"`
}

// UpdateReviewThread is github_update_review_thread.
func (s *Tools) UpdateReviewThread() tooldef.Spec {
	guard := &toolkit.KeyGuard{}
	return tooldef.Tool[UpdateReviewThreadIn, UpdateReviewThreadOut]{
		Name:        toolkit.NameUpdateReviewThread,
		Toolset:     Toolset,
		Title:       "Update review thread",
		Description: "Resolve, unresolve or reply to a pull request's review thread.",
		Mode:        tooldef.Write,
		// Not destructive: resolving only toggles a flag its opposite
		// restores exactly, and a reply adds a comment; nothing is
		// deleted or overwritten. Not idempotent: each reply without a
		// key adds another comment (resolve and unresolve repeat as
		// no_op).
		Run: func(ctx context.Context, in UpdateReviewThreadIn) (UpdateReviewThreadOut, error) {
			return s.updateReviewThread(ctx, in, guard)
		},
	}
}

// updateReviewThread reads the thread (one GraphQL query; a comment_id
// scans the pull request's threads, a page of 100 per query), then
// writes once: resolve or unresolve answer no_op when the thread already
// is so, and a reply is followed by a read of the thread as it now stands.
func (s *Tools) updateReviewThread(ctx context.Context, in UpdateReviewThreadIn, guard *toolkit.KeyGuard) (UpdateReviewThreadOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return UpdateReviewThreadOut{}, toolkit.NotStarted(err)
	}
	t, err := findThread(ctx, c, in)
	if err != nil {
		return UpdateReviewThreadOut{}, err
	}
	out := UpdateReviewThreadOut{Pull: int(in.Pull)}
	if in.Action != "reply" {
		want := in.Action == "resolve"
		if t.Resolved == want {
			if out.Thread, err = s.ThreadView(ctx, c, toolkit.NameUpdateReviewThread, t); err != nil {
				return UpdateReviewThreadOut{}, err
			}
			out.NoOp = true
			out.Note = "the thread was already " + string(in.Action) + "d; nothing was written"
			return out, nil
		}
		now, _, err := c.SetThreadResolved(ctx, t.ID, want)
		if err != nil {
			return UpdateReviewThreadOut{}, writeFailed(err, in, false)
		}
		if out.Thread, err = s.threadAfterWrite(ctx, c, now); err != nil {
			return UpdateReviewThreadOut{}, err
		}
		out.RateLimitRemaining = toolkit.LowBudget(c, "graphql")
		return out, nil
	}
	if in.IdempotencyKey == "" {
		return s.reply(ctx, c, t, in)
	}
	request := in
	request.IdempotencyKey = ""
	// The key is bound to the thread itself, however it was named.
	request.ThreadID, request.CommentID = t.ID, 0
	k, err := s.OpenKey(ctx, guard, in.Owner, in.Repo, toolkit.NameUpdateReviewThread, string(in.IdempotencyKey), request)
	if err != nil {
		return UpdateReviewThreadOut{}, toolkit.NotStarted(err)
	}
	return toolkit.RunKeyed(ctx, k, toolkit.KeyedWrite[UpdateReviewThreadOut]{
		Adopt: func(since time.Time) (UpdateReviewThreadOut, bool, error) {
			out, found, err := adoptReply(t, in, since)
			if found && err == nil {
				out.Thread, err = s.threadAfterWrite(ctx, c, t)
			}
			return out, found, err
		},
		Write: func() (UpdateReviewThreadOut, error) { return s.reply(ctx, c, t, in) },
		Clear: func(o *UpdateReviewThreadOut) { o.RateLimitRemaining = nil },
		Replayed: func(o *UpdateReviewThreadOut) {
			o.Replayed = true
		},
		Again: func(key toolkit.IdempotencyKey) any {
			again := in
			again.IdempotencyKey = key
			return again
		},
	})
}

// adoptReply looks, in the thread read just now, for the reply an
// earlier attempt with this key may have posted: the same body, made
// since the key was reserved. (Only the first 20 comments of a thread are
// read, so a reply beyond them is not found and would be posted again.)
func adoptReply(t *github.ReviewThread, in UpdateReviewThreadIn, since time.Time) (UpdateReviewThreadOut, bool, error) {
	for _, cm := range t.Comments {
		if cm.Body == in.Body && !cm.CreatedAt.Before(since.Add(-time.Second)) {
			out := UpdateReviewThreadOut{Pull: int(in.Pull), ReplyID: cm.ID, Note: resolvedNote(t)}
			return out, true, nil
		}
	}
	return UpdateReviewThreadOut{}, false, nil
}

// reply posts the reply, then reads the thread as it now stands.
func (s *Tools) reply(ctx context.Context, c *github.Client, t *github.ReviewThread, in UpdateReviewThreadIn) (UpdateReviewThreadOut, error) {
	id, _, err := c.ReplyToThread(ctx, t.ID, in.Body)
	if err != nil {
		return UpdateReviewThreadOut{}, writeFailed(err, in, in.IdempotencyKey != "")
	}
	out := UpdateReviewThreadOut{Pull: int(in.Pull), ReplyID: id}
	now, rerr := c.GetReviewThread(ctx, t.ID)
	if rerr != nil || now == nil {
		// The reply is posted; only the fresh read failed. The thread is
		// shown as read before, with the reply after it.
		now = t
		now.Comments = append(now.Comments, github.ReviewComment{ID: id, Body: in.Body, CreatedAt: s.CurrentTime()})
		now.CommentsTotal++
		out.Note = "the reply is posted, but the thread could not be read again: it is shown as read before, with the reply added. "
	}
	if out.Thread, err = s.threadAfterWrite(ctx, c, now); err != nil {
		return UpdateReviewThreadOut{}, err
	}
	out.Note += resolvedNote(now)
	out.RateLimitRemaining = toolkit.LowBudget(c, "graphql")
	return out, nil
}

// resolvedNote says what a reply did to a resolved thread: GitHub leaves
// it resolved.
func resolvedNote(t *github.ReviewThread) string {
	if t.Resolved {
		return "the thread stays resolved: a reply does not reopen it (unresolve it if the reply needs an answer)"
	}
	return ""
}

// writeFailed finishes the envelope of a failed write. Resolve and
// unresolve read first and answer no_op when already so, and a keyed
// reply looks for its earlier attempt, so those repeat safely: temporary,
// with the same call as the repair. An unkeyed reply that may have been
// posted is not: the repair reads the thread first.
func writeFailed(err error, in UpdateReviewThreadIn, keyed bool) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	if e.Code == contract.CodeInsufficientScope {
		what := "resolving or unresolving a review thread needs write access to the repository (or authorship of the pull request)"
		if in.Action == "reply" {
			what = "replying to this review thread is not allowed for this credential (a locked conversation takes write access)"
		}
		e.Message = fmt.Sprintf("%s/%s#%d: %s; nothing was written: %s", in.Owner, in.Repo, in.Pull, what, e.Message)
		if e.Details == nil || len(e.Details.RequiredScopes) == 0 {
			e.Details = &contract.Details{RequiredScopes: []string{"write:" + in.Owner + "/" + in.Repo}}
		}
		e.Repair = &contract.Repair{NextStep: "stop: retrying will not help; ask a maintainer, or the operator for a credential with write access"}
		return e
	}
	if !toolkit.MayHaveWritten(e) {
		return e
	}
	if in.Action != "reply" || keyed {
		e.Temporary = true
		return e.WithRepair(contract.Repair{NextStep: "call again with the same arguments: ghgate reads the thread first, so a write that landed is not repeated",
			Tool: toolkit.NameUpdateReviewThread, Arguments: in})
	}
	e.Temporary = false
	return e.WithRepair(contract.Repair{NextStep: "the reply may have been posted: read the thread before replying again",
		Tool: toolkit.NameListIssueItems, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "issue_number": int(in.Pull), "collection": "review_threads"}})
}

// threadAfterWrite renders the thread a write leaves, its comments judged
// as a read's are (lockdown). The write is done by then, so a failure to
// judge them says so: the answer is the write's success, with the thread
// left out rather than shown unjudged.
func (s *Tools) threadAfterWrite(ctx context.Context, c *github.Client, t *github.ReviewThread) (toolkit.Thread, error) {
	v, err := s.ThreadView(ctx, c, toolkit.NameUpdateReviewThread, t)
	if err != nil {
		return toolkit.Thread{ThreadID: t.ID, Path: t.Path, Line: t.Line, Resolved: t.Resolved, Outdated: t.Outdated,
			Comments: []toolkit.ThreadComment{}, CommentsTruncated: len(t.Comments) > 0}, nil
	}
	return v, nil
}
