package reports

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the reports toolset's part of the capability summary: a
// line per report served.
func Summarize(served toolkit.Served) toolkit.Summary {
	var does []string
	if served(toolkit.NameReportUnlabeled) {
		does = append(does, "- reports toolset: "+toolkit.NameReportUnlabeled+" lists the issues and pull requests with no label in one repository "+
			"or every repository of an owner, within max_repos, per_repo_limit and max_api_calls; a report that stops early "+
			"returns what it found with truncated_reason and next_call (the literal call that goes on), counts api_calls and conditional_hits "+
			"(304s, which spend no rate budget), sends notifications/progress when the call carries a progress token, and stops at 2% of the "+
			"rate limit (rate_limited)\n",
			"- reports over an owner's repositories (unlabeled, security alerts, release PRs) leave archived ones out unless include_archived "+
				"(absent: false); scanned says which were covered (include_archived, archived_skipped, archived_names: the first 10), "+
				"rows of an archived repository carry archived: true, and a report on a named archived repository says scanned.archived\n")
	}
	if served(toolkit.NameReportSecurityAlerts) {
		does = append(does, "- reports toolset: "+toolkit.NameReportSecurityAlerts+" lists open Dependabot, code scanning and secret scanning alerts "+
			"worst first with by_repo counts and the run's counts per type and severity, from the organization's lists or, where refused, "+
			"each repository's (scope, disabled); Dependabot rows say scope (runtime, development); classify adds each repository's tier "+
			"by the operator's rules with its file and branch signals (one call per repository); secret values are never returned\n")
	}
	if served(toolkit.NameReportReleasePRs) {
		does = append(does, "- reports toolset: "+toolkit.NameReportReleasePRs+" finds open release pull requests (the operator's label, default release) with one search, "+
			"reads the version from the title and looks the changelog up at the head commit (ready, needs_changelog, unknown_version; "+
			"summary counts them over the run) and whether the README's What's new block there names the version; "+
			"analyze adds the PRs open against its base by kind, the entry's freshness against what merged since the previous release, "+
			"and a verdict (done, in_flight, wait, gray, write, update, inspect, doc_version_mismatch) with its reason\n")
	}
	if served(toolkit.NameReportCIStatus) {
		does = append(does, "- reports toolset: "+toolkit.NameReportCIStatus+" says whether each open pull request's CI passed, failed or is pending (cancelled fails, "+
			"neutral and skipped do not), and with verbosity 1-3 each failing job's run, failing step and log tail (credentials redacted); "+
			"a passing pull request costs no call of its own\n")
	}
	return toolkit.Summary{Does: does}
}
