package issues

import (
	"strings"

	"github.com/ghgate/ghgate/internal/github"

	gh "github.com/google/go-github/v88/github"
)

// timelineRow renders one event compactly. Comments are named by id only:
// their text is in the comments collection.
func timelineRow(ev *github.TimelineEvent, owner, repo string) IssueItem {
	row := IssueItem{Event: ev.Event, Actor: ev.Actor.GetLogin(), At: stamp(ev.CreatedAt)}
	if ev.Event == "commented" {
		row.ID = ev.ID
	}
	if ev.Label != nil {
		row.Label = clean(ev.Label.Name)
	}
	row.Assignee = ev.Assignee.GetLogin()
	if ev.Milestone != nil {
		row.Milestone = clean(ev.Milestone.Title)
	}
	if ev.Rename != nil {
		row.From, row.To = clean(ev.Rename.From), clean(ev.Rename.To)
	}
	if ev.StateReason != nil {
		row.Reason = *ev.StateReason
	}
	if ev.LockReason != nil {
		row.Reason = *ev.LockReason
	}
	for _, ref := range []*github.TimelineIssue{ev.SubIssue, ev.ParentIssue, ev.BlockedBy, ev.Blocking} {
		if ref != nil {
			row.Number, row.State = ref.Number, ref.State
			cleanTitle(&row, ref.Title)
			row.Repo = otherRepo(ref.Repository.FullName, owner, repo)
		}
	}
	if ev.Source != nil && ev.Source.Issue != nil {
		is := ev.Source.Issue
		row.Number, row.State = is.GetNumber(), prState(is)
		cleanTitle(&row, is.GetTitle())
		row.Repo = otherRepo(repoOf(is), owner, repo)
	}
	pullRow(&row, ev, owner)
	return row
}

// pullRow adds what a pull request's own events carry: a commit's short
// sha and first message line, a review's reviewer, state and the head it
// reviewed, a merge's commit, a review request's reviewer. GitHub gives a
// committed event no actor or created_at (its git author and commit date
// stand in) and a reviewed one user and submitted_at instead.
func pullRow(row *IssueItem, ev *github.TimelineEvent, owner string) {
	if ev.CommitID != nil {
		row.Commit = shortSHA(*ev.CommitID)
	}
	switch ev.Event {
	case "committed":
		row.Commit = shortSHA(ev.SHA)
		headline, _, _ := strings.Cut(ev.Message, "\n")
		row.Message = clean(headline)
		if ev.Author != nil {
			row.Author = clean(ev.Author.GetName())
		}
		if ev.Committer != nil {
			row.At = stamp(ev.Committer.Date)
		}
	case "reviewed":
		row.Actor, row.State, row.At = ev.User.GetLogin(), ev.State, stamp(ev.SubmittedAt)
	case "review_requested", "review_request_removed":
		row.Reviewer = ev.RequestedReviewer.GetLogin()
		if t := ev.RequestedTeam; t != nil {
			// Only the repository owner's teams can be asked.
			row.Reviewer = owner + "/" + t.Slug
		}
	}
}

// shortSHA is a commit's sha as GitHub abbreviates it.
func shortSHA(sha string) string {
	if len(sha) > 7 {
		return sha[:7]
	}
	return sha
}

// timelineRepo is the repository ("owner/name") of the issue or pull
// request an event names: a sub-issue, parent or dependency, or the source
// of a cross-reference; "" when it names none.
func timelineRepo(ev *github.TimelineEvent) string {
	for _, ref := range []*github.TimelineIssue{ev.SubIssue, ev.ParentIssue, ev.BlockedBy, ev.Blocking} {
		if ref != nil {
			return ref.Repository.FullName
		}
	}
	if ev.Source != nil && ev.Source.Issue != nil {
		return repoOf(ev.Source.Issue)
	}
	return ""
}

// linkedPR reports the pull request a timeline event links, if any: a
// cross-reference from a pull request. ("connected" events, made when a
// pull request's description closes the issue, name no pull request in
// the REST timeline, so they cannot be listed.)
func linkedPR(ev *github.TimelineEvent, owner, repo string) (IssueItem, bool) {
	if ev.Event != "cross-referenced" || ev.Source == nil || ev.Source.Issue == nil || !ev.Source.Issue.IsPullRequest() {
		return IssueItem{}, false
	}
	is := ev.Source.Issue
	row := IssueItem{Number: is.GetNumber(), Repo: otherRepo(repoOf(is), owner, repo),
		State: prState(is), Actor: ev.Actor.GetLogin(), At: stamp(ev.CreatedAt)}
	cleanTitle(&row, is.GetTitle())
	return row, true
}

// prState is open, closed or merged for a pull request; the issue state
// otherwise.
func prState(is *gh.Issue) string {
	if pr := is.PullRequestLinks; pr != nil && pr.MergedAt != nil {
		return "merged"
	}
	return is.GetState()
}

// otherRepo is full when it names a repository other than owner/repo.
func otherRepo(full, owner, repo string) string {
	if full == "" || strings.EqualFold(full, owner+"/"+repo) {
		return ""
	}
	return full
}
