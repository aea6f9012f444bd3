package github

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	gh "github.com/google/go-github/v88/github"
	"github.com/google/go-querystring/query"
)

// GetIssue reads one issue (or pull request, which GitHub also serves as
// an issue).
//
// GET /repos/{owner}/{repo}/issues/{issue_number}
func (c *Client) GetIssue(ctx context.Context, owner, repo string, number int) (*gh.Issue, Meta, error) {
	r, err := refIssue(owner, repo, number, false)
	if err != nil {
		return nil, Meta{}, err
	}
	var out *gh.Issue
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.Get(ctx, r.owner, r.repo, number)
		return resp, err
	})
	if err == nil && movedFrom(out, r.owner, r.repo) {
		// GitHub answers a transferred issue (or one of a renamed
		// repository) with a 301 that the HTTP client follows: what came
		// back is an issue of another repository, which the caller did not
		// name and may not be allowed to reach. It is not this issue.
		return nil, m, &Error{Code: NotFound, Status: 301,
			Message: fmt.Sprintf("%s/%s#%d has moved to another repository", r.owner, r.repo, number)}
	}
	return out, m, err
}

// movedFrom reports whether is, read as owner/repo's, belongs to another
// repository (its repository_url names another; names compare without
// case, as GitHub's do).
func movedFrom(is *gh.Issue, owner, repo string) bool {
	u := is.GetRepositoryURL()
	if u == "" {
		return false
	}
	return !strings.HasSuffix(strings.ToLower(u), "/repos/"+strings.ToLower(owner)+"/"+strings.ToLower(repo))
}

// ListIssuesOptions filter a repository's issues, as GitHub's list
// endpoint does. Zero values are left to GitHub's defaults (open issues,
// newest first, 30 per page).
type ListIssuesOptions struct {
	State     string // open, closed, all
	Labels    []string
	Assignee  string // a login, "none" or "*"
	Creator   string
	Mentioned string // a login
	Milestone string // a number, "none" or "*"
	Type      string // an issue type name, "none" or "*"
	Since     time.Time
	Sort      string // created, updated, comments
	Direction string // asc, desc
	Page      int
	PerPage   int
}

// ListIssues lists one page of a repository's issues. GitHub includes pull
// requests (they carry a pull_request key). Meta.NextPage says whether
// there is more.
//
// GET /repos/{owner}/{repo}/issues
func (c *Client) ListIssues(ctx context.Context, owner, repo string, o ListIssuesOptions) ([]*gh.Issue, Meta, error) {
	r, opts, err := o.byRepo(owner, repo)
	if err != nil {
		return nil, Meta{}, err
	}
	var out []*gh.Issue
	m, err := c.read(ctx, func(ctx context.Context) (resp *gh.Response, err error) {
		out, resp, err = c.rest.Issues.ListByRepo(ctx, r.owner, r.repo, opts)
		return resp, err
	})
	return out, m, err
}

// byRepo checks the repository's names and turns o into go-github's
// options for its issue list.
func (o ListIssuesOptions) byRepo(owner, repo string) (repoRef, *gh.IssueListByRepoOptions, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return repoRef{}, nil, err
	}
	lo, err := pageOpts(o.Page, o.PerPage)
	if err != nil {
		return repoRef{}, nil, invalidArgument(false, err.Error())
	}
	return r, &gh.IssueListByRepoOptions{State: o.State, Labels: o.Labels, Assignee: o.Assignee, Creator: o.Creator, Mentioned: o.Mentioned,
		Milestone: o.Milestone, Type: o.Type, Since: o.Since, Sort: o.Sort, Direction: o.Direction, ListOptions: lo}, nil
}

// IssueListItem is an issue or pull request as a repository's issue list
// shows it, with only the fields a report reads from it: go-github's full
// Issue type takes several times longer to decode, and a report decodes a
// page per repository.
type IssueListItem struct {
	Number    int       `json:"number"`
	Title     string    `json:"title"`
	HTMLURL   string    `json:"html_url"`
	CreatedAt time.Time `json:"created_at"`
	Draft     bool      `json:"draft"`
	Labels    []struct {
		Name string `json:"name"`
	} `json:"labels"`
	// PullRequest is set on a pull request, as the list marks one.
	PullRequest *struct{} `json:"pull_request"`
}

// ListIssueItems is ListIssues decoded into [IssueListItem].
//
// GET /repos/{owner}/{repo}/issues
func (c *Client) ListIssueItems(ctx context.Context, owner, repo string, o ListIssuesOptions) ([]*IssueListItem, Meta, error) {
	return listIssuesAs[IssueListItem](ctx, c, owner, repo, o)
}

// listIssuesAs reads one page of a repository's issue list into T, a
// type with the fields its caller reads.
func listIssuesAs[T any](ctx context.Context, c *Client, owner, repo string, o ListIssuesOptions) ([]*T, Meta, error) {
	r, opts, err := o.byRepo(owner, repo)
	if err != nil {
		return nil, Meta{}, err
	}
	q, err := query.Values(opts)
	if err != nil {
		return nil, Meta{}, invalidArgument(false, err.Error())
	}
	return getJSON[[]*T](ctx, c, r.path("issues"), q)
}

// IssueRow is an issue or pull request with only the fields a listing's
// rows are built from (number to version token, the author and its
// association that the creator scope and lockdown decide by, the labels
// and milestone remembered as names that exist). A listing decodes its
// page straight into it: go-github's Issue decodes every user, label and
// reaction object whole, several times the work. Absent and null fields
// are zero values; a nil Milestone or Type is none.
type IssueRow struct {
	Number            int           `json:"number"`
	Title             string        `json:"title"`
	Body              string        `json:"body"`
	State             string        `json:"state"`
	StateReason       string        `json:"state_reason"`
	Locked            bool          `json:"locked"`
	ActiveLockReason  string        `json:"active_lock_reason"`
	Comments          int           `json:"comments"`
	CreatedAt         time.Time     `json:"created_at"`
	UpdatedAt         time.Time     `json:"updated_at"`
	ClosedAt          time.Time     `json:"closed_at"`
	HTMLURL           string        `json:"html_url"`
	RepositoryURL     string        `json:"repository_url"`
	AuthorAssociation string        `json:"author_association"`
	User              RowUser       `json:"user"`
	Labels            []RowName     `json:"labels"`
	Assignees         []RowUser     `json:"assignees"`
	Milestone         *RowMilestone `json:"milestone"`
	Type              *RowName      `json:"type"`
	// PullRequest is set on a pull request, as the list marks one.
	PullRequest *struct{} `json:"pull_request"`
}

// RowUser is a user as an [IssueRow] names one.
type RowUser struct {
	Login string `json:"login"`
}

// RowName is a label or issue type as an [IssueRow] names one.
type RowName struct {
	Name string `json:"name"`
}

// RowMilestone is a milestone as an [IssueRow] names one.
type RowMilestone struct {
	Number int    `json:"number"`
	Title  string `json:"title"`
}

// IsPullRequest reports whether the row is a pull request.
func (r *IssueRow) IsPullRequest() bool { return r.PullRequest != nil }

// IssueRowOf is is as a row, for the reads that decode go-github's Issue
// (a single issue, search results, the answer to a write).
func IssueRowOf(is *gh.Issue) *IssueRow {
	r := &IssueRow{Number: is.GetNumber(), Title: is.GetTitle(), Body: is.GetBody(), State: is.GetState(),
		StateReason: is.GetStateReason(), Locked: is.GetLocked(), ActiveLockReason: is.GetActiveLockReason(),
		Comments: is.GetComments(), CreatedAt: is.GetCreatedAt().Time, UpdatedAt: is.GetUpdatedAt().Time,
		ClosedAt: is.GetClosedAt().Time, HTMLURL: is.GetHTMLURL(), RepositoryURL: is.GetRepositoryURL(),
		AuthorAssociation: is.GetAuthorAssociation()}
	r.User.Login = is.GetUser().GetLogin()
	if is.Labels != nil {
		r.Labels = make([]RowName, len(is.Labels))
		for i, l := range is.Labels {
			r.Labels[i].Name = l.GetName()
		}
	}
	if is.Assignees != nil {
		r.Assignees = make([]RowUser, len(is.Assignees))
		for i, a := range is.Assignees {
			r.Assignees[i].Login = a.GetLogin()
		}
	}
	if m := is.Milestone; m != nil {
		r.Milestone = &RowMilestone{m.GetNumber(), m.GetTitle()}
	}
	if is.Type != nil {
		r.Type = &RowName{is.Type.GetName()}
	}
	if is.IsPullRequest() {
		r.PullRequest = &struct{}{}
	}
	return r
}

// ListIssueRows is ListIssues decoded into [IssueRow].
//
// GET /repos/{owner}/{repo}/issues
func (c *Client) ListIssueRows(ctx context.Context, owner, repo string, o ListIssuesOptions) ([]*IssueRow, Meta, error) {
	return listIssuesAs[IssueRow](ctx, c, owner, repo, o)
}

// NewIssue is an issue to create. Labels, assignees, milestone and type
// need triage access; GitHub silently drops them for others.
type NewIssue struct {
	Title     string
	Body      string
	Labels    []string
	Assignees []string
	Milestone *int
	Type      string
}

// CreateIssue creates an issue, once: it is never retried.
//
// POST /repos/{owner}/{repo}/issues
func (c *Client) CreateIssue(ctx context.Context, owner, repo string, in NewIssue) (*CreatedIssue, Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if strings.TrimSpace(in.Title) == "" {
		return nil, NotStarted, invalidArgument(true, "an issue needs a title")
	}
	req := &gh.IssueRequest{Title: &in.Title, Milestone: in.Milestone}
	if in.Body != "" {
		req.Body = &in.Body
	}
	if len(in.Labels) > 0 {
		req.Labels = &in.Labels
	}
	if len(in.Assignees) > 0 {
		req.Assignees = &in.Assignees
	}
	if in.Type != "" {
		req.Type = &in.Type
	}
	out := new(CreatedIssue)
	s, err := c.send(ctx, "POST", r.path("issues"), req, out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// CreatedIssue is the answer to a create as the tools use it: the row's
// fields, and the ids and parent link a follow-up write needs. Decoding
// go-github's whole Issue was most of a create's own time.
type CreatedIssue struct {
	IssueRow
	ID             int64  `json:"id"`
	NodeID         string `json:"node_id"`
	ParentIssueURL string `json:"parent_issue_url"`
}

// CreatedIssueOf is is as a [CreatedIssue], for an issue found by a read
// (a create's recovery).
func CreatedIssueOf(is *gh.Issue) *CreatedIssue {
	return &CreatedIssue{IssueRow: *IssueRowOf(is), ID: is.GetID(), NodeID: is.GetNodeID(), ParentIssueURL: is.GetParentIssueURL()}
}

// IssueEdit is a partial update: nil fields are left as they are. Labels
// and Assignees replace the whole set (a pointer to an empty slice clears
// it); use AddLabels and RemoveLabel to change one label without racing
// other writers.
type IssueEdit struct {
	Title       *string   `json:"title,omitempty"`
	Body        *string   `json:"body,omitempty"`
	State       *string   `json:"state,omitempty"`        // open, closed
	StateReason *string   `json:"state_reason,omitempty"` // completed, not_planned, duplicate, reopened
	Labels      *[]string `json:"labels,omitempty"`
	Assignees   *[]string `json:"assignees,omitempty"`
	// Milestone sets the milestone by number; ClearMilestone removes it.
	Milestone      *int `json:"-"`
	ClearMilestone bool `json:"-"`
	// Type sets the issue type by name; ClearType removes it.
	Type      *string `json:"-"`
	ClearType bool    `json:"-"`
}

// MarshalJSON sends milestone and type as JSON null when cleared, which
// go-github's IssueRequest cannot express.
func (e IssueEdit) MarshalJSON() ([]byte, error) {
	type fields IssueEdit // without this method
	wire := struct {
		fields
		Milestone json.RawMessage `json:"milestone,omitempty"`
		Type      json.RawMessage `json:"type,omitempty"`
	}{fields: fields(e)}
	var err error
	switch {
	case e.ClearMilestone:
		wire.Milestone = json.RawMessage("null")
	case e.Milestone != nil:
		wire.Milestone, err = json.Marshal(*e.Milestone)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case e.ClearType:
		wire.Type = json.RawMessage("null")
	case e.Type != nil:
		wire.Type, err = json.Marshal(*e.Type)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(wire)
}

func (e IssueEdit) check() error {
	if e.Title == nil && e.Body == nil && e.State == nil && e.StateReason == nil && e.Labels == nil &&
		e.Assignees == nil && e.Milestone == nil && !e.ClearMilestone && e.Type == nil && !e.ClearType {
		return errors.New("the edit changes nothing")
	}
	if e.Title != nil && strings.TrimSpace(*e.Title) == "" {
		return errors.New("an issue's title cannot be empty")
	}
	if e.Milestone != nil && e.ClearMilestone || e.Type != nil && e.ClearType {
		return errors.New("a field cannot be both set and cleared")
	}
	return nil
}

// EditIssue updates an issue, once: it is never retried. The path is
// built here because go-github's IssueRequest cannot send milestone or type
// as null (see [IssueEdit.MarshalJSON]).
//
// PATCH /repos/{owner}/{repo}/issues/{issue_number}
func (c *Client) EditIssue(ctx context.Context, owner, repo string, number int, edit IssueEdit) (*gh.Issue, Settlement, error) {
	r, err := refIssue(owner, repo, number, true)
	if err != nil {
		return nil, NotStarted, err
	}
	if err := edit.check(); err != nil {
		return nil, NotStarted, invalidArgument(true, err.Error())
	}
	var out *gh.Issue
	out = new(gh.Issue)
	s, err := c.send(ctx, "PATCH", r.path("issues", number), edit, out)
	if err != nil {
		out = nil
	}
	return out, s, err
}

// IssueRecord is GitHub's issue with the relation summaries go-github's
// Issue type does not carry.
type IssueRecord struct {
	gh.Issue
	// Declared here, not embedded: a field of the same name in a later
	// go-github Issue would then hide neither.
	SubIssuesSummary         *SubIssuesSummary         `json:"sub_issues_summary,omitempty"`
	IssueDependenciesSummary *IssueDependenciesSummary `json:"issue_dependencies_summary,omitempty"`
}

// SubIssuesSummary counts an issue's sub-issues.
type SubIssuesSummary struct {
	Total     int `json:"total"`
	Completed int `json:"completed"`
}

// IssueDependenciesSummary counts the issues blocking an issue and those
// it blocks: open ones, and all.
type IssueDependenciesSummary struct {
	BlockedBy      int `json:"blocked_by"`
	Blocking       int `json:"blocking"`
	TotalBlockedBy int `json:"total_blocked_by"`
	TotalBlocking  int `json:"total_blocking"`
}

// IssueRowRecord is one issue with only what github_get_issue shows of
// it: the row's fields and the relations. Decoding go-github's whole
// Issue (every user, label and reaction field, as pointers) was most of a
// read's own time.
type IssueRowRecord struct {
	IssueRow
	ParentIssueURL           string                    `json:"parent_issue_url"`
	SubIssuesSummary         *SubIssuesSummary         `json:"sub_issues_summary,omitempty"`
	IssueDependenciesSummary *IssueDependenciesSummary `json:"issue_dependencies_summary,omitempty"`
}

// GetIssueRowRecord is GetIssueRecord decoded into [IssueRowRecord]: the
// same request, so the same conditional-request entry.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}
func (c *Client) GetIssueRowRecord(ctx context.Context, owner, repo string, number int) (*IssueRowRecord, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	rec, m, err := getJSON[IssueRowRecord](ctx, c, r.path("issues", number), nil)
	if err != nil {
		return nil, m, err
	}
	return &rec, m, nil
}

// GetIssueRecord reads one issue with its relation summaries, in one
// request: the same endpoint as GetIssue, decoded into [IssueRecord], which
// is why the path is built here.
//
// GET /repos/{owner}/{repo}/issues/{issue_number}
func (c *Client) GetIssueRecord(ctx context.Context, owner, repo string, number int) (*IssueRecord, Meta, error) {
	r, err := refRepo(owner, repo, false)
	if err != nil {
		return nil, Meta{}, err
	}
	rec, m, err := getJSON[IssueRecord](ctx, c, r.path("issues", number), nil)
	if err != nil {
		return nil, m, err
	}
	return &rec, m, nil
}

// LockIssue locks an issue's conversation, once; reason may be empty.
//
// PUT /repos/{owner}/{repo}/issues/{issue_number}/lock
func (c *Client) LockIssue(ctx context.Context, owner, repo string, number int, reason string) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		return c.rest.Issues.Lock(ctx, r.owner, r.repo, number, &gh.LockIssueOptions{LockReason: reason})
	})
}

// UnlockIssue unlocks an issue's conversation, once.
//
// DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock
func (c *Client) UnlockIssue(ctx context.Context, owner, repo string, number int) (Settlement, error) {
	r, err := refRepo(owner, repo, true)
	if err != nil {
		return NotStarted, err
	}
	return c.write(ctx, func(ctx context.Context) (*gh.Response, error) {
		return c.rest.Issues.Unlock(ctx, r.owner, r.repo, number)
	})
}
