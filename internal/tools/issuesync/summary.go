package issuesync

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the sync toolset's part of the capability summary.
func Summarize(served toolkit.Served) toolkit.Summary {
	if !served(toolkit.NameSyncIssues) {
		return toolkit.Summary{}
	}
	return toolkit.Summary{Does: []string{"- sync toolset: mirror a repository's issues to local JSON files (NUMBER-SLUG.json) under the operator's sync_root; " +
		"an unchanged repository costs one request answered 304; github_get_issue source mirror reads a file back with mirror_age_s " +
		"(sync_not_configured where sync_root is not set)\n"}}
}
