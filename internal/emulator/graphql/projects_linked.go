package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// The two built-in fields whose values are other objects' links to the
// item's content: "Linked pull requests" (the pull requests whose closing
// keywords name an issue) and "Reviewers" (the reviews requested on a pull
// request). Like the other built-in values, an item has one only when its
// content has something to show, and content the caller may not see shows
// nothing.

// linkedPullsArgs are ProjectV2ItemFieldPullRequestValue.pullRequests':
// a PullRequestOrder, oldest first by default as GitHub's is.
type linkedPullsArgs struct {
	connArgs
	OrderBy *issueOrder `json:"orderBy"`
}

// linkedPulls are the linked pull requests of the item's content the
// caller may read.
func (x *gqlContext) linkedPulls(it *state.ProjectItem) []*state.Issue {
	if it.Issue == nil {
		return nil
	}
	return x.readable(x.st.LinkedPullRequests(it.Issue))
}

// requestedReviewers are the users and teams asked to review the item's
// pull request, users first, as PullRequest.reviewRequests lists them.
func requestedReviewers(it *state.ProjectItem) []any {
	if it.Issue == nil || it.Issue.Pull == nil {
		return nil
	}
	var out []any
	for _, u := range it.Issue.Pull.RequestedReviewers {
		out = append(out, u)
	}
	for _, t := range it.Issue.Pull.RequestedTeams {
		out = append(out, t)
	}
	return out
}

func registerProjectLinks(r *resolvers) {
	registerConnectionType(r, "RequestedReviewerConnection", "RequestedReviewerEdge")
	resolveArgs(r, "ProjectV2ItemFieldPullRequestValue.pullRequests", func(x *gqlContext, v *builtinValue, a linkedPullsArgs) (any, error) {
		list := slices.Clone(x.linkedPulls(v.item))
		by, dir := "created", "asc"
		if a.OrderBy != nil {
			by = map[string]string{"CREATED_AT": "created", "UPDATED_AT": "updated"}[a.OrderBy.Field]
			dir = strings.ToLower(a.OrderBy.Direction)
		}
		search.SortIssues(list, by, dir)
		return pageOf(x, list, a.connArgs)
	})
	resolveArgs(r, "ProjectV2ItemFieldReviewerValue.reviewers", func(x *gqlContext, v *builtinValue, a connArgs) (any, error) {
		return pageOf(x, requestedReviewers(v.item), a)
	})
}
