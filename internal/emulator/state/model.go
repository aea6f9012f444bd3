package state

import (
	"strings"
	"time"
)

// Permission is a token's access level on one repository, as GitHub's
// collaborator permissions name them. The order matters: a higher level
// includes every lower one.
type Permission int

const (
	PermNone Permission = iota
	PermRead
	PermTriage
	PermWrite
	PermAdmin
)

func (p Permission) String() string {
	switch p {
	case PermRead:
		return "read"
	case PermTriage:
		return "triage"
	case PermWrite:
		return "write"
	case PermAdmin:
		return "admin"
	}
	return "none"
}

// Account is a user, an organization or a GitHub App's bot.
type Account struct {
	ID     int64
	NodeID string
	Login  string
	Name   string
	IsOrg  bool
	// IsBot marks a GitHub App's bot account ("<slug>[bot]"): typed "Bot"
	// in REST user objects and a Bot in GraphQL.
	IsBot     bool
	CreatedAt time.Time
	// Inbox is what the user did with their notification threads, by
	// thread id (notifications.go); nil until they read or dismiss one.
	Inbox map[int64]*ThreadMark
	// Watching are the user's repository subscriptions by repository id
	// (subscriptions.go): watching or ignoring it.
	Watching map[int64]*Subscription
}

// botSuffix ends the login of a GitHub App's bot account.
const botSuffix = "[bot]"

// AppSlug is the slug of the App whose bot account a is: its login without
// "[bot]", which is also the login GraphQL reports for it.
func (a *Account) AppSlug() string { return strings.TrimSuffix(a.Login, botSuffix) }

// Token is a credential the emulator accepts: who it acts as and what it may
// do per repository ("owner/name"). Repositories not listed fall back to
// [PermRead] for public ones and [PermNone] for private ones.
type Token struct {
	Value string
	Login string
	Perms map[string]Permission
	// ExpiresAt, when set, makes the token invalid (401) after that moment,
	// as a GitHub App installation token is.
	ExpiresAt time.Time
	// Scopes are a classic token's OAuth scopes, which GitHub reports in
	// the X-OAuth-Scopes header of every answer to it. Tokens without
	// scopes (GitHub App installation tokens) get no such header.
	Scopes []string
	// FineGrained marks a fine-grained personal access token
	// (github_pat_...): no OAuth scopes, and no way to reach projects
	// owned by a user, which such tokens cannot be granted.
	FineGrained bool
	// Grants are a fine-grained token's repository permissions
	// ("issues": "write"), which GitHub holds its every request to as it
	// holds an installation token's (the REST and GraphQL gates). Nil
	// grants everything: a fine-grained token a test does not narrow.
	Grants AppPermissions
	// App is set on a GitHub App installation token: what it was minted
	// with. Every request made with it is held to its permissions and
	// repositories (the emulator's REST and GraphQL gates).
	App *InstallationGrant
}

// HasScope reports whether a classic token carries scope or one that
// includes it (project includes read:project, repo includes its
// sub-scopes). Tokens without OAuth scopes (fine-grained, App
// installation) are not limited by scopes.
func (t *Token) HasScope(scope string) bool {
	if len(t.Scopes) == 0 {
		return true
	}
	for _, s := range t.Scopes {
		if s == scope || (scope == "read:project" && s == "project") {
			return true
		}
	}
	return false
}

// Repo is a repository and everything the emulator keeps inside it.
type Repo struct {
	ID          int64
	NodeID      string
	Owner       *Account
	Name        string
	Description string
	Private     bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
	// IssuesDisabled turns the repository's issues off (Settings >
	// Features): REST's has_issues and GraphQL's hasIssuesEnabled say so.
	// The issue endpoints still answer: what GitHub answers them then is
	// not modelled (its OpenAPI description gives 410 to some and not to
	// others).
	IssuesDisabled bool

	Issues        []*Issue // index i holds issue number i+1
	Labels        []*Label
	Milestones    []*Milestone
	nextMilestone int
	// Files holds repository contents by path: the default branch's tree
	// once the repository has git data (Git).
	Files map[string]string
	// Collaborators are the logins that can be assigned.
	Collaborators []string
	// Git is the repository's branches and commits (git_objects.go), nil
	// until EnsureGit.
	Git *GitRepo
	// Parent is the repository this one is a fork of, nil if none.
	Parent *Repo
	// Releases are the releases, drafts included, oldest first
	// (releases.go).
	Releases []*Release
	// MarkedLatest is the release a write marked latest (make_latest),
	// nil when "latest" goes by creation date (releases.go).
	MarkedLatest *Release

	// Archived repositories are read-only.
	Archived bool
	// Homepage is the repository's website ("" for none), WikiDisabled
	// turns its wiki off and Topics are its topics, lower case, in the
	// order they were set (repo_writes.go).
	Homepage     string
	WikiDisabled bool
	Topics       []string
	// Security is which security features are on and the alerts they
	// raised (security.go).
	Security RepoSecurity
	// Runs are the repository's Actions workflow runs, oldest first
	// (actions.go).
	Runs []*WorkflowRun
	// WorkflowStates are the workflows disabled or re-enabled by path
	// (workflows.go); a workflow not in it is active.
	WorkflowStates map[string]string
	// Stars are who starred the repository and when, oldest first
	// (stars.go).
	Stars []*Star
}

// Repository settings the emulator does not model are those of a new
// repository on GitHub, answered alike by REST (default_branch, has_*) and
// GraphQL (defaultBranchRef, has*Enabled, *Allowed): wiki and projects
// on, and all three merge methods allowed. Issues are on unless
// Repo.IssuesDisabled. A fork's parent is
// Repo.Parent.
const (
	RepoDefaultBranch = "main"
	RepoHasWiki       = true
	RepoHasProjects   = true
	RepoMergeCommit   = true
	RepoSquashMerge   = true
	RepoRebaseMerge   = true
	RepoHasDownloads  = true
)

// FullName is "owner/name".
func (r *Repo) FullName() string { return r.Owner.Login + "/" + r.Name }

// Label is a repository label.
type Label struct {
	ID          int64
	NodeID      string
	Name        string
	Color       string
	Description *string
	Default     bool
}

// Milestone is a repository milestone.
type Milestone struct {
	ID          int64
	NodeID      string
	Number      int
	Title       string
	Description *string
	State       string // open | closed
	DueOn       *time.Time
	Creator     *Account
	CreatedAt   time.Time
	UpdatedAt   time.Time
	ClosedAt    *time.Time
}

// IssueType is an organization's issue type.
type IssueType struct {
	ID          int64
	NodeID      string
	Name        string
	Description *string
	Color       *string
	IsEnabled   bool
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// Issue is an issue or a pull request (IsPull).
type Issue struct {
	ID               int64
	NodeID           string
	Repo             *Repo
	Number           int
	Title            string
	Body             *string
	State            string  // open | closed
	StateReason      *string // completed | not_planned | duplicate | reopened
	User             *Account
	Labels           []*Label
	Assignees        []*Account
	Milestone        *Milestone
	Type             *IssueType
	Locked           bool
	ActiveLockReason *string
	Pinned           bool // pinned to its repository (GraphQL's isPinned)
	CreatedAt        time.Time
	UpdatedAt        time.Time
	ClosedAt         *time.Time
	ClosedBy         *Account
	IsPull           bool
	Merged           bool
	Deleted          bool
	// MovedTo, on the stand-in left at a transferred issue's old number
	// (transfer.go), is the issue in its new repository. The stand-in is
	// also Deleted, so every listing passes over it.
	MovedTo *Issue

	Comments  []*Comment
	Parent    *Issue
	SubIssues []*Issue // in priority order
	BlockedBy []*Issue
	Blocking  []*Issue
	Related   []*Issue // symmetric: each is in the other's list (related.go)
	// DuplicateOf is the issue this one was marked a duplicate of
	// (closeIssue's duplicateIssueId).
	DuplicateOf *Issue
	Events      []*Event
	Reactions   []*Reaction // in the order given (reactions.go)
	// FieldValues are the issue's values of its organization's issue
	// fields, at most one per field (issue_fields.go).
	FieldValues []*IssueFieldValue

	// Pull is a pull request's branches, reviews and merge (pulls_model.go).
	Pull *PullRequest
	// LinkedBranches are the branches created for the issue from its
	// Development section or `gh issue develop` (linked_branches.go).
	LinkedBranches []*LinkedBranch
}

// Comment is an issue comment.
type Comment struct {
	ID        int64
	NodeID    string
	Issue     *Issue
	User      *Account
	Body      string
	CreatedAt time.Time
	UpdatedAt time.Time
	// LastEditedAt is when the text was last edited, nil if never: an
	// edit is what GitHub's includesCreatedEdit and lastEditedAt report.
	LastEditedAt *time.Time
	Reactions    []*Reaction // in the order given (reactions.go)
}

// Event is one timeline entry, generated by a mutation.
type Event struct {
	ID     int64
	NodeID string
	Event  string // labeled, unlabeled, assigned, unassigned, closed, reopened, renamed, locked, unlocked, pinned, unpinned, milestoned, demilestoned, commented, cross-referenced, sub_issue_added, sub_issue_removed, parent_issue_added, parent_issue_removed, blocked_by_added, blocked_by_removed, blocking_added, blocking_removed, marked_as_duplicate; on pull requests also committed, reviewed, merged, head_ref_force_pushed, head_ref_deleted, ready_for_review, convert_to_draft, review_requested, review_request_removed (pulls_events.go)
	Actor  *Account
	// CreatedAt is when it happened; a committed event's is when its
	// commit reached the pull request, which places it in the timeline.
	CreatedAt time.Time

	Label       *Label // name and color at the time
	Assignee    *Account
	Milestone   string
	RenameFrom  string
	RenameTo    string
	LockReason  *string
	StateReason *string
	Comment     *Comment
	Subject     *Issue // the other issue in a sub-issue or dependency event, the original of a marked_as_duplicate
	Source      *Issue // the mentioning issue or pull request of a cross-referenced event
	FromRepo    *Repo  // the repository a transferred issue left

	Commit   *GitCommit // the commit of a committed event, the merge's commit of a merged one
	Review   *Review    // the review a reviewed event submitted
	Reviewer *Account   // the user asked (or no longer asked) to review
	Team     *Team      // the team asked (or no longer asked) to review
}
