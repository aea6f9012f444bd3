package emulator

import (
	"fmt"
	"net/http"
	"runtime/debug"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// restCall is the request as REST handlers see it: the shared call, with
// the helpers only REST needs as its methods.
type restCall struct{ *wire.Call }

// route is one REST endpoint the emulator serves. The table is exported
// through Routes so the fidelity tests can check each against GitHub's
// OpenAPI description.
type route struct {
	method  string
	path    string // OpenAPI template, {name} wildcards
	handler func(*restCall)
}

func (e *Emulator) routeTable() []route {
	const (
		repo  = "/repos/{owner}/{repo}"
		issue = repo + "/issues/{issue_number}"
	)
	return append([]route{
		{"GET", "/", e.getRoot},
		{"GET", "/user", e.getViewer},
		{"GET", "/users/{username}", e.getUser},
		{"GET", "/users/{username}/repos", e.listUserRepos},
		{"GET", "/user/repos", e.listViewerRepos},
		{"GET", "/orgs/{org}/repos", e.listOrgRepos},
		{"GET", "/rate_limit", e.getRateLimit},
		{"GET", repo, e.getRepo},

		{"GET", repo + "/issues", e.listIssues},
		{"POST", repo + "/issues", e.createIssue},
		{"GET", issue, e.getIssue},
		{"PATCH", issue, e.updateIssue},
		{"PUT", issue + "/lock", e.lockIssue},
		{"DELETE", issue + "/lock", e.unlockIssue},

		{"GET", repo + "/labels", e.listRepoLabels},
		{"POST", repo + "/labels", e.createLabel},
		{"GET", repo + "/labels/{name}", e.getLabel},
		{"PATCH", repo + "/labels/{name}", e.updateLabel},
		{"DELETE", repo + "/labels/{name}", e.deleteLabel},
		{"GET", issue + "/labels", e.listIssueLabels},
		{"POST", issue + "/labels", e.addIssueLabels},
		{"PUT", issue + "/labels", e.setIssueLabels},
		{"DELETE", issue + "/labels", e.removeAllIssueLabels},
		{"DELETE", issue + "/labels/{name}", e.removeIssueLabel},

		{"GET", repo + "/milestones", e.listMilestones},
		{"POST", repo + "/milestones", e.createMilestone},
		{"GET", repo + "/milestones/{milestone_number}", e.getMilestone},
		{"PATCH", repo + "/milestones/{milestone_number}", e.updateMilestone},
		{"DELETE", repo + "/milestones/{milestone_number}", e.deleteMilestone},

		{"GET", repo + "/collaborators", e.listCollaborators},
		{"GET", repo + "/assignees", e.listAssignees},
		{"GET", repo + "/assignees/{assignee}", e.checkAssignee},
		{"POST", issue + "/assignees", e.addAssignees},
		{"DELETE", issue + "/assignees", e.removeAssignees},

		{"GET", issue + "/comments", e.listComments},
		{"POST", issue + "/comments", e.createComment},
		{"GET", repo + "/issues/comments/{comment_id}", e.getComment},
		{"PATCH", repo + "/issues/comments/{comment_id}", e.updateComment},
		{"DELETE", repo + "/issues/comments/{comment_id}", e.deleteComment},

		{"GET", "/search/issues", e.searchIssues},
		{"GET", "/search/users", e.searchUsers},
		{"GET", "/search/repositories", e.searchRepositories},
		{"GET", "/search/commits", e.searchCommits},
		{"GET", "/search/code", e.searchCode},

		{"GET", issue + "/reactions", e.listIssueReactions},
		{"POST", issue + "/reactions", e.createIssueReaction},
		{"GET", repo + "/issues/comments/{comment_id}/reactions", e.listCommentReactions},
		{"POST", repo + "/issues/comments/{comment_id}/reactions", e.createCommentReaction},

		{"GET", issue + "/sub_issues", e.listSubIssues},
		{"POST", issue + "/sub_issues", e.addSubIssue},
		{"DELETE", issue + "/sub_issue", e.removeSubIssue},
		{"PATCH", issue + "/sub_issues/priority", e.reprioritizeSubIssue},
		{"GET", issue + "/parent", e.getParent},

		{"GET", issue + "/dependencies/blocked_by", e.listBlockedBy},
		{"POST", issue + "/dependencies/blocked_by", e.addBlockedBy},
		{"DELETE", issue + "/dependencies/blocked_by/{issue_id}", e.removeBlockedBy},
		{"GET", issue + "/dependencies/blocking", e.listBlocking},

		{"GET", issue + "/timeline", e.listTimeline},

		{"GET", "/orgs/{org}/issue-types", e.listOrgIssueTypes},
		{"GET", repo + "/issue-types", e.listRepoIssueTypes},

		{"GET", repo + "/contents/{path...}", e.getContents},

		{"POST", "/app/installations/{installation_id}/access_tokens", e.createInstallationToken},
	}, e.gitRoutes()...)
}

// Routes lists the REST endpoints served, as "METHOD /openapi/{template}".
func (e *Emulator) Routes() []string {
	var out []string
	for _, r := range e.routeTable() {
		out = append(out, r.method+" "+strings.ReplaceAll(r.path, "...}", "}"))
	}
	return out
}

func (e *Emulator) routes(mux *http.ServeMux) {
	rr := &restRouter{}
	for _, rt := range e.routeTable() {
		write := rt.method != "GET"
		h := rt.handler
		rr.handle(rt.method, rt.path, func(w http.ResponseWriter, r *http.Request) {
			c := &restCall{wire.CallFrom(r)}
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
					e.log.Error("emulator handler panic", "route", rt.method+" "+rt.path, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
					rec := c.W.(*wire.Recorder)
					rec.Reset()
					wire.WriteJSON(rec, http.StatusInternalServerError, wire.ErrorBody{Message: "Server Error"})
				}
			}()
			h(c)
		})
	}
	// GitHub answers unknown paths, and known paths with another method,
	// with a JSON 404.
	rr.notFound = func(w http.ResponseWriter, r *http.Request) {
		wire.WriteJSON(w, http.StatusNotFound, wire.ErrorBody{Message: "Not Found", DocumentationURL: wire.DocsURL("rest"), Status: "404"})
	}
	mux.Handle("/", rr)
}
