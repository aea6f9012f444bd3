// Package issueview holds the shapes an issue and its comments take in
// ghgate's answers (github_get_issue, the listings, the writes' answers)
// and in the files of a local mirror, which keep what github_get_issue
// shows. The tools that render them live in internal/tools/issues.
package issueview

import (
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// BodyWindow says which part of a body longer than one window a read
// returned; a body that fits has none.
type BodyWindow struct {
	ShownFrom int    `json:"shown_from" jsonschema:"first character shown, counted from 0"`
	ShownTo   int    `json:"shown_to" jsonschema:"one past the last character shown"`
	Total     int    `json:"total" jsonschema:"characters in the whole body"`
	Next      string `json:"next,omitempty" jsonschema:"the next window: pass as body_cursor to github_get_issue with the same owner, repo and issue_number; valid 15 minutes"`
}

// Comment is an issue comment as agents see it.
type Comment struct {
	ID        int64             `json:"id"`
	Author    string            `json:"author"`
	Body      string            `json:"body,omitempty"`
	CreatedAt string            `json:"created_at"`
	Edited    bool              `json:"edited,omitempty"`
	Sanitized *contract.Removed `json:"sanitized,omitempty"`
	// Withheld stands for the body where lockdown withheld it.
	Withheld *toolkit.WithheldText `json:"withheld_untrusted,omitempty" jsonschema:"lockdown withheld the body"`
	// BodyWindow says where a body longer than one window was cut (reads
	// only: mirror files and the answers to writes hold bodies whole).
	BodyWindow *BodyWindow `json:"body_window,omitempty" jsonschema:"the body is cut to this window"`
	// Association is the author's author_association, kept in mirror
	// files only (see Issue.Association).
	Association string `json:"association,omitempty" jsonschema:"mirror files only"`
}

// Relations summarizes an issue's links.
type Relations struct {
	Parent *IssueRef `json:"parent,omitempty"`
	// "count": a name alone could read as the list of sub-issues.
	SubIssues     int    `json:"sub_issues,omitempty" jsonschema:"count"`
	SubIssuesDone int    `json:"sub_issues_completed,omitempty"`
	BlockedBy     *Count `json:"blocked_by,omitempty" jsonschema:"issues blocking this one"`
	Blocking      *Count `json:"blocking,omitempty" jsonschema:"issues this one blocks"`
}

// Count counts an issue's dependencies: open ones still block, closed ones
// no longer do. Named fields say which is which without a description.
type Count struct {
	Open  int `json:"open"`
	Total int `json:"total"`
}

// IssueRef points at an issue, possibly in another repository.
type IssueRef struct {
	Number int    `json:"number"`
	Repo   string `json:"repo,omitempty" jsonschema:"owner/name when not the same repository"`
}

// Issue is an issue as agents see it. Summary fields come first; the rest
// appear with detail "full" (and always from github_get_issue). The triage
// state (labels, assignees, milestone) is always present, as [] or null
// when empty: an absent field would read as "not included", not "none".
type Issue struct {
	Number    int           `json:"number"`
	Title     string        `json:"title"`
	State     string        `json:"state" jsonschema:"open or closed"`
	Labels    []string      `json:"labels"`
	Assignees []string      `json:"assignees"`
	Milestone *MilestoneRef `json:"milestone"`
	Type      string        `json:"type,omitempty" jsonschema:"issue type name"`
	Comments  int           `json:"comments,omitempty" jsonschema:"comment count"`
	Updated   string        `json:"updated,omitempty" jsonschema:"last update, YYYY-MM-DD"`
	Repo      string        `json:"repo,omitempty" jsonschema:"owner/name, when a listing spans repositories"`
	IsPR      bool          `json:"is_pr,omitempty" jsonschema:"true for a pull request"`
	// TitleSanitized counts the hidden characters removed from the title.
	TitleSanitized *contract.Removed `json:"title_sanitized,omitempty" jsonschema:"hidden characters removed from the title"`

	// Full detail.
	Body        string            `json:"body,omitempty" jsonschema:"Markdown, sanitized: see sanitized"`
	Author      string            `json:"author,omitempty"`
	StateReason string            `json:"state_reason,omitempty"`
	Parent      *IssueRef         `json:"parent,omitempty" jsonschema:"linked by parent_issue_number"`
	Locked      bool              `json:"locked,omitempty"`
	LockReason  string            `json:"lock_reason,omitempty"`
	CreatedAt   string            `json:"created_at,omitempty"`
	UpdatedAt   string            `json:"updated_at,omitempty"`
	ClosedAt    string            `json:"closed_at,omitempty"`
	URL         string            `json:"url,omitempty" jsonschema:"web address"`
	Version     string            `json:"version,omitempty" jsonschema:"pass as expected_version to update only this state"`
	Sanitized   *contract.Removed `json:"sanitized,omitempty" jsonschema:"hidden characters and HTML comments removed from the body"`
	// BodyWindow says where a body longer than one window was cut
	// (github_get_issue only).
	BodyWindow *BodyWindow `json:"body_window,omitempty" jsonschema:"the body is cut to this window"`
	// WithheldUntrusted is set where lockdown withheld the body (body
	// left out) or comments of the same answer.
	WithheldUntrusted *toolkit.Withheld `json:"withheld_untrusted,omitempty" jsonschema:"text by authors without push access, withheld (lockdown)"`
	// Association is the author's author_association, kept in mirror
	// files only: a read of the mirror decides lockdown by it.
	Association string `json:"association,omitempty" jsonschema:"mirror files only"`
}

// MilestoneRef names a milestone.
type MilestoneRef struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}
