package rest

import (
	"strconv"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

func itoa(n int) string { return strconv.Itoa(n) }

// repoJSON is GitHub's minimal-repository, and with the full fields set its
// full-repository.
type repoJSON struct {
	ID               int64      `json:"id"`
	NodeID           string     `json:"node_id"`
	Name             string     `json:"name"`
	FullName         string     `json:"full_name"`
	Owner            *userJSON  `json:"owner"`
	Private          bool       `json:"private"`
	HTMLURL          string     `json:"html_url"`
	Description      *string    `json:"description"`
	Fork             bool       `json:"fork"`
	URL              string     `json:"url"`
	ArchiveURL       string     `json:"archive_url"`
	AssigneesURL     string     `json:"assignees_url"`
	BlobsURL         string     `json:"blobs_url"`
	BranchesURL      string     `json:"branches_url"`
	CollaboratorsURL string     `json:"collaborators_url"`
	CommentsURL      string     `json:"comments_url"`
	CommitsURL       string     `json:"commits_url"`
	CompareURL       string     `json:"compare_url"`
	ContentsURL      string     `json:"contents_url"`
	ContributorsURL  string     `json:"contributors_url"`
	DeploymentsURL   string     `json:"deployments_url"`
	DownloadsURL     string     `json:"downloads_url"`
	EventsURL        string     `json:"events_url"`
	ForksURL         string     `json:"forks_url"`
	GitCommitsURL    string     `json:"git_commits_url"`
	GitRefsURL       string     `json:"git_refs_url"`
	GitTagsURL       string     `json:"git_tags_url"`
	GitURL           string     `json:"git_url"`
	IssueCommentURL  string     `json:"issue_comment_url"`
	IssueEventsURL   string     `json:"issue_events_url"`
	IssuesURL        string     `json:"issues_url"`
	KeysURL          string     `json:"keys_url"`
	LabelsURL        string     `json:"labels_url"`
	LanguagesURL     string     `json:"languages_url"`
	MergesURL        string     `json:"merges_url"`
	MilestonesURL    string     `json:"milestones_url"`
	NotificationsURL string     `json:"notifications_url"`
	PullsURL         string     `json:"pulls_url"`
	ReleasesURL      string     `json:"releases_url"`
	SSHURL           string     `json:"ssh_url"`
	StargazersURL    string     `json:"stargazers_url"`
	StatusesURL      string     `json:"statuses_url"`
	SubscribersURL   string     `json:"subscribers_url"`
	SubscriptionURL  string     `json:"subscription_url"`
	TagsURL          string     `json:"tags_url"`
	TeamsURL         string     `json:"teams_url"`
	TreesURL         string     `json:"trees_url"`
	CloneURL         string     `json:"clone_url"`
	MirrorURL        *string    `json:"mirror_url"`
	HooksURL         string     `json:"hooks_url"`
	SvnURL           string     `json:"svn_url"`
	Homepage         *string    `json:"homepage"`
	Language         *string    `json:"language"`
	ForksCount       int        `json:"forks_count"`
	StargazersCount  int        `json:"stargazers_count"`
	WatchersCount    int        `json:"watchers_count"`
	Size             int        `json:"size"`
	DefaultBranch    string     `json:"default_branch"`
	OpenIssuesCount  int        `json:"open_issues_count"`
	IsTemplate       bool       `json:"is_template"`
	Topics           []string   `json:"topics"`
	HasIssues        bool       `json:"has_issues"`
	HasProjects      bool       `json:"has_projects"`
	HasWiki          bool       `json:"has_wiki"`
	HasPages         bool       `json:"has_pages"`
	HasDownloads     bool       `json:"has_downloads"`
	HasDiscussions   bool       `json:"has_discussions"`
	Archived         bool       `json:"archived"`
	Disabled         bool       `json:"disabled"`
	Visibility       string     `json:"visibility"`
	PushedAt         *string    `json:"pushed_at"`
	CreatedAt        *string    `json:"created_at"`
	UpdatedAt        *string    `json:"updated_at"`
	Permissions      *permsJSON `json:"permissions,omitempty"`
	License          *struct{}  `json:"license"`
	Forks            int        `json:"forks"`
	OpenIssues       int        `json:"open_issues"`
	Watchers         int        `json:"watchers"`
	*fullRepoFields
}

type fullRepoFields struct {
	NetworkCount     int `json:"network_count"`
	SubscribersCount int `json:"subscribers_count"`
	// A fork names its parent and the root of its network (source).
	Parent *repoJSON `json:"parent,omitempty"`
	Source *repoJSON `json:"source,omitempty"`
}

type permsJSON struct {
	Admin    bool `json:"admin"`
	Maintain bool `json:"maintain"`
	Push     bool `json:"push"`
	Triage   bool `json:"triage"`
	Pull     bool `json:"pull"`
}

func (c *call) repoJSON(r *state.Repo, full bool) repoJSON {
	u := c.Links.Repo(r)
	web := c.Links.Web + "/" + r.FullName()
	var desc *string
	if r.Description != "" {
		d := r.Description
		desc = &d
	}
	open := 0
	for _, is := range r.Issues {
		if !is.Deleted && is.State == "open" {
			open++
		}
	}
	var homepage *string
	if r.Homepage != "" {
		h := r.Homepage
		homepage = &h
	}
	created, updated := wire.Timestamp(r.CreatedAt), wire.Timestamp(r.UpdatedAt)
	visibility := "public"
	if r.Private {
		visibility = "private"
	}
	p := c.Token.Permission(r)
	out := repoJSON{
		ID: r.ID, NodeID: r.NodeID, Name: r.Name, FullName: r.FullName(), Owner: renderSimpleUser(c.Links, r.Owner),
		Private: r.Private, HTMLURL: web, Description: desc, Homepage: homepage, URL: u,
		ArchiveURL: u + "/{archive_format}{/ref}", AssigneesURL: u + "/assignees{/user}", BlobsURL: u + "/git/blobs{/sha}",
		BranchesURL: u + "/branches{/branch}", CollaboratorsURL: u + "/collaborators{/collaborator}",
		CommentsURL: u + "/comments{/number}", CommitsURL: u + "/commits{/sha}", CompareURL: u + "/compare/{base}...{head}",
		ContentsURL: u + "/contents/{+path}", ContributorsURL: u + "/contributors", DeploymentsURL: u + "/deployments",
		DownloadsURL: u + "/downloads", EventsURL: u + "/events", ForksURL: u + "/forks",
		GitCommitsURL: u + "/git/commits{/sha}", GitRefsURL: u + "/git/refs{/sha}", GitTagsURL: u + "/git/tags{/sha}",
		GitURL: "git://" + c.Req.Host + "/" + r.FullName() + ".git", IssueCommentURL: u + "/issues/comments{/number}",
		IssueEventsURL: u + "/issues/events{/number}", IssuesURL: u + "/issues{/number}", KeysURL: u + "/keys{/key_id}",
		LabelsURL: u + "/labels{/name}", LanguagesURL: u + "/languages", MergesURL: u + "/merges",
		MilestonesURL: u + "/milestones{/number}", NotificationsURL: u + "/notifications{?since,all,participating}",
		PullsURL: u + "/pulls{/number}", ReleasesURL: u + "/releases{/id}", SSHURL: "git@" + c.Req.Host + ":" + r.FullName() + ".git",
		StargazersURL: u + "/stargazers", StatusesURL: u + "/statuses/{sha}", SubscribersURL: u + "/subscribers",
		SubscriptionURL: u + "/subscription", TagsURL: u + "/tags", TeamsURL: u + "/teams", TreesURL: u + "/git/trees{/sha}",
		CloneURL: web + ".git", HooksURL: u + "/hooks", SvnURL: web, DefaultBranch: state.RepoDefaultBranch,
		OpenIssuesCount: open, OpenIssues: open, Topics: topicNames(r),
		HasIssues: !r.IssuesDisabled, Archived: r.Archived, HasProjects: state.RepoHasProjects, HasWiki: !r.WikiDisabled, HasDownloads: state.RepoHasDownloads,
		Visibility: visibility, PushedAt: &updated, CreatedAt: &created, UpdatedAt: &updated,
		Permissions: &permsJSON{Admin: p >= state.PermAdmin, Maintain: p >= state.PermAdmin, Push: p >= state.PermWrite, Triage: p >= state.PermTriage, Pull: p >= state.PermRead},
	}
	out.StargazersCount, out.WatchersCount, out.Watchers = len(r.Stars), len(r.Stars), len(r.Stars)
	out.Fork = r.Parent != nil
	for _, o := range c.State.Repos() {
		if o.Parent == r {
			out.ForksCount++
			out.Forks++
		}
	}
	if full {
		out.fullRepoFields = &fullRepoFields{}
		if r.Parent != nil && c.Token.Permission(r.Parent) > state.PermNone {
			parent := c.repoJSON(r.Parent, false)
			source := r.Parent
			for source.Parent != nil {
				source = source.Parent
			}
			src := c.repoJSON(source, false)
			out.Parent, out.Source = &parent, &src
		}
	}
	return out
}
