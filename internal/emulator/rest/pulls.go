package rest

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// REST pull requests: GitHub's pull-request-simple in lists and
// pull-request for one, whose git side (branches, mergeability, counts)
// comes from the repository's git data.

type linkJSON struct {
	Href string `json:"href"`
}

type pullLinksJSON struct {
	Self           linkJSON `json:"self"`
	HTML           linkJSON `json:"html"`
	Issue          linkJSON `json:"issue"`
	Comments       linkJSON `json:"comments"`
	ReviewComments linkJSON `json:"review_comments"`
	ReviewComment  linkJSON `json:"review_comment"`
	Commits        linkJSON `json:"commits"`
	Statuses       linkJSON `json:"statuses"`
}

// branchRefJSON is a pull request's head or base.
type branchRefJSON struct {
	Label string    `json:"label"`
	Ref   string    `json:"ref"`
	SHA   string    `json:"sha"`
	User  *userJSON `json:"user"`
	Repo  *repoJSON `json:"repo"`
}

// teamJSON is GitHub's team (and team-simple).
type teamJSON struct {
	ID                  int64     `json:"id"`
	NodeID              string    `json:"node_id"`
	URL                 string    `json:"url"`
	HTMLURL             string    `json:"html_url"`
	Name                string    `json:"name"`
	Slug                string    `json:"slug"`
	Description         *string   `json:"description"`
	Privacy             string    `json:"privacy"`
	NotificationSetting string    `json:"notification_setting"`
	Permission          string    `json:"permission"`
	MembersURL          string    `json:"members_url"`
	RepositoriesURL     string    `json:"repositories_url"`
	Type                string    `json:"type"`
	Parent              *struct{} `json:"parent"`
}

func renderTeam(l wire.Links, t *state.Team) teamJSON {
	u := fmt.Sprintf("%s/organizations/%d/team/%d", l.API, t.Org.ID, t.ID)
	return teamJSON{ID: t.ID, NodeID: t.NodeID, URL: u, HTMLURL: l.Web + "/orgs/" + t.Org.Login + "/teams/" + t.Slug,
		Name: t.Name, Slug: t.Slug, Privacy: "closed", NotificationSetting: "notifications_enabled", Permission: "pull",
		MembersURL: u + "/members{/member}", RepositoriesURL: u + "/repos", Type: "organization"}
}

// pullJSON is GitHub's pull-request-simple; with pullDetail set, its
// pull-request.
type pullJSON struct {
	URL                string         `json:"url"`
	ID                 int64          `json:"id"`
	NodeID             string         `json:"node_id"`
	HTMLURL            string         `json:"html_url"`
	DiffURL            string         `json:"diff_url"`
	PatchURL           string         `json:"patch_url"`
	IssueURL           string         `json:"issue_url"`
	CommitsURL         string         `json:"commits_url"`
	ReviewCommentsURL  string         `json:"review_comments_url"`
	ReviewCommentURL   string         `json:"review_comment_url"`
	CommentsURL        string         `json:"comments_url"`
	StatusesURL        string         `json:"statuses_url"`
	Number             int            `json:"number"`
	State              string         `json:"state"`
	Locked             bool           `json:"locked"`
	Title              string         `json:"title"`
	User               *userJSON      `json:"user"`
	Body               *string        `json:"body"`
	Labels             []labelJSON    `json:"labels"`
	Milestone          *milestoneJSON `json:"milestone"`
	ActiveLockReason   *string        `json:"active_lock_reason"`
	CreatedAt          string         `json:"created_at"`
	UpdatedAt          string         `json:"updated_at"`
	ClosedAt           *string        `json:"closed_at"`
	MergedAt           *string        `json:"merged_at"`
	MergeCommitSHA     *string        `json:"merge_commit_sha"`
	Assignee           *userJSON      `json:"assignee"`
	Assignees          []*userJSON    `json:"assignees"`
	RequestedReviewers []*userJSON    `json:"requested_reviewers"`
	RequestedTeams     []teamJSON     `json:"requested_teams"`
	Head               branchRefJSON  `json:"head"`
	Base               branchRefJSON  `json:"base"`
	Links              pullLinksJSON  `json:"_links"`
	AuthorAssociation  string         `json:"author_association"`
	AutoMerge          *struct{}      `json:"auto_merge"`
	Draft              bool           `json:"draft"`
	*pullDetail
}

// pullDetail is what pull-request adds to pull-request-simple.
type pullDetail struct {
	Merged              bool      `json:"merged"`
	Mergeable           *bool     `json:"mergeable"`
	Rebaseable          *bool     `json:"rebaseable"`
	MergeableState      string    `json:"mergeable_state"`
	MergedBy            *userJSON `json:"merged_by"`
	Comments            int       `json:"comments"`
	ReviewComments      int       `json:"review_comments"`
	MaintainerCanModify bool      `json:"maintainer_can_modify"`
	Commits             int       `json:"commits"`
	Additions           int       `json:"additions"`
	Deletions           int       `json:"deletions"`
	ChangedFiles        int       `json:"changed_files"`
}

func (c *call) branchRef(r *state.Repo, ref string, sha string) branchRefJSON {
	repo := c.repoJSON(r, false)
	return branchRefJSON{Label: r.Owner.Login + ":" + ref, Ref: ref, SHA: sha, User: renderSimpleUser(c.Links, r.Owner), Repo: &repo}
}

func (c *call) pullJSON(is *state.Issue, detail bool) *pullJSON {
	r, p, l := is.Repo, is.Pull, c.Links
	api := fmt.Sprintf("%s/pulls/%d", l.Repo(r), is.Number)
	issue := fmt.Sprintf("%s/issues/%d", l.Repo(r), is.Number)
	web := l.Web + wire.IssuePath(is)
	statuses := l.Repo(r) + "/statuses/" + p.Head.SHA
	out := &pullJSON{
		URL: api, ID: is.ID, NodeID: is.NodeID, HTMLURL: web, DiffURL: web + ".diff", PatchURL: web + ".patch",
		IssueURL: issue, CommitsURL: api + "/commits", ReviewCommentsURL: api + "/comments",
		ReviewCommentURL: l.Repo(r) + "/pulls/comments{/number}", CommentsURL: issue + "/comments", StatusesURL: statuses,
		Number: is.Number, State: is.State, Locked: is.Locked, Title: is.Title, User: renderSimpleUser(l, is.User), Body: is.Body,
		Labels: []labelJSON{}, Milestone: renderMilestone(l, r, is.Milestone), ActiveLockReason: is.ActiveLockReason,
		CreatedAt: wire.Timestamp(is.CreatedAt), UpdatedAt: wire.Timestamp(is.UpdatedAt), ClosedAt: wire.TimestampPtr(is.ClosedAt), MergedAt: wire.TimestampPtr(p.MergedAt),
		Assignees: []*userJSON{}, RequestedReviewers: []*userJSON{}, RequestedTeams: []teamJSON{},
		Head: c.branchRef(p.HeadRepo, p.HeadRef, p.Head.SHA), Base: c.branchRef(r, p.BaseRef, p.Base.SHA),
		Links: pullLinksJSON{Self: linkJSON{api}, HTML: linkJSON{web}, Issue: linkJSON{issue}, Comments: linkJSON{issue + "/comments"},
			ReviewComments: linkJSON{api + "/comments"}, ReviewComment: linkJSON{l.Repo(r) + "/pulls/comments{/number}"},
			Commits: linkJSON{api + "/commits"}, Statuses: linkJSON{statuses}},
		AuthorAssociation: state.Association(is.User, r), Draft: p.Draft,
	}
	if is.State == "open" {
		// The base of an open pull request is its branch's current tip.
		out.Base.SHA = r.Git.Branches[p.BaseRef].SHA
	}
	if p.MergeCommit != nil {
		out.MergeCommitSHA = &p.MergeCommit.SHA
	}
	for _, lb := range is.Labels {
		lj := renderLabel(l, r, lb)
		if !detail && lj.Description == nil {
			// GitHub's description declares a pull-request-simple label's
			// description a string that is never null.
			lj.Description = new(string)
		}
		out.Labels = append(out.Labels, lj)
	}
	for _, a := range is.Assignees {
		out.Assignees = append(out.Assignees, renderSimpleUser(l, a))
	}
	if len(out.Assignees) > 0 {
		out.Assignee = out.Assignees[0]
	}
	for _, a := range p.RequestedReviewers {
		out.RequestedReviewers = append(out.RequestedReviewers, renderSimpleUser(l, a))
	}
	for _, t := range p.RequestedTeams {
		out.RequestedTeams = append(out.RequestedTeams, renderTeam(l, t))
	}
	if !detail {
		return out
	}
	d := &pullDetail{Merged: is.Merged, MergeableState: p.MergeState(is), MergedBy: renderSimpleUser(l, p.MergedBy),
		Comments: len(is.Comments), MaintainerCanModify: p.MaintainerCanModify, Commits: len(p.Commits())}
	if is.State == "open" {
		ok := !p.Conflicts(r)
		d.Mergeable, d.Rebaseable = &ok, &ok
	}
	for _, t := range p.Threads {
		d.ReviewComments += len(state.VisibleReviewComments(t.Comments, nil))
	}
	for _, fc := range p.Changes() {
		d.Additions += fc.Additions
		d.Deletions += fc.Deletions
		d.ChangedFiles++
	}
	out.pullDetail = d
	return out
}

// repoPull resolves {owner}/{repo} with the permission a route needs and
// {pull_number} in it; nil (the answer already written) when either
// fails.
func (c *call) repoPull(perm state.Permission) (*state.Repo, *state.Issue) {
	r := c.RepoFor(perm)
	if r == nil {
		return nil, nil
	}
	return r, c.pullFor(r)
}

// pullFor resolves {pull_number}: a pull request of r (an issue number
// answers 404, as on GitHub).
func (c *call) pullFor(r *state.Repo) *state.Issue {
	n, err := strconv.Atoi(c.Req.PathValue("pull_number"))
	if err != nil {
		c.NotFound()
		return nil
	}
	is := r.Issue(n)
	if is == nil || is.Deleted || is.Pull == nil {
		c.NotFound()
		return nil
	}
	return is
}

func listPulls(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	q := c.Req.URL.Query()
	want := q.Get("state")
	if want == "" {
		want = "open"
	}
	if want != "open" && want != "closed" && want != "all" {
		c.Invalid("", "rest/pulls/pulls#list-pull-requests", wire.FieldError{Resource: "PullRequest", Field: "state", Code: "invalid"})
		return
	}
	sortBy, direction := q.Get("sort"), q.Get("direction")
	if sortBy == "" {
		sortBy = "created"
	}
	if !slices.Contains([]string{"created", "updated", "popularity", "long-running"}, sortBy) {
		c.Invalid("", "rest/pulls/pulls#list-pull-requests", wire.FieldError{Resource: "PullRequest", Field: "sort", Code: "invalid"})
		return
	}
	if direction == "" {
		// GitHub's default: desc for created, asc for the others.
		direction = "asc"
		if sortBy == "created" {
			direction = "desc"
		}
	}
	// head is "user:ref-name" or "organization:ref-name".
	headOwner, headRef, byHead := strings.Cut(q.Get("head"), ":")
	var list []*state.Issue
	for _, is := range r.Issues {
		p := is.Pull
		if is.Deleted || p == nil || want != "all" && is.State != want {
			continue
		}
		if base := q.Get("base"); base != "" && p.BaseRef != base {
			continue
		}
		if byHead && (!strings.EqualFold(p.HeadRepo.Owner.Login, headOwner) || p.HeadRef != headRef) {
			continue
		}
		list = append(list, is)
	}
	switch sortBy {
	case "popularity":
		search.SortIssues(list, "comments", direction)
	case "updated":
		search.SortIssues(list, "updated", direction)
	default:
		// long-running orders by age too: the oldest still-active first.
		search.SortIssues(list, "created", direction)
	}
	out := []*pullJSON{}
	for _, is := range paginate(c, list) {
		out = append(out, c.pullJSON(is, false))
	}
	c.JSON(http.StatusOK, out)
}

func getPull(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	switch mediaParam(c.Req.Header.Get("Accept")) {
	case "diff":
		c.text("diff", state.GitDiff(is.Pull.Changes()))
	case "patch":
		c.text("patch", state.FormatPatch(is.Pull.Commits()))
	default:
		c.JSON(http.StatusOK, c.pullJSON(is, true))
	}
}

// mediaParam is the format an Accept header asks for beyond JSON:
// "diff" or "patch" (application/vnd.github.diff, .v3.diff, ...), else "".
func mediaParam(accept string) string {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if !strings.HasPrefix(mt, "application/vnd.github") {
			continue
		}
		for _, f := range []string{"diff", "patch"} {
			if strings.HasSuffix(mt, "."+f) {
				return f
			}
		}
	}
	return ""
}

// text answers 200 with a diff or patch, in the media type asked for, as
// GitHub does.
func (c *call) text(format, body string) {
	h := c.W.Header()
	h.Set("Content-Type", "application/vnd.github."+format+"; charset=utf-8")
	h.Set("X-GitHub-Media-Type", "github.v3; param="+format)
	c.W.WriteHeader(http.StatusOK)
	_, _ = c.W.Write([]byte(body))
}

// diffEntryJSON is GitHub's diff-entry.
type diffEntryJSON struct {
	SHA         *string `json:"sha"`
	Filename    string  `json:"filename"`
	Status      string  `json:"status"`
	Additions   int     `json:"additions"`
	Deletions   int     `json:"deletions"`
	Changes     int     `json:"changes"`
	BlobURL     string  `json:"blob_url"`
	RawURL      string  `json:"raw_url"`
	ContentsURL string  `json:"contents_url"`
	Patch       string  `json:"patch,omitempty"`
}

func (c *call) diffEntry(r *state.Repo, at *state.GitCommit, fc state.FileChange) diffEntryJSON {
	esc := escapePath(fc.Path)
	// A removed file's links point at the parent's version.
	content := fc.After
	if fc.Status == "removed" {
		content = fc.Before
	}
	sha := state.BlobSHA(content)
	return diffEntryJSON{SHA: &sha, Filename: fc.Path, Status: fc.Status, Additions: fc.Additions, Deletions: fc.Deletions,
		Changes: fc.Additions + fc.Deletions, Patch: fc.Patch,
		BlobURL:     c.Links.Web + "/" + r.FullName() + "/blob/" + at.SHA + "/" + esc,
		RawURL:      c.Links.Web + "/" + r.FullName() + "/raw/" + at.SHA + "/" + esc,
		ContentsURL: c.Links.Repo(r) + "/contents/" + esc + "?ref=" + at.SHA}
}

func listPullFiles(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	out := []diffEntryJSON{}
	for _, fc := range paginate(c, is.Pull.Changes()) {
		out = append(out, c.diffEntry(is.Pull.HeadRepo, is.Pull.Head, fc))
	}
	c.JSON(http.StatusOK, out)
}

func listPullCommits(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	out := []*commitJSON{}
	for _, cm := range paginate(c, is.Pull.Commits()) {
		out = append(out, c.commitJSON(is.Pull.HeadRepo, cm, false))
	}
	c.JSON(http.StatusOK, out)
}

// reviewJSON is GitHub's pull-request-review.
type reviewJSON struct {
	ID             int64     `json:"id"`
	NodeID         string    `json:"node_id"`
	User           *userJSON `json:"user"`
	Body           string    `json:"body"`
	State          string    `json:"state"`
	HTMLURL        string    `json:"html_url"`
	PullRequestURL string    `json:"pull_request_url"`
	Links          struct {
		HTML        linkJSON `json:"html"`
		PullRequest linkJSON `json:"pull_request"`
	} `json:"_links"`
	SubmittedAt       string  `json:"submitted_at,omitempty"`
	CommitID          *string `json:"commit_id"`
	AuthorAssociation string  `json:"author_association"`
}

func (c *call) reviewJSON(rv *state.Review) reviewJSON {
	is := rv.Pull
	api := fmt.Sprintf("%s/pulls/%d", c.Links.Repo(is.Repo), is.Number)
	html := fmt.Sprintf("%s%s#pullrequestreview-%d", c.Links.Web, wire.IssuePath(is), rv.ID)
	out := reviewJSON{ID: rv.ID, NodeID: rv.NodeID, User: renderSimpleUser(c.Links, rv.User), Body: rv.Body, State: rv.State,
		HTMLURL: html, PullRequestURL: api, CommitID: &rv.Commit.SHA, AuthorAssociation: state.Association(rv.User, is.Repo)}
	if rv.State != "PENDING" {
		// A pending review has not been submitted yet.
		out.SubmittedAt = wire.Timestamp(rv.SubmittedAt)
	}
	out.Links.HTML, out.Links.PullRequest = linkJSON{html}, linkJSON{api}
	return out
}

func listPullReviews(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	out := []reviewJSON{}
	for _, rv := range paginate(c, is.Pull.VisibleReviews(c.Viewer)) {
		out = append(out, c.reviewJSON(rv))
	}
	c.JSON(http.StatusOK, out)
}

// reviewCommentJSON is GitHub's pull-request-review-comment.
type reviewCommentJSON struct {
	URL                 string    `json:"url"`
	PullRequestReviewID *int64    `json:"pull_request_review_id"`
	ID                  int64     `json:"id"`
	NodeID              string    `json:"node_id"`
	DiffHunk            string    `json:"diff_hunk"`
	Path                string    `json:"path"`
	CommitID            string    `json:"commit_id"`
	OriginalCommitID    string    `json:"original_commit_id"`
	InReplyToID         *int64    `json:"in_reply_to_id,omitempty"`
	User                *userJSON `json:"user"`
	Body                string    `json:"body"`
	CreatedAt           string    `json:"created_at"`
	UpdatedAt           string    `json:"updated_at"`
	HTMLURL             string    `json:"html_url"`
	PullRequestURL      string    `json:"pull_request_url"`
	AuthorAssociation   string    `json:"author_association"`
	Links               struct {
		Self        linkJSON `json:"self"`
		HTML        linkJSON `json:"html"`
		PullRequest linkJSON `json:"pull_request"`
	} `json:"_links"`
	StartLine         *int          `json:"start_line"`
	OriginalStartLine *int          `json:"original_start_line"`
	StartSide         *string       `json:"start_side"`
	Line              *int          `json:"line,omitempty"`
	OriginalLine      *int          `json:"original_line,omitempty"`
	Side              string        `json:"side"`
	SubjectType       string        `json:"subject_type"`
	Reactions         reactionsJSON `json:"reactions"`
}

func (c *call) reviewCommentJSON(cm *state.ReviewComment) reviewCommentJSON {
	is := cm.Review.Pull
	api := fmt.Sprintf("%s/pulls/comments/%d", c.Links.Repo(is.Repo), cm.ID)
	pr := fmt.Sprintf("%s/pulls/%d", c.Links.Repo(is.Repo), is.Number)
	html := fmt.Sprintf("%s%s#discussion_r%d", c.Links.Web, wire.IssuePath(is), cm.ID)
	out := reviewCommentJSON{URL: api, PullRequestReviewID: &cm.Review.ID, ID: cm.ID, NodeID: cm.NodeID, DiffHunk: cm.DiffHunk,
		Path: cm.Path, CommitID: is.Pull.Head.SHA, OriginalCommitID: cm.Commit.SHA, User: renderSimpleUser(c.Links, cm.User),
		Body: cm.Body, CreatedAt: wire.Timestamp(cm.CreatedAt), UpdatedAt: wire.Timestamp(cm.UpdatedAt), HTMLURL: html, PullRequestURL: pr,
		AuthorAssociation: state.Association(cm.User, is.Repo), Side: "RIGHT", SubjectType: "line",
		Reactions: reactionRollup(api+"/reactions", cm.Reactions)}
	if cm.InReplyTo != nil {
		out.InReplyToID = &cm.InReplyTo.ID
	}
	t := cm.Thread
	if t.Outdated() {
		out.CommitID = cm.Commit.SHA
	}
	switch {
	case t.File:
		// A file comment has no lines.
		out.SubjectType = "file"
	case t.Outdated():
		// An outdated comment has no line in the current diff.
		out.OriginalLine, out.OriginalStartLine = intRef(cm.Line), intRef(t.StartLine)
	default:
		out.Line, out.OriginalLine = intRef(cm.Line), intRef(cm.Line)
		out.StartLine, out.OriginalStartLine = intRef(t.StartLine), intRef(t.StartLine)
	}
	if out.OriginalStartLine != nil {
		side := "RIGHT"
		out.StartSide = &side
	}
	out.Links.Self, out.Links.HTML, out.Links.PullRequest = linkJSON{api}, linkJSON{html}, linkJSON{pr}
	return out
}

func listPullReviewComments(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	var list []*state.ReviewComment
	for _, rv := range is.Pull.VisibleReviews(c.Viewer) {
		list = append(list, rv.Comments...)
	}
	// GitHub lists review comments by creation, ascending, unless told.
	slices.SortStableFunc(list, func(a, b *state.ReviewComment) int {
		if c.Req.URL.Query().Get("direction") == "desc" {
			return b.CreatedAt.Compare(a.CreatedAt)
		}
		return a.CreatedAt.Compare(b.CreatedAt)
	})
	out := []reviewCommentJSON{}
	for _, cm := range paginate(c, list) {
		out = append(out, c.reviewCommentJSON(cm))
	}
	c.JSON(http.StatusOK, out)
}

func listRequestedReviewers(c *call) {
	_, is := c.repoPull(state.PermRead)
	if is == nil {
		return
	}
	out := struct {
		Users []*userJSON `json:"users"`
		Teams []teamJSON  `json:"teams"`
	}{Users: []*userJSON{}, Teams: []teamJSON{}}
	for _, a := range is.Pull.RequestedReviewers {
		out.Users = append(out.Users, renderSimpleUser(c.Links, a))
	}
	for _, t := range is.Pull.RequestedTeams {
		out.Teams = append(out.Teams, renderTeam(c.Links, t))
	}
	c.JSON(http.StatusOK, out)
}

// intRef is &n, or nil for 0: no such line.
func intRef(n int) *int {
	if n == 0 {
		return nil
	}
	return &n
}
