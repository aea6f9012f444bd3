package pullrequests

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the pull_requests toolset's part of the capability
// summary.
func Summarize(served toolkit.Served) toolkit.Summary {
	if !served(toolkit.NameUpdateReviewThread) {
		return toolkit.Summary{}
	}
	return toolkit.Summary{Does: []string{"- pull_requests toolset: " + toolkit.NameUpdateReviewThread + " resolves, unresolves or replies to a pull request's review thread " +
		"(thread_id from list_issue_items' review_threads rows, or a review comment's comment_id); a thread already so is a no_op, " +
		"a thread not on the pull request named is refused (thread_not_on_pull), and every answer is the thread as it now stands\n"}}
}
