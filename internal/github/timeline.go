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
