package issues

import (
	"context"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// fetchIssue reads one issue with its relation summaries in one request.
func fetchIssue(ctx context.Context, c *github.Client, owner, repo string, number int) (*github.IssueRecord, error) {
	rec, _, err := c.GetIssueRecord(ctx, owner, repo, number)
	if err != nil {
		return nil, issueReadError(ctx, c, err, owner, repo, number)
	}
	return rec, nil
}

// fetchIssueRow is fetchIssue decoded into the fields a view of the
// issue shows.
func fetchIssueRow(ctx context.Context, c *github.Client, owner, repo string, number int) (*github.IssueRowRecord, error) {
	rec, _, err := c.GetIssueRowRecord(ctx, owner, repo, number)
	if err != nil {
		return nil, issueReadError(ctx, c, err, owner, repo, number)
	}
	return rec, nil
}

// issueReadError is the envelope for a failed read of one issue: a
// missing repository and a missing issue have different repairs.
func issueReadError(ctx context.Context, c *github.Client, err error, owner, repo string, number int) error {
	if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeNotFound && !repoExists(ctx, c, owner, repo) {
		return notFoundRepo(err, owner, repo)
	}
	return toolkit.NotFoundIssue(err, owner, repo, number)
}

// repoExists reads the repository, on the error path of a read that found
// nothing, to tell a missing issue from a missing repository: their
// repairs differ. A failed look counts as existing (the issue's error
// stands).
func repoExists(ctx context.Context, c *github.Client, owner, repo string) bool {
	_, _, err := c.GetRepo(ctx, owner, repo)
	e := toolkit.MapError(err)
	return e == nil || e.Code != contract.CodeNotFound
}

// count is nil when there is nothing to count.
func count(open, total int) *issueview.Count {
	if total == 0 && open == 0 {
		return nil
	}
	return &issueview.Count{Open: open, Total: total}
}

// recordRelations is relationsOf for an issue read whole.
func recordRelations(rec *github.IssueRecord, owner, repo string) *issueview.Relations {
	return relationsOf(rec.GetParentIssueURL(), rec.SubIssuesSummary, rec.IssueDependenciesSummary, owner, repo)
}

// relationsOf is the relations of an issue of owner/repo from what
// GitHub's issue answer says of them: the parent's API URL and the
// summaries.
func relationsOf(parentURL string, sub *github.SubIssuesSummary, deps *github.IssueDependenciesSummary, owner, repo string) *issueview.Relations {
	r := &issueview.Relations{}
	if parentURL != "" {
		if ref := refFromAPIURL(parentURL, owner, repo); ref != nil {
			r.Parent = ref
		}
	}
	if s := sub; s != nil {
		r.SubIssues, r.SubIssuesDone = s.Total, s.Completed
	}
	if d := deps; d != nil {
		r.BlockedBy, r.Blocking = count(d.BlockedBy, d.TotalBlockedBy), count(d.Blocking, d.TotalBlocking)
	}
	if *r == (issueview.Relations{}) {
		return nil
	}
	return r
}

// withholdRelations leaves rel's parent out when it is in a repository
// the caller may not read (g), and returns what is left: nil when nothing
// is. The counts name no issue, so they stay.
func withholdRelations(rel *issueview.Relations, g *grant) *issueview.Relations {
	if rel == nil || rel.Parent == nil || g.keeps(rel.Parent.Repo) {
		return rel
	}
	kept := *rel
	kept.Parent = nil
	if kept == (issueview.Relations{}) {
		return nil
	}
	return &kept
}

// refFromAPIURL reads ".../repos/OWNER/REPO/issues/N".
func refFromAPIURL(u, owner, repo string) *issueview.IssueRef {
	i := strings.LastIndex(u, "/repos/")
	if i < 0 {
		return nil
	}
	parts := strings.Split(u[i+len("/repos/"):], "/")
	if len(parts) != 4 || parts[2] != "issues" {
		return nil
	}
	n, err := strconv.Atoi(parts[3])
	if err != nil {
		return nil
	}
	ref := &issueview.IssueRef{Number: n}
	if !strings.EqualFold(parts[0]+"/"+parts[1], owner+"/"+repo) {
		ref.Repo = parts[0] + "/" + parts[1]
	}
	return ref
}

// GetIssueIn are github_get_issue's arguments.
type GetIssueIn struct {
	Owner          string              `json:"owner"`
	Repo           string              `json:"repo"`
	IssueNumber    toolkit.IssueNumber `json:"issue_number"`
	Detail         Detail              `json:"detail,omitempty" jsonschema:"default full"`
	CommentsCursor string              `json:"comments_cursor,omitempty"`
	// CommentID reads that one comment of the issue instead of a page of
	// its comments; absent, the page (the tool's description says so).
	CommentID toolkit.CommentID `json:"comment_id,omitempty"`
	// BodyCursor reads the next window of a body cut short (a
	// body_window's next): the issue's own, or one comment's.
	BodyCursor string     `json:"body_cursor,omitempty"`
	Source     ReadSource `json:"source,omitempty" jsonschema:"default remote"`
	// IncludeUntrusted true shows (for the mirror: writes) the text
	// lockdown withholds, audited. It is listed and accepted only where
	// the operator allows it (Gated on toolkit.IncludeUntrustedGate); the
	// capability summary says what it does.
	IncludeUntrusted bool `json:"include_untrusted,omitempty" jsonschema:"default false"`
}

// again is the call without include_untrusted: the repair of a refused
// include.
func (in GetIssueIn) again() GetIssueIn {
	in.IncludeUntrusted = false
	return in
}

// Validate checks the names before they reach a request path. A page of
// comments and one body are two reads: comments_cursor goes alone.
func (in *GetIssueIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if in.CommentsCursor != "" && (in.CommentID != 0 || in.BodyCursor != "") {
		return contract.Errorf(contract.CodeInvalidField, "comments_cursor pages the issue's comments; comment_id and body_cursor read one body").
			WithField("comments_cursor", "not with comment_id or body_cursor")
	}
	return nil
}

// GetIssueOut is one issue with its first page of comments; or, read
// narrowly, one body.
//
// With comment_id (or a comment's body_cursor) the answer is that one
// comment, in comment, and the issue at summary detail: its title, state
// and version, enough to act on the comment (github_edit_comment takes
// comment.id) or on the issue, with no body and no page of comments, so
// the answer stays the size of the comment. With the issue's body_cursor
// it is the issue at full detail, its body at the cursor's window, and no
// comments (comments_cursor pages those).
//
// Bodies longer than one window (bodyWindowChars characters) are cut to
// it, and their body_window says where and carries the next window's
// cursor.
type GetIssueOut struct {
	Issue     issueview.Issue      `json:"issue"`
	Comment   *issueview.Comment   `json:"comment,omitempty" jsonschema:"the comment comment_id names"`
	Relations *issueview.Relations `json:"relations,omitempty"`
	// Withheld is 1 when the parent is in a repository the client may not
	// read, and left out of relations.
	Withheld           int                 `json:"withheld,omitempty" jsonschema:"relations of repositories this client may not read, left out"`
	Comments           []issueview.Comment `json:"comments,omitempty"`
	CommentsHasMore    bool                `json:"comments_has_more,omitempty"`
	CommentsNextCursor string              `json:"comments_next_cursor,omitempty"`
	RateLimitRemaining *int                `json:"rate_limit_remaining,omitempty"`
	MirrorAgeS         *int                `json:"mirror_age_s,omitempty"`
}

// commentsPerPage is how many comments github_get_issue returns at once.
const commentsPerPage = 30

func (s *Tools) getIssue(ctx context.Context, in GetIssueIn) (GetIssueOut, error) {
	const tool = toolkit.NameGetIssue
	scope := in.Owner + "/" + in.Repo
	// The comments cursor belongs to the issue; detail does not change
	// which comments there are.
	filters := commentsFilters(int(in.IssueNumber))
	restart := in
	restart.CommentsCursor = ""
	pg, err := s.OpenPager(toolkit.Listing{Tool: tool, Scope: scope, Filters: filters, Field: "comments_cursor", Cursor: in.CommentsCursor, Restart: restart})
	if err != nil {
		return GetIssueOut{}, err
	}
	spot, err := s.openBodyCursor(in)
	if err != nil {
		return GetIssueOut{}, err
	}
	// The owner's read client is resolved for a mirror read too, though
	// the mirror needs no request: resolving is where the broker refuses
	// an owner it has no route for, and a mirror synced before its route
	// was removed must be refused the same.
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return GetIssueOut{}, err
	}
	v, err := s.openViews(ctx, c, tool, in.Owner, in.Repo, in.IncludeUntrusted, in.again())
	if err != nil {
		return GetIssueOut{}, err
	}
	if in.Source == Mirror {
		return s.getIssueFromMirror(ctx, in, pg, v, spot)
	}
	rec, err := fetchIssueRow(ctx, c, in.Owner, in.Repo, int(in.IssueNumber))
	if err != nil {
		return GetIssueOut{}, err
	}
	if !s.CreatorAllowed(rec.User.Login) {
		return GetIssueOut{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
	}
	row := &rec.IssueRow
	s.rememberSeen(c, row)
	detail := in.detail(spot)
	g := newGrant(ctx, in.Owner, in.Repo)
	repo := in.Owner + "/" + in.Repo
	view, err := v.issue(row, detail, false, repo)
	if err != nil {
		return GetIssueOut{}, err
	}
	out := GetIssueOut{Issue: view, Relations: withholdRelations(relationsOf(rec.ParentIssueURL, rec.SubIssuesSummary, rec.IssueDependenciesSummary, in.Owner, in.Repo), g), Withheld: g.withheld}
	// The version is what an update needs, so every detail level carries it.
	out.Issue.Version = rowVersion(row)
	if spot.Comment != 0 {
		cm, err := fetchComment(ctx, c, in, spot.Comment)
		if err != nil {
			return GetIssueOut{}, err
		}
		cv, w, err := v.comment(repo, github.CommentRowOf(cm))
		if err != nil {
			return GetIssueOut{}, err
		}
		if err := s.windowComment(in, spot, &cv); err != nil {
			return GetIssueOut{}, err
		}
		if w {
			countWithheld(&out.Issue, 1)
		}
		out.Comment = &cv
		out.RateLimitRemaining = toolkit.LowBudget(c, "core")
		return out, nil
	}
	if detail == Full {
		if err := s.windowIssue(in, spot, &out.Issue); err != nil {
			return GetIssueOut{}, err
		}
	}
	if in.BodyCursor == "" && rec.Comments > 0 && (pg.Page-1)*commentsPerPage < rec.Comments {
		list, meta, err := c.ListComments(ctx, in.Owner, in.Repo, int(in.IssueNumber), github.ListCommentsOptions{Page: pg.Page, PerPage: commentsPerPage})
		if err != nil {
			return GetIssueOut{}, err
		}
		withheld := 0
		for _, cm := range list {
			cv, w, err := v.comment(repo, cm)
			if err != nil {
				return GetIssueOut{}, err
			}
			if w {
				withheld++
			}
			if cv.Withheld == nil {
				cv.Body, cv.BodyWindow = s.window(repo, int(in.IssueNumber), cv.ID, cv.Body, 0)
			}
			out.Comments = append(out.Comments, cv)
		}
		countWithheld(&out.Issue, withheld)
		if next := pg.Next(meta.NextPage); next != "" {
			out.CommentsHasMore, out.CommentsNextCursor = true, next
		}
	}
	out.RateLimitRemaining = toolkit.LowBudget(c, "core")
	return out, nil
}

// detail is the issue's detail: summary beside one comment, full for
// the window of its own body, else what the call asked (full by
// default).
func (in GetIssueIn) detail(spot bodySpot) Detail {
	switch {
	case spot.Comment != 0:
		return Summary
	case in.BodyCursor != "" || in.Detail == "":
		return Full
	}
	return in.Detail
}

// GetIssue is github_get_issue.
func (s *Tools) GetIssue() tooldef.Spec {
	return tooldef.Tool[GetIssueIn, GetIssueOut]{
		Name:    toolkit.NameGetIssue,
		Toolset: Toolset,
		Title:   "Get issue",
		// "absent: none": without comment_id, no single comment is read (the first 30 come instead).
		Description: "One issue with version, relations, 30 comments; hidden text cut; absent: none.",
		Mode:        tooldef.Read,
		Keep:        triageState("issue"),
		Outline:     []string{"relations"},
		// source belongs to the sync toolset: without it there is no
		// mirror to read. mirror_age_s comes only with source mirror, and
		// the capability summary says so where the sync toolset is served.
		Gated: map[string]string{"source": toolkit.NameSyncIssues, toolkit.IncludeUntrustedField: toolkit.IncludeUntrustedGate},
		// comment comes only with comment_id, which says what it brings.
		Unlisted: []string{"mirror_age_s", "comment"},
		Run:      s.getIssue,
	}
}
