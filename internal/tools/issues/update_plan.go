package issues

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// update is one github_update_issue call in progress.
type update struct {
	s  *Tools
	c  *github.Client
	in UpdateIssueIn

	// before is the issue as read first; nil when the update did not need
	// to read it (see needsRead).
	before *gh.Issue
	pf     *preflightResult
	// after is the issue as the write responses describe it.
	after *gh.Issue
	steps []step
	notes []string
	// patched names the fields the PATCH carries, for the unread case.
	patched []string
	// patchedAt is when the PATCH was sent, by the client's clock (the one
	// its GitHub clock offset is measured on).
	patchedAt time.Time
	// fromGitHub is true when after is GitHub's answer to the PATCH; label,
	// assignee and lock writes answer with less, and are applied to the
	// copy of what was read.
	fromGitHub bool
	// duplicated is true once closeIssue named the original (duplicateStep).
	duplicated bool
	// placed is what the project step did (see projectStep).
	placed *projects.Placed
	// labels names the labels the plan adds, removes and creates.
	labels *LabelsDone
}

// step is one upstream write. done and todo say what it does for
// details.applied and details.not_applied; remaining adds the step's work
// to a follow-up call that finishes the update when it was not applied.
// request names the request it sends and predict applies its change to a
// copy of the issue: what a dry run shows without sending it.
type step struct {
	done, todo string
	request    string
	run        func(ctx context.Context) error
	remaining  func(f *UpdateIssueIn)
	predict    func(is *gh.Issue)
}

// needsRead decides whether the issue is read before writing.
//
// Upstream calls: the read is one GraphQL request (see preflight) that
// also checks every named label, milestone, type and assignee. It is
// needed for expected_version, the creator scope, labels (edits are diffs
// against the current set, and names must be checked before writing),
// assignee add/remove and locking. An update of plain fields only (title,
// body, state, state_reason, milestone, type, assignees.set) is one PATCH
// with no read: "close as duplicate" costs exactly that. Its
// changed_fields then list the fields written (GitHub's answer cannot say
// what they held before), and a bad milestone, type or assignee is mapped
// from GitHub's 422 instead of being checked first.
func (u *update) needsRead() bool {
	in := u.in
	return in.ExpectedVersion != "" || u.s.AllowedIssueCreator != "" || in.Labels != nil || in.Locked != nil || in.DuplicateOf != 0 ||
		(in.Assignees != nil && in.Assignees.Set == nil) || !in.patchFields()
}

func (u *update) read(ctx context.Context) error {
	in := u.in
	pf := preflight{owner: in.Owner, repo: in.Repo, issue: int(in.IssueNumber)}
	in.IssueChanges.lookups(&pf)
	res, err := u.s.preflight(ctx, u.c, pf)
	if err != nil {
		return toolkit.NotStarted(err)
	}
	u.pf, u.before = res, res.issue
	cp := *res.issue
	u.after = &cp
	return nil
}

// lookups adds to pf the names the changes use, so one preflight checks
// them all.
func (in IssueChanges) lookups(pf *preflight) {
	if in.Labels != nil {
		pf.labels = in.Labels.lookups(true)
	}
	if in.Milestone.Set && !in.Milestone.Null {
		pf.milestone = in.Milestone.Value
	}
	pf.types = in.Type.Set && !in.Type.Null
	if a := in.Assignees; a != nil {
		for _, l := range append(append([]string{}, a.Add...), a.Set...) {
			if !containsFold(pf.assignees, l) {
				pf.assignees = append(pf.assignees, strings.TrimSpace(l))
			}
		}
	}
}

// plan turns the request into steps, refusing unknown names first. With
// the issue read, fields that already hold the asked value are left out,
// so a request that changes nothing writes nothing.
func (u *update) plan(ctx context.Context) error {
	in, before := u.in, u.before
	var edit github.IssueEdit
	patch := func(name string) { u.patched = append(u.patched, name) }

	if in.Title != nil {
		if t := strings.TrimSpace(*in.Title); before == nil || before.GetTitle() != t {
			edit.Title = &t
			patch("title")
		}
	}
	if in.Body != nil && (before == nil || before.GetBody() != *in.Body) {
		edit.Body = in.Body
		patch("body")
	}
	target := in.State
	if target == "" && before != nil {
		target = IssueState(before.GetState())
	}
	stateDiff := in.State != "" && (before == nil || before.GetState() != string(in.State))
	reasonDiff := in.StateReason != "" && (before == nil || (target == "closed" && before.GetStateReason() != string(in.StateReason)))
	if reasonDiff && !stateDiff && before != nil {
		// GitHub applies a state_reason only with a change of state.
		reasonDiff = false
		u.notes = append(u.notes, reasonKept(before.GetStateReason()))
	}
	if in.DuplicateOf != 0 {
		// closeIssue closes it and names the original (duplicateStep).
		stateDiff, reasonDiff = false, false
	}
	if stateDiff || reasonDiff {
		if in.State != "" {
			edit.State = ptr(string(in.State))
			patch("state")
		}
		if in.StateReason != "" {
			edit.StateReason = ptr(string(in.StateReason))
			patch("state_reason")
		}
	}
	if err := u.planMilestoneAndType(&edit, patch); err != nil {
		return err
	}
	if a := in.Assignees; a != nil && a.Set != nil {
		set, err := u.assignable(a.Set, "assignees.set")
		if err != nil {
			return err
		}
		if before == nil || !sameFold(set, assigneeLogins(before)) {
			edit.Assignees = &set
			patch("assignees")
		}
	}
	var lp labelPlan
	if in.Labels != nil {
		lp = planLabels(in.Labels, labelNames(before), u.pf.labels)
		if len(lp.unknown) > 0 {
			return unknownLabels(ctx, u.c, in.Owner, in.Repo, "labels", lp.unknown, true)
		}
		if len(lp.unknownRemoved) > 0 {
			return unknownLabels(ctx, u.c, in.Owner, in.Repo, "labels.remove", lp.unknownRemoved, false)
		}
		u.notes = append(u.notes, lp.notes...)
		u.labels = lp.done(labelNames(before))
		if lp.set != nil {
			edit.Labels = lp.set
			patch("labels")
		}
	}
	addAssignees, removeAssignees, err := u.planAssignees()
	if err != nil {
		return err
	}

	for _, name := range lp.create {
		u.steps = append(u.steps, u.createLabelStep(name))
	}
	if len(u.patched) > 0 {
		u.steps = append(u.steps, u.patchStep(edit))
	}
	if in.DuplicateOf != 0 {
		u.steps = append(u.steps, u.duplicateStep())
	}
	if len(lp.add) > 0 {
		u.steps = append(u.steps, u.addLabelsStep(lp.add))
	}
	for _, name := range lp.remove {
		u.steps = append(u.steps, u.removeLabelStep(name))
	}
	if len(addAssignees) > 0 {
		u.steps = append(u.steps, u.assigneesStep(true, addAssignees))
	}
	if len(removeAssignees) > 0 {
		u.steps = append(u.steps, u.assigneesStep(false, removeAssignees))
	}
	u.planLock()
	if in.Project != nil {
		return u.prepareProject(ctx)
	}
	return nil
}

func (u *update) planMilestoneAndType(edit *github.IssueEdit, patch func(string)) error {
	in, before := u.in, u.before
	if m := in.Milestone; m.Set {
		switch {
		case m.Null:
			if before == nil || before.Milestone != nil {
				edit.ClearMilestone = true
				patch("milestone")
			}
		case u.pf != nil && u.pf.milestone == nil:
			return unknownName(contract.CodeMilestoneNotFound, "milestone", "milestones", in.Owner, in.Repo,
				fmt.Sprintf("milestone %d does not exist in %s/%s", m.Value, in.Owner, in.Repo), nil)
		case before == nil || before.GetMilestone().GetNumber() != m.Value:
			edit.Milestone = ptr(m.Value)
			patch("milestone")
		}
	}
	if t := in.Type; t.Set {
		name := strings.TrimSpace(t.Value)
		switch {
		case t.Null:
			if before == nil || before.Type != nil {
				edit.ClearType = true
				patch("type")
			}
			return nil
		case u.pf != nil:
			spelled, ok := u.pf.types[strings.ToLower(name)]
			if !ok {
				return unknownName(contract.CodeIssueTypeNotFound, "type", "issue_types", in.Owner, in.Repo,
					fmt.Sprintf("issue type %q is not available in %s/%s", name, in.Owner, in.Repo), typeNames(u.pf.types))
			}
			name = spelled
		}
		if before == nil || !strings.EqualFold(before.GetType().GetName(), name) {
			edit.Type = &name
			patch("type")
		}
	}
	return nil
}

// assignable resolves logins to the repository's spelling, refusing one
// that cannot be assigned. Unread, the logins go as given and GitHub's
// 422 says which is wrong.
func (u *update) assignable(logins []string, field string) ([]string, error) {
	out := make([]string, 0, len(logins))
	for _, l := range logins {
		l = strings.TrimSpace(l)
		if u.pf != nil {
			spelled, ok := u.pf.assignable[strings.ToLower(l)]
			if !ok {
				return nil, unknownName(contract.CodeAssigneeNotFound, field, "assignees", u.in.Owner, u.in.Repo,
					fmt.Sprintf("%q cannot be assigned in %s/%s", l, u.in.Owner, u.in.Repo), nil)
			}
			l = spelled
		}
		if !containsFold(out, l) {
			out = append(out, l)
		}
	}
	return out, nil
}

func (u *update) planAssignees() (add, remove []string, err error) {
	a := u.in.Assignees
	if a == nil || a.Set != nil {
		return nil, nil, nil
	}
	current := assigneeLogins(u.before)
	logins, err := u.assignable(a.Add, "assignees.add")
	if err != nil {
		return nil, nil, err
	}
	for _, l := range logins {
		if containsFold(current, l) {
			u.notes = append(u.notes, fmt.Sprintf("%s was already assigned", l))
		} else {
			add = append(add, l)
		}
	}
	for _, l := range a.Remove {
		l = strings.TrimSpace(l)
		i := indexFold(current, l)
		if i < 0 {
			u.notes = append(u.notes, fmt.Sprintf("%s was not assigned", l))
		} else if !containsFold(remove, l) {
			remove = append(remove, current[i])
		}
	}
	return add, remove, nil
}

func (u *update) planLock() {
	in, before := u.in, u.before
	if in.Locked == nil {
		return
	}
	if *in.Locked {
		if before.GetLocked() && (in.LockReason == "" || before.GetActiveLockReason() == string(in.LockReason)) {
			u.notes = append(u.notes, "the conversation was already locked")
			return
		}
		u.steps = append(u.steps, u.lockStep(string(in.LockReason)))
		return
	}
	if !before.GetLocked() {
		u.notes = append(u.notes, "the conversation was not locked")
		return
	}
	u.steps = append(u.steps, u.unlockStep())
}

func indexFold(list []string, s string) int {
	for i, x := range list {
		if strings.EqualFold(x, s) {
			return i
		}
	}
	return -1
}

// reasonKept says why a closed issue's state_reason did not change.
func reasonKept(reason string) string {
	return "its state_reason stays " + reason +
		": GitHub applies a state_reason only when the state changes; reopen the issue, then close it with the new reason"
}
