package state

import (
	"slices"
	"time"
)

// A pull request's own timeline events, beyond those it has as an issue.
// Commits and reviews are recorded when they reach the pull request, so
// the timeline places a push after the review it answers. A commit a force
// push dropped stays recorded but is no longer among the pull request's
// commits, and the timeline leaves it out, as GitHub's does.

// headMoved records what a move of the pull request's head from old (nil
// when it opens) brings to its timeline: head_ref_force_pushed when old is
// not an ancestor of the new head, and a committed event for each of the
// pull request's commits not recorded before.
func (s *State) headMoved(is *Issue, actor *Account, old *GitCommit, at time.Time) {
	p := is.Pull
	if old != nil && old != p.Head && !ancestors(p.Head)[old.SHA] {
		s.addEvent(is, &Event{Event: "head_ref_force_pushed", Actor: actor, CreatedAt: at})
	}
	seen := map[string]bool{}
	for _, e := range is.Events {
		if e.Event == "committed" {
			seen[e.Commit.SHA] = true
		}
	}
	for _, c := range p.Commits() {
		if !seen[c.SHA] {
			s.addEvent(is, &Event{Event: "committed", Commit: c, CreatedAt: at})
		}
	}
}

// SetDraft converts a pull request to a draft, or marks a draft ready for
// review, recording convert_to_draft or ready_for_review; it does nothing
// when the pull request already is what is asked.
func (s *State) SetDraft(is *Issue, actor *Account, draft bool) {
	if is.Pull.Draft == draft {
		return
	}
	is.Pull.Draft = draft
	event := "ready_for_review"
	if draft {
		event = "convert_to_draft"
	}
	s.addEvent(is, &Event{Event: event, Actor: actor})
	s.Touch(is)
}

// RequestReviews adds users and teams to is's requested reviewers, each
// once, in the order given, recording review_requested for each one newly
// asked.
func (s *State) RequestReviews(is *Issue, actor *Account, users []*Account, teams []*Team) {
	p := is.Pull
	for _, a := range users {
		if !slices.Contains(p.RequestedReviewers, a) {
			p.RequestedReviewers = append(p.RequestedReviewers, a)
			s.addEvent(is, &Event{Event: "review_requested", Actor: actor, Reviewer: a})
		}
	}
	for _, t := range teams {
		if !slices.Contains(p.RequestedTeams, t) {
			p.RequestedTeams = append(p.RequestedTeams, t)
			s.addEvent(is, &Event{Event: "review_requested", Actor: actor, Team: t})
		}
	}
}

// RemoveReviewRequests withdraws is's review requests of users and teams,
// recording review_request_removed for each one that was asked.
func (s *State) RemoveReviewRequests(is *Issue, actor *Account, users []*Account, teams []*Team) {
	p := is.Pull
	for _, a := range users {
		if i := slices.Index(p.RequestedReviewers, a); i >= 0 {
			p.RequestedReviewers = slices.Delete(p.RequestedReviewers, i, i+1)
			s.addEvent(is, &Event{Event: "review_request_removed", Actor: actor, Reviewer: a})
		}
	}
	for _, t := range teams {
		if i := slices.Index(p.RequestedTeams, t); i >= 0 {
			p.RequestedTeams = slices.Delete(p.RequestedTeams, i, i+1)
			s.addEvent(is, &Event{Event: "review_request_removed", Actor: actor, Team: t})
		}
	}
}

// DeleteBranch deletes a branch of r other than the default one. Every
// pull request whose head it was records head_ref_deleted, and an open
// one is closed, as GitHub closes a pull request whose head branch is
// gone.
func (s *State) DeleteBranch(r *Repo, name string, actor *Account) {
	delete(r.Git.Branches, name)
	for _, other := range s.Repos() {
		for _, is := range other.Issues {
			if p := is.Pull; p == nil || is.Deleted || p.HeadRepo != r || p.HeadRef != name {
				continue
			}
			s.addEvent(is, &Event{Event: "head_ref_deleted", Actor: actor})
			if is.State == "open" {
				s.ClosePull(is, actor)
			}
		}
	}
}
