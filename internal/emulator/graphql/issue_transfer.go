package graphql

import (
	"errors"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// transferIssue, as GitHub's schema defines it (TransferIssueInput): it
// needs write access to the issue's repository and to the target, as
// GitHub's docs on transferring an issue say, and moves the issue through
// State.TransferIssue. GitHub's refusals of the move itself (another owner,
// private to public, issues off, archived) come back together, joined as
// GitHub joins them.

type transferIssueArgs struct {
	Input struct {
		IssueID               gqlID   `json:"issueId"`
		RepositoryID          gqlID   `json:"repositoryId"`
		CreateLabelsIfMissing *bool   `json:"createLabelsIfMissing"`
		ClientMutationID      *string `json:"clientMutationId"`
	} `json:"input"`
}

func registerIssueTransfer(r *resolvers) {
	resolveArgs(r, "Mutation.transferIssue", transferIssue)
	resolve(r, "TransferIssuePayload.issue", func(_ *gqlContext, p *issuePayload) (any, error) { return p.issue, nil })
	resolve(r, "TransferIssuePayload.clientMutationId", func(_ *gqlContext, p *issuePayload) (any, error) {
		return p.clientMutationID, nil
	})
}

func transferIssue(x *gqlContext, _ root, a transferIssueArgs) (any, error) {
	in := a.Input
	is, err := x.issue(in.IssueID)
	if err != nil {
		return nil, err
	}
	target, _ := x.visibleNode(string(in.RepositoryID)).(*state.Repo)
	if target == nil {
		return nil, nodeNotFound(string(in.RepositoryID))
	}
	if x.c.Token.Permission(is.Repo) < state.PermWrite || x.c.Token.Permission(target) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "TransferIssue")
	}
	if err := state.TransferError(is, target); err != nil {
		var why state.TransferRefusal
		if errors.As(err, &why) {
			return nil, unprocessable(why.Error())
		}
		return nil, err
	}
	create := in.CreateLabelsIfMissing != nil && *in.CreateLabelsIfMissing
	moved := x.st.TransferIssue(is, target, x.c.Viewer, create)
	return &issuePayload{issue: moved, clientMutationID: in.ClientMutationID}, nil
}
