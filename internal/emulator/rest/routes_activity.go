package rest

// activityRoutes are the REST endpoints over a repository's README
// (readme.go), starring (stars.go), notifications (notifications.go),
// watching threads and repositories (subscriptions.go), review comments
// written on a pull request (review_replies.go) and reactions to them
// (review_reactions.go).
func activityRoutes() []route {
	const repo = "/repos/{owner}/{repo}"
	return []route{
		{"GET", repo + "/readme", getReadme},
		{"GET", repo + "/readme/{dir...}", getReadme},

		{"GET", repo + "/stargazers", listStargazers},
		{"GET", "/user/starred", listViewerStarred},
		{"GET", "/users/{username}/starred", listUserStarred},
		{"GET", "/user/starred/{owner}/{repo}", checkStarred},
		{"PUT", "/user/starred/{owner}/{repo}", starRepo},
		{"DELETE", "/user/starred/{owner}/{repo}", unstarRepo},

		{"POST", repo + "/pulls/{pull_number}/comments", createReviewComment},
		{"POST", repo + "/pulls/{pull_number}/comments/{comment_id}/replies", replyToReviewComment},
		{"GET", repo + "/pulls/comments/{comment_id}/reactions", listReviewCommentReactions},
		{"POST", repo + "/pulls/comments/{comment_id}/reactions", createReviewCommentReaction},

		{"GET", "/notifications", listNotifications},
		{"PUT", "/notifications", markAllRead},
		{"GET", "/notifications/threads/{thread_id}", getThread},
		{"PATCH", "/notifications/threads/{thread_id}", markThreadRead},
		{"DELETE", "/notifications/threads/{thread_id}", markThreadDone},
		{"GET", repo + "/notifications", listRepoNotifications},
		{"PUT", repo + "/notifications", markRepoRead},
		{"GET", "/notifications/threads/{thread_id}/subscription", getThreadSubscription},
		{"PUT", "/notifications/threads/{thread_id}/subscription", setThreadSubscription},
		{"DELETE", "/notifications/threads/{thread_id}/subscription", deleteThreadSubscription},
		{"GET", repo + "/subscription", getRepoSubscription},
		{"PUT", repo + "/subscription", setRepoSubscription},
		{"DELETE", repo + "/subscription", deleteRepoSubscription},
	}
}
