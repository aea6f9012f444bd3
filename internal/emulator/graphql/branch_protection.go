package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Ref.branchProtectionRule: the rule protecting a branch, as GitHub's
// GraphQL reports it. The emulator's one rule is the default branch's
// (protectedBranch): one approving review and the required checks
// (requiredChecks), branches need not be up to date, admins may bypass it
// (mergeBlocker enforces the same rule on merges). `gh pr status` and
// `gh pr view --json` read it through baseRef.

// branchRule is the rule protecting a repository's default branch.
type branchRule struct{ repo *state.Repo }

func registerBranchProtection(r *resolvers) {
	objectType(r, func(*branchRule) string { return "BranchProtectionRule" })
	resolve(r, "Ref.branchProtectionRule", func(_ *gqlContext, ref *gitRef) (any, error) {
		if ref.prefix != "" || !state.ProtectedBranch(ref.name) {
			return nil, nil
		}
		return &branchRule{repo: ref.repo}, nil
	})
	resolve(r, "BranchProtectionRule.id", func(_ *gqlContext, b *branchRule) (any, error) {
		return state.NodeID("BPR", b.repo.ID), nil
	})
	resolve(r, "BranchProtectionRule.pattern", func(_ *gqlContext, _ *branchRule) (any, error) { return state.RepoDefaultBranch, nil })
	resolve(r, "BranchProtectionRule.repository", func(_ *gqlContext, b *branchRule) (any, error) { return b.repo, nil })
	resolve(r, "BranchProtectionRule.requiresApprovingReviews", func(_ *gqlContext, _ *branchRule) (any, error) { return true, nil })
	resolve(r, "BranchProtectionRule.requiredApprovingReviewCount", func(_ *gqlContext, _ *branchRule) (any, error) { return 1, nil })
	resolve(r, "BranchProtectionRule.requiresStatusChecks", func(_ *gqlContext, _ *branchRule) (any, error) { return true, nil })
	resolve(r, "BranchProtectionRule.requiresStrictStatusChecks", func(_ *gqlContext, _ *branchRule) (any, error) { return false, nil })
	resolve(r, "BranchProtectionRule.requiredStatusCheckContexts", func(_ *gqlContext, _ *branchRule) (any, error) {
		return append([]string(nil), state.RequiredChecks...), nil
	})
	resolve(r, "BranchProtectionRule.isAdminEnforced", func(_ *gqlContext, _ *branchRule) (any, error) { return false, nil })
}
