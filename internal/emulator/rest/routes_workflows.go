package rest

// workflowRoutes are the REST endpoints over Actions workflows and the
// runs' artifacts, usage, logs, cancelling and re-running (workflows.go).
func workflowRoutes() []route {
	const (
		repo = "/repos/{owner}/{repo}"
		wf   = repo + "/actions/workflows/{workflow_id}"
		run  = repo + "/actions/runs/{run_id}"
	)
	return []route{
		{"GET", repo + "/actions/workflows", listWorkflows},
		{"GET", wf, getWorkflow},
		{"GET", wf + "/runs", listRunsOfWorkflow},
		{"PUT", wf + "/enable", enableWorkflow},
		{"PUT", wf + "/disable", disableWorkflow},
		{"POST", wf + "/dispatches", dispatchWorkflow},
		{"GET", run + "/artifacts", listRunArtifacts},
		{"GET", run + "/timing", getRunUsage},
		{"DELETE", run, deleteRun},
		{"POST", run + "/cancel", cancelRun},
		{"GET", run + "/logs", downloadRunLogs},
		{"DELETE", run + "/logs", deleteRunLogs},
		{"POST", run + "/rerun", rerunRun},
		{"POST", run + "/rerun-failed-jobs", rerunFailedJobs},
	}
}
