package rest

import (
	"fmt"
	"net/url"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// userJSON is GitHub's simple-user.
type userJSON struct {
	Login             string  `json:"login"`
	ID                int64   `json:"id"`
	NodeID            string  `json:"node_id"`
	AvatarURL         string  `json:"avatar_url"`
	GravatarID        *string `json:"gravatar_id"`
	URL               string  `json:"url"`
	HTMLURL           string  `json:"html_url"`
	FollowersURL      string  `json:"followers_url"`
	FollowingURL      string  `json:"following_url"`
	GistsURL          string  `json:"gists_url"`
	StarredURL        string  `json:"starred_url"`
	SubscriptionsURL  string  `json:"subscriptions_url"`
	OrganizationsURL  string  `json:"organizations_url"`
	ReposURL          string  `json:"repos_url"`
	EventsURL         string  `json:"events_url"`
	ReceivedEventsURL string  `json:"received_events_url"`
	Type              string  `json:"type"`
	SiteAdmin         bool    `json:"site_admin"`
	UserViewType      string  `json:"user_view_type,omitempty"`
}

func renderSimpleUser(l wire.Links, a *state.Account) *userJSON {
	if a == nil {
		return nil
	}
	// GitHub escapes a bot's brackets: /users/name%5Bbot%5D.
	u := l.API + "/users/" + url.PathEscape(a.Login)
	typ := "User"
	switch {
	case a.IsOrg:
		typ = "Organization"
	case a.IsBot:
		typ = "Bot"
	}
	empty := ""
	return &userJSON{
		Login: a.Login, ID: a.ID, NodeID: a.NodeID,
		AvatarURL:         fmt.Sprintf("%s/avatars/u/%d?v=4", l.Web, a.ID),
		GravatarID:        &empty,
		URL:               u,
		HTMLURL:           l.Profile(a),
		FollowersURL:      u + "/followers",
		FollowingURL:      u + "/following{/other_user}",
		GistsURL:          u + "/gists{/gist_id}",
		StarredURL:        u + "/starred{/owner}{/repo}",
		SubscriptionsURL:  u + "/subscriptions",
		OrganizationsURL:  u + "/orgs",
		ReposURL:          u + "/repos",
		EventsURL:         u + "/events{/privacy}",
		ReceivedEventsURL: u + "/received_events",
		Type:              typ,
		UserViewType:      "public",
	}
}

// labelJSON is GitHub's label.
type labelJSON struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	URL         string  `json:"url"`
	Name        string  `json:"name"`
	Color       string  `json:"color"`
	Default     bool    `json:"default"`
	Description *string `json:"description"`
}

func renderLabel(l wire.Links, r *state.Repo, lb *state.Label) labelJSON {
	return labelJSON{ID: lb.ID, NodeID: lb.NodeID, URL: l.Repo(r) + "/labels/" + url.PathEscape(lb.Name),
		Name: lb.Name, Color: lb.Color, Default: lb.Default, Description: lb.Description}
}

// milestoneJSON is GitHub's milestone.
type milestoneJSON struct {
	URL          string    `json:"url"`
	HTMLURL      string    `json:"html_url"`
	LabelsURL    string    `json:"labels_url"`
	ID           int64     `json:"id"`
	NodeID       string    `json:"node_id"`
	Number       int       `json:"number"`
	State        string    `json:"state"`
	Title        string    `json:"title"`
	Description  *string   `json:"description"`
	Creator      *userJSON `json:"creator"`
	OpenIssues   int       `json:"open_issues"`
	ClosedIssues int       `json:"closed_issues"`
	CreatedAt    string    `json:"created_at"`
	UpdatedAt    string    `json:"updated_at"`
	ClosedAt     *string   `json:"closed_at"`
	DueOn        *string   `json:"due_on"`
}

func renderMilestone(l wire.Links, r *state.Repo, m *state.Milestone) *milestoneJSON {
	if m == nil {
		return nil
	}
	open, closed := state.MilestoneCounts(r, m)
	u := fmt.Sprintf("%s/milestones/%d", l.Repo(r), m.Number)
	return &milestoneJSON{
		URL: u, HTMLURL: fmt.Sprintf("%s/%s/milestone/%d", l.Web, r.FullName(), m.Number), LabelsURL: u + "/labels",
		ID: m.ID, NodeID: m.NodeID, Number: m.Number, State: m.State, Title: m.Title, Description: m.Description,
		Creator: renderSimpleUser(l, m.Creator), OpenIssues: open, ClosedIssues: closed,
		CreatedAt: wire.Timestamp(m.CreatedAt), UpdatedAt: wire.Timestamp(m.UpdatedAt), ClosedAt: wire.TimestampPtr(m.ClosedAt), DueOn: wire.TimestampPtr(m.DueOn),
	}
}

// issueTypeJSON is GitHub's issue-type.
type issueTypeJSON struct {
	ID          int64   `json:"id"`
	NodeID      string  `json:"node_id"`
	Name        string  `json:"name"`
	Description *string `json:"description"`
	Color       *string `json:"color"`
	CreatedAt   string  `json:"created_at"`
	UpdatedAt   string  `json:"updated_at"`
	IsEnabled   bool    `json:"is_enabled"`
}

func issueType(t *state.IssueType) *issueTypeJSON {
	if t == nil {
		return nil
	}
	return &issueTypeJSON{ID: t.ID, NodeID: t.NodeID, Name: t.Name, Description: t.Description, Color: t.Color,
		CreatedAt: wire.Timestamp(t.CreatedAt), UpdatedAt: wire.Timestamp(t.UpdatedAt), IsEnabled: t.IsEnabled}
}

type subIssuesSummaryJSON struct {
	Total            int `json:"total"`
	Completed        int `json:"completed"`
	PercentCompleted int `json:"percent_completed"`
}

type dependenciesSummaryJSON struct {
	BlockedBy      int `json:"blocked_by"`
	Blocking       int `json:"blocking"`
	TotalBlockedBy int `json:"total_blocked_by"`
	TotalBlocking  int `json:"total_blocking"`
}

type pullRequestRefJSON struct {
	URL      string  `json:"url"`
	HTMLURL  string  `json:"html_url"`
	DiffURL  string  `json:"diff_url"`
	PatchURL string  `json:"patch_url"`
	MergedAt *string `json:"merged_at"`
}

type reactionsJSON struct {
	URL        string `json:"url"`
	TotalCount int    `json:"total_count"`
	PlusOne    int    `json:"+1"`
	MinusOne   int    `json:"-1"`
	Laugh      int    `json:"laugh"`
	Confused   int    `json:"confused"`
	Heart      int    `json:"heart"`
	Hooray     int    `json:"hooray"`
	Eyes       int    `json:"eyes"`
	Rocket     int    `json:"rocket"`
}

// issueJSON is GitHub's issue.
type issueJSON struct {
	URL                      string                   `json:"url"`
	RepositoryURL            string                   `json:"repository_url"`
	LabelsURL                string                   `json:"labels_url"`
	CommentsURL              string                   `json:"comments_url"`
	EventsURL                string                   `json:"events_url"`
	HTMLURL                  string                   `json:"html_url"`
	ID                       int64                    `json:"id"`
	NodeID                   string                   `json:"node_id"`
	Number                   int                      `json:"number"`
	Title                    string                   `json:"title"`
	User                     *userJSON                `json:"user"`
	Labels                   []labelJSON              `json:"labels"`
	State                    string                   `json:"state"`
	Locked                   bool                     `json:"locked"`
	Assignee                 *userJSON                `json:"assignee"`
	Assignees                []*userJSON              `json:"assignees"`
	Milestone                *milestoneJSON           `json:"milestone"`
	Comments                 int                      `json:"comments"`
	CreatedAt                string                   `json:"created_at"`
	UpdatedAt                string                   `json:"updated_at"`
	ClosedAt                 *string                  `json:"closed_at"`
	AuthorAssociation        string                   `json:"author_association"`
	ActiveLockReason         *string                  `json:"active_lock_reason"`
	Type                     *issueTypeJSON           `json:"type"`
	Body                     *string                  `json:"body"`
	ClosedBy                 *userJSON                `json:"closed_by,omitempty"`
	Reactions                reactionsJSON            `json:"reactions"`
	PerformedViaGitHubApp    *struct{}                `json:"performed_via_github_app"`
	TimelineURL              string                   `json:"timeline_url"`
	StateReason              *string                  `json:"state_reason"`
	PullRequest              *pullRequestRefJSON      `json:"pull_request,omitempty"`
	Draft                    *bool                    `json:"draft,omitempty"`
	ParentIssueURL           *string                  `json:"parent_issue_url,omitempty"`
	SubIssuesSummary         *subIssuesSummaryJSON    `json:"sub_issues_summary,omitempty"`
	IssueDependenciesSummary *dependenciesSummaryJSON `json:"issue_dependencies_summary,omitempty"`
}

func renderIssue(l wire.Links, is *state.Issue) *issueJSON {
	r := is.Repo
	base := fmt.Sprintf("%s/issues/%d", l.Repo(r), is.Number)
	kind := "issues"
	if is.IsPull {
		kind = "pull"
	}
	out := &issueJSON{
		URL: base, RepositoryURL: l.Repo(r), LabelsURL: base + "/labels{/name}", CommentsURL: base + "/comments",
		EventsURL: base + "/events", HTMLURL: fmt.Sprintf("%s/%s/%s/%d", l.Web, r.FullName(), kind, is.Number),
		ID: is.ID, NodeID: is.NodeID, Number: is.Number, Title: is.Title, User: renderSimpleUser(l, is.User),
		Labels: []labelJSON{}, State: is.State, Locked: is.Locked, Assignees: []*userJSON{},
		Milestone: renderMilestone(l, r, is.Milestone), Comments: len(is.Comments),
		CreatedAt: wire.Timestamp(is.CreatedAt), UpdatedAt: wire.Timestamp(is.UpdatedAt), ClosedAt: wire.TimestampPtr(is.ClosedAt),
		AuthorAssociation: state.Association(is.User, r), ActiveLockReason: is.ActiveLockReason,
		Type: issueType(is.Type), Body: is.Body, ClosedBy: renderSimpleUser(l, is.ClosedBy),
		Reactions:   reactionRollup(base+"/reactions", is.Reactions),
		TimelineURL: base + "/timeline", StateReason: is.StateReason,
	}
	for _, lb := range is.Labels {
		out.Labels = append(out.Labels, renderLabel(l, r, lb))
	}
	for _, a := range is.Assignees {
		out.Assignees = append(out.Assignees, renderSimpleUser(l, a))
	}
	if len(is.Assignees) > 0 {
		out.Assignee = out.Assignees[0]
	}
	if is.IsPull {
		pr := fmt.Sprintf("%s/pulls/%d", l.Repo(r), is.Number)
		web := fmt.Sprintf("%s/%s/pull/%d", l.Web, r.FullName(), is.Number)
		out.PullRequest = &pullRequestRefJSON{URL: pr, HTMLURL: web, DiffURL: web + ".diff", PatchURL: web + ".patch"}
		if is.Merged && is.ClosedAt != nil {
			out.PullRequest.MergedAt = wire.TimestampPtr(is.ClosedAt)
		}
		draft := is.Pull != nil && is.Pull.Draft
		out.Draft = &draft
		return out
	}
	if is.Parent != nil {
		p := fmt.Sprintf("%s/issues/%d", l.Repo(is.Parent.Repo), is.Parent.Number)
		out.ParentIssueURL = &p
	}
	sum := &subIssuesSummaryJSON{}
	for _, c := range is.SubIssues {
		if c.Deleted {
			continue
		}
		sum.Total++
		if c.State == "closed" {
			sum.Completed++
		}
	}
	if sum.Total > 0 {
		sum.PercentCompleted = sum.Completed * 100 / sum.Total
	}
	out.SubIssuesSummary = sum
	deps := &dependenciesSummaryJSON{}
	for _, b := range is.BlockedBy {
		deps.TotalBlockedBy++
		if b.State == "open" {
			deps.BlockedBy++
		}
	}
	for _, b := range is.Blocking {
		deps.TotalBlocking++
		if b.State == "open" {
			deps.Blocking++
		}
	}
	out.IssueDependenciesSummary = deps
	return out
}

// issueDetailJSON is an issue as the routes answering one issue send it:
// GitHub includes closed_by there, null while the issue is open, and leaves
// it out of lists unless set.
type issueDetailJSON struct {
	*issueJSON
	ClosedBy *userJSON `json:"closed_by"`
}

func renderIssueDetail(l wire.Links, is *state.Issue) issueDetailJSON {
	out := renderIssue(l, is)
	return issueDetailJSON{issueJSON: out, ClosedBy: out.ClosedBy}
}

// commentJSON is GitHub's issue-comment.
type commentJSON struct {
	ID                int64         `json:"id"`
	NodeID            string        `json:"node_id"`
	URL               string        `json:"url"`
	HTMLURL           string        `json:"html_url"`
	Body              string        `json:"body"`
	User              *userJSON     `json:"user"`
	CreatedAt         string        `json:"created_at"`
	UpdatedAt         string        `json:"updated_at"`
	IssueURL          string        `json:"issue_url"`
	AuthorAssociation string        `json:"author_association"`
	Reactions         reactionsJSON `json:"reactions"`
}

func renderComment(l wire.Links, c *state.Comment) commentJSON {
	r := c.Issue.Repo
	u := fmt.Sprintf("%s/issues/comments/%d", l.Repo(r), c.ID)
	return commentJSON{
		ID: c.ID, NodeID: c.NodeID, URL: u,
		HTMLURL: fmt.Sprintf("%s/%s/issues/%d#issuecomment-%d", l.Web, r.FullName(), c.Issue.Number, c.ID),
		Body:    c.Body, User: renderSimpleUser(l, c.User), CreatedAt: wire.Timestamp(c.CreatedAt), UpdatedAt: wire.Timestamp(c.UpdatedAt),
		IssueURL: fmt.Sprintf("%s/issues/%d", l.Repo(r), c.Issue.Number), AuthorAssociation: state.Association(c.User, r),
		Reactions: reactionRollup(u+"/reactions", c.Reactions),
	}
}
