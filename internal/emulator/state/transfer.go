package state

import (
	"slices"
	"strings"
)

// Transferring an issue, as GitHub's docs describe it: people with write
// access to both repositories can move an open or closed issue between
// repositories of the same owner, but not from a private repository to a
// public one, nor into or out of an archived one, nor into one with issues
// turned off. The issue keeps its ids, author, text, comments and state and
// takes the next number of its new repository. Labels and the milestone
// follow only where the new repository has one of the same name (labels
// missing there can be created instead); assignees who cannot be assigned
// there are dropped. The old number keeps a stand-in that points at the
// issue, so the old URL redirects (REST answers 301) and the old number is
// never reused.

// TransferRefusal is why GitHub refuses a transfer: each message is one of
// GitHub's, and GraphQL answers them joined by ", ".
type TransferRefusal []string

func (t TransferRefusal) Error() string { return strings.Join(t, ", ") }

// TransferError says whether an issue may move from its repository to
// target, nil when it may. Permissions are the caller's to check.
func TransferError(is *Issue, target *Repo) error {
	var why TransferRefusal
	src := is.Repo
	if is.Repo.Archived || target.Archived {
		why = append(why, "Repository was archived so is read-only.")
	}
	if target.IssuesDisabled {
		why = append(why, "New repository must have issues enabled")
	}
	if target.Owner != src.Owner {
		why = append(why, "New repository must have the same owner as the current repository")
	}
	if src.Private && !target.Private {
		why = append(why, "New repository must be private if the current repository is private")
	}
	if target == src {
		why = append(why, "New repository must be different from the current repository")
	}
	if len(why) == 0 {
		return nil
	}
	return why
}

// TransferIssue moves is to target, which [TransferError] has accepted, by
// actor; createLabels makes the labels target lacks instead of dropping
// them. It returns the moved issue, which is is itself.
func (s *State) TransferIssue(is *Issue, target *Repo, actor *Account, createLabels bool) *Issue {
	src, old := is.Repo, is.Number
	stub := &Issue{ID: is.ID, NodeID: is.NodeID, Repo: src, Number: old, Title: is.Title, State: is.State,
		User: is.User, CreatedAt: is.CreatedAt, UpdatedAt: s.Now(), Deleted: true, MovedTo: is}
	src.Issues[old-1] = stub

	var labels []*Label
	for _, l := range is.Labels {
		switch same := target.FindLabel(l.Name); {
		case same != nil:
			labels = append(labels, same)
		case createLabels:
			labels = append(labels, s.AddLabel(target, l.Name, l.Color, l.Description))
		}
	}
	is.Labels = labels
	if m := is.Milestone; m != nil {
		is.Milestone = nil
		if i := slices.IndexFunc(target.Milestones, func(t *Milestone) bool { return t.Title == m.Title }); i >= 0 {
			is.Milestone = target.Milestones[i]
		}
	}
	is.Assignees = slices.DeleteFunc(is.Assignees, func(a *Account) bool { return !target.Assignable(a.Login) })
	// Pinning is per repository.
	is.Pinned = false

	is.Repo = target
	is.Number = len(target.Issues) + 1
	target.Issues = append(target.Issues, is)
	s.addEvent(is, &Event{Event: "transferred", Actor: actor, FromRepo: src})
	s.Touch(is)
	return is
}
