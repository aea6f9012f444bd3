package emulator

import (
	"strings"
	"unicode/utf8"
)

// GraphQL mutations on pull requests: closePullRequest, reopenPullRequest,
// markPullRequestReadyForReview, convertPullRequestToDraft,
// addPullRequestReview and mergePullRequest, as GitHub's schema defines
// them. Merging goes through the same checks as PUT .../pulls/{n}/merge.

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
	pull             *Issue
	actor            *Account
	review           *Review
	clientMutationID *string
}

func registerPullMutations(r *resolvers) {
	resolveArgs(r, "Mutation.closePullRequest", pullStateMutation("ClosePullRequest", func(x *gqlContext, is *Issue) error {
		if is.State == "open" {
			x.st.closePull(is, x.c.viewer)
		}
		return nil
	}))
	resolveArgs(r, "Mutation.reopenPullRequest", pullStateMutation("ReopenPullRequest", func(x *gqlContext, is *Issue) error {
		if is.Merged {
			return &gqlError{Type: "UNPROCESSABLE", Message: "Could not reopen a merged pull request."}
		}
		x.st.Reopen(is, x.c.viewer)
		return nil
	}))
	resolveArgs(r, "Mutation.markPullRequestReadyForReview", pullStateMutation("MarkPullRequestReadyForReview", func(x *gqlContext, is *Issue) error {
		is.Pull.Draft = false
		x.st.touch(is)
		return nil
	}))
	resolveArgs(r, "Mutation.convertPullRequestToDraft", pullStateMutation("ConvertPullRequestToDraft", func(x *gqlContext, is *Issue) error {
		if is.State != "open" {
			return &gqlError{Type: "UNPROCESSABLE", Message: "Could not convert a closed pull request to a draft."}
		}
		is.Pull.Draft = true
		x.st.touch(is)
		return nil
	}))
	resolveArgs(r, "Mutation.addPullRequestReview", addPullRequestReview)
	resolveArgs(r, "Mutation.mergePullRequest", mergePullRequest)

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
func (x *gqlContext) pullRequest(id gqlID) (*Issue, error) {
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
func pullStateMutation(operation string, change func(*gqlContext, *Issue) error) func(*gqlContext, root, pullRequestIDArgs) (any, error) {
	return func(x *gqlContext, _ root, a pullRequestIDArgs) (any, error) {
		is, err := x.pullRequest(a.Input.PullRequestID)
		if err != nil {
			return nil, err
		}
		if !x.mayChangeState(is) {
			return nil, forbidden(x.c.token.Login, operation)
		}
		if err := change(x, is); err != nil {
			return nil, err
		}
		return &pullPayload{pull: is, clientMutationID: a.Input.ClientMutationID}, nil
	}
}

// addPullRequestReview submits a review at once: the emulator keeps no
// pending reviews, so an event is required. As on GitHub, an author cannot
// approve or request changes on their own pull request, and a change
// request or a comment needs a body (or, for a comment, threads).
func addPullRequestReview(x *gqlContext, _ root, a addReviewArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
	if in.Event == nil {
		return nil, unprocessable("The emulator keeps no pending reviews: give an event (APPROVE, REQUEST_CHANGES or COMMENT).")
	}
	if len(in.Comments) > 0 {
		return nil, unprocessable("The emulator takes review comments as threads (path and line), not as diff positions.")
	}
	body := ""
	if in.Body != nil {
		body = *in.Body
	}
	state := map[string]string{"APPROVE": "APPROVED", "REQUEST_CHANGES": "CHANGES_REQUESTED", "COMMENT": "COMMENTED"}[*in.Event]
	switch {
	case state == "":
		return nil, unprocessable("The emulator does not dismiss reviews through addPullRequestReview.")
	case is.State != "open" && state != "COMMENTED":
		return nil, unprocessable("Can not " + strings.ToLower(strings.ReplaceAll(*in.Event, "_", " ")) + " a closed pull request.")
	case x.c.viewer == is.User && state == "APPROVED":
		return nil, unprocessable("Can not approve your own pull request")
	case x.c.viewer == is.User && state == "CHANGES_REQUESTED":
		return nil, unprocessable("Can not request changes on your own pull request")
	case state == "CHANGES_REQUESTED" && strings.TrimSpace(body) == "",
		state == "COMMENTED" && strings.TrimSpace(body) == "" && len(in.Threads) == 0:
		return nil, unprocessable("Review body can't be blank")
	case utf8.RuneCountInString(body) > maxBodyChars:
		return nil, unprocessable("Body is too long (maximum is 65536 characters)")
	case in.CommitOID != nil && *in.CommitOID != is.Pull.Head.SHA:
		return nil, unprocessable("The commit is not the pull request's head: review the latest changes.")
	}
	for _, th := range in.Threads {
		if th.Side == "LEFT" || !lineInDiff(is, th.Path, th.Line) {
			return nil, unprocessable("Line could not be resolved: " + th.Path)
		}
	}
	now := x.st.Now()
	rv := x.st.AddReview(is, x.c.viewer, state, body, now)
	for _, th := range in.Threads {
		x.st.AddReviewComment(rv, nil, th.Path, th.Line, th.Body, now)
	}
	x.st.touch(is)
	return &pullPayload{pull: is, review: rv, clientMutationID: in.ClientMutationID}, nil
}

// lineInDiff reports whether line of the new version of path lies in one
// of the pull request's hunks, where GitHub lets a review comment sit.
func lineInDiff(is *Issue, path string, line int) bool {
	for _, fc := range is.Pull.Changes() {
		if fc.Path != path {
			continue
		}
		n := 0
		for _, l := range splitPatch(fc.Patch) {
			switch {
			case strings.HasPrefix(l, "@@"):
				n = hunkStart(l) - 1
			case strings.HasPrefix(l, "-"), strings.HasPrefix(l, "\\"):
			default:
				n++
				if n == line {
					return true
				}
			}
		}
	}
	return false
}

// mergePullRequest merges as PUT .../pulls/{n}/merge does, with its
// refusals as UNPROCESSABLE errors.
func mergePullRequest(x *gqlContext, _ root, a mergePullArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	if x.c.token.Permission(is.Repo) < PermWrite {
		return nil, forbidden(x.c.token.Login, "MergePullRequest")
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
	if x.c.token.Permission(is.Repo) < PermAdmin {
		if why := mergeBlocker(is); why != "" {
			return nil, unprocessable(why)
		}
	}
	o := MergeOptions{Method: "merge"}
	if in.MergeMethod != nil {
		o.Method = strings.ToLower(*in.MergeMethod)
	}
	if in.CommitHeadline != nil {
		o.Title = *in.CommitHeadline
	}
	if in.CommitBody != nil {
		o.Message = *in.CommitBody
	}
	x.st.Merge(is, x.c.viewer, o)
	return &pullPayload{pull: is, actor: x.c.viewer, clientMutationID: in.ClientMutationID}, nil
}
