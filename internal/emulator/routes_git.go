package emulator

// gitRoutes are the REST endpoints over pull requests, git data and
// releases.
// Branch names and refs may hold slashes, so those wildcards take the
// rest of the path.
func (e *Emulator) gitRoutes() []route {
	const (
		repo = "/repos/{owner}/{repo}"
		pull = repo + "/pulls/{pull_number}"
	)
	return []route{
		{"GET", repo + "/pulls", e.listPulls},
		{"GET", pull, e.getPull},
		{"GET", pull + "/files", e.listPullFiles},
		{"GET", pull + "/commits", e.listPullCommits},
		{"GET", pull + "/reviews", e.listPullReviews},
		{"GET", pull + "/comments", e.listPullReviewComments},
		{"GET", pull + "/requested_reviewers", e.listRequestedReviewers},
		{"POST", repo + "/pulls", e.createPull},
		{"PATCH", pull, e.updatePull},
		{"POST", pull + "/requested_reviewers", e.requestReviewers},
		{"DELETE", pull + "/requested_reviewers", e.removeRequestedReviewers},
		{"GET", pull + "/merge", e.checkMerged},
		{"PUT", pull + "/merge", e.mergePull},

		{"GET", repo + "/branches", e.listBranches},
		{"GET", repo + "/branches/{branch...}", e.getBranch},
		{"GET", repo + "/git/ref/{ref...}", e.getGitRef},
		{"GET", repo + "/git/matching-refs/{ref...}", e.listMatchingRefs},
		{"POST", repo + "/git/refs", e.createRef},
		{"PATCH", repo + "/git/refs/{ref...}", e.updateRef},
		{"GET", repo + "/git/trees/{tree_sha}", e.getTree},
		{"POST", repo + "/git/trees", e.createTree},
		{"GET", repo + "/git/commits/{commit_sha}", e.getGitCommit},
		{"POST", repo + "/git/commits", e.createCommit},
		{"PUT", repo + "/contents/{path...}", e.putContents},
		{"GET", repo + "/commits", e.listCommits},
		{"GET", repo + "/commits/{ref}", e.getCommit},
		{"GET", repo + "/commits/{ref}/status", e.getCombinedStatus},
		{"GET", repo + "/commits/{ref}/statuses", e.listCommitStatuses},
		{"GET", repo + "/commits/{ref}/check-runs", e.listCommitCheckRuns},

		{"GET", repo + "/tags", e.listTags},
		{"GET", repo + "/releases", e.listReleases},
		{"GET", repo + "/releases/latest", e.getLatestRelease},
		{"GET", repo + "/releases/tags/{tag}", e.getReleaseByTag},
	}
}
