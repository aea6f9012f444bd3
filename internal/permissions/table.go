package permissions

// The permissions GitHub names for what ghgate's tools touch.
const (
	issues         = "issues"
	pullRequests   = "pull_requests"
	contents       = "contents"
	orgProjects    = "organization_projects"
	administration = "administration"
	actions        = "actions"
	checks         = "checks"
	statuses       = "statuses"
	codeScanning   = "security_events"
	dependabot     = "vulnerability_alerts"
	secretScanning = "secret_scanning_alerts"
)

// Projects v2: GitHub names the permission organization_projects, and an
// installation token can reach only organization-owned boards (GitHub
// offers no permission for a user's board), so user boards stay out of
// an App route's reach whatever is minted.

// What creating or changing an issue can touch: the issue itself (state,
// labels, assignees, milestone, type, lock, relations) and the
// organization board it is placed on.
var (
	issueReads  = Set{issues: Read, orgProjects: Read}
	issueWrites = Set{issues: Write, orgProjects: Write}
)

// table is every tool's row, keyed by the name it is served under.
var table = map[string]row{
	// Search issues (GET /search/issues) and, scoped to one repository,
	// GET /repos/{o}/{r}/issues. include_prs returns pull requests,
	// which need pull_requests to be seen in a private repository.
	"github_search_issues": {reads: Set{issues: Read, pullRequests: Read}},
	// GET issue and its comments (issues), GET repo (metadata).
	"github_get_issue": {reads: Set{issues: Read}},
	// POST issue, labels and sub-issue links (issues); GET /user and the
	// creator's recent issues when a retried key recovers; placement on
	// a board (organization_projects).
	"github_create_issue": {reads: issueReads, writes: issueWrites},
	// PATCH issue, labels, assignees, lock; closeIssue as a duplicate
	// (GraphQL); board fields.
	"github_update_issue":       {reads: issueReads, writes: issueWrites},
	"github_bulk_update_issues": {reads: issueReads, writes: issueWrites},
	// POST/PATCH/DELETE issue comments: issues (GitHub also accepts
	// pull_requests on a pull request's conversation).
	"github_add_comment":  {reads: Set{issues: Read}, writes: Set{issues: Write}},
	"github_edit_comment": {reads: Set{issues: Read}, writes: Set{issues: Write}},
	// Comments, timeline, sub-issues, dependencies and related issues
	// (issues); a pull request's review threads and the pull requests that
	// close the issue (pull_requests); linked branches, which are refs
	// (contents).
	"github_list_issue_items": {reads: Set{issues: Read, pullRequests: Read, contents: Read}},
	// Labels, milestones, assignees, issue types (issues); issue
	// templates and the contributing guide from .github (contents).
	"github_list_repo_metadata": {reads: Set{issues: Read, contents: Read}},
	// Sub-issues, blocked-by dependencies and related issues.
	"github_link_issues": {reads: Set{issues: Read}, writes: Set{issues: Write}},
	// One GraphQL query counting issues and pull requests, and the
	// templates read through contents.
	"github_get_overview": {reads: Set{issues: Read, pullRequests: Read, contents: Read}},

	// Repository labels and milestones are issues' (GitHub also accepts
	// pull_requests).
	"github_manage_labels":     {reads: Set{issues: Read}, writes: Set{issues: Write}},
	"github_manage_milestones": {reads: Set{issues: Read}, writes: Set{issues: Write}},
	// deleteIssue (GraphQL): GitHub lets only a repository's admins delete
	// issues, and an App is one only through administration: write.
	"github_delete_issue": {reads: Set{issues: Read}, writes: Set{issues: Write, administration: Write}},

	// Boards and their items; an item's content is an issue or a pull
	// request, read with it.
	"github_list_projects":       {reads: Set{orgProjects: Read}},
	"github_list_project_items":  {reads: Set{orgProjects: Read, issues: Read, pullRequests: Read}},
	"github_get_project_item":    {reads: Set{orgProjects: Read, issues: Read, pullRequests: Read}},
	"github_update_project_item": {reads: Set{orgProjects: Read, issues: Read, pullRequests: Read}, writes: Set{orgProjects: Write}},

	// Review threads: resolve, unresolve and reply (GraphQL).
	"github_update_review_thread": {reads: Set{pullRequests: Read}, writes: Set{pullRequests: Write}},

	// Open issues and pull requests across the owner's repositories
	// (repository lists are metadata).
	"github_report_unlabeled": {reads: Set{issues: Read, pullRequests: Read}},
	// Dependabot (vulnerability_alerts), code scanning (security_events)
	// and secret scanning alerts, by repository or organization.
	"github_report_security_alerts": {reads: Set{dependabot: Read, codeScanning: Read, secretScanning: Read}},
	// Release pull requests (search and GET), their changelog files and
	// README at the head, and the releases (contents).
	"github_report_release_prs": {reads: Set{pullRequests: Read, contents: Read}},
	// Pull requests' status check rollups: check runs (checks), commit
	// statuses (statuses), and failing jobs and their logs (actions).
	"github_report_ci_status": {reads: Set{pullRequests: Read, checks: Read, statuses: Read, actions: Read}},

	// Issues changed since the last sync, and their comments.
	"github_sync_issues": {reads: Set{issues: Read}},
}
