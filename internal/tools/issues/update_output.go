package issues

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// output renders the issue as the writes left it. With the issue read
// first, changed_fields is the difference between before and after; when
// it was not read, it lists the PATCH's fields that GitHub's answer shows
// applied, unless the answer's updated_at (or closed_at, for a close)
// shows the issue already held them (see unchanged and alreadyClosed).
func (u *update) output() UpdateIssueOut {
	after := u.after
	if after == nil {
		after = u.before
	}
	out := UpdateIssueOut{Version: IssueVersion(after), Notes: u.notes, NoOp: len(u.steps) == 0, Labels: u.labels.orNil()}
	if u.before != nil {
		out.ChangedFields = changedFields(u.before, after)
		if u.duplicated {
			// GitHub now links the two issues: a change the fields above do
			// not show.
			out.ChangedFields = append(out.ChangedFields, "duplicate_of")
			out.Notes = append(out.Notes, fmt.Sprintf("GitHub records #%d as a duplicate of %s", u.in.IssueNumber, u.in.originalName()))
		}
	} else {
		applied, ignored := u.confirmed(after)
		if u.alreadyClosed(after) {
			// GitHub applies state_reason only with a change of state: on a
			// closed issue, both stay as they were.
			applied = slices.DeleteFunc(applied, func(f string) bool { return f == "state" || f == "state_reason" })
			ignored = slices.DeleteFunc(ignored, func(f string) bool { return f == "state_reason" })
			out.Notes = append(out.Notes, "the issue was already closed, so its state did not change")
			if r := u.in.StateReason; r != "" && after.GetStateReason() != string(r) {
				out.Notes = append(out.Notes, reasonKept(after.GetStateReason()))
			}
		}
		if len(applied) > 0 && len(ignored) == 0 && u.unchanged(after) {
			applied = nil
			out.Notes = append(out.Notes, "the issue already held these values (GitHub's updated_at did not move)")
		}
		out.NoOp = len(applied) == 0 && len(ignored) == 0 && len(u.steps) == 1
		out.ChangedFields = applied
		if !out.NoOp {
			out.Notes = append(out.Notes, "the issue was not read first: changed_fields lists the fields written")
		}
		if len(ignored) > 0 {
			// GitHub ignores metadata without triage access, and a
			// state_reason on an open issue, without saying so.
			out.Notes = append(out.Notes, "GitHub's answer does not show "+strings.Join(ignored, ", ")+" as asked")
		}
	}
	view := issueView(github.IssueRowOf(after), Full, false)
	// The agent has the body it sent, and the version is above.
	view.Body, view.Sanitized, view.Version = "", nil, ""
	if len(u.steps) > 0 && !u.fromGitHub {
		// The writes changed updated_at, and none of their answers says
		// to what; the time read before them would be wrong.
		view.Updated, view.UpdatedAt = "", ""
	}
	out.Issue = view
	if p := u.placed; p != nil {
		out.Project = p
		if len(u.steps) == 1 && !p.Added && len(p.ChangedFields) == 0 {
			out.NoOp = true
			out.Notes = append(out.Notes, "the issue was already on the board with these values")
		}
	}
	out.RateLimitRemaining = toolkit.LowBudget(u.c, "core")
	return out
}

// beforePatch is a time shown to be earlier than the PATCH: the moment it
// was sent on GitHub's clock (from its Date headers) less a couple of
// seconds for whole-second timestamps, or, before any Date was seen, a
// minute earlier by this host's clock.
func (u *update) beforePatch() time.Time {
	from, _ := recoveryWindow(u.c, u.patchedAt)
	return from
}

// alreadyClosed reports whether an unread close found the issue closed: a
// close sets closed_at to the time it happens, and GitHub leaves it as it
// was when the issue was closed before.
func (u *update) alreadyClosed(after *gh.Issue) bool {
	if u.in.State != "closed" || !slices.Contains(u.patched, "state") || u.patchedAt.IsZero() || after.GetState() != "closed" {
		return false
	}
	at := after.GetClosedAt()
	return !at.IsZero() && at.Before(u.beforePatch())
}

// unchanged reports whether an unread PATCH changed nothing: any change
// moves updated_at to the time it is made, so an answer whose updated_at
// is older than the PATCH shows every field already held its value.
func (u *update) unchanged(after *gh.Issue) bool {
	at := after.GetUpdatedAt()
	return !u.patchedAt.IsZero() && !at.IsZero() && at.Before(u.beforePatch())
}

// issueFields are the editable fields, in the order changed_fields lists them.
var issueFields = []string{"title", "body", "state", "state_reason", "labels", "assignees", "milestone", "type", "locked", "lock_reason"}

// fieldValue reads one editable field in a comparable form (sets are
// lower-cased and sorted, so order and case never count as a change).
func fieldValue(is *gh.Issue, field string) string {
	switch field {
	case "title":
		return is.GetTitle()
	case "body":
		return is.GetBody()
	case "state":
		return is.GetState()
	case "state_reason":
		return is.GetStateReason()
	case "labels":
		return foldSet(labelNames(is))
	case "assignees":
		return foldSet(assigneeLogins(is))
	case "milestone":
		if is.Milestone == nil {
			return ""
		}
		return strconv.Itoa(is.Milestone.GetNumber())
	case "type":
		return strings.ToLower(is.GetType().GetName())
	case "locked":
		if is.GetLocked() {
			return "true"
		}
		return "false"
	case "lock_reason":
		return is.GetActiveLockReason()
	}
	return ""
}

func changedFields(before, after *gh.Issue) []string {
	var out []string
	for _, f := range issueFields {
		if fieldValue(before, f) != fieldValue(after, f) {
			out = append(out, f)
		}
	}
	return out
}

// confirmed splits the PATCH's fields into those GitHub's answer holds as
// asked and those it does not.
func (u *update) confirmed(after *gh.Issue) (applied, ignored []string) {
	in := u.in
	for _, f := range u.patched {
		ok := true
		switch f {
		case "title":
			ok = after.GetTitle() == strings.TrimSpace(*in.Title)
		case "body":
			ok = after.GetBody() == *in.Body
		case "state":
			ok = after.GetState() == string(in.State)
		case "state_reason":
			ok = after.GetStateReason() == string(in.StateReason)
		case "milestone":
			ok = (in.Milestone.Null && after.Milestone == nil) || (!in.Milestone.Null && after.GetMilestone().GetNumber() == in.Milestone.Value)
		case "type":
			ok = (in.Type.Null && after.Type == nil) || (!in.Type.Null && strings.EqualFold(after.GetType().GetName(), strings.TrimSpace(in.Type.Value)))
		case "assignees":
			ok = sameFold(assigneeLogins(after), in.Assignees.Set)
		}
		if ok {
			applied = append(applied, f)
		} else {
			ignored = append(ignored, f)
		}
	}
	return applied, ignored
}

// foldSet is a name set in canonical form: lower-cased, sorted, joined.
func foldSet(names []string) string {
	low := make([]string, len(names))
	for i, n := range names {
		low[i] = strings.ToLower(n)
	}
	slices.Sort(low)
	return strings.Join(low, "\x00")
}
