package graphql

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// issueFilters is GitHub's IssueFilters input, the filterBy argument of
// Repository.issues. Fields whose null means something ("no assignee",
// "no milestone") keep whether they were given at all: a variable the
// client did not provide leaves its field unset, which filters nothing.
type issueFilters struct {
	Assignee         wire.Optional[string] `json:"assignee"`
	CreatedBy        *string               `json:"createdBy"`
	Labels           []string              `json:"labels"`
	Mentioned        *string               `json:"mentioned"`
	Milestone        wire.Optional[string] `json:"milestone"`
	MilestoneNumber  wire.Optional[string] `json:"milestoneNumber"`
	Since            *time.Time            `json:"since"`
	States           []string              `json:"states"`
	ViewerSubscribed bool                  `json:"viewerSubscribed"`
	// IssueFieldValues must all hold (issue_fields.go).
	IssueFieldValues []issueFieldValueFilter `json:"issueFieldValues"`
}

// issueListArgs are the arguments of Repository.issues: those it shares
// with pullRequests, and filterBy.
type issueListArgs struct {
	issuesArgs
	FilterBy *issueFilters `json:"filterBy"`
}

// errViewerSubscribed refuses viewerSubscribed: true. The emulator keeps
// no thread subscriptions, so it cannot say which issues the viewer is
// subscribed to, and a list that ignored the filter would be wrong.
var errViewerSubscribed = &gqlError{Message: "filterBy.viewerSubscribed is not served: the emulator keeps no subscriptions"}

// match reports whether an issue passes every filter given, as
// IssueFilters describes them: logins compare case-insensitively, all
// the labels named must be on the issue, milestone names a milestone by
// database id and milestoneNumber by number (each also takes "*" for any
// milestone and null for none), since compares with the last update.
func (f *issueFilters) match(is *state.Issue) bool {
	if f.Assignee.Set {
		switch {
		case f.Assignee.Null:
			if len(is.Assignees) > 0 {
				return false
			}
		case f.Assignee.Value == "*":
			if len(is.Assignees) == 0 {
				return false
			}
		case !slices.ContainsFunc(is.Assignees, func(a *state.Account) bool { return strings.EqualFold(a.Login, f.Assignee.Value) }):
			return false
		}
	}
	if f.CreatedBy != nil && !strings.EqualFold(is.User.Login, *f.CreatedBy) {
		return false
	}
	for _, want := range f.Labels {
		if !slices.ContainsFunc(is.Labels, func(l *state.Label) bool { return strings.EqualFold(l.Name, want) }) {
			return false
		}
	}
	if f.Mentioned != nil && !state.MentionsUser(is, *f.Mentioned) {
		return false
	}
	byID := func(m *state.Milestone, v string) bool { return strconv.FormatInt(m.ID, 10) == v }
	byNumber := func(m *state.Milestone, v string) bool { return strconv.Itoa(m.Number) == v }
	if !matchMilestone(is, f.Milestone, byID) || !matchMilestone(is, f.MilestoneNumber, byNumber) {
		return false
	}
	if f.Since != nil && is.UpdatedAt.Before(*f.Since) {
		return false
	}
	if len(f.States) > 0 && !slices.Contains(f.States, state.EnumValue(is.State)) {
		return false
	}
	for _, v := range f.IssueFieldValues {
		if !v.match(is) {
			return false
		}
	}
	return true
}

// matchMilestone applies one of the two milestone filters; same says
// whether a milestone is the one a string names.
func matchMilestone(is *state.Issue, o wire.Optional[string], same func(*state.Milestone, string) bool) bool {
	switch {
	case !o.Set:
		return true
	case o.Null:
		return is.Milestone == nil
	case o.Value == "*":
		return is.Milestone != nil
	}
	return is.Milestone != nil && same(is.Milestone, o.Value)
}
