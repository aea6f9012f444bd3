package issues

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the issues toolset's part of the capability summary;
// readOnly leaves its writes out.
func Summarize(served toolkit.Served, readOnly bool) toolkit.Summary {
	var s toolkit.Summary
	if readOnly {
		s.Does = append(s.Does, "- search and read issues, their comments, sub-issues, dependencies, related issues, development (linked branches, closing pull requests), timelines and linked pull requests, and repository metadata\n",
			"- every failure is a JSON envelope with a stable code and a literal repair call\n")
	} else {
		s.Does = append(s.Does, "- search, read, create and update issues; comment; label, assign, set milestones and types; link sub-issues, blocked-by dependencies and related issues "+
			"(related needs GitHub's REST API version 2026-03-10: where the server lacks it, related_issues_unsupported, never text in a body)\n",
			"- label edits touch only the labels named (add/remove/swap), never racing other writers; "+
				"a write naming a label, milestone, type or assignee the repository lacks is refused by name before anything is written "+
				"(label_not_found and its peers, with the closest names)\n",
			"- every failure is a JSON envelope with a stable code and a literal repair call; writes say whether they happened (settlement)\n",
			"- expected_version on updates refuses to overwrite a newer state; idempotency_key makes create and comment safe to repeat for 10 minutes\n",
			"- a pull request's number works where GitHub's Issues API takes one (read, comment, labels, assignees, milestone, state, title, body)\n")
	}
	if served(toolkit.NameListRepoMetadata) {
		s.Does = append(s.Does, "- "+toolkit.NameListRepoMetadata+" kind repositories (no repo) lists an owner's repositories the credential can see: "+
			"archived, visibility, has_issues, open_issues (pull requests not counted), default_branch\n")
	}
	if served(toolkit.NameGetOverview) {
		s.Does = append(s.Does, "- "+toolkit.NameGetOverview+" orients in an unseen repository in one call (at most 5 upstream requests, each listed): "+
			"open issue and pull request counts, labels with open-issue counts, open milestones with progress, issue types, templates, "+
			"the newest and most-commented open issues, and the credential's permission there; a section it cannot read "+
			"(templates without the contents permission, say) is left out and named in partial_success.unread with its error code "+
			"and required_scopes, and the call fails only when nothing could be read\n")
	}
	if served(toolkit.NameBulkUpdateIssues) {
		s.Does = append(s.Does, "- bulk edits: github_bulk_update_issues makes one edit (labels, assignees, milestone, state, type) to up to 50 issues "+
			"named by number; every name is checked before any write, each issue settles applied, no_op, failed or not_started, "+
			"and retry is the literal call for the rest\n")
	} else {
		s.DoesNot = append(s.DoesNot, "bulk edits")
	}
	s.Does = append(s.Does, searchRouting,
		"- issue text comes back intact, with hidden characters and HTML comments removed and counted (sanitized)\n",
		"- a body over 8,000 characters comes cut, its body_window {shown_from, shown_to, total, next}: next is get_issue's body_cursor "+
			"for the following window; get_issue comment_id reads that one comment (comment, beside the issue at summary); "+
			"list_issue_items' comments take since (date or RFC 3339: updated at or after)\n")
	return s
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
