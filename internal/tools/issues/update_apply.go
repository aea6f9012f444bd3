package issues

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// The steps run in this order: labels to create, the PATCH (plain fields,
// labels.set, assignees.set), labels to add, labels to remove, assignees
// to add and remove, the lock. Adding before removing means a swap never
// leaves the issue without its family's label.

func (u *update) createLabelStep(name string) step {
	in := u.in
	return step{
		done: fmt.Sprintf("created label %q", name), todo: fmt.Sprintf("create label %q", name),
		request: fmt.Sprintf("POST /repos/%s/%s/labels", in.Owner, in.Repo),
		run: func(ctx context.Context) error {
			_, _, err := u.c.CreateLabel(ctx, in.Owner, in.Repo, name, in.Labels.CreateMissing.color())
			if alreadyExists(err) {
				// Another writer created it meanwhile: what we wanted, but
				// not ours to report as created (nor its colour ours).
				u.labels.uncreated(name)
				u.notes = append(u.notes, fmt.Sprintf("label %q was created meanwhile by another writer", name))
				return nil
			}
			return err
		},
		remaining: func(f *UpdateIssueIn) { followLabels(f).CreateMissing = in.Labels.CreateMissing },
	}
}

func (u *update) patchStep(edit github.IssueEdit) step {
	in := u.in
	what := strings.Join(u.patched, ", ")
	return step{
		done: "set " + what, todo: "set " + what,
		request: fmt.Sprintf("PATCH /repos/%s/%s/issues/%d (%s)", in.Owner, in.Repo, in.IssueNumber, what),
		predict: func(is *gh.Issue) { u.predictPatch(is, edit) },
		run: func(ctx context.Context) error {
			u.patchedAt = u.c.Now()
			is, _, err := u.c.EditIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber), edit)
			if err != nil {
				return err
			}
			u.after, u.fromGitHub = is, true
			return nil
		},
		remaining: func(f *UpdateIssueIn) {
			f.Title, f.Body, f.State, f.StateReason = edit.Title, edit.Body, in.State, in.StateReason
			if edit.State == nil {
				f.State = ""
			}
			if edit.StateReason == nil {
				f.StateReason = ""
			}
			switch {
			case edit.ClearMilestone:
				f.Milestone = toolkit.Null[int]()
			case edit.Milestone != nil:
				f.Milestone = toolkit.Some(*edit.Milestone)
			}
			switch {
			case edit.ClearType:
				f.Type = toolkit.Null[string]()
			case edit.Type != nil:
				f.Type = toolkit.Some(*edit.Type)
			}
			if edit.Assignees != nil {
				f.Assignees = &AssigneesEdit{Set: *edit.Assignees}
			}
			if edit.Labels != nil {
				followLabels(f).Set = *edit.Labels
			}
		},
	}
}

func (u *update) addLabelsStep(names []string) step {
	in := u.in
	list := quoteAll(names)
	return step{
		done: "added " + list, todo: "add " + list,
		request: fmt.Sprintf("POST /repos/%s/%s/issues/%d/labels", in.Owner, in.Repo, in.IssueNumber),
		predict: func(is *gh.Issue) {
			for _, n := range names {
				is.Labels = append(is.Labels, &gh.Label{Name: gh.Ptr(n)})
			}
		},
		run: func(ctx context.Context) error {
			labels, _, err := u.c.AddLabels(ctx, in.Owner, in.Repo, int(in.IssueNumber), names)
			if err == nil {
				u.setLabels(labels)
			}
			return err
		},
		remaining: func(f *UpdateIssueIn) { l := followLabels(f); l.Add = append(l.Add, names...) },
	}
}

func (u *update) removeLabelStep(name string) step {
	in := u.in
	return step{
		done: fmt.Sprintf("removed %q", name), todo: fmt.Sprintf("remove %q", name),
		request: fmt.Sprintf("DELETE /repos/%s/%s/issues/%d/labels/%s", in.Owner, in.Repo, in.IssueNumber, url.PathEscape(name)),
		predict: func(is *gh.Issue) {
			is.Labels = slices.DeleteFunc(is.Labels, func(l *gh.Label) bool { return strings.EqualFold(l.GetName(), name) })
		},
		run: func(ctx context.Context) error {
			labels, _, err := u.c.RemoveLabel(ctx, in.Owner, in.Repo, int(in.IssueNumber), name)
			var ge *github.Error
			if errors.As(err, &ge) && ge.Code == github.NotFound && strings.Contains(ge.Message, "Label does not exist") {
				// Someone else removed it between the read and now.
				u.notes = append(u.notes, fmt.Sprintf("label %q was not on the issue", name))
				u.dropLabel(name)
				return nil
			}
			if err == nil {
				u.setLabels(labels)
			}
			return err
		},
		remaining: func(f *UpdateIssueIn) { l := followLabels(f); l.Remove = append(l.Remove, name) },
	}
}

func (u *update) assigneesStep(add bool, logins []string) step {
	in := u.in
	list := strings.Join(logins, ", ")
	path := fmt.Sprintf("/repos/%s/%s/issues/%d/assignees", in.Owner, in.Repo, in.IssueNumber)
	s := step{done: "assigned " + list, todo: "assign " + list, request: "POST " + path}
	if !add {
		s = step{done: "unassigned " + list, todo: "unassign " + list, request: "DELETE " + path}
	}
	s.predict = func(is *gh.Issue) {
		for _, l := range logins {
			is.Assignees = slices.DeleteFunc(is.Assignees, func(a *gh.User) bool { return strings.EqualFold(a.GetLogin(), l) })
			if add {
				is.Assignees = append(is.Assignees, &gh.User{Login: gh.Ptr(l)})
			}
		}
	}
	s.run = func(ctx context.Context) error {
		assign := u.c.AddAssignees
		if !add {
			assign = u.c.RemoveAssignees
		}
		is, _, err := assign(ctx, in.Owner, in.Repo, int(in.IssueNumber), logins)
		if err == nil && is != nil && u.after != nil {
			u.after.Assignees = is.Assignees
		}
		return err
	}
	s.remaining = func(f *UpdateIssueIn) {
		if f.Assignees == nil {
			f.Assignees = &AssigneesEdit{}
		}
		if add {
			f.Assignees.Add = append(f.Assignees.Add, logins...)
		} else {
			f.Assignees.Remove = append(f.Assignees.Remove, logins...)
		}
	}
	return s
}

func (u *update) lockStep(reason string) step {
	in := u.in
	return step{
		done: "locked the conversation", todo: "lock the conversation",
		request: fmt.Sprintf("PUT /repos/%s/%s/issues/%d/lock", in.Owner, in.Repo, in.IssueNumber),
		predict: func(is *gh.Issue) {
			is.Locked, is.ActiveLockReason = gh.Ptr(true), nil
			if reason != "" {
				is.ActiveLockReason = gh.Ptr(reason)
			}
		},
		run: func(ctx context.Context) error {
			_, err := u.c.LockIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber), reason)
			if err == nil && u.after != nil {
				u.after.Locked = gh.Ptr(true)
				u.after.ActiveLockReason = nil
				if reason != "" {
					u.after.ActiveLockReason = gh.Ptr(reason)
				}
			}
			return err
		},
		remaining: func(f *UpdateIssueIn) { f.Locked, f.LockReason = gh.Ptr(true), LockReason(reason) },
	}
}

func (u *update) unlockStep() step {
	in := u.in
	return step{
		done: "unlocked the conversation", todo: "unlock the conversation",
		request: fmt.Sprintf("DELETE /repos/%s/%s/issues/%d/lock", in.Owner, in.Repo, in.IssueNumber),
		predict: func(is *gh.Issue) { is.Locked, is.ActiveLockReason = gh.Ptr(false), nil },
		run: func(ctx context.Context) error {
			_, err := u.c.UnlockIssue(ctx, in.Owner, in.Repo, int(in.IssueNumber))
			if err == nil && u.after != nil {
				u.after.Locked, u.after.ActiveLockReason = gh.Ptr(false), nil
			}
			return err
		},
		remaining: func(f *UpdateIssueIn) { f.Locked = gh.Ptr(false) },
	}
}

// apply runs the steps in order. The first failing step ends the update:
// when nothing was applied yet it is reported as that write's failure;
// after some step was applied, as a partial success whose follow_up is the
// update that finishes the job.
func (u *update) apply(ctx context.Context) error {
	for i, st := range u.steps {
		err := st.run(ctx)
		if err == nil {
			continue
		}
		if i == 0 {
			return u.firstFailed(err)
		}
		return u.partial(i, err)
	}
	return nil
}

func (u *update) firstFailed(err error) error {
	in := u.in
	e := refusedField(err, in.Owner, in.Repo)
	if e == nil {
		return err
	}
	if e.Settlement == contract.Indeterminate || e.Settlement == contract.RemoteSuccessKnown {
		e.Temporary = false
		e.Repair = getIssueRepair(in.Owner, in.Repo, int(in.IssueNumber),
			"the update may have been applied: re-read the issue, then repeat only what is still missing")
	}
	return e
}

func (u *update) partial(i int, err error) error {
	in := u.in
	reason := err.Error()
	e := toolkit.MapError(err)
	if e != nil {
		reason = e.Message
	}
	var applied, notApplied []string
	for _, st := range u.steps[:i] {
		applied = append(applied, st.done)
	}
	for _, st := range u.steps[i:] {
		notApplied = append(notApplied, st.todo)
	}
	if e != nil && (e.Settlement == contract.Indeterminate || e.Settlement == contract.RemoteSuccessKnown) {
		notApplied[0] += " (outcome unknown: it may have been applied)"
	}
	follow := UpdateIssueIn{Owner: in.Owner, Repo: in.Repo, IssueNumber: in.IssueNumber}
	for _, st := range u.steps[i:] {
		st.remaining(&follow)
	}
	return partialSuccess(
		fmt.Sprintf("issue #%d was updated in part: %s failed (%s); what was applied stays", in.IssueNumber, u.steps[i].todo, reason),
		applied, notApplied,
		&contract.Repair{NextStep: "call github_update_issue with these arguments to finish the update", Tool: toolkit.NameUpdateIssue, Arguments: follow})
}

// followLabels returns the follow-up's label edit, creating it.
func followLabels(f *UpdateIssueIn) *LabelsEdit {
	if f.Labels == nil {
		f.Labels = &LabelsEdit{}
	}
	return f.Labels
}

func (u *update) setLabels(labels []*gh.Label) {
	if u.after != nil {
		u.after.Labels = labels
	}
}

func (u *update) dropLabel(name string) {
	if u.after != nil {
		u.after.Labels = slices.DeleteFunc(slices.Clone(u.after.Labels), func(l *gh.Label) bool { return strings.EqualFold(l.GetName(), name) })
	}
}

// alreadyExists reports GitHub's 422 for a label that exists.
func alreadyExists(err error) bool {
	var ge *github.Error
	if !errors.As(err, &ge) || ge.Code != github.ValidationFailed {
		return false
	}
	return slices.ContainsFunc(ge.Fields, func(f github.FieldError) bool { return f.Code == "already_exists" })
}

func quoteAll(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
