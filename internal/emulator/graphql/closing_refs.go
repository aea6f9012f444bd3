package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Issue.closedByPullRequestsReferences: the pull requests that will close
// an issue when merged. GitHub links them from a closing keyword in the
// pull request's description ("Linking a pull request to an issue": close,
// closes, closed, fix, fixes, fixed, resolve, resolves, resolved, before
// #N in the same repository or OWNER/REPO#N in another). The emulator
// keeps no manual links, so userLinkedOnly finds none.

type closedByArgs struct {
	connArgs
	IncludeClosedPrs bool `json:"includeClosedPrs"`
	OrderByState     bool `json:"orderByState"`
	UserLinkedOnly   bool `json:"userLinkedOnly"`
}

func registerClosingRefs(r *resolvers) {
	resolveArgs(r, "Issue.closedByPullRequestsReferences", func(x *gqlContext, is *state.Issue, a closedByArgs) (any, error) {
		var list []*state.Issue
		if !a.UserLinkedOnly {
			for _, repo := range x.st.Repos() {
				if !x.canRead(repo) {
					continue
				}
				for _, pr := range repo.Issues {
					open := pr.State == "open"
					if pr.IsPull && !pr.Deleted && (open || a.IncludeClosedPrs) && state.Closes(pr, is) {
						list = append(list, pr)
					}
				}
			}
		}
		if a.OrderByState {
			slices.SortStableFunc(list, func(p, q *state.Issue) int { return strings.Compare(q.State, p.State) }) // open before closed
		}
		return pageOf(x, list, a.connArgs)
	})
}
