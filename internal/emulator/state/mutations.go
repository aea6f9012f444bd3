package state

import (
	"errors"
	"slices"
	"strings"
)

// The mutations below are shared by the REST handlers, the GraphQL
// resolvers and the seed, so every path through the emulator records the
// same timeline events. Callers hold the state lock.

// ErrCycle is returned when a sub-issue or dependency link would make a loop.
var ErrCycle = errors.New("the link would create a cycle")

// ErrSelfLink is returned when an issue is linked to itself.
var ErrSelfLink = errors.New("an issue cannot be linked to itself")

// ErrAlreadyParented is returned when a sub-issue already has a parent and
// replace_parent was not asked for.
var ErrAlreadyParented = errors.New("the issue already has a parent")

// ErrAlreadyLinked is returned when the link exists.
var ErrAlreadyLinked = errors.New("the link already exists")

// ErrNotLinked is returned when removing a link that is absent.
var ErrNotLinked = errors.New("the link does not exist")

// ErrPullRequest is returned when a pull request is used where only issues fit.
var ErrPullRequest = errors.New("pull requests cannot be linked")

// ErrOtherOwner is returned when a sub-issue's repository has another owner
// than its parent's: GitHub's description of sub_issue_id says it "must
// belong to the same repository owner as the parent issue".
var ErrOtherOwner = errors.New("the sub-issue must belong to the same repository owner as the parent issue")

// [ErrTooManySubIssues] and ErrTooDeep are GitHub's documented limits: up to
// 100 sub-issues per parent and up to eight levels of nesting.
var (
	ErrTooManySubIssues = errors.New("a parent issue can have at most 100 sub-issues")
	ErrTooDeep          = errors.New("sub-issues can be nested at most 8 levels deep")
)

const (
	maxSubIssues     = 100
	maxSubIssueDepth = 8
)

// depth is how many ancestors is has.
func depth(is *Issue) int {
	n := 0
	for x := is.Parent; x != nil && n <= maxSubIssueDepth+1; x = x.Parent {
		n++
	}
	return n
}

// height is how many levels of sub-issues hang below is.
func height(is *Issue) int {
	h := 0
	for _, c := range is.SubIssues {
		h = max(h, 1+height(c))
	}
	return h
}

// Touch marks is written now; the search index takes the new version once
// its lag has passed.
func (s *State) Touch(is *Issue) {
	is.UpdatedAt = s.Now()
	s.recordVersion(is)
}

// IssueTriage is what a new issue may carry besides its text; setting any
// of it needs triage access, which the caller checks.
type IssueTriage struct {
	Labels    []*Label
	Assignees []*Account
	Milestone *Milestone
	Type      *IssueType
}

// CreateIssue opens an issue by author, as POST .../issues and GraphQL's
// createIssue both do: the issue (cross-referencing what its body
// mentions; hosts as AddIssue's), then its labels, assignees, milestone and
// type, each recorded as the author's timeline event.
func (s *State) CreateIssue(r *Repo, author *Account, title string, body *string, t IssueTriage, hosts ...string) *Issue {
	is := s.AddIssue(r, author, title, body, false, s.Now(), hosts...)
	s.AddLabels(is, author, t.Labels...)
	s.Assign(is, author, t.Assignees...)
	s.SetMilestone(is, author, t.Milestone)
	if t.Type != nil {
		s.SetType(is, t.Type)
	}
	return is
}

// AddLabels adds labels not already on the issue and records "labeled".
func (s *State) AddLabels(is *Issue, actor *Account, labels ...*Label) {
	changed := false
	for _, l := range labels {
		if slices.Contains(is.Labels, l) {
			continue
		}
		is.Labels = append(is.Labels, l)
		s.addEvent(is, &Event{Event: "labeled", Actor: actor, Label: snapshotLabel(l)})
		changed = true
	}
	// An issue left as it was keeps its updated_at (and so its ETag).
	if changed {
		s.Touch(is)
	}
}

// RemoveLabel removes a label and records "unlabeled"; it reports whether
// the label was there.
func (s *State) RemoveLabel(is *Issue, actor *Account, l *Label) bool {
	i := slices.Index(is.Labels, l)
	if i < 0 {
		return false
	}
	is.Labels = slices.Delete(is.Labels, i, i+1)
	s.addEvent(is, &Event{Event: "unlabeled", Actor: actor, Label: snapshotLabel(l)})
	s.Touch(is)
	return true
}

// SetLabels replaces the issue's labels, recording each change.
func (s *State) SetLabels(is *Issue, actor *Account, labels []*Label) {
	for _, l := range slices.Clone(is.Labels) {
		if !slices.Contains(labels, l) {
			s.RemoveLabel(is, actor, l)
		}
	}
	s.AddLabels(is, actor, labels...)
}

func snapshotLabel(l *Label) *Label { c := *l; return &c }

// Assign adds assignees not already present and records "assigned".
func (s *State) Assign(is *Issue, actor *Account, users ...*Account) {
	changed := false
	for _, u := range users {
		if slices.Contains(is.Assignees, u) {
			continue
		}
		is.Assignees = append(is.Assignees, u)
		s.addEvent(is, &Event{Event: "assigned", Actor: actor, Assignee: u})
		changed = true
	}
	if changed {
		s.Touch(is)
	}
}

// Unassign removes assignees and records "unassigned".
func (s *State) Unassign(is *Issue, actor *Account, users ...*Account) {
	changed := false
	for _, u := range users {
		if i := slices.Index(is.Assignees, u); i >= 0 {
			is.Assignees = slices.Delete(is.Assignees, i, i+1)
			s.addEvent(is, &Event{Event: "unassigned", Actor: actor, Assignee: u})
			changed = true
		}
	}
	if changed {
		s.Touch(is)
	}
}

// SetAssignees replaces the assignees, recording each change.
func (s *State) SetAssignees(is *Issue, actor *Account, users []*Account) {
	var gone []*Account
	for _, u := range is.Assignees {
		if !slices.Contains(users, u) {
			gone = append(gone, u)
		}
	}
	s.Unassign(is, actor, gone...)
	s.Assign(is, actor, users...)
}

// Close closes an issue with a reason (completed, not_planned, duplicate).
func (s *State) Close(is *Issue, actor *Account, reason string) { s.close(is, actor, reason) }

// close is Close, returning the closed event it recorded (nil when the
// issue was closed already).
func (s *State) close(is *Issue, actor *Account, reason string) *Event {
	if reason == "" {
		reason = "completed"
	}
	if is.State == "closed" {
		if is.StateReason == nil || *is.StateReason != reason {
			is.StateReason = &reason
			s.Touch(is)
		}
		return nil
	}
	now := s.Now()
	is.State = "closed"
	is.StateReason = &reason
	is.ClosedAt = &now
	is.ClosedBy = actor
	e := &Event{Event: "closed", Actor: actor, StateReason: &reason}
	s.addEvent(is, e)
	s.Touch(is)
	return e
}

// MarkDuplicate records is as a duplicate of canonical: GitHub's
// marked_as_duplicate event on is, naming canonical as its subject.
func (s *State) MarkDuplicate(is, canonical *Issue, actor *Account) {
	is.DuplicateOf = canonical
	s.addEvent(is, &Event{Event: "marked_as_duplicate", Actor: actor, Subject: canonical})
	s.Touch(is)
}

// Reopen reopens a closed issue.
func (s *State) Reopen(is *Issue, actor *Account) {
	if is.State == "open" {
		return
	}
	reason := "reopened"
	is.State = "open"
	is.StateReason = &reason
	is.ClosedAt = nil
	is.ClosedBy = nil
	s.addEvent(is, &Event{Event: "reopened", Actor: actor})
	s.Touch(is)
}

// Rename changes the title and records "renamed".
func (s *State) Rename(is *Issue, actor *Account, title string) {
	if is.Title == title {
		return
	}
	s.addEvent(is, &Event{Event: "renamed", Actor: actor, RenameFrom: is.Title, RenameTo: title})
	is.Title = title
	s.Touch(is)
}

// SetBody replaces the body; issues the new body mentions are
// cross-referenced, with editor as the actor (hosts as AddIssue's).
func (s *State) SetBody(is *Issue, editor *Account, body *string, hosts ...string) {
	if is.Body == body || is.Body != nil && body != nil && *is.Body == *body {
		return // an edit that changes nothing leaves updated_at as it was
	}
	is.Body = body
	s.Touch(is)
	if body != nil {
		s.CrossReference(is, editor, *body, s.Now(), hosts...)
	}
}

// SetMilestone sets or clears (nil) the milestone.
func (s *State) SetMilestone(is *Issue, actor *Account, m *Milestone) {
	if is.Milestone == m {
		return
	}
	if is.Milestone != nil {
		s.addEvent(is, &Event{Event: "demilestoned", Actor: actor, Milestone: is.Milestone.Title})
	}
	if m != nil {
		s.addEvent(is, &Event{Event: "milestoned", Actor: actor, Milestone: m.Title})
	}
	is.Milestone = m
	s.Touch(is)
}

// SetType sets or clears (nil) the issue type.
func (s *State) SetType(is *Issue, t *IssueType) {
	if is.Type == t {
		return
	}
	is.Type = t
	s.Touch(is)
}

// LockIssue locks the conversation with an optional reason
// (off-topic, too heated, resolved, spam).
func (s *State) LockIssue(is *Issue, actor *Account, reason *string) {
	is.Locked = true
	is.ActiveLockReason = reason
	s.addEvent(is, &Event{Event: "locked", Actor: actor, LockReason: reason})
	s.Touch(is)
}

// SetPinned pins an issue to its repository (or unpins it) and records
// "pinned" (or "unpinned"); asking for the state it is in changes nothing.
func (s *State) SetPinned(is *Issue, actor *Account, pinned bool) {
	if is.Pinned == pinned {
		return
	}
	is.Pinned = pinned
	event := "unpinned"
	if pinned {
		event = "pinned"
	}
	s.addEvent(is, &Event{Event: event, Actor: actor})
	s.Touch(is)
}

// UnlockIssue unlocks the conversation.
func (s *State) UnlockIssue(is *Issue, actor *Account) {
	if !is.Locked {
		return
	}
	is.Locked = false
	is.ActiveLockReason = nil
	s.addEvent(is, &Event{Event: "unlocked", Actor: actor})
	s.Touch(is)
}

// isAncestor reports whether a is an ancestor of b (or b itself).
func isAncestor(a, b *Issue) bool {
	for x := b; x != nil; x = x.Parent {
		if x == a {
			return true
		}
	}
	return false
}

// AddSubIssue makes child a sub-issue of parent, last in priority order.
// With replaceParent a child that has another parent moves; without it that
// is [ErrAlreadyParented].
func (s *State) AddSubIssue(parent, child *Issue, actor *Account, replaceParent bool) error {
	if err := SubIssueLinkError(parent, child, replaceParent); err != nil {
		return err
	}
	if child.Parent != nil {
		if err := s.RemoveSubIssue(child.Parent, child, actor); err != nil {
			return err
		}
	}
	parent.SubIssues = append(parent.SubIssues, child)
	child.Parent = parent
	s.addEvent(parent, &Event{Event: "sub_issue_added", Actor: actor, Subject: child})
	s.addEvent(child, &Event{Event: "parent_issue_added", Actor: actor, Subject: parent})
	s.Touch(parent)
	s.Touch(child)
	return nil
}

// SubIssueLinkError is why child cannot become a sub-issue of parent, or
// nil. It changes nothing, so a caller can check a link before creating
// anything (createIssue with a parentIssueId).
func SubIssueLinkError(parent, child *Issue, replaceParent bool) error {
	switch {
	case parent == child:
		return ErrSelfLink
	case parent.IsPull || child.IsPull:
		return ErrPullRequest
	case child.Parent == parent:
		return ErrAlreadyLinked
	case child.Parent != nil && !replaceParent:
		return ErrAlreadyParented
	case !strings.EqualFold(parent.Repo.Owner.Login, child.Repo.Owner.Login):
		return ErrOtherOwner
	case isAncestor(child, parent):
		return ErrCycle
	case len(parent.SubIssues) >= maxSubIssues:
		return ErrTooManySubIssues
	case depth(parent)+1+height(child) > maxSubIssueDepth:
		return ErrTooDeep
	}
	return nil
}

// RemoveSubIssue detaches child from parent.
func (s *State) RemoveSubIssue(parent, child *Issue, actor *Account) error {
	i := slices.Index(parent.SubIssues, child)
	if i < 0 {
		return ErrNotLinked
	}
	parent.SubIssues = slices.Delete(parent.SubIssues, i, i+1)
	child.Parent = nil
	s.addEvent(parent, &Event{Event: "sub_issue_removed", Actor: actor, Subject: child})
	s.addEvent(child, &Event{Event: "parent_issue_removed", Actor: actor, Subject: parent})
	s.Touch(parent)
	s.Touch(child)
	return nil
}

// ReprioritizeSubIssue moves child directly after `after` or before
// `before` (exactly one of them non-nil) among parent's sub-issues.
func (s *State) ReprioritizeSubIssue(parent, child, after, before *Issue) error {
	i := slices.Index(parent.SubIssues, child)
	if i < 0 {
		return ErrNotLinked
	}
	anchor := after
	if anchor == nil {
		anchor = before
	}
	if anchor == nil || anchor == child || !slices.Contains(parent.SubIssues, anchor) {
		return ErrNotLinked
	}
	list := slices.Delete(slices.Clone(parent.SubIssues), i, i+1)
	j := slices.Index(list, anchor)
	if after != nil {
		j++
	}
	parent.SubIssues = slices.Insert(list, j, child)
	s.Touch(parent)
	return nil
}

// blocks reports whether a blocks b, directly or through others.
func blocks(a, b *Issue, seen map[*Issue]bool) bool {
	if a == b {
		return true
	}
	if seen[a] {
		return false
	}
	seen[a] = true
	for _, x := range a.Blocking {
		if blocks(x, b, seen) {
			return true
		}
	}
	return false
}

// AddBlockedBy records that blocker blocks is.
func (s *State) AddBlockedBy(is, blocker *Issue, actor *Account) error {
	switch {
	case is == blocker:
		return ErrSelfLink
	case slices.Contains(is.BlockedBy, blocker):
		return ErrAlreadyLinked
	case blocks(is, blocker, map[*Issue]bool{}):
		return ErrCycle
	}
	is.BlockedBy = append(is.BlockedBy, blocker)
	blocker.Blocking = append(blocker.Blocking, is)
	s.addEvent(is, &Event{Event: "blocked_by_added", Actor: actor, Subject: blocker})
	s.addEvent(blocker, &Event{Event: "blocking_added", Actor: actor, Subject: is})
	s.Touch(is)
	s.Touch(blocker)
	return nil
}

// RemoveBlockedBy removes the dependency.
func (s *State) RemoveBlockedBy(is, blocker *Issue, actor *Account) error {
	i := slices.Index(is.BlockedBy, blocker)
	if i < 0 {
		return ErrNotLinked
	}
	is.BlockedBy = slices.Delete(is.BlockedBy, i, i+1)
	if j := slices.Index(blocker.Blocking, is); j >= 0 {
		blocker.Blocking = slices.Delete(blocker.Blocking, j, j+1)
	}
	s.addEvent(is, &Event{Event: "blocked_by_removed", Actor: actor, Subject: blocker})
	s.addEvent(blocker, &Event{Event: "blocking_removed", Actor: actor, Subject: is})
	s.Touch(is)
	s.Touch(blocker)
	return nil
}

// DeleteIssue marks an issue deleted: it answers 410 from then on and
// leaves every list, and its links are dropped.
func (s *State) DeleteIssue(is *Issue) {
	is.Deleted = true
	if is.Parent != nil {
		p := is.Parent
		p.SubIssues = slices.DeleteFunc(p.SubIssues, func(x *Issue) bool { return x == is })
		is.Parent = nil
	}
	for _, c := range is.SubIssues {
		c.Parent = nil
	}
	is.SubIssues = nil
	for _, b := range is.BlockedBy {
		b.Blocking = slices.DeleteFunc(b.Blocking, func(x *Issue) bool { return x == is })
	}
	for _, b := range is.Blocking {
		b.BlockedBy = slices.DeleteFunc(b.BlockedBy, func(x *Issue) bool { return x == is })
	}
	is.BlockedBy, is.Blocking = nil, nil
	dropRelated(is)
	delete(s.nodes, is.NodeID)
}

// RenameLabel renames a label in place; issues keep it.
func (s *State) RenameLabel(l *Label, name string) { l.Name = name }

// DeleteLabel removes a label from the repository and from every issue.
func (s *State) DeleteLabel(r *Repo, l *Label) {
	r.Labels = slices.DeleteFunc(r.Labels, func(x *Label) bool { return x == l })
	for _, is := range r.Issues {
		is.Labels = slices.DeleteFunc(is.Labels, func(x *Label) bool { return x == l })
	}
	delete(s.nodes, l.NodeID)
}

// DeleteMilestone removes a milestone and clears it from its issues.
func (s *State) DeleteMilestone(r *Repo, m *Milestone) {
	r.Milestones = slices.DeleteFunc(r.Milestones, func(x *Milestone) bool { return x == m })
	for _, is := range r.Issues {
		if is.Milestone == m {
			is.Milestone = nil
		}
	}
	delete(s.nodes, m.NodeID)
}

// DeleteComment removes a comment.
func (s *State) DeleteComment(c *Comment) {
	is := c.Issue
	is.Comments = slices.DeleteFunc(is.Comments, func(x *Comment) bool { return x == c })
	delete(s.nodes, c.NodeID)
}

// IsCollaborator reports whether login can be assigned in r.
func (r *Repo) IsCollaborator(login string) bool {
	return slices.ContainsFunc(r.Collaborators, func(c string) bool { return strings.EqualFold(c, login) })
}

// Assignable reports whether an account may be assigned to the
// repository's issues: its owner or a collaborator.
func (r *Repo) Assignable(login string) bool {
	return r.IsCollaborator(login) || strings.EqualFold(login, r.Owner.Login)
}
