package github

import (
	"context"

	gh "github.com/google/go-github/v88/github"
)

// TimelineEvent is the part of one GitHub timeline entry ghgate reads.
// go-github's Timeline type lacks the sub-issue and dependency subjects
// (and its ListIssueTimeline asks for preview media types), so the path is
// built and the entry decoded here.
type TimelineEvent struct {
	ID        int64         `json:"id"`
	Event     string        `json:"event"`
	Actor     *gh.User      `json:"actor"`
	CreatedAt *gh.Timestamp `json:"created_at"`
	Label     *struct {
		Name string `json:"name"`
	} `json:"label"`
	Assignee  *gh.User `json:"assignee"`
	Milestone *struct {
		Title string `json:"title"`
	} `json:"milestone"`
	Rename *struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"rename"`
	StateReason *string `json:"state_reason"`
	LockReason  *string `json:"lock_reason"`
	// The other issue of a sub-issue or dependency event.
	SubIssue    *TimelineIssue `json:"sub_issue"`
	ParentIssue *TimelineIssue `json:"parent_issue"`
	BlockedBy   *TimelineIssue `json:"blocked_by"`
	Blocking    *TimelineIssue `json:"blocking"`
	// Source is the referencing issue or pull request of a
	// cross-referenced event.
	Source *struct {
		Issue *gh.Issue `json:"issue"`
	} `json:"source"`
	// CommitID is the commit of a merged event (the merge's), of a
	// reviewed one (the head it reviewed), or that closed an issue.
	CommitID *string `json:"commit_id"`

	// A pull request's committed event is its commit, with no actor or
	// created_at: the sha, the message, and the git author and committer
	// (name, email, date).
	SHA       string           `json:"sha"`
	Message   string           `json:"message"`
	Author    *gh.CommitAuthor `json:"author"`
	Committer *gh.CommitAuthor `json:"committer"`
	// A reviewed event names its reviewer as user, not actor, and carries
	// the review's state (approved, changes_requested, commented,
	// dismissed) and submitted_at, not created_at.
	User        *gh.User      `json:"user"`
	State       string        `json:"state"`
	SubmittedAt *gh.Timestamp `json:"submitted_at"`
	// The user or team a review_requested or review_request_removed event
	// names.
	RequestedReviewer *gh.User `json:"requested_reviewer"`
	RequestedTeam     *struct {
		Slug string `json:"slug"`
	} `json:"requested_team"`
}

// TimelineIssue is GitHub's nullable-issue-reference.
type TimelineIssue struct {
	Number     int    `json:"number"`
	Title      string `json:"title"`
	State      string `json:"state"`
	Repository struct {
		FullName string `json:"full_name"`
	} `json:"repository"`
}

// ListTimeline lists one page of an issue's timeline.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}/timeline
func (c *Client) ListTimeline(ctx context.Context, owner, repo string, number int, o gh.ListOptions) ([]*TimelineEvent, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	return getJSON[[]*TimelineEvent](ctx, c, r.path("issues", number, "timeline"), listQuery(o))
}
