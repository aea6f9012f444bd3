package graphql

import "github.com/ghgate/ghgate/internal/emulator/state"

// registerMinimizable serves Minimizable on the comments that implement
// it. The emulator offers no way to minimize (hide) a comment
// (minimizeComment is not served), so none is: isMinimized is false and
// minimizedReason null, which is what GitHub answers for a comment nobody
// hid.
func registerMinimizable(r *resolvers) {
	minimizable[*state.Comment](r, "IssueComment")
	minimizable[*state.Review](r, "PullRequestReview")
	minimizable[*state.ReviewComment](r, "PullRequestReviewComment")
}

func minimizable[P any](r *resolvers, typ string) {
	resolve(r, typ+".isMinimized", func(_ *gqlContext, _ P) (any, error) { return false, nil })
	resolve(r, typ+".minimizedReason", func(_ *gqlContext, _ P) (any, error) { return nil, nil })
}
