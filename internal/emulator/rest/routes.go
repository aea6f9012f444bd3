package rest

import (
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/faults"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// call is the request as REST handlers see it: the shared call, with
// the helpers only REST needs as its methods.
type call struct{ *wire.Call }

// route is one REST endpoint the emulator serves. The table is exported
// through Routes so the fidelity tests can check each against GitHub's
// OpenAPI description.
type route struct {
	method  string
	path    string // OpenAPI template, {name} wildcards
	handler func(*call)
}

// api serves GitHub's REST routes. Only GET /rate_limit needs more
// than the call, the rate limiter; a handler's panic is logged to log.
type api struct {
	limits *faults.RateLimiter
	log    *slog.Logger
}

func (a *api) routeTable() []route {
	const (
		repo  = "/repos/{owner}/{repo}"
		issue = repo + "/issues/{issue_number}"
	)
	return append([]route{
		{"GET", "/", getRoot},
		{"GET", "/user", getViewer},
		{"GET", "/users/{username}", getUser},
		{"GET", "/users/{username}/repos", listUserRepos},
		{"GET", "/user/repos", listViewerRepos},
		{"GET", "/orgs/{org}/repos", listOrgRepos},
		{"GET", "/rate_limit", a.getRateLimit},
		{"GET", repo, getRepo},
		{"PATCH", repo, updateRepo},
		{"DELETE", repo, deleteRepo},
		{"GET", repo + "/topics", getTopics},
		{"PUT", repo + "/topics", replaceTopics},
		{"POST", "/user/repos", createViewerRepo},
		{"POST", "/orgs/{org}/repos", createOrgRepo},
		{"POST", repo + "/forks", createFork},

		{"GET", repo + "/issues", listIssues},
		{"POST", repo + "/issues", createIssue},
		{"GET", issue, getIssue},
		{"PATCH", issue, updateIssue},
		{"PUT", issue + "/lock", lockIssue},
		{"DELETE", issue + "/lock", unlockIssue},

		{"GET", repo + "/labels", listRepoLabels},
		{"POST", repo + "/labels", createLabel},
		{"GET", repo + "/labels/{name}", getLabel},
		{"PATCH", repo + "/labels/{name}", updateLabel},
		{"DELETE", repo + "/labels/{name}", deleteLabel},
		{"GET", issue + "/labels", listIssueLabels},
		{"POST", issue + "/labels", addIssueLabels},
		{"PUT", issue + "/labels", setIssueLabels},
		{"DELETE", issue + "/labels", removeAllIssueLabels},
		{"DELETE", issue + "/labels/{name}", removeIssueLabel},

		{"GET", repo + "/milestones", listMilestones},
		{"POST", repo + "/milestones", createMilestone},
		{"GET", repo + "/milestones/{milestone_number}", getMilestone},
		{"PATCH", repo + "/milestones/{milestone_number}", updateMilestone},
		{"DELETE", repo + "/milestones/{milestone_number}", deleteMilestone},

		{"GET", repo + "/collaborators", listCollaborators},
		{"GET", repo + "/assignees", listAssignees},
		{"GET", repo + "/assignees/{assignee}", checkAssignee},
		{"POST", issue + "/assignees", addAssignees},
		{"DELETE", issue + "/assignees", removeAssignees},

		{"GET", issue + "/comments", listComments},
		{"POST", issue + "/comments", createComment},
		{"GET", repo + "/issues/comments/{comment_id}", getComment},
		{"PATCH", repo + "/issues/comments/{comment_id}", updateComment},
		{"DELETE", repo + "/issues/comments/{comment_id}", deleteComment},

		{"GET", "/search/issues", searchIssues},
		{"GET", "/search/users", searchUsers},
		{"GET", "/search/repositories", searchRepositories},
		{"GET", "/search/commits", searchCommits},
		{"GET", "/search/code", searchCode},

		{"GET", issue + "/reactions", listIssueReactions},
		{"POST", issue + "/reactions", createIssueReaction},
		{"GET", repo + "/issues/comments/{comment_id}/reactions", listCommentReactions},
		{"POST", repo + "/issues/comments/{comment_id}/reactions", createCommentReaction},

		{"GET", issue + "/sub_issues", listSubIssues},
		{"POST", issue + "/sub_issues", addSubIssue},
		{"DELETE", issue + "/sub_issue", removeSubIssue},
		{"PATCH", issue + "/sub_issues/priority", reprioritizeSubIssue},
		{"GET", issue + "/parent", getParent},

		{"GET", issue + "/dependencies/blocked_by", listBlockedBy},
		{"POST", issue + "/dependencies/blocked_by", addBlockedBy},
		{"DELETE", issue + "/dependencies/blocked_by/{issue_id}", removeBlockedBy},
		{"GET", issue + "/dependencies/blocking", listBlocking},

		{"GET", issue + "/related", listRelated},
		{"POST", issue + "/related", addRelated},
		{"DELETE", issue + "/related/{issue_id}", removeRelated},

		{"GET", issue + "/timeline", listTimeline},

		{"GET", "/orgs/{org}/issue-types", listOrgIssueTypes},
		{"GET", repo + "/issue-types", listRepoIssueTypes},

		{"GET", repo + "/contents/{path...}", getContents},

		{"GET", "/app/installations/{installation_id}", getInstallation},
		{"POST", "/app/installations/{installation_id}/access_tokens", createInstallationToken},

		{"GET", "/orgs/{org}/dependabot/alerts", listOrgDependabotAlerts},
		{"GET", repo + "/dependabot/alerts", listRepoDependabotAlerts},
		{"GET", repo + "/dependabot/alerts/{alert_number}", getRepoDependabotAlert},
		{"GET", "/orgs/{org}/code-scanning/alerts", listOrgCodeScanningAlerts},
		{"GET", repo + "/code-scanning/alerts", listRepoCodeScanningAlerts},
		{"GET", repo + "/code-scanning/alerts/{alert_number}", getRepoCodeScanningAlert},
		{"GET", "/orgs/{org}/secret-scanning/alerts", listOrgSecretScanningAlerts},
		{"GET", repo + "/secret-scanning/alerts", listRepoSecretScanningAlerts},
		{"GET", repo + "/secret-scanning/alerts/{alert_number}", getRepoSecretScanningAlert},
	}, slices.Concat(gitRoutes(), projectRoutes(), workflowRoutes(), activityRoutes())...)
}

// Undescribed lists the served routes GitHub's OpenAPI description
// (@octokit/openapi 23.0.2) does not yet describe: the related-issue
// endpoints of API version 2026-03-10 (related.go). The pruned
// description leaves them out; emulatortest checks their answers itself.
func Undescribed() []string {
	const issue = "/repos/{owner}/{repo}/issues/{issue_number}"
	return []string{"GET " + issue + "/related", "POST " + issue + "/related", "DELETE " + issue + "/related/{issue_id}"}
}

// Routes lists the REST endpoints served, as "METHOD /openapi/{template}".
func Routes() []string {
	var out []string
	for _, r := range (&api{}).routeTable() {
		out = append(out, r.method+" "+strings.ReplaceAll(r.path, "...}", "}"))
	}
	return out
}

// NewHandler answers the REST routes; limits answers GET /rate_limit
// and log receives a handler's panic.
func NewHandler(limits *faults.RateLimiter, log *slog.Logger) http.Handler {
	a := &api{limits: limits, log: log}
	rr := &router{}
	for _, rt := range a.routeTable() {
		write := rt.method != "GET"
		h, path, need := rt.handler, rt.path, needFor(rt.method, rt.path)
		rr.handle(rt.method, rt.path, func(w http.ResponseWriter, r *http.Request) {
			c := &call{wire.CallFrom(r)}
			c.Req = r
			if write {
				c.State.Lock()
				defer c.State.Unlock()
			} else {
				c.State.RLock()
				defer c.State.RUnlock()
			}
			defer func() {
				if v := recover(); v != nil {
					a.log.Error("emulator handler panic", "route", rt.method+" "+rt.path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
					rec := c.W.(*wire.Recorder)
					rec.Reset()
					wire.WriteJSON(rec, http.StatusInternalServerError, wire.ErrorBody{Message: "Server Error"})
				}
			}()
			if !c.admitInstallation(path, need) {
				return
			}
			h(c)
		})
	}
	// GitHub answers unknown paths, and known paths with another method,
	// with a JSON 404.
	rr.notFound = func(w http.ResponseWriter, r *http.Request) {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found", DocumentationURL: wire.DocsURL("rest"), Status: "404"})
	}
	mux := http.NewServeMux()
	mux.Handle("/", rr)
	return mux
}
