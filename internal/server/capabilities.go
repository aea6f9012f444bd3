package server

import (
	"strings"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// capabilities is the capability summary, ghgate://capabilities: what
// ghgate does and what it does not, so agents do not go looking for tools
// that are not here. The instructions (see instructions) carry only what
// an agent needs before its first call, and point here for the rest.
func capabilities(specs []tooldef.Spec, extra []string, readOnly bool, resources []string, lockdown string) string {
	var b strings.Builder
	b.WriteString("ghgate: GitHub issues for agents.\n\nDoes:\n")
	if readOnly {
		b.WriteString("- search and read issues, their comments, sub-issues, dependencies, related issues, development (linked branches, closing pull requests), timelines and linked pull requests, and repository metadata\n")
		b.WriteString("- every failure is a JSON envelope with a stable code and a literal repair call\n")
	} else {
		b.WriteString("- search, read, create and update issues; comment; label, assign, set milestones and types; link sub-issues, blocked-by dependencies and related issues " +
			"(related needs GitHub's REST API version 2026-03-10: where the server lacks it, related_issues_unsupported, never text in a body)\n")
		b.WriteString("- label edits touch only the labels named (add/remove/swap), never racing other writers; " +
			"a write naming a label, milestone, type or assignee the repository lacks is refused by name before anything is written " +
			"(label_not_found and its peers, with the closest names)\n")
		b.WriteString("- every failure is a JSON envelope with a stable code and a literal repair call; writes say whether they happened (settlement)\n")
		b.WriteString("- expected_version on updates refuses to overwrite a newer state; idempotency_key makes create and comment safe to repeat for 10 minutes\n")
		b.WriteString("- a pull request's number works where GitHub's Issues API takes one (read, comment, labels, assignees, milestone, state, title, body)\n")
	}
	served := map[string]bool{}
	for _, s := range specs {
		served[s.ToolName()] = true
	}
	admin := served[core.NameManageLabels] || served[core.NameManageMilestones] || served[core.NameDeleteIssue]
	if admin {
		b.WriteString("- admin toolset: create, update and delete a repository's labels and milestones (create refuses a name taken ignoring case, " +
			"with label_exists or milestone_exists; an action already done is a no_op); delete an issue for good (admins only, " +
			"confirm_issue_number must repeat issue_number; pull requests are refused)\n")
	}
	if served[core.NameUpdateReviewThread] {
		b.WriteString("- pull_requests toolset: " + core.NameUpdateReviewThread + " resolves, unresolves or replies to a pull request's review thread " +
			"(thread_id from list_issue_items' review_threads rows, or a review comment's comment_id); a thread already so is a no_op, " +
			"a thread not on the pull request named is refused (thread_not_on_pull), and every answer is the thread as it now stands\n")
	}
	if served[core.NameListRepoMetadata] {
		b.WriteString("- " + core.NameListRepoMetadata + " kind repositories (no repo) lists an owner's repositories the credential can see: " +
			"archived, visibility, has_issues, open_issues (pull requests not counted), default_branch\n")
	}
	if served[core.NameGetOverview] {
		b.WriteString("- " + core.NameGetOverview + " orients in an unseen repository in one call (at most 5 upstream requests, each listed): " +
			"open issue and pull request counts, labels with open-issue counts, open milestones with progress, issue types, templates, " +
			"the newest and most-commented open issues, and the credential's permission there; a section it cannot read " +
			"(templates without the contents permission, say) is left out and named in partial_success.unread with its error code " +
			"and required_scopes, and the call fails only when nothing could be read\n")
	}
	bulk := served[core.NameBulkUpdateIssues]
	if bulk {
		b.WriteString("- bulk edits: github_bulk_update_issues makes one edit (labels, assignees, milestone, state, type) to up to 50 issues " +
			"named by number; every name is checked before any write, each issue settles applied, no_op, failed or not_started, " +
			"and retry is the literal call for the rest\n")
	}
	if served[core.NameSyncIssues] {
		b.WriteString("- sync toolset: mirror a repository's issues to local JSON files (NUMBER-SLUG.json) under the operator's sync_root; " +
			"an unchanged repository costs one request answered 304; github_get_issue source mirror reads a file back with mirror_age_s " +
			"(sync_not_configured where sync_root is not set)\n")
	}
	projectsServed := served[projects.NameUpdateProjectItem] || served[projects.NameListProjectItems]
	if projectsServed {
		b.WriteString("- projects toolset: an org's or user's Projects v2 boards with each field's type, options and iterations; " +
			"a board's items (GitHub's filter syntax) with values by field name, issues, pull requests and drafts counted apart; " +
			"add an issue, set or clear fields by name (checked against the board first: project_field_not_found, project_option_not_found), " +
			"archive, move, remove (confirm: true); boards by number, fields and options by name, items by issue\n")
		// The issue writes' project is gated on the board write tool
		// (tooldef.Tool's Gated), so it is named only where that is served.
		if served[projects.NameUpdateProjectItem] {
			b.WriteString("- create_issue and update_issue take project {owner, project_number, fields} (bulk_update_issues: changes.project): the issue lands on its owner's board with its fields in the same call\n")
		}
	}
	if served[core.NameReportUnlabeled] {
		b.WriteString("- reports toolset: " + core.NameReportUnlabeled + " lists the issues and pull requests with no label in one repository " +
			"or every repository of an owner, within max_repos, per_repo_limit and max_api_calls; a report that stops early " +
			"returns what it found with truncated_reason and next_call (the literal call that goes on), counts api_calls and conditional_hits " +
			"(304s, which spend no rate budget), sends notifications/progress when the call carries a progress token, and stops at 2% of the " +
			"rate limit (rate_limited)\n")
		b.WriteString("- reports over an owner's repositories (unlabeled, security alerts, release PRs) leave archived ones out unless include_archived " +
			"(absent: false); scanned says which were covered (include_archived, archived_skipped, archived_names: the first 10), " +
			"rows of an archived repository carry archived: true, and a report on a named archived repository says scanned.archived\n")
	}
	if served[core.NameReportSecurityAlerts] {
		b.WriteString("- reports toolset: " + core.NameReportSecurityAlerts + " lists open Dependabot, code scanning and secret scanning alerts " +
			"worst first with by_repo counts and the run's counts per type and severity, from the organization's lists or, where refused, " +
			"each repository's (scope, disabled); Dependabot rows say scope (runtime, development); classify adds each repository's tier " +
			"by the operator's rules with its file and branch signals (one call per repository); secret values are never returned\n")
	}
	if served[core.NameReportReleasePRs] {
		b.WriteString("- reports toolset: " + core.NameReportReleasePRs + " finds open release pull requests (the operator's label, default release) with one search, " +
			"reads the version from the title and looks the changelog up at the head commit (ready, needs_changelog, unknown_version; " +
			"summary counts them over the run) and whether the README's What's new block there names the version; " +
			"analyze adds the PRs open against its base by kind, the entry's freshness against what merged since the previous release, " +
			"and a verdict (done, in_flight, wait, gray, write, update, inspect, doc_version_mismatch) with its reason\n")
	}
	if served[core.NameReportCIStatus] {
		b.WriteString("- reports toolset: " + core.NameReportCIStatus + " says whether each open pull request's CI passed, failed or is pending (cancelled fails, " +
			"neutral and skipped do not), and with verbosity 1-3 each failing job's run, failing step and log tail (credentials redacted); " +
			"a passing pull request costs no call of its own\n")
	}
	b.WriteString(searchRouting)
	b.WriteString("- issue text comes back intact, with hidden characters and HTML comments removed and counted (sanitized)\n")
	b.WriteString("- a body over 8,000 characters comes cut, its body_window {shown_from, shown_to, total, next}: next is get_issue's body_cursor " +
		"for the following window; get_issue comment_id reads that one comment (comment, beside the issue at summary); " +
		"list_issue_items' comments take since (date or RFC 3339: updated at or after)\n")
	b.WriteString(lockdown)
	b.WriteString("- any result may also carry rate_limit_remaining (under 10% of the budget left), notes (what was already so, or not checked), " +
		"withheld (rows left out: of repositories this client may not read, or other authors' issues), " +
		"and on a listing truncated with truncation_hint (what cannot be reached, and how to narrow)\n")
	b.WriteString("- a listing with more to give says has_more and next_cursor (get_issue's comments: comments_has_more, comments_next_cursor); " +
		"pass that as cursor (comments_cursor) with the same other arguments, within 15 minutes; without a cursor a listing starts at page 1\n")
	b.WriteString("- a boolean argument left out is false (its schema lists no default)\n")
	b.WriteString("- every write tool takes dry_run: true checks the call as for real (arguments, write policy, quotas) " +
		"and answers {dry_run: {writes (each with its request), neutralized, confirmation}} with nothing written " +
		"(update tools add preview: each issue's settlement, fields before and after, requests); a write may be refused by the operator's policy " +
		"(quota_exceeded, policy_refused, secret_in_content: details.rule names the rule) or wait for a person's yes; " +
		"once a session has read a private repository, text it writes to a public one needs that yes (else cross_visibility_write)\n")
	b.WriteString("\nDoes not:\n")
	actions := "Actions"
	if served[core.NameReportCIStatus] {
		actions = "Actions beyond reading CI" // re-runs, cancels, workflows
	}
	if served[core.NameUpdateReviewThread] {
		b.WriteString("- pull request reviews other than their threads, code, commits, releases, " + actions + " or repository settings\n")
	} else {
		b.WriteString("- pull request reviews (list_issue_items lists their review_threads; the pull_requests toolset resolves and answers them), " +
			"code, commits, releases, " + actions + " or repository settings\n")
	}
	var not []string
	if !admin {
		not = append(not, "delete issues, create or edit a repository's labels and milestones (create_missing on an update is the one exception; the admin toolset does them)")
	}
	if projectsServed {
		not = append(not, "create or edit Projects boards, fields, views or draft issues")
	} else {
		not = append(not, "Projects boards (the projects toolset does them, and gives create_issue and update_issue a project argument)")
	}
	if !bulk {
		not = append(not, "bulk edits")
	}
	b.WriteString("- " + strings.Join(not, ", ") + "\n")
	if readOnly {
		b.WriteString("- any write: this server is read-only\n")
	}
	b.WriteString("\nTools: ")
	names := make([]string, 0, len(specs))
	for _, s := range specs {
		names = append(names, s.ToolName())
	}
	b.WriteString(strings.Join(names, ", "))
	if len(extra) > 0 {
		b.WriteString("\nFrom other MCP servers, forwarded with this deployment's credentials: " + strings.Join(extra, ", "))
	}
	notes := map[string]string{errorsURI: " (the error-code catalog)", schemasURI: " (each tool's full schemas: input, output, error envelope, and a write's dry run)",
		issueTemplate:    " (an issue with its first 30 comments and next_chunk_uri)",
		commentsTemplate: " (comments in chunks of 30, each naming the next in next_chunk_uri)",
		issuesTemplate:   " (triage metadata only: title, preview, size, lastModified; never bodies)",
		labelsTemplate:   " (the repository's labels; label names complete in the issue index's labels)"}
	described := make([]string, len(resources))
	for i, uri := range resources {
		described[i] = uri + notes[uri]
	}
	b.WriteString("\nResources: " + strings.Join(described, ", ") + "; a failed read is a JSON-RPC error with the envelope in error.data, " +
		"-31000 when rate limited and -31001 when GitHub is unavailable (read again after retry_after_ms, or shortly when it is null)\n")
	b.WriteString("Cache hints: " + capabilitiesURI + ", " + errorsURI + " and " + schemasURI + " are public, ttlMs 86400000 " +
		"(they change only with the surface, and the fingerprint with them); issues, comments, the issue index and labels are " +
		"private to the credential that read them, ttlMs 30000; issue resources carry annotations.lastModified (the issue's updated_at).\n")
	b.WriteString("\nCredentials: the operator configures the GitHub credential (a token, or the broker's routes); an agent never sends one. " +
		"Each failure has its code: none configured for the target, missing_credential; GitHub refuses it (revoked, expired, wrong), " +
		"invalid_credential; it lacks a permission the call needs, insufficient_scope with details.required_scopes. " +
		"Retrying does not help any of them; the operator must act.\n")
	b.WriteString("\nValues echoed: an error's message may name an identifier the caller sent (an owner, repository, number, label, " +
		"milestone, issue type or login); free-form text (a title, body, comment, description or search text) never appears in a " +
		"message, reason or details. details.value only ever holds what ghgate or GitHub minted: the values a field accepts " +
		"(invalid_field), the repository's closest names (label_not_found and its peers), and the URIs this server serves. " +
		"A repair's or follow_up's arguments are a literal call, so they repeat the arguments it needs.\n\n")
	return b.String()
}

// searchRouting says which filters of github_search_issues are answered by
// which of GitHub's APIs, and what that means for freshness and budgets:
// an agent checking its own writes needs the list path.
const searchRouting = "- search_issues on one repo with plain filters only (state, labels, assignee, author, updated_after, sort, include_prs; " +
	"in query: label:, assignee:, author:, mentions:, type:, no:milestone, no:assignee, is:open/closed/issue) lists the issues directly " +
	"(source: list): every write shows at once, core budget, repeats free (304). " +
	"Query text, other qualifiers, no_labels, @me, app authors, and searches of an owner or everywhere use GitHub search " +
	"(source: search): 30 a minute, 1,000 results at most, and it can trail writes by seconds (notes say so); " +
	"after a write, read with get_issue or a plain listing. A cursor belongs to the path that minted it\n"
