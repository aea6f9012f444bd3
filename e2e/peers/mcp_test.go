package peers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-github/v89/github"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A scripted session of GitHub's own MCP server (github-mcp-server, pinned
// in go.mod) against a fresh `ghgate emulator`, driven by a client from the
// MCP Go SDK as an agent would drive it. The server drops any port from
// GITHUB_HOST and treats every host but github.com as GitHub Enterprise
// (/api/v3 and /api/graphql, pkg/utils/api.go in its source), so it runs in
// the same namespaces as the gh session, with the emulator on
// 127.0.0.1:80. Every tool the server lists with --toolsets all and its
// feature flags is called on the demo seed (the projects toolset's by
// mcp_projects_test.go); a write's effect is read back over the emulator's
// REST API with the seed's token. The server runs twice: once with the
// opt-in flags that add tools, once with the flags that replace the
// consolidated issue and pull request tools by granular ones. A call that
// does not behave as on GitHub must be listed in mcp-expected-failures.txt,
// which only shrinks.

const (
	mcpExpectedList = "mcp-expected-failures.txt"
	// Set in the copy inside the namespaces: the server's binary.
	envMCPServer = "GHGATE_PEERS_MCP_SERVER"
	// Every toolset, and the feature flags (pkg/github/feature_flags.go in
	// the server's source) that add tools: ui_get, get_file_blame, the
	// issue dependency tools and find_duplicate. mcp_apps_disable_form_deferral
	// is left off: the client announces no MCP Apps support, so writes run.
	mcpToolsets = "all"
	mcpFeatures = "remote_mcp_ui_apps,file_blame,issue_dependencies,duplicate_detection"
	// The flags that replace issue_write, sub_issue_write, update_pull_request,
	// pull_request_review_write and add_comment_to_pending_review by
	// single-purpose tools.
	mcpGranularFeatures = "issues_granular,pull_requests_granular"
	// Bounds one tool call (and the server's start).
	toolTimeout = 60 * time.Second
	// The seed's token for alice, who is admin on every demo repository.
	mcpToken = "emu-alice"
)

// restID is an argument whose value is the database id of the REST object
// at this path (of the first one, when the path answers a list): ids are
// handed out by the emulator, so the session looks them up before the call.
type restID string

// restIDText is a restID passed as its decimal text, for the arguments
// typed as strings (actions' resource_id).
type restIDText string

// restNumber is an argument whose value is the number of the REST object
// at this path (of the first one, when the path answers a list): a pull
// request the session itself opened.
type restNumber string

// nodeIDOf is an argument whose value is the first node id ("id") in the
// answer to this GraphQL query, made as alice before the call.
type nodeIDOf string

// threadOf is an argument whose value is the GraphQL node id of the first
// review thread of a pull request ("owner/repo#number"), looked up before
// the call: thread ids are minted by the emulator.
type threadOf string

// mcpCheck is one tool call and what GitHub would answer to it.
type mcpCheck struct {
	name string // its key in mcp-expected-failures.txt
	tool string // the tool
	// granular: the call goes to the server started with
	// mcpGranularFeatures, where the tool is listed.
	granular bool
	args     map[string]any // its arguments; restID values are resolved first
	// want is text the result contains; refusal, when set, makes the call
	// one GitHub refuses: the result is an error containing it.
	want    []string
	refusal string
	// absent is text the result must not contain.
	absent []string
	// items, when set, is how many elements the result's JSON array has
	// (the array under the key itemsAt, when that is set).
	items   int
	itemsAt string
	effect  *restRead // a read that shows a write took effect
	// expect, when set, is a read made before the call: the result must
	// contain its projection, for answers that follow the seed's data
	// (a file's content, the latest release) rather than a literal.
	expect *restRead
}

// restRead is a GET of the emulator's REST API as alice, its answer
// projected to a string and compared with want.
type restRead struct {
	path    string
	status  int                               // when set, the status instead of a projection
	project func(body []byte) (string, error) // what is compared
	want    string
}

// read projects a REST answer decoded as go-github's T.
func read[T any](path string, project func(T) string, want string) *restRead {
	return &restRead{path: path, want: want, project: func(body []byte) (string, error) {
		var v T
		if err := json.Unmarshal(body, &v); err != nil {
			return "", err
		}
		return project(v), nil
	}}
}

func labelNames(ls []*github.Label) string {
	var names []string
	for _, l := range ls {
		names = append(names, l.GetName())
	}
	return strings.Join(names, ",")
}

func logins(us []*github.User) string {
	var names []string
	for _, u := range us {
		names = append(names, u.GetLogin())
	}
	return strings.Join(names, ",")
}

func issueNumbers(is []*github.Issue) string {
	var ns []string
	for _, i := range is {
		ns = append(ns, fmt.Sprint(i.GetNumber()))
	}
	return strings.Join(ns, ",")
}

// repoArgs is a tool's arguments on owner/repo, and the key-value pairs kv.
func repoArgs(owner, repo string, kv ...any) map[string]any {
	m := map[string]any{"owner": owner, "repo": repo}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

// reactionsOf reads the reactions at path as "login:content" pairs.
func reactionsOf(path, want string) *restRead {
	return read(path, func(rs []*github.Reaction) string {
		var out []string
		for _, x := range rs {
			out = append(out, x.GetUser().GetLogin()+":"+x.GetContent())
		}
		return strings.Join(out, ",")
	}, want)
}

// mcpSession is the script. Each write works on its own seed issue or
// label, so one call's failure does not change what the next one meets.
func mcpSession() []mcpCheck {
	const o, r = "acme", "widgets"
	const repo = "/repos/acme/widgets"
	a := func(kv ...any) map[string]any { return repoArgs(o, r, kv...) }
	issueRead := func(n int, method string) map[string]any { return a("method", method, "issue_number", n) }
	prRead := func(method string) mcpCheck {
		return mcpCheck{name: "pull_request_read-" + method, tool: "pull_request_read", args: a("method", method, "pullNumber", 146)}
	}
	return append([]mcpCheck{
		// context
		{name: "get_me", tool: "get_me", args: map[string]any{}, want: []string{`"login":"alice"`}},
		// acme's teams: Maintainers (alice, bob) and Support (carol).
		{name: "get_teams", tool: "get_teams", args: map[string]any{}, want: []string{`"org":"acme"`, `"slug":"maintainers"`}},
		{name: "get_teams-user", tool: "get_teams", args: map[string]any{"user": "carol"}, want: []string{`"slug":"support"`}},
		{name: "get_team_members", tool: "get_team_members", args: map[string]any{"org": o, "team_slug": "maintainers"}, want: []string{`["alice","bob"]`}},

		// issues: reads
		// #9 has 16 comments and the Priority P1 (acme's issue fields: Priority, Estimate).
		{name: "issue_read-get", tool: "issue_read", args: issueRead(9, "get"),
			want: []string{"Dashboard load time regressed about 3x", `{"field":"Priority","value":"P1"}`}},
		{name: "issue_read-get-sub-issues-summary", tool: "issue_read", args: issueRead(12, "get"), want: []string{`"total":4`}},
		// #146 is an open pull request whose description says "Fixes #145".
		{name: "issue_read-get-closed-by", tool: "issue_read", args: issueRead(145, "get"), want: []string{`"number":146`}},
		// GitHub answers an issue number nobody filed with 404.
		{name: "issue_read-get-missing", tool: "issue_read", args: issueRead(9999, "get"), refusal: "404 Not Found"},
		{name: "issue_read-get_comments", tool: "issue_read", args: issueRead(9, "get_comments"), items: 16},
		{name: "issue_read-get_sub_issues", tool: "issue_read", args: issueRead(12, "get_sub_issues"), want: []string{`"number":14`}},
		{name: "issue_read-get_parent", tool: "issue_read", args: issueRead(14, "get_parent"), want: []string{`"number":12`}},
		{name: "issue_read-get_labels", tool: "issue_read", args: issueRead(123, "get_labels"), want: []string{"status: triage"}},
		{name: "list_issues", tool: "list_issues", args: a("state", "OPEN", "labels", []string{"bug"}, "perPage", 5), want: []string{`"totalCount"`}},
		{name: "list_issues-closed", tool: "list_issues", args: a("state", "CLOSED", "orderBy", "UPDATED_AT", "direction", "ASC"), want: []string{`"number":47`}},
		{name: "list_issue_types", tool: "list_issue_types", args: map[string]any{"owner": o}, want: []string{"Bug", "Feature", "Task"}},
		{name: "list_issue_fields", tool: "list_issue_fields", args: map[string]any{"owner": o},
			want: []string{`"name":"Priority"`, `"data_type":"SINGLE_SELECT"`, `"name":"P3"`, `"name":"Estimate"`}},
		{name: "search_issues", tool: "search_issues", args: a("query", "time zone is:closed"),
			want: []string{"Chart widget ignores the dashboard time zone after resizing the panel"}},
		{name: "get_label", tool: "get_label", args: a("name", "bug"), want: []string{`"name":"bug"`}},

		// issues: writes
		{name: "issue_write-create", tool: "issue_write", args: a("method", "create", "title", "Created over MCP", "body", "Body written over MCP.", "labels", []string{"bug"}),
			effect: read(repo+"/issues/161", func(i github.Issue) string {
				return i.GetTitle() + " | " + i.GetBody() + " | " + labelNames(i.Labels)
			}, "Created over MCP | Body written over MCP. | bug")},
		{name: "issue_write-update", tool: "issue_write", args: a("method", "update", "issue_number", 151, "title", "Edited over MCP", "labels", []string{"enhancement"}, "assignees", []string{"bob"}),
			effect: read(repo+"/issues/151", func(i github.Issue) string {
				return i.GetTitle() + " | " + labelNames(i.Labels) + " | " + logins(i.Assignees)
			}, "Edited over MCP | enhancement | bob")},
		// Milestone 2 of acme/widgets is v1.5.0; Bug is one of acme's issue types.
		{name: "issue_write-update-milestone-type", tool: "issue_write", args: a("method", "update", "issue_number", 158, "milestone", 2, "type", "Bug"),
			effect: read(repo+"/issues/158", func(i github.Issue) string {
				return i.GetMilestone().GetTitle() + " | " + i.GetType().GetName()
			}, "v1.5.0 | Bug")},
		{name: "issue_write-close-not_planned", tool: "issue_write", args: a("method", "update", "issue_number", 152, "state", "closed", "state_reason", "not_planned"),
			effect: read(repo+"/issues/152", func(i github.Issue) string { return i.GetState() + " " + i.GetStateReason() }, "closed not_planned")},
		{name: "issue_write-close-duplicate", tool: "issue_write", args: a("method", "update", "issue_number", 153, "state", "closed", "state_reason", "duplicate", "duplicate_of", 9),
			effect: read(repo+"/issues/153", func(i github.Issue) string { return i.GetState() + " " + i.GetStateReason() }, "closed duplicate")},
		{name: "issue_write-reopen", tool: "issue_write", args: a("method", "update", "issue_number", 47, "state", "open"),
			effect: read(repo+"/issues/47", func(i github.Issue) string { return i.GetState() + " " + i.GetStateReason() }, "open reopened")},
		{name: "add_issue_comment", tool: "add_issue_comment", args: a("issue_number", 154, "body", "Comment written over MCP."),
			effect: read(repo+"/issues/154/comments", func(cs []*github.IssueComment) string {
				if len(cs) == 0 {
					return "no comments"
				}
				return cs[len(cs)-1].GetUser().GetLogin() + ": " + cs[len(cs)-1].GetBody()
			}, "alice: Comment written over MCP.")},
		{name: "add_issue_comment-reaction", tool: "add_issue_comment", args: a("issue_number", 155, "reaction", "rocket"),
			effect: reactionsOf(repo+"/issues/155/reactions", "alice:rocket")},
		{name: "add_issue_comment-comment-reaction", tool: "add_issue_comment", args: a("issue_number", 9, "comment_id", restID(repo+"/issues/9/comments"), "reaction", "rocket"),
			effect: reactionsOf(repo+"/issues/comments/{id}/reactions", "alice:rocket")},
		{name: "sub_issue_write-add", tool: "sub_issue_write", args: a("method", "add", "issue_number", 156, "sub_issue_id", restID(repo+"/issues/157")),
			effect: read(repo+"/issues/156/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "157")},
		// #12's sub-issues are #13 to #16: the first goes.
		{name: "sub_issue_write-remove", tool: "sub_issue_write", args: a("method", "remove", "issue_number", 12, "sub_issue_id", restID(repo+"/issues/12/sub_issues")),
			effect: read(repo+"/issues/12/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "14,15,16")},
		// #15 is a sub-issue of #12; replace_parent moves it under #159.
		{name: "sub_issue_write-add-replace-parent", tool: "sub_issue_write", args: a("method", "add", "issue_number", 159, "sub_issue_id", restID(repo+"/issues/15"), "replace_parent", true),
			effect: read(repo+"/issues/15/parent", func(i github.Issue) string { return fmt.Sprint(i.GetNumber()) }, "159")},
		// #40's sub-issues are #41 to #44: the last moves to the front.
		{name: "sub_issue_write-reprioritize", tool: "sub_issue_write", args: a("method", "reprioritize", "issue_number", 40, "sub_issue_id", restID(repo+"/issues/40/sub_issues?per_page=1&page=4"), "before_id", restID(repo+"/issues/40/sub_issues")),
			effect: read(repo+"/issues/40/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "44,41,42,43")},

		// labels
		{name: "list_label", tool: "list_label", args: a(), want: []string{"priority: high", "good first issue"}},
		{name: "label_write-create", tool: "label_write", args: a("method", "create", "name", "mcp-new", "color", "0e8a16", "description", "Made over MCP"),
			effect: read(repo+"/labels/mcp-new", func(l github.Label) string { return l.GetColor() + " " + l.GetDescription() }, "0e8a16 Made over MCP")},
		// Label names are unique regardless of case: GitHub refuses a second "Bug".
		{name: "label_write-create-taken", tool: "label_write", args: a("method", "create", "name", "Bug", "color", "d73a4a"),
			refusal: "Name has already been taken"},
		{name: "label_write-update", tool: "label_write", args: a("method", "update", "name", "question", "new_name", "question (edited)", "color", "c5def5", "description", "Edited over MCP"),
			effect: read(repo+"/labels/question%20(edited)", func(l github.Label) string { return l.GetColor() + " " + l.GetDescription() }, "c5def5 Edited over MCP")},
		{name: "label_write-delete", tool: "label_write", args: a("method", "delete", "name", "invalid"),
			effect: &restRead{path: repo + "/labels/invalid", status: http.StatusNotFound}},

		// users
		{name: "search_users", tool: "search_users", args: map[string]any{"query": "alice"}, want: []string{`"login":"alice"`}},

		// repos: reads. The seed's acme/widgets has the default branch main
		// and a tag and release for each shipped version, v1.4.0 among them.
		{name: "list_repository_collaborators", tool: "list_repository_collaborators", args: a(), want: []string{`"login":"alice"`, `"login":"bob"`, `"login":"carol"`}},
		{name: "search_repositories", tool: "search_repositories", args: map[string]any{"query": "widgets org:acme"}, want: []string{"acme/widgets"}},
		// The server answers a file as an embedded resource holding its
		// text: the README's content at the default branch, as REST has it.
		{name: "get_file_contents", tool: "get_file_contents", args: a("path", "README.md"), want: []string{"widgets"},
			expect: read(repo+"/contents/README.md", fileText, "")},
		{name: "list_branches", tool: "list_branches", args: a(), want: []string{`"name":"main"`}},
		{name: "list_commits", tool: "list_commits", args: a("perPage", 3), want: []string{`"sha"`}},
		{name: "get_commit", tool: "get_commit", args: a("sha", "main"), want: []string{`"sha"`}},
		{name: "list_tags", tool: "list_tags", args: a(), want: []string{`"name":"v1.4.0"`, `"name":"v1.3.7"`}},
		{name: "get_tag", tool: "get_tag", args: a("tag", "v1.4.0"), want: []string{"v1.4.0"}},
		{name: "list_releases", tool: "list_releases", args: a(), want: []string{`"tag_name":"v1.5.0-rc.1"`, `"tag_name":"v1.4.2"`, `"tag_name":"v1.3.7"`}},
		{name: "get_latest_release", tool: "get_latest_release", args: a(),
			expect: read(repo+"/releases/latest", func(rel github.RepositoryRelease) string { return `"tag_name":"` + rel.GetTagName() + `"` }, "")},
		{name: "get_release_by_tag", tool: "get_release_by_tag", args: a("tag", "v1.4.0"), want: []string{"v1.4.0"}},
		{name: "search_code", tool: "search_code", args: map[string]any{"query": "widget repo:acme/widgets"}, want: []string{"acme/widgets"}},
		{name: "search_commits", tool: "search_commits", args: map[string]any{"query": "repo:acme/widgets fix"}, want: []string{`"sha"`}},

		// pull_requests: reads (#146 is an open pull request)
		{name: "list_pull_requests", tool: "list_pull_requests", args: a("state", "open"), want: []string{`"number":146`}},
		{name: "search_pull_requests", tool: "search_pull_requests", args: a("query", "is:open"), want: []string{"Bump github.com/jackc/pgx/v5 from 5.7.1 to 5.7.2"}},
		prRead("get"), prRead("get_diff"), prRead("get_status"), prRead("get_files"), prRead("get_commits"),
		prRead("get_review_comments"), prRead("get_reviews"), prRead("get_comments"), prRead("get_check_runs"),
	}, append(append(fleetSession(), moreSession()...), granularSession()...)...)
}

// fleetSession reads the fleet organization's workflow runs and security
// alerts. Its repository 0 has a red pull request on branch change-2 (the
// test job fails in "Run tests"); repository 3 has alerts of each kind;
// repositories 1, 2 and 5 have code scanning, secret scanning and
// Dependabot off, which GitHub refuses with their own messages.
func fleetSession() []mcpCheck {
	const o, red, alerts = "fleet", "svc-billing-00", "tool-billing-03"
	f := func(repo string, kv ...any) map[string]any { return repoArgs(o, repo, kv...) }
	const redRepo = "/repos/fleet/" + red
	run := restIDText(redRepo + "/actions/runs?branch=change-2")
	job := restID(redRepo + "/commits/change-2/check-runs?check_name=test")
	return []mcpCheck{
		{name: "actions_list-list_workflow_runs", tool: "actions_list", args: f(red, "method", "list_workflow_runs"),
			want: []string{`"total_count":2`, `"conclusion":"failure"`, `"conclusion":"success"`}},
		{name: "actions_list-list_workflow_runs-filter", tool: "actions_list",
			args: f(red, "method", "list_workflow_runs", "workflow_runs_filter", map[string]any{"branch": "change-2", "status": "failure"}),
			want: []string{`"total_count":1`, `"head_branch":"change-2"`}},
		{name: "actions_list-list_workflow_jobs", tool: "actions_list", args: f(red, "method", "list_workflow_jobs", "resource_id", run),
			want: []string{`"name":"test"`, `"name":"Run tests"`, `"conclusion":"failure"`}},
		{name: "actions_get-get_workflow_run", tool: "actions_get", args: f(red, "method", "get_workflow_run", "resource_id", run),
			want: []string{`"head_branch":"change-2"`, `"conclusion":"failure"`}},
		{name: "actions_get-get_workflow_job", tool: "actions_get", args: f(red, "method", "get_workflow_job", "resource_id", restIDText(string(job))),
			want: []string{`"name":"test"`, `"conclusion":"failure"`}},
		{name: "get_job_logs", tool: "get_job_logs", args: f(red, "job_id", job, "return_content", true, "tail_lines", 10),
			want: []string{"--- FAIL: TestShutdownDrainsQueue", "Process completed with exit code 1."}},
		{name: "get_job_logs-failed_only", tool: "get_job_logs", args: f(red, "run_id", restID(string(run)), "failed_only", true, "return_content", true),
			want: []string{"TestShutdownDrainsQueue"}},

		// The automated reviewer's thread on the red pull request (#7),
		// resolved twice (the second a no-op, as on GitHub), read back,
		// and unresolved.
		{name: "pull_request_review_write-resolve_thread", tool: "pull_request_review_write",
			args: f(red, "method", "resolve_thread", "pullNumber", 7, "threadId", threadOf("fleet/"+red+"#7")), want: []string{"review thread resolved successfully"}},
		{name: "pull_request_review_write-resolve_thread-again", tool: "pull_request_review_write",
			args: f(red, "method", "resolve_thread", "pullNumber", 7, "threadId", threadOf("fleet/"+red+"#7")), want: []string{"review thread resolved successfully"}},
		{name: "pull_request_read-get_review_comments-resolved", tool: "pull_request_read", args: f(red, "method", "get_review_comments", "pullNumber", 7),
			want: []string{`"is_resolved":true`, "consider a context with a deadline"}},
		{name: "pull_request_review_write-unresolve_thread", tool: "pull_request_review_write",
			args: f(red, "method", "unresolve_thread", "pullNumber", 7, "threadId", threadOf("fleet/"+red+"#7")), want: []string{"review thread unresolved successfully"}},

		{name: "list_dependabot_alerts", tool: "list_dependabot_alerts", args: f(alerts, "state", "open"),
			want: []string{`"ghsa_id":"GHSA-emu0-1003-fl03"`, `"manifest_path":"go.mod"`}},
		{name: "get_dependabot_alert", tool: "get_dependabot_alert", args: f(alerts, "alertNumber", 1), want: []string{`"ghsa_id":"GHSA-emu0-1003-fl03"`}},
		{name: "list_dependabot_alerts-disabled", tool: "list_dependabot_alerts", args: f("svc-catalog-05"),
			refusal: "Dependabot alerts are disabled for this repository."},
		{name: "list_code_scanning_alerts", tool: "list_code_scanning_alerts", args: f(alerts, "state", "open"),
			want: []string{`"go/sql-injection"`, `"CodeQL"`}},
		{name: "get_code_scanning_alert", tool: "get_code_scanning_alert", args: f(alerts, "alertNumber", 2), want: []string{`"go/sql-injection"`}},
		{name: "list_code_scanning_alerts-no-analysis", tool: "list_code_scanning_alerts", args: f("lib-billing-01"), refusal: "no analysis found"},
		{name: "list_secret_scanning_alerts", tool: "list_secret_scanning_alerts", args: f(alerts),
			want: []string{`"github_personal_access_token"`, `"slack_incoming_webhook_url"`}},
		{name: "get_secret_scanning_alert", tool: "get_secret_scanning_alert", args: f(alerts, "alertNumber", 2), want: []string{`"slack_incoming_webhook_url"`}},
		{name: "list_secret_scanning_alerts-disabled", tool: "list_secret_scanning_alerts", args: f("web-billing-02"),
			refusal: "Secret scanning is disabled on this repository."},
	}
}

// fileText is a file's content as GET /repos/{owner}/{repo}/contents/{path}
// answers it, decoded.
func fileText(f github.RepositoryContent) string {
	text, err := f.GetContent()
	if err != nil || text == "" {
		return "(no content: " + fmt.Sprint(err) + ")"
	}
	return text
}

// mcpRecord is what one tool call did, as written by the session: the call's
// result (or the protocol error) and, for a write, the effect read.
type mcpRecord struct {
	Name    string         `json:"name"`
	Args    map[string]any `json:"args"`
	IsError bool           `json:"isError"`
	Text    string         `json:"text"`
	Err     string         `json:"err,omitempty"` // the call itself failed
	Millis  int64          `json:"millis"`
	// The effect read: its status and body.
	EffectStatus int    `json:"effectStatus,omitempty"`
	EffectBody   string `json:"effectBody,omitempty"`
	// The expect read, made before the call.
	ExpectStatus int    `json:"expectStatus,omitempty"`
	ExpectBody   string `json:"expectBody,omitempty"`
}

// mcpRecords is the session's output: tools/list's names (of each server)
// and the calls.
type mcpRecords struct {
	Tools         []string    `json:"tools"`
	GranularTools []string    `json:"granularTools,omitempty"`
	Calls         []mcpRecord `json:"calls"`
	ServerLog     string      `json:"serverLog"`
}

func TestMCPSession(t *testing.T) {
	needNamespaces(t, "GitHub's MCP server")
	session := mcpSession()
	known := map[string]bool{}
	for _, c := range session {
		known[c.name] = true
	}
	expected := readExpected(t, mcpExpectedList, known)

	server := peerBinary(t, "github-mcp-server", "github.com/github/github-mcp-server/cmd/github-mcp-server")
	var recs mcpRecords
	emuLog := runInNamespaces(t, "mcp", &recs, envMCPServer+"="+server)

	checkCoverage(t, session, recs)
	outcomes := mcpOutcomes(t, session, recs)
	passed, listed := judge(t, mcpExpectedList, expected, outcomes)
	logMCPFailure(t, emuLog, recs)
	t.Logf("mcp session: %d tool calls of %d tools: %d behave as on GitHub, %d fail as listed in %s",
		len(session), len(recs.Tools)+len(granularOnly(recs)), passed, listed, mcpExpectedList)
}

// granularOnly is what the granular server lists beyond the first one.
func granularOnly(recs mcpRecords) []string {
	var out []string
	for _, tool := range recs.GranularTools {
		if !slices.Contains(recs.Tools, tool) {
			out = append(out, tool)
		}
	}
	return out
}

// checkCoverage fails the test unless the tools each server lists are
// exactly the tools the cases call on it: a tool a new server version
// adds fails the session until a case calls it, and a case calling a tool
// the server no longer lists fails too. The projects toolset's tools are
// called by the projects session (mcp_projects_test.go).
func checkCoverage(t *testing.T, session []mcpCheck, recs mcpRecords) {
	t.Helper()
	called, calledGranular := map[string]bool{}, map[string]bool{}
	for _, c := range session {
		if c.granular {
			calledGranular[c.tool] = true
		} else {
			called[c.tool] = true
		}
	}
	for _, c := range mcpProjectsSession() {
		called[c.tool] = true
	}
	// Every tool listed must be called, and every tool called listed; the
	// granular server must be called on each tool it adds.
	missing := func(server string, listed []string, called map[string]bool) {
		for _, tool := range listed {
			if !called[tool] {
				t.Errorf("%s lists %s, and no case calls it", server, tool)
			}
		}
	}
	unlisted := func(server string, listed []string, called map[string]bool) {
		for _, tool := range slices.Sorted(maps.Keys(called)) {
			if !slices.Contains(listed, tool) {
				t.Errorf("a case calls %s, which %s does not list", tool, server)
			}
		}
	}
	first := "the server with --features " + mcpFeatures
	granular := "the server with --features " + mcpGranularFeatures
	missing(first, recs.Tools, called)
	unlisted(first, recs.Tools, called)
	missing(granular, granularOnly(recs), calledGranular)
	unlisted(granular, recs.GranularTools, calledGranular)
}

// mcpOutcomes pairs each scripted call with the record the session wrote
// for it, judged by mcpVerdict; a call without a record is an error.
func mcpOutcomes(t *testing.T, session []mcpCheck, recs mcpRecords) []outcome {
	t.Helper()
	records := map[string]mcpRecord{}
	for _, r := range recs.Calls {
		records[r.Name] = r
	}
	var outcomes []outcome
	for _, c := range session {
		r, ok := records[c.name]
		if !ok {
			t.Errorf("%s: the session wrote no record for it", c.name)
			continue
		}
		args, _ := json.Marshal(r.Args)
		outcomes = append(outcomes, outcome{
			name:   c.name,
			what:   fmt.Sprintf("%s %s (%d ms)", c.tool, args, r.Millis),
			reason: mcpVerdict(c, r),
			detail: fmt.Sprintf("  error: %v %s\n  result: %s\n  effect: %d %s", r.IsError, r.Err, clip(r.Text, 2000), r.EffectStatus, clip(r.EffectBody, 1000)),
		})
	}
	return outcomes
}

// logMCPFailure shows the ends of the emulator's and the server's logs
// once a session has failed.
func logMCPFailure(t *testing.T, emuLog string, recs mcpRecords) {
	t.Helper()
	if t.Failed() {
		t.Logf("emulator log, last lines:\n%s", tail(emuLog, 30))
		t.Logf("server log, last lines:\n%s", tail(recs.ServerLog, 30))
	}
}

// mcpVerdict says why a record is not what GitHub would give, or "" when
// it is. A failure's reason starts with the server's first error line.
func mcpVerdict(c mcpCheck, r mcpRecord) string {
	text := strings.Join(strings.Fields(r.Text), " ")
	switch {
	// The server hands some of GitHub's refusals back as the call's
	// JSON-RPC error rather than as an error result.
	case c.refusal != "" && r.Err != "":
		if !strings.Contains(r.Err, c.refusal) {
			return fmt.Sprintf("call failed with %q, want %q", clip(r.Err, 600), c.refusal)
		}
		return ""
	case r.Err != "":
		return "call failed: " + clip(r.Err, 600)
	case c.refusal != "" && !r.IsError:
		return fmt.Sprintf("succeeded, want GitHub's refusal %q: %s", c.refusal, clip(text, 300))
	case c.refusal != "":
		if !strings.Contains(r.Text, c.refusal) {
			return fmt.Sprintf("refused with %q, want %q", clip(text, 600), c.refusal)
		}
		return ""
	case r.IsError:
		return clip(text, 600)
	}
	for _, s := range c.want {
		if !strings.Contains(r.Text, s) {
			return fmt.Sprintf("result lacks %q; got %q", s, clip(text, 300))
		}
	}
	if e := c.expect; e != nil {
		if r.ExpectStatus != http.StatusOK {
			return fmt.Sprintf("expect: GET %s answers %d: %s", e.path, r.ExpectStatus, clip(r.ExpectBody, 300))
		}
		want, err := e.project([]byte(r.ExpectBody))
		if err != nil {
			return fmt.Sprintf("expect: GET %s: %v", e.path, err)
		}
		if !strings.Contains(r.Text, want) {
			return fmt.Sprintf("result lacks %q (from GET %s); got %q", clip(want, 200), e.path, clip(text, 300))
		}
	}
	for _, s := range c.absent {
		if strings.Contains(r.Text, s) {
			return fmt.Sprintf("result holds %q; got %q", s, clip(text, 300))
		}
	}
	if c.items > 0 {
		var items []json.RawMessage
		var err error
		if c.itemsAt != "" {
			var obj map[string]json.RawMessage
			if err = json.Unmarshal([]byte(r.Text), &obj); err == nil {
				err = json.Unmarshal(obj[c.itemsAt], &items)
			}
		} else {
			err = json.Unmarshal([]byte(r.Text), &items)
		}
		if err != nil || len(items) != c.items {
			return fmt.Sprintf("result is not an array of %d (%d, %v): %q", c.items, len(items), err, clip(text, 300))
		}
	}
	if e := c.effect; e != nil {
		if e.status != 0 {
			if r.EffectStatus != e.status {
				return fmt.Sprintf("effect: GET %s answers %d, want %d", e.path, r.EffectStatus, e.status)
			}
			return ""
		}
		if r.EffectStatus != http.StatusOK {
			return fmt.Sprintf("effect: GET %s answers %d: %s", e.path, r.EffectStatus, clip(r.EffectBody, 300))
		}
		got, err := e.project([]byte(r.EffectBody))
		if err != nil {
			return fmt.Sprintf("effect: GET %s: %v", e.path, err)
		}
		if got != e.want {
			return fmt.Sprintf("effect: GET %s shows %q, want %q", e.path, got, e.want)
		}
	}
	return ""
}

// runMCPSession runs inside the namespaces: it starts GitHub's MCP server
// as a stdio child of an MCP Go SDK client, lists its tools and makes every
// call of the session.
func runMCPSession(work string) (any, error) {
	var first, granular []mcpCheck
	for _, c := range mcpSession() {
		if c.granular {
			granular = append(granular, c)
		} else {
			first = append(first, c)
		}
	}
	out, err := runMCPServer(work, mcpToolsets, mcpFeatures, first)
	if err != nil {
		return nil, err
	}
	more, err := runMCPServer(work, mcpToolsets, mcpGranularFeatures, granular)
	if err != nil {
		return nil, err
	}
	out.GranularTools = more.Tools
	out.Calls = append(out.Calls, more.Calls...)
	out.ServerLog += more.ServerLog
	return out, nil
}

// runMCPServer runs the server with toolsets and feature flags and makes
// the calls.
func runMCPServer(work, toolsets, features string, checks []mcpCheck) (mcpRecords, error) {
	var out mcpRecords
	bin := os.Getenv(envMCPServer)
	if bin == "" {
		return out, errors.New(envMCPServer + " must name the server's binary")
	}
	serverLog := filepath.Join(work, "server.log")
	args := []string{"stdio", "--toolsets", toolsets, "--read-only=false", "--log-file", serverLog}
	if features != "" {
		args = append(args, "--features", features)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + work,
		"GITHUB_PERSONAL_ACCESS_TOKEN=" + mcpToken,
		"GITHUB_HOST=http://127.0.0.1",
	}
	ctx, cancel := context.WithTimeout(context.Background(), sessionTimeout)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "ghgate-peers", Version: "1"}, nil)
	startCtx, startCancel := context.WithTimeout(ctx, toolTimeout)
	session, err := client.Connect(startCtx, &mcp.CommandTransport{Command: cmd}, nil)
	startCancel()
	if err != nil {
		return out, fmt.Errorf("connecting to %s: %w", bin, err)
	}
	defer session.Close()

	for tool, err := range session.Tools(ctx, nil) {
		if err != nil {
			return out, fmt.Errorf("tools/list: %w", err)
		}
		out.Tools = append(out.Tools, tool.Name)
	}
	for _, c := range checks {
		out.Calls = append(out.Calls, callTool(ctx, session, c))
	}
	if b, err := os.ReadFile(serverLog); err == nil {
		out.ServerLog = tail(string(b), 200)
	}
	return out, nil
}

// callTool makes one call, resolving its restID arguments first, then
// reads its effect.
func callTool(ctx context.Context, session *mcp.ClientSession, c mcpCheck) mcpRecord {
	r := mcpRecord{Name: c.name, Args: map[string]any{}}
	var lastID string
	for k, v := range c.args {
		resolved, err := resolveArg(ctx, v, &lastID)
		if err != nil {
			r.Err = fmt.Sprintf("looking up %s: %v", k, err)
			return r
		}
		r.Args[k] = resolved
	}
	if c.expect != nil {
		r.ExpectStatus, r.ExpectBody = restGet(ctx, c.expect.path)
	}
	callCtx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	start := time.Now()
	res, err := session.CallTool(callCtx, &mcp.CallToolParams{Name: c.tool, Arguments: r.Args})
	r.Millis = time.Since(start).Milliseconds()
	if err != nil {
		r.Err = err.Error()
		return r
	}
	r.IsError = res.IsError
	var texts []string
	for _, content := range res.Content {
		switch content := content.(type) {
		case *mcp.TextContent:
			texts = append(texts, content.Text)
		case *mcp.EmbeddedResource:
			// A file's text comes back as an embedded resource.
			if content.Resource != nil {
				texts = append(texts, content.Resource.Text)
			}
		}
	}
	r.Text = strings.Join(texts, "\n")
	if c.effect != nil && !r.IsError {
		path := strings.Replace(c.effect.path, "{id}", lastID, 1)
		r.EffectStatus, r.EffectBody = restGet(ctx, path)
	}
	return r
}

// resolveArg replaces the references to objects the emulator names
// (restID, restIDText, restNumber, nodeIDOf, threadOf) in an argument, also
// inside objects and arrays, by what they name; *lastID keeps the last
// database id, for the effect read's {id}.
func resolveArg(ctx context.Context, v any, lastID *string) (any, error) {
	switch v := v.(type) {
	case restID:
		id, err := lookupID(ctx, string(v))
		if err != nil {
			return nil, err
		}
		n, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("GET %s: the id %s is not a number", v, id)
		}
		*lastID = id
		return n, nil
	case restIDText:
		id, err := lookupID(ctx, string(v))
		*lastID = id
		return id, err
	case restNumber:
		return lookupNumber(ctx, string(v))
	case nodeIDOf:
		return firstNodeID(ctx, string(v))
	case threadOf:
		return lookupThread(ctx, string(v))
	case []map[string]any:
		list := make([]any, len(v))
		for i, x := range v {
			list[i] = x
		}
		return resolveArg(ctx, list, lastID)
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			r, err := resolveArg(ctx, x, lastID)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			r, err := resolveArg(ctx, x, lastID)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// lookupID finds the id of the object at path, or of the first object
// when the path answers a list, as its text: a database id's decimal
// digits, or a gist's hexadecimal name.
func lookupID(ctx context.Context, path string) (string, error) {
	status, body := restGet(ctx, path)
	if status != http.StatusOK {
		return "", fmt.Errorf("GET %s: %d %s", path, status, clip(body, 200))
	}
	var one struct {
		ID json.RawMessage `json:"id"`
	}
	if strings.HasPrefix(strings.TrimSpace(body), "[") {
		var list []json.RawMessage
		if err := json.Unmarshal([]byte(body), &list); err != nil || len(list) == 0 {
			return "", fmt.Errorf("GET %s: no object in %s", path, clip(body, 200))
		}
		body = string(list[0])
	}
	if err := json.Unmarshal([]byte(body), &one); err != nil {
		return "", err
	}
	if len(one.ID) == 0 {
		// A list wrapped in an object ({"total_count": n, "workflow_runs":
		// [...]}): its first element.
		var fields map[string]json.RawMessage
		_ = json.Unmarshal([]byte(body), &fields)
		for _, raw := range fields {
			var list []struct {
				ID json.RawMessage `json:"id"`
			}
			if json.Unmarshal(raw, &list) == nil && len(list) > 0 && len(list[0].ID) > 0 {
				return idText(list[0].ID), nil
			}
		}
		return "", fmt.Errorf("GET %s: no id in %s", path, clip(body, 200))
	}
	return idText(one.ID), nil
}

// idText is a JSON id, a number or a string, as text.
func idText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// lookupThread finds the node id of the first review thread of the pull
// request "owner/repo#number".
func lookupThread(ctx context.Context, pr string) (string, error) {
	repo, num, _ := strings.Cut(pr, "#")
	owner, name, _ := strings.Cut(repo, "/")
	return firstNodeID(ctx, fmt.Sprintf(
		`{ repository(owner: %q, name: %q) { pullRequest(number: %s) { reviewThreads(first: 1) { nodes { id } } } } }`, owner, name, num))
}

// nodeIDPattern finds the first node id in a GraphQL answer.
var nodeIDPattern = regexp.MustCompile(`"id":"([^"]+)"`)

// firstNodeID asks the emulator's GraphQL API query as alice and returns
// the first "id" in the answer.
func firstNodeID(ctx context.Context, query string) (string, error) {
	q, _ := json.Marshal(map[string]any{"query": query})
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://"+emulatorAddr+"/api/graphql", strings.NewReader(string(q)))
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "token "+mcpToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := nodeIDPattern.FindSubmatch(b)
	if m == nil {
		return "", fmt.Errorf("no node id in %s", clip(string(b), 200))
	}
	return string(m[1]), nil
}

// lookupNumber finds the number of the object at path, or of the first
// object when the path answers a list.
func lookupNumber(ctx context.Context, path string) (int, error) {
	status, body := restGet(ctx, path)
	if status != http.StatusOK {
		return 0, fmt.Errorf("GET %s: %d %s", path, status, clip(body, 200))
	}
	var one struct {
		Number int `json:"number"`
	}
	if strings.HasPrefix(strings.TrimSpace(body), "[") {
		var list []json.RawMessage
		if err := json.Unmarshal([]byte(body), &list); err != nil || len(list) == 0 {
			return 0, fmt.Errorf("GET %s: no object in %s", path, clip(body, 200))
		}
		body = string(list[0])
	}
	if err := json.Unmarshal([]byte(body), &one); err != nil || one.Number == 0 {
		return 0, fmt.Errorf("GET %s: no number in %s", path, clip(body, 200))
	}
	return one.Number, nil
}

// restGet reads the emulator's REST API as alice.
func restGet(ctx context.Context, path string) (int, string) {
	ctx, cancel := context.WithTimeout(ctx, toolTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+emulatorAddr+path, nil)
	if err != nil {
		return 0, err.Error()
	}
	req.Header.Set("Authorization", "token "+mcpToken)
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err.Error()
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}
