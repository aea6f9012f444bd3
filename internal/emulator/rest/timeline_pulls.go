package rest

import (
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// A pull request's own timeline events, in GitHub's shapes: committed is
// timeline-committed-event (the git commit, with no actor or created_at:
// its author and committer carry name, email and date), reviewed is
// timeline-reviewed-event (the review, by its user, with submitted_at),
// and the others are issue events with their extra fields.

// committedEventJSON is GitHub's timeline-committed-event.
type committedEventJSON struct {
	gitObjectJSON
	Event string `json:"event"`
}

// reviewedEventJSON is GitHub's timeline-reviewed-event: the review as the
// reviews route gives it, with its state in lower case and an empty body
// as null.
type reviewedEventJSON struct {
	Event string `json:"event"`
	reviewJSON
	Body  *string `json:"body"`
	State string  `json:"state"`
}

// reviewRequestEventJSON is GitHub's review-requested-issue-event and
// review-request-removed-issue-event: the requester, and the user or the
// team asked.
type reviewRequestEventJSON struct {
	eventJSON
	ReviewRequester   *userJSON `json:"review_requester"`
	RequestedReviewer *userJSON `json:"requested_reviewer,omitempty"`
	RequestedTeam     *teamJSON `json:"requested_team,omitempty"`
}

// liveCommits are the SHAs of a pull request's commits now: a committed
// event whose commit a force push dropped is not shown.
func liveCommits(is *state.Issue) map[string]bool {
	if is.Pull == nil {
		return nil
	}
	live := map[string]bool{}
	for _, cm := range is.Pull.Commits() {
		live[cm.SHA] = true
	}
	return live
}

// pullEvent renders a pull request's own event, or reports false when ev
// is not one; a committed event of a dropped commit renders as nil.
func (c *call) pullEvent(is *state.Issue, ev *state.Event, live map[string]bool, out eventJSON) (any, bool) {
	switch ev.Event {
	case "committed":
		if !live[ev.Commit.SHA] {
			return nil, true
		}
		return committedEventJSON{gitObjectJSON: c.gitCommitJSON(is.Pull.HeadRepo, ev.Commit), Event: ev.Event}, true
	case "reviewed":
		rv := ev.Review
		r := reviewedEventJSON{Event: ev.Event, reviewJSON: c.reviewJSON(rv), State: strings.ToLower(rv.State)}
		if rv.Body != "" {
			r.Body = &rv.Body
		}
		return r, true
	case "merged":
		sha := ev.Commit.SHA
		url := c.Links.Repo(is.Repo) + "/commits/" + sha
		out.CommitID, out.CommitURL = &sha, &url
		return out, true
	case "review_requested", "review_request_removed":
		r := reviewRequestEventJSON{eventJSON: out, ReviewRequester: out.Actor, RequestedReviewer: renderSimpleUser(c.Links, ev.Reviewer)}
		if ev.Team != nil {
			t := renderTeam(c.Links, ev.Team)
			r.RequestedTeam = &t
		}
		return r, true
	}
	return nil, false
}
