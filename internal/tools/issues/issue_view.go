package issues

import (
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/core"
	gh "github.com/google/go-github/v88/github"
)

// Detail selects how much of each item a tool returns. "summary" is a
// strict subset of "full" and never changes the number of rows.
type Detail string

const (
	Summary Detail = "summary"
	Full    Detail = "full"
)

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
	WithheldUntrusted *core.Withheld `json:"withheld_untrusted,omitempty" jsonschema:"text by authors without push access, withheld (lockdown)"`
	// Association is the author's author_association, kept in mirror
	// files only: a read of the mirror decides lockdown by it.
	Association string `json:"association,omitempty" jsonschema:"mirror files only"`
}

// triageState is the Keep list of a tool whose output holds issues at
// prefix ("issue", "items[]"): their triage state is written even when
// empty (see Issue).
func triageState(prefix string) []string {
	return []string{prefix + ".labels", prefix + ".assignees", prefix + ".milestone"}
}

// MilestoneRef names a milestone.
type MilestoneRef struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// editableState is the canonical form a version hashes: everything an
// update can change, with sets sorted so order never matters.
type editableState struct {
	Title       string   `json:"title"`
	Body        string   `json:"body"`
	State       string   `json:"state"`
	StateReason string   `json:"state_reason"`
	Labels      []string `json:"labels"`
	Assignees   []string `json:"assignees"`
	Milestone   int      `json:"milestone"`
	Type        string   `json:"type"`
	Locked      bool     `json:"locked"`
}

// IssueVersion is the version token of an issue's editable state.
func IssueVersion(is *gh.Issue) string {
	st := editableState{Title: is.GetTitle(), Body: is.GetBody(), State: is.GetState(), StateReason: is.GetStateReason(),
		Labels: labelNames(is), Assignees: assigneeLogins(is), Locked: is.GetLocked()}
	for i := range st.Labels {
		st.Labels[i] = strings.ToLower(st.Labels[i])
	}
	slices.Sort(st.Labels)
	slices.Sort(st.Assignees)
	if is.Milestone != nil {
		st.Milestone = is.Milestone.GetNumber()
	}
	if is.Type != nil {
		st.Type = is.Type.GetName()
	}
	return contract.Version(st)
}

func labelNames(is *gh.Issue) []string {
	out := make([]string, 0, len(is.Labels))
	for _, l := range is.Labels {
		out = append(out, l.GetName())
	}
	return out
}

func assigneeLogins(is *gh.Issue) []string {
	out := make([]string, 0, len(is.Assignees))
	for _, a := range is.Assignees {
		out = append(out, a.GetLogin())
	}
	return out
}

func day(t gh.Timestamp) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

func stamp(t *gh.Timestamp) string {
	if t == nil || t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// repoOf reads "owner/name" from an issue's repository_url.
func repoOf(is *gh.Issue) string {
	u := is.GetRepositoryURL()
	i := strings.LastIndex(u, "/repos/")
	if i < 0 {
		return ""
	}
	return u[i+len("/repos/"):]
}

// issueView renders an issue at a detail level, its body as it is: for
// the answer to the agent's own write. withRepo adds the repository for
// listings that span several. Reads render through views, which apply
// lockdown.
func issueView(is *gh.Issue, detail Detail, withRepo bool) Issue {
	v := Issue{Number: is.GetNumber(), Title: is.GetTitle(), State: is.GetState(), Labels: labelNames(is),
		Assignees: assigneeLogins(is), Comments: is.GetComments(), Updated: day(is.GetUpdatedAt()),
		IsPR: is.IsPullRequest()}
	if withRepo {
		v.Repo = repoOf(is)
	}
	title, removed := contract.SanitizeText(v.Title)
	v.Title = title
	if removed.Any() {
		v.TitleSanitized = &removed
	}
	if m := is.Milestone; m != nil {
		v.Milestone = &MilestoneRef{Number: m.GetNumber(), Title: m.GetTitle()}
	}
	if is.Type != nil {
		v.Type = is.Type.GetName()
	}
	if detail != Full {
		return v
	}
	body, removedBody := contract.Sanitize(is.GetBody())
	v.Body = body
	if removedBody.Any() {
		v.Sanitized = &removedBody
	}
	v.Author = is.GetUser().GetLogin()
	v.StateReason = is.GetStateReason()
	v.Locked = is.GetLocked()
	v.LockReason = is.GetActiveLockReason()
	v.CreatedAt = stamp(is.CreatedAt)
	v.UpdatedAt = stamp(is.UpdatedAt)
	v.ClosedAt = stamp(is.ClosedAt)
	v.URL = is.GetHTMLURL()
	v.Version = IssueVersion(is)
	return v
}
