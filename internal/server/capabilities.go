package server

import (
	"strings"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// capabilities is the capability summary, ghgate://capabilities: what
// ghgate does and what it does not, so agents do not go looking for tools
// that are not here. The instructions (see instructions) carry only what
// an agent needs before its first call, and point here for the rest.
func capabilities(specs []tooldef.Spec, extra []string, readOnly bool, resources []string, lockdown string) string {
	var b strings.Builder
	b.WriteString("ghgate: GitHub issues for agents.\n\nDoes:\n")
	served := map[string]bool{}
	for _, s := range specs {
		served[s.ToolName()] = true
	}
	summary := tools.Summary(func(name string) bool { return served[name] }, readOnly)
	for _, line := range summary.Does {
		b.WriteString(line)
	}
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
	if served[toolkit.NameReportCIStatus] {
		actions = "Actions beyond reading CI" // re-runs, cancels, workflows
	}
	if served[toolkit.NameUpdateReviewThread] {
		b.WriteString("- pull request reviews other than their threads, code, commits, releases, " + actions + " or repository settings\n")
	} else {
		b.WriteString("- pull request reviews (list_issue_items lists their review_threads; the pull_requests toolset resolves and answers them), " +
			"code, commits, releases, " + actions + " or repository settings\n")
	}
	b.WriteString("- " + strings.Join(summary.DoesNot, ", ") + "\n")
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
	b.WriteString("Cache hints: " + errorsURI + " and " + schemasURI + " are public, ttlMs 86400000 " +
		"(they change only with ghgate's version and toolsets); " + capabilitiesURI + " is public, ttlMs 300000 " +
		"(it names tools added while sessions run, and the fingerprint); issues, comments, the issue index and labels are " +
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
