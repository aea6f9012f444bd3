package graphql

import (
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Ref.compare and updatePullRequestBranch, as GitHub's CLI uses them for
// `gh pr update-branch`: it compares the pull request's base ref with its
// head ("owner:branch" for a fork's) and, when the head is behind, merges
// the base into it.

type refCompareArgs struct {
	HeadRef string `json:"headRef"`
}

// comparison is GitHub's Comparison of a base ref with a head ref: how many
// commits each has that the other lacks.
type comparison struct {
	base, head        *state.GitCommit
	repo              *state.Repo
	aheadBy, behindBy int
}

type updatePullRequestBranchArgs struct {
	Input struct {
		PullRequestID    gqlID   `json:"pullRequestId"`
		ExpectedHeadOid  *string `json:"expectedHeadOid"`
		UpdateMethod     *string `json:"updateMethod"` // MERGE (the default) | REBASE
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

func registerRefCompare(r *resolvers) {
	resolveArgs(r, "Ref.compare", func(x *gqlContext, ref *gitRef, a refCompareArgs) (any, error) {
		base := ref.tip()
		head := compareHead(x, ref.repo, a.HeadRef)
		if base == nil || head == nil {
			return nil, nil
		}
		return &comparison{base: base, head: head, repo: ref.repo,
			aheadBy: len(state.Between(base, head)), behindBy: len(state.Between(head, base))}, nil
	})
	resolve(r, "Comparison.id", func(_ *gqlContext, c *comparison) (any, error) {
		return state.NodeID("CMP", c.repo.ID) + c.base.SHA[:12] + c.head.SHA[:12], nil
	})
	resolve(r, "Comparison.aheadBy", func(_ *gqlContext, c *comparison) (any, error) { return c.aheadBy, nil })
	resolve(r, "Comparison.behindBy", func(_ *gqlContext, c *comparison) (any, error) { return c.behindBy, nil })
	resolve(r, "Comparison.status", func(_ *gqlContext, c *comparison) (any, error) {
		switch {
		case c.aheadBy > 0 && c.behindBy > 0:
			return "DIVERGED", nil
		case c.aheadBy > 0:
			return "AHEAD", nil
		case c.behindBy > 0:
			return "BEHIND", nil
		}
		return "IDENTICAL", nil
	})
	resolveArgs(r, "Mutation.updatePullRequestBranch", updatePullRequestBranch)
	resolve(r, "UpdatePullRequestBranchPayload.pullRequest", func(_ *gqlContext, p *issuePayload) (any, error) { return p.issue, nil })
	resolve(r, "UpdatePullRequestBranchPayload.clientMutationId", func(_ *gqlContext, p *issuePayload) (any, error) {
		return p.clientMutationID, nil
	})
}

// compareHead finds the commit a compare's headRef names: a branch or tag
// of repo, or "owner:branch" of a fork of repo the caller can see.
func compareHead(x *gqlContext, repo *state.Repo, headRef string) *state.GitCommit {
	in := repo
	if owner, name, ok := strings.Cut(headRef, ":"); ok {
		headRef = name
		if !strings.EqualFold(owner, repo.Owner.Login) {
			in = x.st.Repo(owner, repo.Name)
			if in == nil || in.Parent != repo || !x.canRead(in) {
				return nil
			}
		}
	}
	if ref := lookupRef(in, headRef); ref != nil {
		return ref.tip()
	}
	return nil
}

// updatePullRequestBranch merges the base branch into the head branch, as
// GitHub's "Update branch" does (State.UpdateBranch): as
// [state.MayUpdateBranch] allows, with GitHub's refusals for an up-to-date head, a moved
// head and a conflict. The emulator does not rebase: REBASE is refused
// rather than answered with a merge.
func updatePullRequestBranch(x *gqlContext, _ root, a updatePullRequestBranchArgs) (any, error) {
	in := a.Input
	is, err := x.pullRequest(in.PullRequestID)
	if err != nil {
		return nil, err
	}
	if !state.MayUpdateBranch(is, x.c.Token) {
		return nil, forbidden(x.c.Token.Login, "UpdatePullRequestBranch")
	}
	if in.UpdateMethod != nil && *in.UpdateMethod == "REBASE" {
		return nil, unprocessable("The emulator updates a branch by merging only; REBASE is not served")
	}
	expected := ""
	if in.ExpectedHeadOid != nil {
		expected = *in.ExpectedHeadOid
	}
	if _, err := x.st.UpdateBranch(is, x.c.Viewer, expected); err != nil {
		return nil, unprocessable(err.Error())
	}
	return &issuePayload{issue: is, clientMutationID: in.ClientMutationID}, nil
}
