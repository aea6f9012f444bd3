package issues

import (
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	gh "github.com/google/go-github/v88/github"
)

// Detail selects how much of each item a tool returns. "summary" is a
// strict subset of "full" and never changes the number of rows.
type Detail string

const (
	Summary Detail = "summary"
	Full    Detail = "full"
)

// triageState is the Keep list of a tool whose output holds issues at
// prefix ("issue", "items[]"): their triage state is written even when
// empty (see Issue).
func triageState(prefix string) []string {
	return []string{prefix + ".labels", prefix + ".assignees", prefix + ".milestone"}
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
func IssueVersion(is *gh.Issue) string { return rowVersion(github.IssueRowOf(is)) }

// rowVersion is [IssueVersion] of an issue read as a row.
func rowVersion(r *github.IssueRow) string {
	st := editableState{Title: r.Title, Body: r.Body, State: r.State, StateReason: r.StateReason,
		Labels: rowLabels(r), Assignees: rowAssignees(r), Locked: r.Locked}
	for i := range st.Labels {
		st.Labels[i] = strings.ToLower(st.Labels[i])
	}
	slices.Sort(st.Labels)
	slices.Sort(st.Assignees)
	if r.Milestone != nil {
		st.Milestone = r.Milestone.Number
	}
	if r.Type != nil {
		st.Type = r.Type.Name
	}
	return contract.Version(st)
}

func rowLabels(r *github.IssueRow) []string {
	out := make([]string, 0, len(r.Labels))
	for _, l := range r.Labels {
		out = append(out, l.Name)
	}
	return out
}

func rowAssignees(r *github.IssueRow) []string {
	out := make([]string, 0, len(r.Assignees))
	for _, a := range r.Assignees {
		out = append(out, a.Login)
	}
	return out
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

func day(t gh.Timestamp) string { return dayOf(t.Time) }

func dayOf(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

func stamp(t *gh.Timestamp) string {
	if t == nil {
		return ""
	}
	return stampOf(t.Time)
}

func stampOf(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// repoOf reads "owner/name" from an issue's repository_url.
func repoOf(is *gh.Issue) string { return repoOfURL(is.GetRepositoryURL()) }

// repoOfURL reads "owner/name" from a repository_url ("" when it names
// none).
func repoOfURL(u string) string {
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
func issueView(is *github.IssueRow, detail Detail, withRepo bool) issueview.Issue {
	v := issueview.Issue{Number: is.Number, Title: is.Title, State: is.State, Labels: rowLabels(is),
		Assignees: rowAssignees(is), Comments: is.Comments, Updated: dayOf(is.UpdatedAt),
		IsPR: is.IsPullRequest()}
	if withRepo {
		v.Repo = repoOfURL(is.RepositoryURL)
	}
	title, removed := contract.SanitizeText(v.Title)
	v.Title = title
	if removed.Any() {
		v.TitleSanitized = &removed
	}
	if m := is.Milestone; m != nil {
		v.Milestone = &issueview.MilestoneRef{Number: m.Number, Title: m.Title}
	}
	if is.Type != nil {
		v.Type = is.Type.Name
	}
	if detail != Full {
		return v
	}
	body, removedBody := contract.Sanitize(is.Body)
	v.Body = body
	if removedBody.Any() {
		v.Sanitized = &removedBody
	}
	v.Author = is.User.Login
	v.StateReason = is.StateReason
	v.Locked = is.Locked
	v.LockReason = is.ActiveLockReason
	v.CreatedAt = stampOf(is.CreatedAt)
	v.UpdatedAt = stampOf(is.UpdatedAt)
	v.ClosedAt = stampOf(is.ClosedAt)
	v.URL = is.HTMLURL
	v.Version = rowVersion(is)
	return v
}
