package rest

import (
	"fmt"
	"net/http"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// eventJSON is one entry of GitHub's timeline-issue-events. Fields that only
// some event kinds carry are pointers, omitted where the kind has none.
type eventJSON struct {
	ID                    int64            `json:"id"`
	NodeID                string           `json:"node_id"`
	URL                   string           `json:"url"`
	Actor                 *userJSON        `json:"actor"`
	Event                 string           `json:"event"`
	CommitID              *string          `json:"commit_id"`
	CommitURL             *string          `json:"commit_url"`
	CreatedAt             string           `json:"created_at"`
	PerformedViaGitHubApp *struct{}        `json:"performed_via_github_app"`
	Label                 *eventLabelJSON  `json:"label,omitempty"`
	Assignee              *userJSON        `json:"assignee,omitempty"`
	Milestone             *eventTitleJSON  `json:"milestone,omitempty"`
	Rename                *eventRenameJSON `json:"rename,omitempty"`
	LockReason            *string          `json:"lock_reason,omitempty"`
	StateReason           *string          `json:"state_reason,omitempty"`
	SubIssue              *issueRefJSON    `json:"sub_issue,omitempty"`
	ParentIssue           *issueRefJSON    `json:"parent_issue,omitempty"`
	BlockedBy             *issueRefJSON    `json:"blocked_by,omitempty"`
	Blocking              *issueRefJSON    `json:"blocking,omitempty"`
}

type eventLabelJSON struct {
	Name  string `json:"name"`
	Color string `json:"color"`
}

type eventTitleJSON struct {
	Title string `json:"title"`
}

type eventRenameJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// issueRefJSON is GitHub's nullable-issue-reference.
type issueRefJSON struct {
	Number      int            `json:"number"`
	Title       string         `json:"title"`
	State       string         `json:"state"`
	StateReason *string        `json:"state_reason"`
	Repository  repoJSON       `json:"repository"`
	IssueType   *issueTypeJSON `json:"issue_type"`
}

// commentEventJSON is GitHub's timeline-comment-event.
type commentEventJSON struct {
	Event string    `json:"event"`
	Actor *userJSON `json:"actor"`
	commentJSON
}

func (c *call) issueRef(is *state.Issue) *issueRefJSON {
	ref := &issueRefJSON{Number: is.Number, Title: is.Title, State: is.State, StateReason: is.StateReason,
		Repository: c.repoJSON(is.Repo, false), IssueType: issueType(is.Type)}
	if ref.IssueType != nil {
		// The reference carries only id, node_id, name and color.
		ref.IssueType = &issueTypeJSON{ID: ref.IssueType.ID, NodeID: ref.IssueType.NodeID, Name: ref.IssueType.Name, Color: ref.IssueType.Color}
	}
	return ref
}

// crossRefEventJSON is GitHub's timeline-cross-referenced-event. GitHub
// sends it without the id, node_id and url other events carry.
type crossRefEventJSON struct {
	Actor     *userJSON          `json:"actor"`
	CreatedAt string             `json:"created_at"`
	UpdatedAt string             `json:"updated_at"`
	Source    crossRefSourceJSON `json:"source"`
	Event     string             `json:"event"`
}

type crossRefSourceJSON struct {
	Type  string          `json:"type"`
	Issue sourceIssueJSON `json:"issue"`
}

// sourceIssueJSON is the mentioning issue or pull request: GitHub's issue,
// with its repository.
type sourceIssueJSON struct {
	*issueJSON
	Repository repoJSON `json:"repository"`
}

// crossReference renders a cross-referenced event, or nil when the caller
// cannot see it: GitHub shows a mention from a repository only to those who
// can read that repository, and drops it with a deleted source.
func (c *call) crossReference(ev *state.Event) any {
	src := ev.Source
	if src == nil || src.Deleted || c.Token.Permission(src.Repo) < state.PermRead {
		return nil
	}
	at := wire.Timestamp(ev.CreatedAt)
	return crossRefEventJSON{Actor: renderSimpleUser(c.Links, ev.Actor), CreatedAt: at, UpdatedAt: at, Event: ev.Event,
		Source: crossRefSourceJSON{Type: "issue", Issue: sourceIssueJSON{issueJSON: renderIssue(c.Links, src), Repository: c.repoJSON(src.Repo, false)}}}
}

func (c *call) event(is *state.Issue, ev *state.Event, live map[string]bool) any {
	if ev.Event == "cross-referenced" {
		return c.crossReference(ev)
	}
	if ev.Event == "commented" {
		if ev.Comment == nil || !containsComment(is, ev.Comment) {
			return nil
		}
		return commentEventJSON{Event: "commented", Actor: renderSimpleUser(c.Links, ev.Comment.User), commentJSON: renderComment(c.Links, ev.Comment)}
	}
	out := eventJSON{ID: ev.ID, NodeID: ev.NodeID, URL: fmt.Sprintf("%s/issues/events/%d", c.Links.Repo(is.Repo), ev.ID),
		Actor: renderSimpleUser(c.Links, ev.Actor), Event: ev.Event, CreatedAt: wire.Timestamp(ev.CreatedAt)}
	if v, ok := c.pullEvent(is, ev, live, out); ok {
		return v
	}
	switch ev.Event {
	case "labeled", "unlabeled":
		out.Label = &eventLabelJSON{Name: ev.Label.Name, Color: ev.Label.Color}
	case "assigned", "unassigned":
		out.Assignee = renderSimpleUser(c.Links, ev.Assignee)
	case "milestoned", "demilestoned":
		out.Milestone = &eventTitleJSON{Title: ev.Milestone}
	case "renamed":
		out.Rename = &eventRenameJSON{From: ev.RenameFrom, To: ev.RenameTo}
	case "locked":
		out.LockReason = ev.LockReason
		if out.LockReason == nil {
			// lock_reason is required on the event; GitHub sends null when
			// no reason was given, which omitempty would drop.
			return lockedEventJSON{eventJSON: out}
		}
	case "closed":
		out.StateReason = ev.StateReason
	}
	if ev.Subject != nil {
		ref := c.issueRef(ev.Subject)
		switch ev.Event {
		case "sub_issue_added", "sub_issue_removed":
			out.SubIssue = ref
		case "parent_issue_added", "parent_issue_removed":
			out.ParentIssue = ref
		case "blocked_by_added", "blocked_by_removed":
			out.BlockedBy = ref
		case "blocking_added", "blocking_removed":
			out.Blocking = ref
		}
	}
	return out
}

type lockedEventJSON struct {
	eventJSON
	LockReason *string `json:"lock_reason"`
}

func containsComment(is *state.Issue, c *state.Comment) bool {
	for _, x := range is.Comments {
		if x == c {
			return true
		}
	}
	return false
}

func listTimeline(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	var all []any
	live := liveCommits(is)
	for _, ev := range is.Events {
		if v := c.event(is, ev, live); v != nil {
			all = append(all, v)
		}
	}
	out := paginate(c, all)
	c.JSON(http.StatusOK, out)
}
