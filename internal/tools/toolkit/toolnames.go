package toolkit

// The names tools are served under. Repairs name the tool to call next;
// the constants keep a rename from leaving a repair pointing at a tool
// that no longer exists.
const (
	NameSearchIssues     = "github_search_issues"
	NameGetIssue         = "github_get_issue"
	NameCreateIssue      = "github_create_issue"
	NameUpdateIssue      = "github_update_issue"
	NameAddComment       = "github_add_comment"
	NameEditComment      = "github_edit_comment"
	NameListIssueItems   = "github_list_issue_items"
	NameListRepoMetadata = "github_list_repo_metadata"
	NameLinkIssues       = "github_link_issues"
	NameBulkUpdateIssues = "github_bulk_update_issues"
	NameGetOverview      = "github_get_overview"

	NameManageLabels     = "github_manage_labels"
	NameManageMilestones = "github_manage_milestones"
	NameDeleteIssue      = "github_delete_issue"

	NameSyncIssues           = "github_sync_issues"
	NameUpdateReviewThread   = "github_update_review_thread"
	NameReportUnlabeled      = "github_report_unlabeled"
	NameReportSecurityAlerts = "github_report_security_alerts"
	NameReportReleasePRs     = "github_report_release_prs"
	NameReportCIStatus       = "github_report_ci_status"
)
