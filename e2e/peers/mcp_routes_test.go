package peers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-github/v89/github"
)

// A scripted session of GitHub's MCP server over the emulator's Actions
// workflows, notifications, stars and review replies, run by the main
// session's runner (mcp_test.go): each call checked by what it answers and,
// for a write, by what the emulator's REST API shows afterwards. A call
// that does not behave as on GitHub must be listed in
// mcp-routes-expected-failures.txt, which only shrinks.

const (
	mcpRoutesExpectedList = "mcp-routes-expected-failures.txt"
	mcpRoutesToolsets     = "actions,notifications,stargazers,pull_requests"
	// The demo seed's notification threads of alice the session reads and
	// dismisses, by subject: a review request and a mention.
	readSubject = "/repos/acme/widgets/pulls/121"
	doneSubject = "/repos/acme/widgets/issues/150"
)

func init() { insideSessions["mcp-routes"] = runMCPRoutesSession }

// mcpRoutesSession is the script; readID and doneID are the thread ids of
// readSubject and doneSubject, looked up inside the namespaces ("" outside,
// where only the names and the judgements are used).
func mcpRoutesSession(readID, doneID string) []mcpCheck {
	const repo = "/repos/acme/widgets"
	a := func(kv ...any) map[string]any {
		m := map[string]any{"owner": "acme", "repo": "widgets"}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	subjectListed := func(subject string) func([]*github.Notification) string {
		return func(ns []*github.Notification) string {
			if slices.ContainsFunc(ns, func(n *github.Notification) bool { return strings.HasSuffix(n.GetSubject().GetURL(), subject) }) {
				return "listed"
			}
			return "absent"
		}
	}
	return []mcpCheck{
		// actions
		{name: "actions_list-list_workflows", tool: "actions_list", args: a("method", "list_workflows"),
			want: []string{`"path":".github/workflows/ci.yml"`, `"state":"active"`}},
		{name: "actions_list-list_workflow_runs-by-file", tool: "actions_list", args: a("method", "list_workflow_runs", "resource_id", "ci.yml"),
			want: []string{`"workflow_runs"`, `"name":"CI"`}},
		{name: "actions_get-get_workflow", tool: "actions_get", args: a("method", "get_workflow", "resource_id", "ci.yml"),
			want: []string{`"name":"CI"`, `"badge_url"`}},
		{name: "actions_get-get_workflow_run", tool: "actions_get", args: a("method", "get_workflow_run", "resource_id", restIDText(repo+"/actions/runs?status=failure")),
			want: []string{`"conclusion":"failure"`}},
		{name: "actions_get-get_workflow_run_usage", tool: "actions_get", args: a("method", "get_workflow_run_usage", "resource_id", restIDText(repo+"/actions/runs?status=failure")),
			want: []string{"UBUNTU", "run_duration_ms"}},
		{name: "actions_get-get_workflow_run_logs_url", tool: "actions_get", args: a("method", "get_workflow_run_logs_url", "resource_id", restIDText(repo+"/actions/runs?status=failure")),
			want: []string{"/_emulator/logs/runs/"}},
		{name: "actions_list-list_workflow_run_artifacts", tool: "actions_list", args: a("method", "list_workflow_run_artifacts", "resource_id", restIDText(repo+"/actions/runs?status=failure")),
			want: []string{`"total_count":0`}},
		// A workflow without the workflow_dispatch trigger: GitHub refuses.
		{name: "actions_run_trigger-run_workflow-no-trigger", tool: "actions_run_trigger", args: a("method", "run_workflow", "workflow_id", "ci.yml", "ref", "main"),
			refusal: "workflow_dispatch"},
		{name: "actions_run_trigger-rerun_workflow_run", tool: "actions_run_trigger", args: a("method", "rerun_workflow_run", "run_id", restID(repo+"/actions/runs?status=success")),
			effect: read(repo+"/actions/runs/{id}", func(r github.WorkflowRun) string { return fmt.Sprint(r.GetStatus(), " attempt ", r.GetRunAttempt()) }, "queued attempt 2")},
		{name: "actions_run_trigger-rerun_failed_jobs", tool: "actions_run_trigger", args: a("method", "rerun_failed_jobs", "run_id", restID(repo+"/actions/runs?status=failure")),
			effect: read(repo+"/actions/runs/{id}", func(r github.WorkflowRun) string { return fmt.Sprint(r.GetStatus(), " attempt ", r.GetRunAttempt()) }, "queued attempt 2")},
		{name: "actions_run_trigger-delete_workflow_run_logs", tool: "actions_run_trigger", args: a("method", "delete_workflow_run_logs", "run_id", restID(repo+"/actions/runs?status=cancelled")),
			effect: &restRead{path: repo + "/actions/runs/{id}/logs", status: http.StatusNotFound}},
		{name: "actions_run_trigger-cancel_workflow_run", tool: "actions_run_trigger", args: a("method", "cancel_workflow_run", "run_id", restID(repo+"/actions/runs?status=in_progress")),
			effect: read(repo+"/actions/runs/{id}", func(r github.WorkflowRun) string { return r.GetStatus() + " " + r.GetConclusion() }, "completed cancelled")},

		// notifications
		{name: "list_notifications", tool: "list_notifications", args: map[string]any{}, want: []string{"review_requested", readSubject}},
		{name: "list_notifications-repo", tool: "list_notifications", args: a("owner", "acme", "repo", "gadgets"), want: []string{"acme/gadgets"}, absent: []string{"acme/widgets/"}},
		{name: "get_notification_details", tool: "get_notification_details", args: map[string]any{"notificationID": readID}, want: []string{readSubject, "review_requested"}},
		{name: "dismiss_notification-read", tool: "dismiss_notification", args: map[string]any{"threadID": readID, "state": "read"},
			effect: read("/notifications/threads/"+readID, func(n github.Notification) string { return fmt.Sprint(n.GetUnread()) }, "false")},
		{name: "dismiss_notification-done", tool: "dismiss_notification", args: map[string]any{"threadID": doneID, "state": "done"},
			effect: read("/notifications?all=true&per_page=100", subjectListed(doneSubject), "absent")},
		{name: "mark_all_notifications_read-repo", tool: "mark_all_notifications_read", args: a("owner", "acme", "repo", "gadgets"),
			effect: read("/repos/acme/gadgets/notifications", func(ns []*github.Notification) string { return fmt.Sprint(len(ns)) }, "0")},

		{name: "manage_notification_subscription-ignore", tool: "manage_notification_subscription", args: map[string]any{"notificationID": readID, "action": "ignore"},
			effect: read("/notifications/threads/"+readID+"/subscription", subscriptionState, "ignored")},
		{name: "manage_notification_subscription-watch", tool: "manage_notification_subscription", args: map[string]any{"notificationID": readID, "action": "watch"},
			effect: read("/notifications/threads/"+readID+"/subscription", subscriptionState, "subscribed")},
		{name: "manage_notification_subscription-delete", tool: "manage_notification_subscription", args: map[string]any{"notificationID": readID, "action": "delete"},
			effect: read("/notifications?all=true&per_page=100", subjectListed(readSubject), "absent")},
		{name: "manage_repository_notification_subscription-watch", tool: "manage_repository_notification_subscription", args: a("repo", "gadgets", "action", "watch"),
			effect: read("/repos/acme/gadgets/subscription", subscriptionState, "subscribed")},
		{name: "manage_repository_notification_subscription-ignore", tool: "manage_repository_notification_subscription", args: a("repo", "gadgets", "action", "ignore"),
			effect: read("/repos/acme/gadgets/subscription", subscriptionState, "ignored")},
		{name: "manage_repository_notification_subscription-delete", tool: "manage_repository_notification_subscription", args: a("repo", "gadgets", "action", "delete"),
			effect: &restRead{path: "/repos/acme/gadgets/subscription", status: http.StatusNotFound}},

		// stargazers
		{name: "star_repository", tool: "star_repository", args: a(), effect: &restRead{path: "/user/starred/acme/widgets", status: http.StatusNoContent}},
		{name: "list_starred_repositories", tool: "list_starred_repositories", args: map[string]any{}, want: []string{"acme/widgets"}},
		{name: "unstar_repository", tool: "unstar_repository", args: a(), effect: &restRead{path: "/user/starred/acme/widgets", status: http.StatusNotFound}},

		// pull_requests: a reply in pull request 146's review thread.
		{name: "add_reply_to_pull_request_comment", tool: "add_reply_to_pull_request_comment",
			args: a("pullNumber", 146, "commentId", restID(repo+"/pulls/146/comments"), "body", "Replying from GitHub's MCP server."),
			effect: read(repo+"/pulls/146/comments?per_page=100", func(cs []*github.PullRequestComment) string {
				if len(cs) == 0 {
					return ""
				}
				last := cs[len(cs)-1]
				return fmt.Sprintf("%s in reply to %v", last.GetBody(), last.InReplyTo != nil)
			}, "Replying from GitHub's MCP server. in reply to true")},
		{name: "add_reply_to_pull_request_comment-reaction", tool: "add_reply_to_pull_request_comment",
			args: a("pullNumber", 146, "commentId", restID(repo+"/pulls/146/comments"), "reaction", "rocket"),
			effect: read(repo+"/pulls/comments/{id}/reactions", func(rs []*github.Reaction) string {
				var contents []string
				for _, r := range rs {
					contents = append(contents, r.GetContent())
				}
				return strings.Join(contents, ",")
			}, "rocket")},
	}
}

// subscriptionState projects a thread or repository subscription.
func subscriptionState(s github.Subscription) string {
	switch {
	case s.GetIgnored():
		return "ignored"
	case s.GetSubscribed():
		return "subscribed"
	}
	return "none"
}

// runMCPRoutesSession runs inside the namespaces: it looks up alice's
// threads on the two subjects, then runs the session.
func runMCPRoutesSession(work string) (any, error) {
	status, body := restGet(context.Background(), "/notifications?all=true&per_page=100")
	if status != http.StatusOK {
		return nil, fmt.Errorf("GET /notifications: %d %s", status, clip(body, 200))
	}
	var threads []struct {
		ID      string
		Subject struct{ URL string }
	}
	if err := json.Unmarshal([]byte(body), &threads); err != nil {
		return nil, err
	}
	thread := func(subject string) string {
		for _, th := range threads {
			if strings.HasSuffix(th.Subject.URL, subject) {
				return th.ID
			}
		}
		return ""
	}
	readID, doneID := thread(readSubject), thread(doneSubject)
	if readID == "" || doneID == "" {
		return nil, errors.New("alice has no thread on " + readSubject + " or " + doneSubject + ": " + clip(body, 300))
	}
	return runMCPServer(work, mcpRoutesToolsets, "", mcpRoutesSession(readID, doneID))
}

func TestMCPRoutesSession(t *testing.T) {
	needNamespaces(t, "GitHub's MCP server")
	session := mcpRoutesSession("", "")
	known := map[string]bool{}
	for _, c := range session {
		known[c.name] = true
	}
	expected := readExpected(t, mcpRoutesExpectedList, known)
	server := peerBinary(t, "github-mcp-server", "github.com/github/github-mcp-server/cmd/github-mcp-server")
	var recs mcpRecords
	emuLog := runInNamespaces(t, "mcp-routes", &recs, envMCPServer+"="+server)
	for _, c := range session {
		if !slices.Contains(recs.Tools, c.tool) {
			t.Errorf("%s: tools/list with --toolsets %s has no %s", c.name, mcpRoutesToolsets, c.tool)
		}
	}
	outcomes := mcpOutcomes(t, session, recs)
	passed, listed := judge(t, mcpRoutesExpectedList, expected, outcomes)
	logMCPFailure(t, emuLog, recs)
	t.Logf("mcp routes session: %d tool calls: %d behave as on GitHub, %d fail as listed in %s", len(session), passed, listed, mcpRoutesExpectedList)
}
