package rest

import "github.com/ghgate/ghgate/internal/emulator/state"

// The needs of GitHub's "Permissions required for GitHub Apps", by the
// permission and level they name. Where GitHub lists an endpoint under two
// permissions as alternatives (an issue's comments and labels serve pull
// requests too), the need is either.
var (
	metadata    = state.AppNeed{}
	unavailable = state.AppNeed{Unavailable: true}

	issuesRead     = state.Need("issues", "read")
	issuesWrite    = state.Need("issues", "write")
	issuesOrPRs    = issuesRead.Or(state.Need("pull_requests", "read"))
	issuesOrPRsW   = issuesWrite.Or(state.Need("pull_requests", "write"))
	pullsRead      = state.Need("pull_requests", "read")
	pullsWrite     = state.Need("pull_requests", "write")
	contentsRead   = state.Need("contents", "read")
	contentsWrite  = state.Need("contents", "write")
	adminWrite     = state.Need("administration", "write")
	actionsRead    = state.Need("actions", "read")
	actionsWrite   = state.Need("actions", "write")
	boardsRead     = state.Need("organization_projects", "read")
	boardsWrite    = state.Need("organization_projects", "write")
	statusesRead   = state.Need("statuses", "read")
	checksRead     = state.Need("checks", "read")
	dependabotRead = state.Need("vulnerability_alerts", "read")
	scanningRead   = state.Need("security_events", "read")
	secretsRead    = state.Need("secret_scanning_alerts", "read")
)

// appNeeds is what each route asks of an installation token, keyed as
// the route table spells it. Endpoints that act for a user (the
// authenticated user, their notifications, stars, subscriptions and
// boards) are unavailable to installation tokens; the /app endpoints take
// the App's JWT, which their handlers check.
var appNeeds = map[string]state.AppNeed{
	"GET /":                            metadata,
	"GET /rate_limit":                  metadata,
	"GET /user":                        unavailable,
	"GET /users/{username}":            metadata,
	"GET /users/{username}/repos":      metadata,
	"GET /user/repos":                  unavailable,
	"POST /user/repos":                 unavailable,
	"GET /orgs/{org}/repos":            metadata,
	"POST /orgs/{org}/repos":           adminWrite,
	"GET /orgs/{org}/issue-types":      metadata,
	"GET /repos/{owner}/{repo}":        metadata,
	"PATCH /repos/{owner}/{repo}":      adminWrite,
	"DELETE /repos/{owner}/{repo}":     adminWrite,
	"GET /repos/{owner}/{repo}/topics": metadata,
	"PUT /repos/{owner}/{repo}/topics": adminWrite,
	// Forking reads the contents and creates a repository.
	"POST /repos/{owner}/{repo}/forks":        {Sets: []state.AppPermissions{{"administration": "write", "contents": "read"}}},
	"GET /repos/{owner}/{repo}/collaborators": metadata,

	"GET /repos/{owner}/{repo}/issues":                                  issuesRead,
	"POST /repos/{owner}/{repo}/issues":                                 issuesWrite,
	"GET /repos/{owner}/{repo}/issues/{issue_number}":                   issuesRead,
	"PATCH /repos/{owner}/{repo}/issues/{issue_number}":                 issuesOrPRsW,
	"PUT /repos/{owner}/{repo}/issues/{issue_number}/lock":              issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock":           issuesOrPRsW,
	"GET /repos/{owner}/{repo}/issue-types":                             issuesRead,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/timeline":          issuesOrPRs,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/reactions":         issuesRead,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/reactions":        issuesWrite,
	"GET /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions":  issuesRead,
	"POST /repos/{owner}/{repo}/issues/comments/{comment_id}/reactions": issuesWrite,

	"GET /repos/{owner}/{repo}/labels":                                 issuesOrPRs,
	"POST /repos/{owner}/{repo}/labels":                                issuesOrPRsW,
	"GET /repos/{owner}/{repo}/labels/{name}":                          issuesOrPRs,
	"PATCH /repos/{owner}/{repo}/labels/{name}":                        issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/labels/{name}":                       issuesOrPRsW,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/labels":           issuesOrPRs,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/labels":          issuesOrPRsW,
	"PUT /repos/{owner}/{repo}/issues/{issue_number}/labels":           issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels":        issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}": issuesOrPRsW,
	"GET /repos/{owner}/{repo}/milestones":                             issuesOrPRs,
	"POST /repos/{owner}/{repo}/milestones":                            issuesOrPRsW,
	"GET /repos/{owner}/{repo}/milestones/{milestone_number}":          issuesOrPRs,
	"PATCH /repos/{owner}/{repo}/milestones/{milestone_number}":        issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/milestones/{milestone_number}":       issuesOrPRsW,
	"GET /repos/{owner}/{repo}/assignees":                              issuesOrPRs,
	"GET /repos/{owner}/{repo}/assignees/{assignee}":                   issuesOrPRs,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/assignees":       issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/assignees":     issuesOrPRsW,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/comments":         issuesOrPRs,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/comments":        issuesOrPRsW,
	"GET /repos/{owner}/{repo}/issues/comments/{comment_id}":           issuesOrPRs,
	"PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}":         issuesOrPRsW,
	"DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}":        issuesOrPRsW,

	// Sub-issues, dependencies and related issues are issues' own.
	"GET /repos/{owner}/{repo}/issues/{issue_number}/sub_issues":                            issuesRead,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/sub_issues":                           issuesWrite,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/sub_issue":                          issuesWrite,
	"PATCH /repos/{owner}/{repo}/issues/{issue_number}/sub_issues/priority":                 issuesWrite,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/parent":                                issuesRead,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by":               issuesRead,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by":              issuesWrite,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocked_by/{issue_id}": issuesWrite,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/dependencies/blocking":                 issuesRead,
	"GET /repos/{owner}/{repo}/issues/{issue_number}/related":                               issuesRead,
	"POST /repos/{owner}/{repo}/issues/{issue_number}/related":                              issuesWrite,
	"DELETE /repos/{owner}/{repo}/issues/{issue_number}/related/{issue_id}":                 issuesWrite,

	// Search answers what the token can see; it asks no permission itself.
	"GET /search/issues":       metadata,
	"GET /search/users":        metadata,
	"GET /search/repositories": metadata,
	"GET /search/commits":      metadata,
	"GET /search/code":         metadata,

	"GET /app/installations/{installation_id}":                metadata,
	"POST /app/installations/{installation_id}/access_tokens": metadata,

	"GET /orgs/{org}/dependabot/alerts":                               dependabotRead,
	"GET /repos/{owner}/{repo}/dependabot/alerts":                     dependabotRead,
	"GET /repos/{owner}/{repo}/dependabot/alerts/{alert_number}":      dependabotRead,
	"GET /orgs/{org}/code-scanning/alerts":                            scanningRead,
	"GET /repos/{owner}/{repo}/code-scanning/alerts":                  scanningRead,
	"GET /repos/{owner}/{repo}/code-scanning/alerts/{alert_number}":   scanningRead,
	"GET /orgs/{org}/secret-scanning/alerts":                          secretsRead,
	"GET /repos/{owner}/{repo}/secret-scanning/alerts":                secretsRead,
	"GET /repos/{owner}/{repo}/secret-scanning/alerts/{alert_number}": secretsRead,

	"GET /repos/{owner}/{repo}/pulls": pullsRead,
	// A pull request is readable with either (GitHub lists both).
	"GET /repos/{owner}/{repo}/pulls/{pull_number}":                                pullsRead.Or(contentsRead),
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/files":                          pullsRead,
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/commits":                        pullsRead,
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews":                        pullsRead,
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/comments":                       pullsRead,
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers":            pullsRead,
	"POST /repos/{owner}/{repo}/pulls":                                             pullsWrite,
	"PATCH /repos/{owner}/{repo}/pulls/{pull_number}":                              pullsWrite,
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers":           pullsWrite,
	"DELETE /repos/{owner}/{repo}/pulls/{pull_number}/requested_reviewers":         pullsWrite,
	"GET /repos/{owner}/{repo}/pulls/{pull_number}/merge":                          pullsRead,
	"PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge":                          contentsWrite,
	"PUT /repos/{owner}/{repo}/pulls/{pull_number}/update-branch":                  pullsWrite,
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/comments":                      pullsWrite,
	"POST /repos/{owner}/{repo}/pulls/{pull_number}/comments/{comment_id}/replies": pullsWrite,
	"GET /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions":              pullsRead,
	"POST /repos/{owner}/{repo}/pulls/comments/{comment_id}/reactions":             pullsWrite,

	"GET /repos/{owner}/{repo}/branches":                   contentsRead,
	"GET /repos/{owner}/{repo}/branches/{branch...}":       contentsRead,
	"GET /repos/{owner}/{repo}/git/ref/{ref...}":           contentsRead,
	"GET /repos/{owner}/{repo}/git/matching-refs/{ref...}": contentsRead,
	"POST /repos/{owner}/{repo}/git/refs":                  contentsWrite,
	"PATCH /repos/{owner}/{repo}/git/refs/{ref...}":        contentsWrite,
	"DELETE /repos/{owner}/{repo}/git/refs/{ref...}":       contentsWrite,
	"GET /repos/{owner}/{repo}/git/trees/{tree_sha}":       contentsRead,
	"POST /repos/{owner}/{repo}/git/trees":                 contentsWrite,
	"GET /repos/{owner}/{repo}/git/commits/{commit_sha}":   contentsRead,
	"POST /repos/{owner}/{repo}/git/commits":               contentsWrite,
	"GET /repos/{owner}/{repo}/contents/{path...}":         contentsRead,
	"PUT /repos/{owner}/{repo}/contents/{path...}":         contentsWrite,
	"GET /repos/{owner}/{repo}/readme":                     contentsRead,
	"GET /repos/{owner}/{repo}/readme/{dir...}":            contentsRead,
	"GET /repos/{owner}/{repo}/commits":                    contentsRead,
	"GET /repos/{owner}/{repo}/commits/{ref}":              contentsRead,
	"GET /repos/{owner}/{repo}/commits/{ref}/status":       statusesRead,
	"GET /repos/{owner}/{repo}/commits/{ref}/statuses":     statusesRead,
	"GET /repos/{owner}/{repo}/commits/{ref}/check-runs":   checksRead,
	"GET /repos/{owner}/{repo}/commits/{ref}/check-suites": checksRead,
	"GET /repos/{owner}/{repo}/tags":                       metadata,

	"GET /repos/{owner}/{repo}/actions/runs":                                actionsRead,
	"GET /repos/{owner}/{repo}/actions/runs/{run_id}":                       actionsRead,
	"GET /repos/{owner}/{repo}/actions/runs/{run_id}/jobs":                  actionsRead,
	"GET /repos/{owner}/{repo}/actions/jobs/{job_id}":                       actionsRead,
	"GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs":                  actionsRead,
	"GET /repos/{owner}/{repo}/actions/workflows":                           actionsRead,
	"GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}":             actionsRead,
	"GET /repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs":        actionsRead,
	"PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/enable":      actionsWrite,
	"PUT /repos/{owner}/{repo}/actions/workflows/{workflow_id}/disable":     actionsWrite,
	"POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches": actionsWrite,
	"GET /repos/{owner}/{repo}/actions/runs/{run_id}/artifacts":             actionsRead,
	"GET /repos/{owner}/{repo}/actions/runs/{run_id}/timing":                actionsRead,
	"DELETE /repos/{owner}/{repo}/actions/runs/{run_id}":                    actionsWrite,
	"POST /repos/{owner}/{repo}/actions/runs/{run_id}/cancel":               actionsWrite,
	"GET /repos/{owner}/{repo}/actions/runs/{run_id}/logs":                  actionsRead,
	"DELETE /repos/{owner}/{repo}/actions/runs/{run_id}/logs":               actionsWrite,
	"POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun":                actionsWrite,
	"POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs":    actionsWrite,

	"GET /repos/{owner}/{repo}/releases":                      contentsRead,
	"GET /repos/{owner}/{repo}/releases/latest":               contentsRead,
	"GET /repos/{owner}/{repo}/releases/tags/{tag}":           contentsRead,
	"POST /repos/{owner}/{repo}/releases":                     contentsWrite,
	"POST /repos/{owner}/{repo}/releases/generate-notes":      contentsWrite,
	"GET /repos/{owner}/{repo}/releases/{release_id}":         contentsRead,
	"PATCH /repos/{owner}/{repo}/releases/{release_id}":       contentsWrite,
	"DELETE /repos/{owner}/{repo}/releases/{release_id}":      contentsWrite,
	"GET /repos/{owner}/{repo}/releases/{release_id}/assets":  contentsRead,
	"POST /repos/{owner}/{repo}/releases/{release_id}/assets": contentsWrite,
	"GET /repos/{owner}/{repo}/releases/assets/{asset_id}":    contentsRead,
	"PATCH /repos/{owner}/{repo}/releases/assets/{asset_id}":  contentsWrite,
	"DELETE /repos/{owner}/{repo}/releases/assets/{asset_id}": contentsWrite,

	// An organization's boards take organization_projects; a user's
	// boards cannot be granted to an App.
	"GET /orgs/{org}/projectsV2":                                           boardsRead,
	"GET /orgs/{org}/projectsV2/{project_number}":                          boardsRead,
	"GET /orgs/{org}/projectsV2/{project_number}/fields":                   boardsRead,
	"GET /orgs/{org}/projectsV2/{project_number}/fields/{field_id}":        boardsRead,
	"GET /orgs/{org}/projectsV2/{project_number}/items":                    boardsRead,
	"POST /orgs/{org}/projectsV2/{project_number}/items":                   boardsWrite,
	"GET /orgs/{org}/projectsV2/{project_number}/items/{item_id}":          boardsRead,
	"PATCH /orgs/{org}/projectsV2/{project_number}/items/{item_id}":        boardsWrite,
	"DELETE /orgs/{org}/projectsV2/{project_number}/items/{item_id}":       boardsWrite,
	"POST /orgs/{org}/projectsV2/{project_number}/drafts":                  boardsWrite,
	"GET /users/{username}/projectsV2":                                     unavailable,
	"GET /users/{username}/projectsV2/{project_number}":                    unavailable,
	"GET /users/{username}/projectsV2/{project_number}/fields":             unavailable,
	"GET /users/{username}/projectsV2/{project_number}/fields/{field_id}":  unavailable,
	"GET /users/{username}/projectsV2/{project_number}/items":              unavailable,
	"POST /users/{username}/projectsV2/{project_number}/items":             unavailable,
	"GET /users/{username}/projectsV2/{project_number}/items/{item_id}":    unavailable,
	"PATCH /users/{username}/projectsV2/{project_number}/items/{item_id}":  unavailable,
	"DELETE /users/{username}/projectsV2/{project_number}/items/{item_id}": unavailable,
	"POST /user/{user_id}/projectsV2/{project_number}/drafts":              unavailable,

	"GET /repos/{owner}/{repo}/stargazers":                   metadata,
	"GET /users/{username}/starred":                          metadata,
	"GET /user/starred":                                      unavailable,
	"GET /user/starred/{owner}/{repo}":                       unavailable,
	"PUT /user/starred/{owner}/{repo}":                       unavailable,
	"DELETE /user/starred/{owner}/{repo}":                    unavailable,
	"GET /notifications":                                     unavailable,
	"PUT /notifications":                                     unavailable,
	"GET /notifications/threads/{thread_id}":                 unavailable,
	"PATCH /notifications/threads/{thread_id}":               unavailable,
	"DELETE /notifications/threads/{thread_id}":              unavailable,
	"GET /repos/{owner}/{repo}/notifications":                unavailable,
	"PUT /repos/{owner}/{repo}/notifications":                unavailable,
	"GET /notifications/threads/{thread_id}/subscription":    unavailable,
	"PUT /notifications/threads/{thread_id}/subscription":    unavailable,
	"DELETE /notifications/threads/{thread_id}/subscription": unavailable,
	"GET /repos/{owner}/{repo}/subscription":                 unavailable,
	"PUT /repos/{owner}/{repo}/subscription":                 unavailable,
	"DELETE /repos/{owner}/{repo}/subscription":              unavailable,
}
