package graphql

import (
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// GraphQL over linked branches (state/linked_branches.go): Issue.linkedBranches,
// the LinkedBranch type, and the createLinkedBranch and deleteLinkedBranch
// mutations, as GitHub's schema defines them. `gh issue develop` checks
// that LinkedBranch exists, finds the base commit through Repository.ref
// or defaultBranchRef, creates the branch, and lists them with --list
// (api/queries_branch_issue_reference.go in gh's source).

type createLinkedBranchArgs struct {
	Input struct {
		IssueID          gqlID   `json:"issueId"`
		Oid              string  `json:"oid"`
		Name             *string `json:"name"`
		RepositoryID     *gqlID  `json:"repositoryId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type deleteLinkedBranchArgs struct {
	Input struct {
		LinkedBranchID   gqlID   `json:"linkedBranchId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// linkedBranchPayload is what both mutations return; deleteLinkedBranch's
// carries no linked branch.
type linkedBranchPayload struct {
	issue            *state.Issue
	linkedBranch     *state.LinkedBranch
	clientMutationID *string
}

func registerLinkedBranches(r *resolvers) {
	objectType(r, func(*state.LinkedBranch) string { return "LinkedBranch" })
	resolve(r, "LinkedBranch.id", func(_ *gqlContext, lb *state.LinkedBranch) (any, error) { return lb.NodeID, nil })
	resolve(r, "LinkedBranch.ref", func(_ *gqlContext, lb *state.LinkedBranch) (any, error) {
		if !lb.Exists() {
			return nil, nil
		}
		return &gitRef{repo: lb.Repo, name: lb.Name}, nil
	})
	resolveArgs(r, "Issue.linkedBranches", func(x *gqlContext, is *state.Issue, a connArgs) (any, error) {
		var list []*state.LinkedBranch
		for _, lb := range is.LinkedBranches {
			if lb.Exists() && x.canRead(lb.Repo) {
				list = append(list, lb)
			}
		}
		return pageOf(x, list, a)
	})
	registerConnectionType(r, "LinkedBranchConnection", "LinkedBranchEdge")

	resolveArgs(r, "Mutation.createLinkedBranch", createLinkedBranchMutation)
	resolveArgs(r, "Mutation.deleteLinkedBranch", deleteLinkedBranchMutation)
	resolve(r, "CreateLinkedBranchPayload.linkedBranch", func(_ *gqlContext, p *linkedBranchPayload) (any, error) { return p.linkedBranch, nil })
	for _, t := range []string{"CreateLinkedBranchPayload", "DeleteLinkedBranchPayload"} {
		resolve(r, t+".issue", func(_ *gqlContext, p *linkedBranchPayload) (any, error) { return p.issue, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *linkedBranchPayload) (any, error) { return p.clientMutationID, nil })
	}
}

func createLinkedBranchMutation(x *gqlContext, _ root, a createLinkedBranchArgs) (any, error) {
	in := a.Input
	is, _ := x.visibleNode(string(in.IssueID)).(*state.Issue)
	if is == nil {
		return nil, nodeNotFound(string(in.IssueID))
	}
	repo := is.Repo
	if in.RepositoryID != nil {
		if repo, _ = x.visibleNode(string(*in.RepositoryID)).(*state.Repo); repo == nil {
			return nil, nodeNotFound(string(*in.RepositoryID))
		}
	}
	if x.c.Token.Permission(repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "CreateLinkedBranch")
	}
	var at *state.GitCommit
	if repo.Git != nil {
		at = repo.Git.Commits[strings.ToLower(in.Oid)]
	}
	if at == nil {
		return nil, unprocessable("Oid does not exist in the repository")
	}
	name := state.LinkedBranchName(is)
	if in.Name != nil && strings.TrimSpace(*in.Name) != "" {
		name = strings.TrimPrefix(strings.TrimSpace(*in.Name), "refs/heads/")
	}
	lb, err := x.st.CreateLinkedBranch(is, repo, name, at)
	if err != nil {
		return nil, unprocessable(err.Error()) // the only refusal it has
	}
	return &linkedBranchPayload{issue: is, linkedBranch: lb, clientMutationID: in.ClientMutationID}, nil
}

func deleteLinkedBranchMutation(x *gqlContext, _ root, a deleteLinkedBranchArgs) (any, error) {
	in := a.Input
	lb, _ := x.visibleNode(string(in.LinkedBranchID)).(*state.LinkedBranch)
	if lb == nil {
		return nil, nodeNotFound(string(in.LinkedBranchID))
	}
	if x.c.Token.Permission(lb.Issue.Repo) < state.PermWrite {
		return nil, forbidden(x.c.Token.Login, "DeleteLinkedBranch")
	}
	x.st.DeleteLinkedBranch(lb)
	return &linkedBranchPayload{issue: lb.Issue, clientMutationID: in.ClientMutationID}, nil
}
