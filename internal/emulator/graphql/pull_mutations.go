package graphql

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// GraphQL mutations on pull requests: closePullRequest, reopenPullRequest,
// markPullRequestReadyForReview, convertPullRequestToDraft, mergePullRequest,
// and reviews (addPullRequestReview, addPullRequestReviewThread,
// submitPullRequestReview, deletePullRequestReview, resolveReviewThread,
// unresolveReviewThread), as GitHub's schema defines them. Merging goes
// through the same checks as PUT .../pulls/{n}/merge.

type pullRequestIDArgs struct {
	Input struct {
		PullRequestID    gqlID   `json:"pullRequestId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// draftReviewThread is GitHub's DraftPullRequestReviewThread: a comment on
// a line of the new file.
type draftReviewThread struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Side string `json:"side"`
	Body string `json:"body"`
}

type addReviewArgs struct {
	Input struct {
		PullRequestID    gqlID               `json:"pullRequestId"`
		Event            *string             `json:"event"`
		Body             *string             `json:"body"`
		CommitOID        *string             `json:"commitOID"`
		Threads          []draftReviewThread `json:"threads"`
		Comments         []any               `json:"comments"`
		ClientMutationID *string             `json:"clientMutationId"`
	} `json:"input"`
}

type mergePullArgs struct {
	Input struct {
		PullRequestID    gqlID   `json:"pullRequestId"`
		MergeMethod      *string `json:"mergeMethod"`
		CommitHeadline   *string `json:"commitHeadline"`
		CommitBody       *string `json:"commitBody"`
		ExpectedHeadOid  *string `json:"expectedHeadOid"`
		AuthorEmail      *string `json:"authorEmail"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// pullPayload is what the pull request mutations return.
type pullPayload struct {
	pull             *state.Issue
	actor            *state.Account
	review           *state.Review
	clientMutationID *string
}

func registerPullMutations(r *resolvers) {
	resolveArgs(r, "Mutation.closePullRequest", pullStateMutation("ClosePullRequest", func(x *gqlContext, is *state.Issue) error {
		if is.State == "open" {
			x.st.ClosePull(is, x.c.Viewer)
		}
		return nil
	}))
	resolveArgs(r, "Mutation.reopenPullRequest", pullStateMutation("ReopenPullRequest", func(x *gqlContext, is *state.Issue) error {
		if is.Merged {
			return &gqlError{Type: "UNPROCESSABLE", Message: "Could not reopen a merged pull request."}
		}
		x.st.Reopen(is, x.c.Viewer)
		return nil
	}))
	resolveArgs(r, "Mutation.markPullRequestReadyForReview", pullStateMutation("MarkPullRequestReadyForReview", func(x *gqlContext, is *state.Issue) error {
		x.st.SetDraft(is, x.c.Viewer, false)
		return nil
	}))
	resolveArgs(r, "Mutation.convertPullRequestToDraft", pullStateMutation("ConvertPullRequestToDraft", func(x *gqlContext, is *state.Issue) error {
		if is.State != "open" {
			return &gqlError{Type: "UNPROCESSABLE", Message: "Could not convert a closed pull request to a draft."}
		}
		x.st.SetDraft(is, x.c.Viewer, true)
		return nil
	}))
	resolveArgs(r, "Mutation.addPullRequestReview", addPullRequestReview)
	resolveArgs(r, "Mutation.mergePullRequest", mergePullRequest)
	registerReviewMutations(r)

	for _, t := range []string{"ClosePullRequestPayload", "ReopenPullRequestPayload", "MarkPullRequestReadyForReviewPayload",
		"ConvertPullRequestToDraftPayload", "AddPullRequestReviewPayload", "MergePullRequestPayload"} {
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *pullPayload) (any, error) { return p.clientMutationID, nil })
		if t == "AddPullRequestReviewPayload" {
			resolve(r, t+".pullRequestReview", func(_ *gqlContext, p *pullPayload) (any, error) { return p.review, nil })
			continue
		}
		resolve(r, t+".pullRequest", func(_ *gqlContext, p *pullPayload) (any, error) { return p.pull, nil })
	}
	resolve(r, "MergePullRequestPayload.actor", func(_ *gqlContext, p *pullPayload) (any, error) { return p.actor, nil })
}

// pullRequest finds the pull request a mutation names by node id, as the
// caller may see it.
func (x *gqlContext) pullRequest(id gqlID) (*state.Issue, error) {
	is, err := x.conversation(id)
	if err != nil {
		return nil, err
	}
	if !is.IsPull || is.Pull == nil {
		return nil, notFound("Could not resolve to PullRequest node with the global id of '%s'", string(id))
	}
	return is, nil
}

// pullStateMutation is a mutation that changes a pull request's state,
// which needs triage access or authorship, as on GitHub.
func pullStateMutation(operation string, change func(*gqlContext, *state.Issue) error) func(*gqlContext, root, pullRequestIDArgs) (any, error) {
	return func(x *gqlContext, _ root, a pullRequestIDArgs) (any, error) {
		is, err := x.pullRequest(a.Input.PullRequestID)
		if err != nil {
			return nil, err
		}
		if !x.mayChangeState(is) {
			return nil, forbidden(x.c.Token.Login, operation)
		}
		if err := change(x, is); err != nil {
			return nil, err
		}
		return &pullPayload{pull: is, clientMutationID: a.Input.ClientMutationID}, nil
	}
}

// addPullRequestReview submits a review at once when given an event, and
// otherwise starts the caller's pending review (one per pull request).
// Threads sit on lines of the new file within the diff.
func addPullRequestReview(x *gqlContext, _ root, a addReviewArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
	switch {
	case len(in.Comments) > 0:
		return nil, unprocessable("The emulator takes review comments as threads (path and line), not as diff positions.")
	case in.CommitOID != nil && *in.CommitOID != is.Pull.Head.SHA:
		return nil, unprocessable("The commit is not the pull request's head: review the latest changes.")
	}
	body := ""
	if in.Body != nil {
		body = *in.Body
	}
	// Without an event the review stays pending, seen only by its author,
	// who adds threads and submits it later.
	verdict := "PENDING"
	if in.Event != nil {
		if verdict, err = x.reviewState(is, *in.Event, body, len(in.Threads) > 0); err != nil {
			return nil, err
		}
	} else if is.Pull.PendingReview(x.c.Viewer) != nil {
		return nil, unprocessable("User can only have one pending review per pull request")
	}
	if err := x.checkThreads(is, in.Threads); err != nil {
		return nil, err
	}
	now := x.st.Now()
	rv := x.st.AddReview(is, x.c.Viewer, verdict, body, now)
	for _, th := range in.Threads {
		x.st.AddReviewComment(rv, nil, th.Path, th.Line, th.Body, now)
	}
	if verdict != "PENDING" {
		x.st.Touch(is)
	}
	return &pullPayload{pull: is, review: rv, clientMutationID: in.ClientMutationID}, nil
}

// mergePullRequest merges as PUT .../pulls/{n}/merge does, with its
// refusals as UNPROCESSABLE errors.
func mergePullRequest(x *gqlContext, _ root, a mergePullArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "MergePullRequest")
	}
	p := is.Pull
	unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
	switch {
	case is.State != "open" || p.Conflicts(is.Repo):
		return nil, unprocessable("Pull Request is not mergeable")
	case p.Draft:
		return nil, unprocessable("Pull Request is still a draft")
	case in.ExpectedHeadOid != nil && *in.ExpectedHeadOid != p.Head.SHA:
		return nil, unprocessable("Head branch was modified. Review and try the merge again.")
	}
	if x.c.Token.Permission(is.Repo) < state.PermAdmin {
		if why := state.MergeBlocker(is); why != "" {
			return nil, unprocessable(why)
		}
	}
	o := state.MergeOptions{Method: "merge"}
	if in.MergeMethod != nil {
		o.Method = strings.ToLower(*in.MergeMethod)
	}
	if in.CommitHeadline != nil {
		o.Title = *in.CommitHeadline
	}
	if in.CommitBody != nil {
		o.Message = *in.CommitBody
	}
	x.st.Merge(is, x.c.Viewer, o)
	return &pullPayload{pull: is, actor: x.c.Viewer, clientMutationID: in.ClientMutationID}, nil
}

// reviewState checks a review event as GitHub does and returns the state
// it gives the review: an author cannot approve or request changes on
// their own pull request, a change request needs a body, and a comment a
// body or threads.
func (x *gqlContext) reviewState(is *state.Issue, event, body string, hasThreads bool) (string, error) {
	unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
	verdict := map[string]string{"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[event]
	switch {
	case verdict == "":
		return "", unprocessable("The emulator does not dismiss reviews through this mutation.")
	case is.State != "open" && verdict != "COMMENTED":
		return "", unprocessable("Can not " + strings.ToLower(strings.ReplaceAll(event, "_", " ")) + " a closed pull request.")
	case x.c.Viewer == is.User && verdict == "APPROVED":
		return "", unprocessable("Can not approve your own pull request")
	case x.c.Viewer == is.User && verdict == "CHANGES_REQUESTED":
		return "", unprocessable("Can not request changes on your own pull request")
	case verdict == "CHANGES_REQUESTED" && strings.TrimSpace(body) == "",
		verdict == "COMMENTED" && strings.TrimSpace(body) == "" && !hasThreads:
		return "", unprocessable("Review body can't be blank")
	case utf8.RuneCountInString(body) > state.MaxBodyChars:
		return "", unprocessable("Body is too long (maximum is 65536 characters)")
	}
	return verdict, nil
}

// checkThreads refuses a thread on a line outside the pull request's diff.
func (x *gqlContext) checkThreads(is *state.Issue, threads []draftReviewThread) error {
	for _, th := range threads {
		if th.Side == "LEFT" || state.DiffHunkOf(is, th.Path, th.Line) < 0 {
			return &gqlError{Type: "UNPROCESSABLE", Message: "Line could not be resolved: " + th.Path}
		}
	}
	return nil
}

type addReviewThreadArgs struct {
	Input struct {
		PullRequestReviewID *gqlID  `json:"pullRequestReviewId"`
		PullRequestID       *gqlID  `json:"pullRequestId"`
		Body                string  `json:"body"`
		ClientMutationID    *string `json:"clientMutationId"`
		threadPlace
	} `json:"input"`
}

type reviewIDArgs struct {
	Input struct {
		PullRequestReviewID gqlID   `json:"pullRequestReviewId"`
		ClientMutationID    *string `json:"clientMutationId"`
	} `json:"input"`
}

type submitReviewArgs struct {
	Input struct {
		PullRequestReviewID *gqlID  `json:"pullRequestReviewId"`
		PullRequestID       *gqlID  `json:"pullRequestId"`
		Event               string  `json:"event"`
		Body                *string `json:"body"`
		ClientMutationID    *string `json:"clientMutationId"`
	} `json:"input"`
}

type threadIDArgs struct {
	Input struct {
		ThreadID         gqlID   `json:"threadId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// threadPayload is what the thread mutations return.
type threadPayload struct {
	thread           *state.ReviewThread
	clientMutationID *string
}

// pendingReview finds the caller's pending review by id, or on the pull
// request named instead.
func (x *gqlContext) pendingReview(reviewID, pullID *gqlID) (*state.Review, error) {
	switch {
	case reviewID != nil:
		rv, _ := x.st.Node(string(*reviewID)).(*state.Review)
		if rv == nil || rv.User != x.c.Viewer || !x.canRead(rv.Pull.Repo) {
			return nil, notFound("Could not resolve to a node with the global id of '%s'", string(*reviewID))
		}
		return rv, nil
	case pullID != nil:
		is, err := x.pullRequest(*pullID)
		if err != nil {
			return nil, err
		}
		if rv := is.Pull.PendingReview(x.c.Viewer); rv != nil {
			return rv, nil
		}
	}
	return nil, &gqlError{Type: "UNPROCESSABLE", Message: "No pending review to act on: give pullRequestReviewId."}
}

func registerReviewMutations(r *resolvers) {
	resolveArgs(r, "Mutation.addPullRequestReviewThread", func(x *gqlContext, _ root, a addReviewThreadArgs) (any, error) {
		in := a.Input
		rv, err := x.pendingReview(in.PullRequestReviewID, in.PullRequestID)
		if err != nil {
			return nil, err
		}
		unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
		switch {
		case rv.State != "PENDING":
			return nil, unprocessable("The review has been submitted: start a new review.")
		case strings.TrimSpace(in.Body) == "":
			return nil, unprocessable("Body can't be blank")
		}
		spot, err := x.threadSpot(rv.Pull, in.threadPlace)
		if err != nil {
			return nil, err
		}
		c := x.st.AddReviewThread(rv, spot, in.Body, x.st.Now())
		return &threadPayload{thread: c.Thread, clientMutationID: in.ClientMutationID}, nil
	})
	resolveArgs(r, "Mutation.submitPullRequestReview", func(x *gqlContext, _ root, a submitReviewArgs) (any, error) {
		in := a.Input
		rv, err := x.pendingReview(in.PullRequestReviewID, in.PullRequestID)
		if err != nil {
			return nil, err
		}
		if rv.State != "PENDING" {
			return nil, &gqlError{Type: "UNPROCESSABLE", Message: "The review has already been submitted."}
		}
		body := rv.Body
		if in.Body != nil {
			body = *in.Body
		}
		verdict, err := x.reviewState(rv.Pull, in.Event, body, len(rv.Comments) > 0)
		if err != nil {
			return nil, err
		}
		x.st.SubmitReview(rv, verdict, body, x.st.Now())
		x.st.Touch(rv.Pull)
		return &pullPayload{pull: rv.Pull, review: rv, clientMutationID: in.ClientMutationID}, nil
	})
	resolveArgs(r, "Mutation.deletePullRequestReview", func(x *gqlContext, _ root, a reviewIDArgs) (any, error) {
		rv, err := x.pendingReview(&a.Input.PullRequestReviewID, nil)
		if err != nil {
			return nil, err
		}
		if rv.State != "PENDING" {
			return nil, &gqlError{Type: "UNPROCESSABLE", Message: "Can not delete a submitted review."}
		}
		x.st.DeleteReview(rv)
		return &pullPayload{pull: rv.Pull, review: rv, clientMutationID: a.Input.ClientMutationID}, nil
	})
	resolveArgs(r, "Mutation.addPullRequestReviewThreadReply", replyToThread)
	resolve(r, "AddPullRequestReviewThreadReplyPayload.comment", func(_ *gqlContext, p *replyPayload) (any, error) { return p.comment, nil })
	resolve(r, "AddPullRequestReviewThreadReplyPayload.clientMutationId", func(_ *gqlContext, p *replyPayload) (any, error) {
		return p.clientMutationID, nil
	})
	resolveArgs(r, "Mutation.resolveReviewThread", threadMutation("ResolveReviewThread", true))
	resolveArgs(r, "Mutation.unresolveReviewThread", threadMutation("UnresolveReviewThread", false))
	for _, t := range []string{"SubmitPullRequestReviewPayload", "DeletePullRequestReviewPayload"} {
		resolve(r, t+".pullRequestReview", func(_ *gqlContext, p *pullPayload) (any, error) { return p.review, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *pullPayload) (any, error) { return p.clientMutationID, nil })
	}
	for _, t := range []string{"AddPullRequestReviewThreadPayload", "ResolveReviewThreadPayload", "UnresolveReviewThreadPayload"} {
		resolve(r, t+".thread", func(_ *gqlContext, p *threadPayload) (any, error) { return p.thread, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *threadPayload) (any, error) { return p.clientMutationID, nil })
	}
}

// threadMutation resolves or unresolves a review thread: the pull
// request's author or anyone with write access may, as on GitHub.
func threadMutation(operation string, resolved bool) func(*gqlContext, root, threadIDArgs) (any, error) {
	return func(x *gqlContext, _ root, a threadIDArgs) (any, error) {
		t, _ := x.st.Node(string(a.Input.ThreadID)).(*state.ReviewThread)
		if t == nil || !x.canRead(t.Pull.Repo) || !slices.Contains(t.Pull.Pull.Threads, t) {
			return nil, nodeNotFound(string(a.Input.ThreadID))
		}
		if x.c.Token.Permission(t.Pull.Repo) < state.PermWrite && x.c.Viewer != t.Pull.User {
			return nil, forbidden(x.c.Token.Login, operation)
		}
		t.Resolved, t.ResolvedBy = resolved, nil
		if resolved {
			t.ResolvedBy = x.c.Viewer
		}
		return &threadPayload{thread: t, clientMutationID: a.Input.ClientMutationID}, nil
	}
}

type threadReplyArgs struct {
	Input struct {
		PullRequestReviewThreadID gqlID   `json:"pullRequestReviewThreadId"`
		PullRequestReviewID       *gqlID  `json:"pullRequestReviewId"`
		Body                      string  `json:"body"`
		ClientMutationID          *string `json:"clientMutationId"`
	} `json:"input"`
}

type replyPayload struct {
	comment          *state.ReviewComment
	clientMutationID *string
}

// replyToThread answers a review thread. Named with the caller's pending
// review, the reply joins it and appears when it is submitted; otherwise
// it is published at once as a review of its own holding only the reply,
// as GitHub does. Anyone who can read the pull request may reply.
func replyToThread(x *gqlContext, _ root, a threadReplyArgs) (any, error) {
	in := a.Input
	t, _ := x.st.Node(string(in.PullRequestReviewThreadID)).(*state.ReviewThread)
	if t == nil || !x.canRead(t.Pull.Repo) || !slices.Contains(t.Pull.Pull.Threads, t) {
		return nil, nodeNotFound(string(in.PullRequestReviewThreadID))
	}
	if strings.TrimSpace(in.Body) == "" {
		return nil, &gqlError{Type: "UNPROCESSABLE", Message: "Body can't be blank"}
	}
	if t.Pull.Locked && x.c.Token.Permission(t.Pull.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "AddPullRequestReviewThreadReply")
	}
	now := x.st.Now()
	var rv *state.Review
	if in.PullRequestReviewID != nil {
		var err error
		if rv, err = x.pendingReview(in.PullRequestReviewID, nil); err != nil {
			return nil, err
		}
		if rv.Pull != t.Pull || rv.State != "PENDING" {
			return nil, &gqlError{Type: "UNPROCESSABLE", Message: "The review does not belong to the thread's pull request or was submitted."}
		}
	} else {
		rv = x.st.AddReview(t.Pull, x.c.Viewer, "COMMENTED", "", now)
	}
	c := x.st.AddReviewComment(rv, t.Comments[len(t.Comments)-1], "", 0, in.Body, now)
	x.st.Touch(t.Pull)
	return &replyPayload{comment: c, clientMutationID: in.ClientMutationID}, nil
}
