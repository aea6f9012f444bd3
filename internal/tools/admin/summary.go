package admin

import "github.com/ghgate/ghgate/internal/tools/toolkit"

// Summarize is the admin toolset's part of the capability summary.
func Summarize(served toolkit.Served) toolkit.Summary {
	if served(toolkit.NameManageLabels) || served(toolkit.NameManageMilestones) || served(toolkit.NameDeleteIssue) {
		return toolkit.Summary{Does: []string{"- admin toolset: create, update and delete a repository's labels and milestones (create refuses a name taken ignoring case, " +
			"with label_exists or milestone_exists; an action already done is a no_op); delete an issue for good (admins only, " +
			"confirm_issue_number must repeat issue_number; pull requests are refused)\n"}}
	}
	return toolkit.Summary{DoesNot: []string{"delete issues, create or edit a repository's labels and milestones (create_missing on an update is the one exception; the admin toolset does them)"}}
}
