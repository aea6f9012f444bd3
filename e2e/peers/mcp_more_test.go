package peers

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/google/go-github/v89/github"
)

// The calls beyond the first session's toolsets: git data, pull requests
// opened and merged by the session, Actions writes, stars, notifications,
// gists, discussions, advisories, Copilot and the tools behind the opt-in
// feature flags. The seed has no gists, discussions, notifications or
// repository security advisories; acme has no Copilot coding agent, so
// GitHub refuses to assign Copilot. fleet's repositories have the Copilot
// reviewer.

const mcpBranch = "mcp-branch"

func prNumbers(ps []*github.PullRequest) string {
	var ns []string
	for _, p := range ps {
		ns = append(ns, fmt.Sprint(p.GetNumber()))
	}
	return strings.Join(ns, ",")
}

// lastOf is a list's last element, or nil for an empty list (go-github's
// getters answer zero values on nil).
func lastOf[T any](xs []*T) *T {
	if len(xs) == 0 {
		return nil
	}
	return xs[len(xs)-1]
}

func repoNames(rs []*github.Repository) string {
	var ns []string
	for _, r := range rs {
		ns = append(ns, r.GetFullName())
	}
	return strings.Join(ns, ",")
}

func moreSession() []mcpCheck {
	const o, r = "acme", "widgets"
	const repo = "/repos/acme/widgets"
	a := func(kv ...any) map[string]any { return repoArgs(o, r, kv...) }
	ui := func(method string, want ...string) mcpCheck {
		return mcpCheck{name: "ui_get-" + method, tool: "ui_get", args: a("method", method), want: want}
	}
	mcpPR := restNumber(repo + "/pulls?state=all&head=acme:" + mcpBranch)
	const red = "/repos/fleet/svc-billing-00"
	return []mcpCheck{
		// Git data: a branch, a file written, two pushed, one deleted, and a
		// pull request from the branch, edited and merged.
		{name: "get_repository_tree", tool: "get_repository_tree", args: a("recursive", true), want: []string{`"path":"README.md"`}},
		{name: "get_file_blame", tool: "get_file_blame", args: a("path", "README.md", "start_line", 1, "end_line", 1), want: []string{"# widgets"}},
		{name: "create_branch", tool: "create_branch", args: a("branch", mcpBranch, "from_branch", "main"),
			effect: read(repo+"/branches/"+mcpBranch, func(b github.Branch) string { return b.GetName() }, mcpBranch)},
		{name: "create_or_update_file", tool: "create_or_update_file", args: a("branch", mcpBranch, "path", "docs/mcp.md", "content", "Written over MCP.\n", "message", "Add docs/mcp.md"),
			effect: read(repo+"/contents/docs/mcp.md?ref="+mcpBranch, fileText, "Written over MCP.\n")},
		{name: "push_files", tool: "push_files", args: a("branch", mcpBranch, "message", "Add two notes",
			"files", []map[string]any{{"path": "docs/a.md", "content": "A\n"}, {"path": "docs/b.md", "content": "B\n"}}),
			effect: read(repo+"/commits/"+mcpBranch, func(c github.RepositoryCommit) string { return c.GetCommit().GetMessage() }, "Add two notes")},
		{name: "delete_file", tool: "delete_file", args: a("branch", mcpBranch, "path", "docs/a.md", "message", "Remove docs/a.md"),
			effect: &restRead{path: repo + "/contents/docs/a.md?ref=" + mcpBranch, status: http.StatusNotFound}},
		{name: "create_pull_request", tool: "create_pull_request", args: a("head", mcpBranch, "base", "main", "title", "Opened over MCP", "body", "From the MCP session."),
			effect: read(repo+"/pulls?state=open&head=acme:"+mcpBranch, func(ps []*github.PullRequest) string {
				if len(ps) != 1 {
					return fmt.Sprintf("%d pull requests", len(ps))
				}
				return ps[0].GetTitle() + " | " + ps[0].GetUser().GetLogin()
			}, "Opened over MCP | alice")},
		{name: "update_pull_request", tool: "update_pull_request", args: a("pullNumber", mcpPR, "title", "Opened over MCP (edited)", "body", "Edited.", "reviewers", []string{"bob"}),
			effect: read(repo+"/pulls?state=open&head=acme:"+mcpBranch, func(ps []*github.PullRequest) string {
				if len(ps) != 1 {
					return fmt.Sprintf("%d pull requests", len(ps))
				}
				return ps[0].GetTitle() + " | " + ps[0].GetBody() + " | " + logins(ps[0].RequestedReviewers)
			}, "Opened over MCP (edited) | Edited. | bob")},
		// alice is an admin: main's protection does not hold her back.
		{name: "merge_pull_request", tool: "merge_pull_request", args: a("pullNumber", mcpPR, "merge_method", "squash", "commit_title", "Merged over MCP"),
			effect: read(repo+"/pulls?state=closed&head=acme:"+mcpBranch, func(ps []*github.PullRequest) string {
				if len(ps) != 1 {
					return fmt.Sprintf("%d pull requests", len(ps))
				}
				return fmt.Sprint(ps[0].GetMerged() || ps[0].MergedAt != nil)
			}, "true")},
		// main moved: #121's branch is behind and GitHub merges main into it.
		{name: "update_pull_request_branch", tool: "update_pull_request_branch", args: a("pullNumber", 121),
			effect: read("/repos/dave/widgets/branches/docs/theme-tokens-for-the-embed-sdk", func(b github.Branch) string { return fmt.Sprint(len(b.GetCommit().Parents)) }, "2")},
		{name: "add_reply_to_pull_request_comment", tool: "add_reply_to_pull_request_comment",
			args: a("pullNumber", 121, "commentId", restID(repo+"/pulls/121/comments"), "body", "Reply written over MCP."),
			effect: read(repo+"/pulls/121/comments", func(cs []*github.PullRequestComment) string {
				last := lastOf(cs)
				return last.GetUser().GetLogin() + " | " + last.GetBody() + " | " + fmt.Sprint(last.GetInReplyTo() != 0)
			}, "alice | Reply written over MCP. | true")},
		// A pending review on #133, a comment on it, submitted.
		{name: "pull_request_review_write-create-pending", tool: "pull_request_review_write", args: a("method", "create", "pullNumber", 133),
			effect: read(repo+"/pulls/133/reviews", func(rs []*github.PullRequestReview) string { return lastOf(rs).GetState() }, "PENDING")},
		{name: "add_comment_to_pending_review", tool: "add_comment_to_pending_review",
			args: a("pullNumber", 133, "path", "CHANGELOG.md", "subjectType", "FILE", "body", "A file comment over MCP.")},
		{name: "pull_request_review_write-submit_pending", tool: "pull_request_review_write", args: a("method", "submit_pending", "pullNumber", 133, "event", "COMMENT", "body", "Submitted over MCP."),
			effect: read(repo+"/pulls/133/comments", func(cs []*github.PullRequestComment) string {
				last := lastOf(cs)
				return last.GetPath() + " | " + last.GetBody()
			}, "CHANGELOG.md | A file comment over MCP.")},
		{name: "request_copilot_review", tool: "request_copilot_review", args: map[string]any{"owner": "fleet", "repo": "svc-billing-00", "pullNumber": 7},
			effect: read(red+"/pulls/7/requested_reviewers", func(rv github.Reviewers) string {
				return fmt.Sprint(strings.Contains(strings.ToLower(logins(rv.Users)), "copilot"))
			}, "true")},
		{name: "assign_copilot_to_issue", tool: "assign_copilot_to_issue", args: a("issue_number", 137), refusal: "copilot isn't available as an assignee for this issue"},
		{name: "assign_copilot_to_issue_with_intent", tool: "assign_copilot_to_issue_with_intent",
			args:    a("issue_number", 137, "rationale", "A small, well-described change.", "confidence", "HIGH", "is_suggestion", false),
			refusal: "copilot isn't available as an assignee for this issue"},
		// #66 was closed as a duplicate of #9.
		{name: "find_duplicate", tool: "find_duplicate", args: a("issue_number", 66), want: []string{`"number":9`}},
		// #55 is blocked by #54 and #42; #54 blocks #55.
		{name: "issue_dependency_read-get_blocked_by", tool: "issue_dependency_read", args: a("method", "get_blocked_by", "issue_number", 55),
			want: []string{`"number":54`, `"number":42`}},
		{name: "issue_dependency_read-get_blocking", tool: "issue_dependency_read", args: a("method", "get_blocking", "issue_number", 54), want: []string{`"number":55`}},
		{name: "issue_dependency_write-add", tool: "issue_dependency_write", args: a("method", "add", "type", "blocked_by", "issue_number", 139, "related_issue_number", 138),
			effect: read(repo+"/issues/139/dependencies/blocked_by", func(is []*github.Issue) string { return issueNumbers(is) }, "138")},
		{name: "issue_dependency_write-remove", tool: "issue_dependency_write", args: a("method", "remove", "type", "blocked_by", "issue_number", 55, "related_issue_number", 42),
			effect: read(repo+"/issues/55/dependencies/blocked_by", func(is []*github.Issue) string { return issueNumbers(is) }, "54")},

		// Actions writes on acme/widgets' CI runs.
		{name: "actions_run_trigger-rerun_failed_jobs", tool: "actions_run_trigger",
			args:   a("method", "rerun_failed_jobs", "run_id", restID(ciRuns+"?status=failure&branch=docs/theme-tokens-for-the-embed-sdk")),
			effect: read(ciRuns+"/{id}", func(w github.WorkflowRun) string { return fmt.Sprint(w.GetRunAttempt()) }, "2")},
		{name: "actions_run_trigger-rerun_workflow_run", tool: "actions_run_trigger", args: a("method", "rerun_workflow_run", "run_id", restID(ciRuns+"?status=success")),
			effect: read(ciRuns+"/{id}", func(w github.WorkflowRun) string { return fmt.Sprint(w.GetRunAttempt()) }, "2")},
		{name: "actions_run_trigger-cancel_workflow_run", tool: "actions_run_trigger", args: a("method", "cancel_workflow_run", "run_id", restID(ciRuns+"?status=in_progress")),
			effect: read(ciRuns+"/{id}", func(w github.WorkflowRun) string { return w.GetStatus() + " " + w.GetConclusion() }, "completed cancelled")},
		{name: "actions_run_trigger-delete_workflow_run_logs", tool: "actions_run_trigger", args: a("method", "delete_workflow_run_logs", "run_id", restID(ciRuns+"?status=cancelled")),
			effect: &restRead{path: ciRuns + "/{id}/logs", status: http.StatusNotFound}},
		// CI runs on push and pull_request only.
		{name: "actions_run_trigger-run_workflow", tool: "actions_run_trigger", args: a("method", "run_workflow", "workflow_id", "ci.yml", "ref", "main"),
			refusal: "Workflow does not have 'workflow_dispatch' trigger"},
		{name: "actions_list-list_workflows", tool: "actions_list", args: a("method", "list_workflows"), want: []string{`"path":".github/workflows/ci.yml"`, `"state":"active"`}},

		// Repositories: one made, one forked, a star given and taken back.
		{name: "create_repository", tool: "create_repository", args: map[string]any{"name": "mcp-repo", "description": "Made over MCP", "private": true},
			effect: read("/repos/alice/mcp-repo", func(r github.Repository) string { return fmt.Sprint(r.GetPrivate()) + " " + r.GetDescription() }, "true Made over MCP")},
		{name: "fork_repository", tool: "fork_repository", args: map[string]any{"owner": "fleet", "repo": "svc-billing-00"},
			effect: read("/repos/alice/svc-billing-00", func(r github.Repository) string { return fmt.Sprint(r.GetFork()) + " " + r.GetParent().GetFullName() }, "true fleet/svc-billing-00")},
		{name: "star_repository", tool: "star_repository", args: a(),
			effect: read("/user/starred", repoNames, "acme/widgets")},
		{name: "list_starred_repositories", tool: "list_starred_repositories", args: map[string]any{}, want: []string{"acme/widgets"}},
		{name: "unstar_repository", tool: "unstar_repository", args: a(),
			effect: &restRead{path: "/user/starred/acme/widgets", status: http.StatusNotFound}},
		{name: "search_orgs", tool: "search_orgs", args: map[string]any{"query": "acme"}, want: []string{`"login":"acme"`}},

		// Gists: alice has none until the session makes one.
		{name: "list_gists", tool: "list_gists", args: map[string]any{}, want: []string{"[]"}},
		{name: "create_gist", tool: "create_gist", args: map[string]any{"filename": "notes.md", "content": "Gist over MCP.\n", "description": "Made over MCP", "public": false},
			effect: read("/gists", func(gs []*github.Gist) string {
				if len(gs) == 0 {
					return "no gists"
				}
				return gs[0].GetDescription() + " " + fmt.Sprint(gs[0].GetPublic())
			}, "Made over MCP false")},
		{name: "get_gist", tool: "get_gist", args: map[string]any{"gist_id": restIDText("/gists")}, want: []string{"Gist over MCP."}},
		{name: "update_gist", tool: "update_gist", args: map[string]any{"gist_id": restIDText("/gists"), "filename": "notes.md", "content": "Edited over MCP.\n"},
			effect: read("/gists/{id}", func(g github.Gist) string {
				f := g.GetFiles()["notes.md"]
				return f.GetContent()
			}, "Edited over MCP.\n")},

		// Notifications: alice's come from what the seed asks of her (review
		// requests, assignments, mentions); thread 1 is none of them.
		{name: "list_notifications", tool: "list_notifications", args: map[string]any{}, want: []string{`"reason":"review_requested"`}},
		{name: "get_notification_details", tool: "get_notification_details", args: map[string]any{"notificationID": "1"}, refusal: "404"},
		{name: "dismiss_notification", tool: "dismiss_notification", args: map[string]any{"threadID": "1", "state": "read"}, refusal: "404"},
		{name: "manage_notification_subscription", tool: "manage_notification_subscription", args: map[string]any{"notificationID": "1", "action": "ignore"}, refusal: "404"},
		{name: "mark_all_notifications_read", tool: "mark_all_notifications_read", args: map[string]any{}, want: []string{"marked"}},
		{name: "manage_repository_notification_subscription", tool: "manage_repository_notification_subscription", args: a("action", "watch"),
			effect: read(repo+"/subscription", func(s github.Subscription) string {
				return fmt.Sprint(s.GetSubscribed()) + " " + fmt.Sprint(s.GetIgnored())
			}, "true false")},

		// Discussions are off on acme/widgets.
		{name: "list_discussion_categories", tool: "list_discussion_categories", args: a(), want: []string{`"totalCount":0`}},
		{name: "list_discussions", tool: "list_discussions", args: a(), want: []string{`"totalCount":0`}},
		{name: "get_discussion", tool: "get_discussion", args: a("discussionNumber", 1), refusal: "Could not resolve to a Discussion with the number of 1."},
		{name: "get_discussion_comments", tool: "get_discussion_comments", args: a("discussionNumber", 1), refusal: "Could not resolve to a Discussion with the number of 1."},
		{name: "discussion_comment_write", tool: "discussion_comment_write", args: a("method", "add", "discussionNumber", 1, "body", "Never posted."),
			refusal: "Could not resolve to a Discussion with the number of 1."},

		// Advisories: fleet's Dependabot alerts point at advisories in the
		// global database; nobody filed repository advisories.
		{name: "get_global_security_advisory", tool: "get_global_security_advisory", args: map[string]any{"ghsaId": "GHSA-emu0-1003-fl03"},
			want: []string{`"ghsa_id":"GHSA-emu0-1003-fl03"`}},
		{name: "list_global_security_advisories", tool: "list_global_security_advisories", args: map[string]any{"ghsaId": "GHSA-emu0-1003-fl03"},
			want: []string{`"ghsa_id":"GHSA-emu0-1003-fl03"`}},
		{name: "list_repository_security_advisories", tool: "list_repository_security_advisories", args: a(), want: []string{"[]"}},
		{name: "list_org_repository_security_advisories", tool: "list_org_repository_security_advisories", args: map[string]any{"org": "acme"}, want: []string{"[]"}},
		// Code quality is not enabled on fleet's repositories.
		{name: "get_code_quality_finding", tool: "get_code_quality_finding", args: map[string]any{"owner": "fleet", "repo": "tool-billing-03", "findingNumber": 1}, refusal: "404"},

		// The pickers MCP Apps' forms fill from.
		ui("labels", `"name":"bug"`), ui("assignees", `"login":"alice"`, `"login":"bob"`), ui("milestones", `"title":"v1.5.0"`),
		{name: "ui_get-issue_types", tool: "ui_get", args: map[string]any{"method": "issue_types", "owner": o}, want: []string{`"name":"Bug"`}},
		ui("branches", `"name":"main"`), ui("issue_fields", `"name":"Priority"`), ui("reviewers", `"login":"bob"`),
	}
}

// granularSession runs on the server with the granular tools, after the
// first server's calls, each on its own issue or pull request.
func granularSession() []mcpCheck {
	const o, r = "acme", "widgets"
	const repo = "/repos/acme/widgets"
	g := func(name, tool string, effect *restRead, kv ...any) mcpCheck {
		return mcpCheck{name: name, tool: tool, args: repoArgs(o, r, kv...), granular: true, effect: effect}
	}
	issue := func(n int, project func(github.Issue) string, want string) *restRead {
		return read(fmt.Sprintf("%s/issues/%d", repo, n), project, want)
	}
	pull := func(n int, project func(github.PullRequest) string, want string) *restRead {
		return read(fmt.Sprintf("%s/pulls/%d", repo, n), project, want)
	}
	lastReview := func(n int) *restRead {
		return read(fmt.Sprintf("%s/pulls/%d/reviews", repo, n), func(rs []*github.PullRequestReview) string {
			if len(rs) == 0 {
				return "no reviews"
			}
			last := lastOf(rs)
			return last.GetState() + " " + last.GetUser().GetLogin() + " " + last.GetBody()
		}, "")
	}
	approved := lastReview(121)
	approved.want = "APPROVED alice Approved over MCP."
	submitted := lastReview(146)
	submitted.want = "COMMENTED alice Submitted over MCP."
	fieldOption := nodeIDOf(`{ organization(login: "acme") { issueFields(first: 20) { nodes { ... on IssueFieldSingleSelect { name options { id name } } } } } }`)
	return []mcpCheck{
		g("create_issue", "create_issue", read(repo+"/issues?state=all&sort=created&direction=desc&per_page=1", func(is []*github.Issue) string {
			return lastOf(is).GetTitle() + " | " + lastOf(is).GetBody()
		}, "Created by a granular tool | Its body."), "title", "Created by a granular tool", "body", "Its body."),
		g("update_issue_title", "update_issue_title", issue(142, func(i github.Issue) string { return i.GetTitle() }, "Retitled over MCP"), "issue_number", 142, "title", "Retitled over MCP"),
		g("update_issue_body", "update_issue_body", issue(142, func(i github.Issue) string { return i.GetBody() }, "Body rewritten over MCP."), "issue_number", 142, "body", "Body rewritten over MCP."),
		g("update_issue_labels", "update_issue_labels", issue(143, func(i github.Issue) string { return labelNames(i.Labels) }, "area: ui,help wanted"),
			"issue_number", 143, "labels", []string{"area: ui", "help wanted"}),
		g("update_issue_assignees", "update_issue_assignees", issue(143, func(i github.Issue) string { return logins(i.Assignees) }, "carol"),
			"issue_number", 143, "assignees", []string{"carol"}),
		// Milestone 3 is v2.0.0.
		g("update_issue_milestone", "update_issue_milestone", issue(143, func(i github.Issue) string { return i.GetMilestone().GetTitle() }, "v2.0.0"),
			"issue_number", 143, "milestone", 3),
		g("update_issue_type", "update_issue_type", issue(143, func(i github.Issue) string { return i.GetType().GetName() }, "Feature"),
			"issue_number", 143, "issue_type", "Feature"),
		g("update_issue_state", "update_issue_state", issue(144, func(i github.Issue) string { return i.GetState() + " " + i.GetStateReason() }, "closed not_planned"),
			"issue_number", 144, "state", "closed", "state_reason", "not_planned"),
		// The first option of acme's first single-select issue field
		// (Priority: P0 to P3).
		{name: "set_issue_fields", tool: "set_issue_fields", granular: true,
			args: map[string]any{"owner": o, "repo": r, "issue_number": 143, "fields": []map[string]any{{
				"field_id":                nodeIDOf(`{ organization(login: "acme") { issueFields(first: 20) { nodes { ... on IssueFieldSingleSelect { id name } } } } }`),
				"single_select_option_id": fieldOption}}}},
		// Issue field values show only over GraphQL: read back through the server.
		{name: "issue_read-get-fields", tool: "issue_read", granular: true, args: map[string]any{"owner": o, "repo": r, "method": "get", "issue_number": 143},
			want: []string{`{"field":"Priority","value":"P0"}`}},
		g("add_issue_reaction", "add_issue_reaction", reactionsOf(repo+"/issues/145/reactions", "alice:heart"), "issue_number", 145, "content", "heart"),
		g("add_issue_comment_reaction", "add_issue_comment_reaction", reactionsOf(repo+"/issues/comments/{id}/reactions", "alice:hooray"), "comment_id", restID(repo+"/issues/149/comments"), "content", "hooray"),
		// #139 takes #138 as its sub-issue; #14's first sub-issue (#17) goes;
		// #12's sub-issues are now #14 and #16: #16 moves first.
		g("add_sub_issue", "add_sub_issue", read(repo+"/issues/139/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "138"),
			"issue_number", 139, "sub_issue_id", restID(repo+"/issues/138")),
		g("remove_sub_issue", "remove_sub_issue", read(repo+"/issues/14/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "18,20"),
			"issue_number", 14, "sub_issue_id", restID(repo+"/issues/17")),
		g("reprioritize_sub_issue", "reprioritize_sub_issue", read(repo+"/issues/12/sub_issues", func(is []*github.Issue) string { return issueNumbers(is) }, "16,14"),
			"issue_number", 12, "sub_issue_id", restID(repo+"/issues/16"), "before_id", restID(repo+"/issues/14")),

		g("create_pull_request_review", "create_pull_request_review", approved, "pullNumber", 121, "event", "APPROVE", "body", "Approved over MCP."),
		// A pending review on #146, deleted; another, with a file comment,
		// submitted. The server finds the viewer's review with
		// reviews(first: 1, author: viewer), the oldest as GitHub lists
		// them, so the flow runs on a pull request alice has not reviewed
		// (she reviewed #155 in the seed, and GitHub would answer "not
		// pending" there too).
		g("create_pull_request_review-pending", "create_pull_request_review", read(repo+"/pulls/146/reviews", func(rs []*github.PullRequestReview) string {
			return lastOf(rs).GetState()
		}, "PENDING"), "pullNumber", 146),
		g("delete_pending_pull_request_review", "delete_pending_pull_request_review", read(repo+"/pulls/146/reviews", func(rs []*github.PullRequestReview) string {
			n := 0
			for _, x := range rs {
				if x.GetState() == "PENDING" {
					n++
				}
			}
			return fmt.Sprint(n)
		}, "0"), "pullNumber", 146),
		g("create_pull_request_review-pending-again", "create_pull_request_review", nil, "pullNumber", 146),
		g("add_pull_request_review_comment", "add_pull_request_review_comment", nil, "pullNumber", 146, "path", "web/src/widgets/ChartWidget.tsx", "subjectType", "FILE", "body", "On ChartWidget.tsx."),
		g("submit_pending_pull_request_review", "submit_pending_pull_request_review", submitted, "pullNumber", 146, "event", "COMMENT", "body", "Submitted over MCP."),
		// The file comment made while the review was pending shows once it is submitted.
		{name: "pull_request_read-get_review_comments-submitted", tool: "pull_request_read", granular: true,
			args: map[string]any{"owner": o, "repo": r, "method": "get_review_comments", "pullNumber": 146}, want: []string{"On ChartWidget.tsx."}},
		g("add_pull_request_review_comment_reaction", "add_pull_request_review_comment_reaction", reactionsOf(repo+"/pulls/comments/{id}/reactions", "alice:eyes"), "comment_id", restID(repo+"/pulls/121/comments"), "content", "eyes"),
		g("request_pull_request_reviewers", "request_pull_request_reviewers", pull(133, func(p github.PullRequest) string { return logins(p.RequestedReviewers) }, "bob"),
			"pullNumber", 133, "reviewers", []string{"bob"}),
		g("update_pull_request_title", "update_pull_request_title", pull(133, func(p github.PullRequest) string { return p.GetTitle() }, "Retitled over MCP"),
			"pullNumber", 133, "title", "Retitled over MCP"),
		g("update_pull_request_body", "update_pull_request_body", pull(133, func(p github.PullRequest) string { return p.GetBody() }, "Body rewritten over MCP."),
			"pullNumber", 133, "body", "Body rewritten over MCP."),
		g("update_pull_request_draft_state", "update_pull_request_draft_state", pull(133, func(p github.PullRequest) string { return fmt.Sprint(p.GetDraft()) }, "true"),
			"pullNumber", 133, "draft", true),
		g("update_pull_request_state", "update_pull_request_state", pull(133, func(p github.PullRequest) string { return p.GetState() }, "closed"),
			"pullNumber", 133, "state", "closed"),
		// fleet's red pull request's thread, resolved and unresolved again.
		{name: "resolve_review_thread", tool: "resolve_review_thread", granular: true, args: map[string]any{"threadID": threadOf("fleet/svc-billing-00#7")}, want: []string{"resolved"}},
		{name: "unresolve_review_thread", tool: "unresolve_review_thread", granular: true, args: map[string]any{"threadID": threadOf("fleet/svc-billing-00#7")}, want: []string{"unresolved"}},
	}
}
