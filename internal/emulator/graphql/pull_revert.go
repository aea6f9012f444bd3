package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// revertPullRequest, as GitHub's schema defines it (RevertPullRequestInput):
// it needs write access, since it pushes a branch, and a merged pull
// request; it opens the revert through State.RevertPull.

type revertPullRequestArgs struct {
	Input struct {
		PullRequestID    gqlID   `json:"pullRequestId"`
		Title            *string `json:"title"`
		Body             *string `json:"body"`
		Draft            *bool   `json:"draft"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type revertPayload struct {
	pull, revert     *state.Issue
	clientMutationID *string
}

func registerPullRevert(r *resolvers) {
	resolveArgs(r, "Mutation.revertPullRequest", revertPullRequest)
	resolve(r, "RevertPullRequestPayload.pullRequest", func(_ *gqlContext, p *revertPayload) (any, error) { return p.pull, nil })
	resolve(r, "RevertPullRequestPayload.revertPullRequest", func(_ *gqlContext, p *revertPayload) (any, error) { return p.revert, nil })
	resolve(r, "RevertPullRequestPayload.clientMutationId", func(_ *gqlContext, p *revertPayload) (any, error) {
		return p.clientMutationID, nil
	})
}

func revertPullRequest(x *gqlContext, _ root, a revertPullRequestArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	if x.c.Token.Permission(is.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "RevertPullRequest")
	}
	if !is.Merged || is.Pull.MergeCommit == nil {
		return nil, unprocessable("Pull request is not merged")
	}
	draft := in.Draft != nil && *in.Draft
	rev := x.st.RevertPull(is, x.c.Viewer, in.Title, in.Body, draft, x.c.Req.Host)
	return &revertPayload{pull: is, revert: rev, clientMutationID: in.ClientMutationID}, nil
}
