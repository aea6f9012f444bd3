package graphql

import (
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// GraphQL mutations on conversations: addComment, lockLockable,
// unlockLockable, closeIssue and reopenIssue, as GitHub's schema defines
// them. They act through the same state operations as the REST endpoints
// (POST .../comments, PUT and DELETE .../lock, PATCH .../issues/{n} with
// state), with the same permission rules, so both APIs leave the same
// comments and timeline events behind. pinIssue and unpinIssue have no REST
// counterpart; they follow GitHub's description of pinning.

type addCommentArgs struct {
	Input struct {
		SubjectID        gqlID   `json:"subjectId"`
		Body             string  `json:"body"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type lockLockableArgs struct {
	Input struct {
		LockableID       gqlID   `json:"lockableId"`
		LockReason       *string `json:"lockReason"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type unlockLockableArgs struct {
	Input struct {
		LockableID       gqlID   `json:"lockableId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type closeIssueArgs struct {
	Input struct {
		IssueID          gqlID   `json:"issueId"`
		StateReason      *string `json:"stateReason"`
		DuplicateIssueID *gqlID  `json:"duplicateIssueId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// issueIDArgs is the input of reopenIssue, pinIssue and unpinIssue alike.
type issueIDArgs struct {
	Input struct {
		IssueID          gqlID   `json:"issueId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// addCommentPayload is what addComment returns. Its timelineEdge is not
// served: the emulator serves no timeline connection in GraphQL.
type addCommentPayload struct {
	comment          *state.Comment
	edge             *edge
	clientMutationID *string
}

// lockPayload is what lockLockable and unlockLockable return.
type lockPayload struct {
	actor            *state.Account
	record           *state.Issue
	clientMutationID *string
}

// issuePayload is what closeIssue, reopenIssue, pinIssue and unpinIssue
// return. UnpinIssuePayload.id, the removed PinnedIssue's id, is not served:
// the emulator keeps no PinnedIssue objects.
type issuePayload struct {
	issue            *state.Issue
	clientMutationID *string
}

// graphQLLockReasons maps GitHub's LockReason enum to the REST API's lock_reason
// values, which the state keeps.
var graphQLLockReasons = map[string]string{
	"OFF_TOPIC":  "off-topic",
	"RESOLVED":   "resolved",
	"SPAM":       "spam",
	"TOO_HEATED": "too heated",
}

func registerMutations(r *resolvers) {
	resolveArgs(r, "Mutation.addComment", addComment)
	resolve(r, "AddCommentPayload.commentEdge", func(_ *gqlContext, p *addCommentPayload) (any, error) { return p.edge, nil })
	resolve(r, "AddCommentPayload.subject", func(_ *gqlContext, p *addCommentPayload) (any, error) { return p.comment.Issue, nil })
	resolve(r, "AddCommentPayload.clientMutationId", func(_ *gqlContext, p *addCommentPayload) (any, error) {
		return p.clientMutationID, nil
	})

	resolveArgs(r, "Mutation.lockLockable", lockLockable)
	resolve(r, "LockLockablePayload.lockedRecord", func(_ *gqlContext, p *lockPayload) (any, error) { return p.record, nil })
	resolveArgs(r, "Mutation.unlockLockable", unlockLockable)
	resolve(r, "UnlockLockablePayload.unlockedRecord", func(_ *gqlContext, p *lockPayload) (any, error) { return p.record, nil })
	for _, t := range []string{"LockLockablePayload", "UnlockLockablePayload"} {
		resolve(r, t+".actor", func(_ *gqlContext, p *lockPayload) (any, error) { return p.actor, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *lockPayload) (any, error) { return p.clientMutationID, nil })
	}

	resolveArgs(r, "Mutation.closeIssue", closeIssue)
	resolveArgs(r, "Mutation.reopenIssue", reopenIssue)
	resolveArgs(r, "Mutation.pinIssue", setPinned(true, "PinIssue"))
	resolveArgs(r, "Mutation.unpinIssue", setPinned(false, "UnpinIssue"))
	for _, t := range []string{"CloseIssuePayload", "ReopenIssuePayload", "PinIssuePayload", "UnpinIssuePayload"} {
		resolve(r, t+".issue", func(_ *gqlContext, p *issuePayload) (any, error) { return p.issue, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *issuePayload) (any, error) { return p.clientMutationID, nil })
	}
}

// conversation finds the issue or pull request a mutation names by node
// id, as the caller may see it.
func (x *gqlContext) conversation(id gqlID) (*state.Issue, error) {
	is, _ := x.visibleNode(string(id)).(*state.Issue)
	if is == nil {
		return nil, nodeNotFound(string(id))
	}
	return is, nil
}

// issue finds the issue (not pull request) a mutation names by node id, as
// the caller may see it. A pull request's id is refused with the message
// GitHub gives for an id of another type.
func (x *gqlContext) issue(id gqlID) (*state.Issue, error) {
	is, err := x.conversation(id)
	if err != nil {
		return nil, err
	}
	if is.IsPull {
		return nil, notFound("Could not resolve to Issue node with the global id of '%s'", string(id))
	}
	return is, nil
}

// addComment needs read access, and write access on a locked conversation,
// as POST .../issues/{n}/comments does. A blank or overlong body is refused
// with GitHub's validation messages.
func addComment(x *gqlContext, _ root, a addCommentArgs) (any, error) {
	is, err := x.conversation(a.Input.SubjectID)
	if err != nil {
		return nil, err
	}
	if is.Locked && x.c.Token.Permission(is.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "AddComment")
	}
	switch {
	case strings.TrimSpace(a.Input.Body) == "":
		return nil, &gqlError{Type: "UNPROCESSABLE", Message: "Body can't be blank"}
	case utf8.RuneCountInString(a.Input.Body) > state.MaxBodyChars:
		return nil, &gqlError{Type: "UNPROCESSABLE", Message: "Body is too long (maximum is 65536 characters)"}
	}
	cm := x.st.AddComment(is, x.c.Viewer, a.Input.Body, x.st.Now(), x.c.Req.Host)
	x.st.Touch(is)
	// The edge's cursor is the comment's place in Issue.comments, so a
	// client can page on from it.
	e := &edge{cursor: encodeCursor(len(is.Comments) - 1), node: cm}
	return &addCommentPayload{comment: cm, edge: e, clientMutationID: a.Input.ClientMutationID}, nil
}

// lockLockable needs triage access, as PUT .../lock does. A conversation
// that is already locked is left as it is, reason included: GitHub ignores
// the request (clients unlock first to change the reason).
func lockLockable(x *gqlContext, _ root, a lockLockableArgs) (any, error) {
	is, err := x.conversation(a.Input.LockableID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "LockLockable")
	}
	if !is.Locked {
		var reason *string
		if a.Input.LockReason != nil {
			r := graphQLLockReasons[*a.Input.LockReason]
			reason = &r
		}
		x.st.LockIssue(is, x.c.Viewer, reason)
	}
	return &lockPayload{actor: x.c.Viewer, record: is, clientMutationID: a.Input.ClientMutationID}, nil
}

// unlockLockable needs triage access, as DELETE .../lock does.
func unlockLockable(x *gqlContext, _ root, a unlockLockableArgs) (any, error) {
	is, err := x.conversation(a.Input.LockableID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermTriage {
		return nil, forbidden(x.c.Token.Login, "UnlockLockable")
	}
	x.st.UnlockIssue(is, x.c.Viewer)
	return &lockPayload{actor: x.c.Viewer, record: is, clientMutationID: a.Input.ClientMutationID}, nil
}

// graphQLStateReasons maps GitHub's IssueClosedStateReason enum to the REST
// API's state_reason values, which the state keeps.
var graphQLStateReasons = map[string]string{
	"COMPLETED":   "completed",
	"NOT_PLANNED": "not_planned",
	"DUPLICATE":   "duplicate",
}

// closeIssue needs triage access or authorship of the issue, as PATCH
// .../issues/{n} with state closed does; without a stateReason the issue
// closes as completed. Closing a closed issue leaves it and its reason as
// they are, as the REST route ignores state_reason unless the state
// changes. A duplicateIssueId must name an issue the caller can see; as on
// GitHub, the issue's timeline then records it as marked_as_duplicate of
// that issue, before the close.
func closeIssue(x *gqlContext, _ root, a closeIssueArgs) (any, error) {
	is, err := x.issue(a.Input.IssueID)
	if err != nil {
		return nil, err
	}
	if !x.mayChangeState(is) {
		return nil, forbidden(x.c.Token.Login, "CloseIssue")
	}
	if a.Input.DuplicateIssueID != nil {
		canonical, err := x.issue(*a.Input.DuplicateIssueID)
		if err != nil {
			return nil, err
		}
		x.st.MarkDuplicate(is, canonical, x.c.Viewer)
	}
	if is.State != "closed" {
		reason := ""
		if a.Input.StateReason != nil {
			reason = graphQLStateReasons[*a.Input.StateReason]
		}
		x.st.Close(is, x.c.Viewer, reason)
	}
	return &issuePayload{issue: is, clientMutationID: a.Input.ClientMutationID}, nil
}

// reopenIssue needs triage access or authorship of the issue, as PATCH
// .../issues/{n} with state open does.
func reopenIssue(x *gqlContext, _ root, a issueIDArgs) (any, error) {
	is, err := x.issue(a.Input.IssueID)
	if err != nil {
		return nil, err
	}
	if !x.mayChangeState(is) {
		return nil, forbidden(x.c.Token.Login, "ReopenIssue")
	}
	x.st.Reopen(is, x.c.Viewer)
	return &issuePayload{issue: is, clientMutationID: a.Input.ClientMutationID}, nil
}

// mayChangeState reports whether the caller may close or reopen an issue:
// triage access, or being its author, as the REST route requires.
func (x *gqlContext) mayChangeState(is *state.Issue) bool {
	return x.c.Token.Permission(is.Repo) >= state.PermTriage || (x.c.Viewer != nil && is.User == x.c.Viewer)
}

// setPinned is pinIssue (pinned) or unpinIssue; either needs write access:
// GitHub lets people with write access pin issues to a repository.
func setPinned(pinned bool, operation string) func(*gqlContext, root, issueIDArgs) (any, error) {
	return func(x *gqlContext, _ root, a issueIDArgs) (any, error) {
		is, err := x.issue(a.Input.IssueID)
		if err != nil {
			return nil, err
		}
		if x.c.Token.Permission(is.Repo) < state.PermWrite {
			return nil, forbidden(x.c.Token.Login, operation)
		}
		x.st.SetPinned(is, x.c.Viewer, pinned)
		return &issuePayload{issue: is, clientMutationID: a.Input.ClientMutationID}, nil
	}
}
