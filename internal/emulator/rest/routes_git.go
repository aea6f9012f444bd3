package rest

// gitRoutes are the REST endpoints over pull requests, git data and
// releases.
// Branch names and refs may hold slashes, so those wildcards take the
// rest of the path.
func gitRoutes() []route {
	const (
		repo = "/repos/{owner}/{repo}"
		pull = repo + "/pulls/{pull_number}"
	)
	return []route{
		{"GET", repo + "/pulls", listPulls},
		{"GET", pull, getPull},
		{"GET", pull + "/files", listPullFiles},
		{"GET", pull + "/commits", listPullCommits},
		{"GET", pull + "/reviews", listPullReviews},
		{"GET", pull + "/comments", listPullReviewComments},
		{"GET", pull + "/requested_reviewers", listRequestedReviewers},
		{"POST", repo + "/pulls", createPull},
		{"PATCH", pull, updatePull},
		{"POST", pull + "/requested_reviewers", requestReviewers},
		{"DELETE", pull + "/requested_reviewers", removeRequestedReviewers},
		{"GET", pull + "/merge", checkMerged},
		{"PUT", pull + "/merge", mergePull},
		{"PUT", pull + "/update-branch", updatePullBranch},

		{"GET", repo + "/branches", listBranches},
		{"GET", repo + "/branches/{branch...}", getBranch},
		{"GET", repo + "/git/ref/{ref...}", getGitRef},
		{"GET", repo + "/git/matching-refs/{ref...}", listMatchingRefs},
		{"POST", repo + "/git/refs", createRef},
		{"PATCH", repo + "/git/refs/{ref...}", updateRef},
		{"DELETE", repo + "/git/refs/{ref...}", deleteRef},
		{"GET", repo + "/git/trees/{tree_sha}", getTree},
		{"POST", repo + "/git/trees", createTree},
		{"GET", repo + "/git/commits/{commit_sha}", getGitCommit},
		{"POST", repo + "/git/commits", createCommit},
		{"PUT", repo + "/contents/{path...}", putContents},
		{"GET", repo + "/commits", listCommits},
		{"GET", repo + "/commits/{ref}", getCommit},
		{"GET", repo + "/commits/{ref}/status", getCombinedStatus},
		{"GET", repo + "/commits/{ref}/statuses", listCommitStatuses},
		{"GET", repo + "/commits/{ref}/check-runs", listCommitCheckRuns},
		{"GET", repo + "/commits/{ref}/check-suites", listCommitCheckSuites},

		{"GET", repo + "/actions/runs", listWorkflowRuns},
		{"GET", repo + "/actions/runs/{run_id}", getWorkflowRun},
		{"GET", repo + "/actions/runs/{run_id}/jobs", listRunJobs},
		{"GET", repo + "/actions/jobs/{job_id}", getJob},
		{"GET", repo + "/actions/jobs/{job_id}/logs", downloadJobLogs},

		{"GET", repo + "/tags", listTags},
		{"GET", repo + "/releases", listReleases},
		{"GET", repo + "/releases/latest", getLatestRelease},
		{"GET", repo + "/releases/tags/{tag}", getReleaseByTag},
		{"POST", repo + "/releases", createRelease},
		{"POST", repo + "/releases/generate-notes", generateReleaseNotes},
		{"GET", repo + "/releases/{release_id}", getRelease},
		{"PATCH", repo + "/releases/{release_id}", updateRelease},
		{"DELETE", repo + "/releases/{release_id}", deleteRelease},
		{"GET", repo + "/releases/{release_id}/assets", listReleaseAssets},
		{"POST", repo + "/releases/{release_id}/assets", uploadReleaseAsset},
		{"GET", repo + "/releases/assets/{asset_id}", getReleaseAsset},
		{"PATCH", repo + "/releases/assets/{asset_id}", updateReleaseAsset},
		{"DELETE", repo + "/releases/assets/{asset_id}", deleteReleaseAsset},
	}
}
