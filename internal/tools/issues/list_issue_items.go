package issues

import (
	"context"
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// ListIssueItemsIn are github_list_issue_items' arguments.
type ListIssueItemsIn struct {
	Owner       string              `json:"owner"`
	Repo        string              `json:"repo"`
	IssueNumber toolkit.IssueNumber `json:"issue_number"`
	Collection  Collection          `json:"collection"`
	PageSize    toolkit.PageSize    `json:"page_size,omitempty" jsonschema:"default 30"`
	Cursor      string              `json:"cursor,omitempty"`
	// Since keeps the comments updated at or after a date (UTC midnight)
	// or RFC 3339 time, as GitHub's since does: the comments collection
	// only. Absent, all (the tool's description says so).
	Since string `json:"since,omitempty"`
	// IncludeUntrusted true shows (for the mirror: writes) the text
	// lockdown withholds, audited. It is listed and accepted only where
	// the operator allows it (Gated on toolkit.IncludeUntrustedGate); the
	// capability summary says what it does.
	IncludeUntrusted bool `json:"include_untrusted,omitempty" jsonschema:"default false"`
}

// Validate checks the names before they reach a request path, and since.
func (in *ListIssueItemsIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if in.Since == "" {
		return nil
	}
	again := *in
	again.Since = ""
	if in.Collection != "comments" {
		return contract.Errorf(contract.CodeInvalidField, "since filters the comments collection only").
			WithField("since", "only with collection comments").
			WithRepair(contract.Repair{NextStep: "call again without since", Tool: toolkit.NameListIssueItems, Arguments: again})
	}
	if _, err := parseDateArg(in.Since); err != nil {
		return contract.Errorf(contract.CodeInvalidField, "since must be YYYY-MM-DD or RFC 3339").
			WithField("since", "must be YYYY-MM-DD or RFC 3339").
			WithRepair(contract.Repair{NextStep: "call again with since as a date such as 2026-01-31 or a time such as 2026-01-31T09:00:00Z", Tool: toolkit.NameListIssueItems})
	}
	return nil
}

// since is the comments' lower bound; zero without one (Validate has
// parsed it).
func (in ListIssueItemsIn) since() time.Time {
	t, _ := parseDateArg(in.Since)
	return t.UTC()
}

// IssueItem is one row of any collection; fields appear by collection:
// comments {id, author, body, at, edited, removed, withheld_untrusted,
// body_window (a body cut to a window: github_get_issue's body_cursor
// reads the next)}; sub_issues, blocked_by,
// blocking, related and linked_prs {number, repo, title, state};
// review_threads (pull requests) {thread_id, path, line, resolved,
// outdated, comments [{id, author, body, created_at}], comments_truncated};
// development {kind: branch, name, repo, url} and {kind: pull_request,
// number, repo, title, state (open, closed, merged), draft, url}; timeline {event,
// actor, at} and, by event, label, assignee, milestone, from/to (renamed),
// reason (closed, locked), id (commented: the comment id) or number/repo/
// title/state (the other issue of a sub-issue, dependency or reference);
// on a pull request also committed {commit, message, author (git name),
// at (commit date)}, reviewed {actor (the reviewer), state (approved,
// changes_requested, commented, dismissed), commit (the head reviewed),
// at}, merged {actor, commit (the merge commit), at}, review_requested
// and review_request_removed {actor, reviewer}, and head_ref_force_pushed,
// head_ref_deleted, ready_for_review, convert_to_draft {actor, at}.
type IssueItem struct {
	ID        int64  `json:"id,omitempty" jsonschema:"comment id"`
	Number    int    `json:"number,omitempty"`
	Repo      string `json:"repo,omitempty" jsonschema:"owner/name when another repository"`
	Title     string `json:"title,omitempty"`
	State     string `json:"state,omitempty"`
	Event     string `json:"event,omitempty"`
	Actor     string `json:"actor,omitempty"`
	Author    string `json:"author,omitempty"`
	At        string `json:"at,omitempty"`
	Body      string `json:"body,omitempty"`
	Edited    bool   `json:"edited,omitempty"`
	Removed   int    `json:"removed,omitempty" jsonschema:"hidden characters removed from title and body (and HTML comments from body)"`
	Label     string `json:"label,omitempty"`
	Assignee  string `json:"assignee,omitempty"`
	Milestone string `json:"milestone,omitempty"`
	From      string `json:"from,omitempty"`
	To        string `json:"to,omitempty"`
	Reason    string `json:"reason,omitempty"`
	Kind      string `json:"kind,omitempty" jsonschema:"development: branch or pull_request"`
	Name      string `json:"name,omitempty"`
	URL       string `json:"url,omitempty"`
	Draft     bool   `json:"draft,omitempty"`
	// A pull request's timeline: the commit (short sha) a commit, review
	// or merge names, a commit's first message line, the reviewer a
	// review request names.
	Commit   string `json:"commit,omitempty" jsonschema:"short sha: a pushed commit, the head reviewed, the merge commit"`
	Message  string `json:"message,omitempty" jsonschema:"committed: the commit message's first line"`
	Reviewer string `json:"reviewer,omitempty" jsonschema:"review_requested/review_request_removed: user, or owner/team"`
	// review_threads rows (toolkit.Thread's fields, all optional here).
	ThreadID          string                  `json:"thread_id,omitempty"`
	Path              string                  `json:"path,omitempty"`
	Line              int                     `json:"line,omitempty"`
	Resolved          *bool                   `json:"resolved,omitempty"`
	Outdated          bool                    `json:"outdated,omitempty"`
	Comments          []toolkit.ThreadComment `json:"comments,omitempty"`
	CommentsTruncated bool                    `json:"comments_truncated,omitempty"`
	// Withheld stands for a comment's body where lockdown withheld it.
	Withheld *toolkit.WithheldText `json:"withheld_untrusted,omitempty" jsonschema:"lockdown withheld the body"`
	// BodyWindow says where a comment's body longer than one window was
	// cut.
	BodyWindow *issueview.BodyWindow `json:"body_window,omitempty" jsonschema:"the body is cut to this window"`
}

// ListIssueItemsOut is one page of an issue's collection.
type ListIssueItemsOut struct {
	Items []IssueItem `json:"items,omitempty"`
	toolkit.Page
	// Withheld counts this page's rows naming an issue, pull request or
	// branch of a repository the client may not read: left out.
	Withheld int `json:"withheld,omitempty" jsonschema:"rows of repositories this client may not read, left out"`
	// WithheldUntrusted counts the comments (of comments and
	// review_threads) whose text lockdown withheld on this page.
	WithheldUntrusted  *toolkit.Withheld `json:"withheld_untrusted,omitempty" jsonschema:"comments by authors without push access, withheld (lockdown)"`
	RateLimitRemaining *int              `json:"rate_limit_remaining,omitempty"`
}

var issueCollections = []any{"comments", "sub_issues", "blocked_by", "blocking", "related", "development", "timeline", "linked_prs", "review_threads"}

// linkedPRPages bounds how many timeline pages (of 100 events) one
// linked_prs call scans; the cursor continues the scan.
const linkedPRPages = 5

func (s *Tools) listIssueItems(ctx context.Context, in ListIssueItemsIn) (ListIssueItemsOut, error) {
	const tool = toolkit.NameListIssueItems
	if in.PageSize == 0 {
		in.PageSize = toolkit.DefaultPageSize
	}
	// The cursor is bound to the issue and collection through the filters
	// (the repository is bound by the pager itself).
	since := in.since()
	filters := struct {
		Number     int
		Collection string
		PageSize   int
		Since      time.Time
	}{int(in.IssueNumber), string(in.Collection), int(in.PageSize), since}
	restart := in
	restart.Cursor = ""
	pg, err := s.OpenPager(toolkit.Listing{Tool: tool, Scope: in.Owner + "/" + in.Repo, Filters: filters, Field: "cursor", Cursor: in.Cursor, Restart: restart,
		Opaque: in.Collection == "review_threads"})
	if err != nil {
		return ListIssueItemsOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ListIssueItemsOut{}, err
	}
	again := in
	again.IncludeUntrusted = false
	v, err := s.openViews(ctx, c, tool, in.Owner, in.Repo, in.IncludeUntrusted, again)
	if err != nil {
		return ListIssueItemsOut{}, err
	}
	if s.AllowedIssueCreator != "" {
		// Only under the creator scope is the issue itself read first.
		rec, err := fetchIssue(ctx, c, in.Owner, in.Repo, int(in.IssueNumber))
		if err != nil {
			return ListIssueItemsOut{}, err
		}
		if !s.CreatorAllowed(rec.GetUser().GetLogin()) {
			return ListIssueItemsOut{}, s.creatorRefusal(in.Owner, in.Repo, int(in.IssueNumber))
		}
	}
	out := ListIssueItemsOut{}
	// withheld counts the rows whose titles the creator scope keeps back;
	// g the rows of repositories outside the caller's grant, left out.
	withheld := 0
	g := newGrant(ctx, in.Owner, in.Repo)
	// untrusted counts the comments whose text lockdown withheld.
	untrusted := 0
	repo := in.Owner + "/" + in.Repo
	o := gh.ListOptions{Page: pg.Param(), PerPage: int(in.PageSize)}
	var next int
	switch in.Collection {
	case "comments":
		list, meta, lerr := c.ListComments(ctx, in.Owner, in.Repo, int(in.IssueNumber), github.ListCommentsOptions{Since: since, Page: o.Page, PerPage: o.PerPage})
		out.Items, next, err = listRowsErr(list, meta, lerr, func(cm *github.CommentRow) (IssueItem, bool, error) {
			cv, w, err := v.comment(repo, cm)
			if err != nil {
				return IssueItem{}, false, err
			}
			if w {
				untrusted++
			}
			row := IssueItem{ID: cv.ID, Author: cv.Author, Body: cv.Body, At: cv.CreatedAt, Edited: cv.Edited, Withheld: cv.Withheld}
			if !w {
				row.Body, row.BodyWindow = s.window(repo, int(in.IssueNumber), cv.ID, cv.Body, 0)
			}
			if cv.Sanitized != nil {
				r := *cv.Sanitized
				row.Removed = r.ZeroWidth + r.Bidi + r.Tags + r.HTMLComments
			}
			return row, true, nil
		})
	case "sub_issues", "blocked_by", "blocking", "related":
		list := map[string]func(context.Context, string, string, int, gh.ListOptions) ([]*gh.Issue, github.Meta, error){
			"sub_issues": c.ListSubIssues, "blocked_by": c.ListBlockedBy, "blocking": c.ListBlocking, "related": c.ListRelated}[string(in.Collection)]
		issues, meta, lerr := list(ctx, in.Owner, in.Repo, int(in.IssueNumber), o)
		if lerr != nil && in.Collection == "related" {
			lerr = relatedUnsupported(ctx, c, in.Owner, in.Repo, int(in.IssueNumber), lerr)
		}
		out.Items, next, err = listRows(issues, meta, lerr, func(is *gh.Issue) (IssueItem, bool) {
			if !g.keeps(repoOf(is)) {
				return IssueItem{}, false
			}
			row := IssueItem{Number: is.GetNumber(), Repo: otherRepo(repoOf(is), in.Owner, in.Repo), State: is.GetState()}
			cleanTitle(&row, is.GetTitle())
			if !s.CreatorAllowed(is.GetUser().GetLogin()) {
				// Under the creator scope another user's issue is shown by
				// number and state only: the row stays, its text does not.
				row.Title, row.Removed = "", 0
				withheld++
			}
			return row, true
		})
	case "timeline":
		events, meta, lerr := c.ListTimeline(ctx, in.Owner, in.Repo, int(in.IssueNumber), o)
		out.Items, next, err = listRows(events, meta, lerr, func(ev *github.TimelineEvent) (IssueItem, bool) {
			if !g.keeps(timelineRepo(ev)) {
				return IssueItem{}, false
			}
			row := timelineRow(ev, in.Owner, in.Repo)
			if s.AllowedIssueCreator != "" && row.Title != "" {
				// A timeline's issue references carry no author, so under
				// the creator scope their titles are withheld.
				row.Title, row.Removed = "", 0
				withheld++
			}
			return row, true
		})
	case "development":
		var more bool
		out.Items, more, err = s.development(ctx, c, in, g)
		if more {
			out.Truncated = true
			out.TruncationHint = fmt.Sprintf("only the first %d linked branches and %d closing pull requests are listed", developmentCap, developmentCap)
		}
	case "linked_prs":
		out.Items, next, err = scanLinkedPRs(ctx, c, g, in.Owner, in.Repo, int(in.IssueNumber), pg.Page)
	case "review_threads":
		var after string
		var n int
		out.Items, after, n, err = reviewThreads(ctx, c, v.u, in, pg.After)
		untrusted += n
		if err == nil {
			pg.FillAfter(&out.Page, after)
		}
	default:
		return out, contract.Errorf(contract.CodeInvalidField, "unknown collection").WithField("collection", "must be one of the listed collections")
	}
	if err != nil {
		return ListIssueItemsOut{}, toolkit.NotFoundIssue(err, in.Owner, in.Repo, int(in.IssueNumber))
	}
	pg.Fill(&out.Page, next)
	creator := ""
	if withheld > 0 {
		creator = fmt.Sprintf("titles of %d issues are withheld: this deployment only shows issues opened by %s", withheld, s.AllowedIssueCreator)
	}
	out.Withheld = g.withheld
	if untrusted > 0 {
		out.WithheldUntrusted = &toolkit.Withheld{Comments: untrusted}
	}
	if hint := joinHints(out.TruncationHint, creator, g.hint()); hint != "" {
		out.Truncated, out.TruncationHint = true, hint
	}
	budget := "core"
	if in.Collection == "review_threads" {
		budget = "graphql" // the one collection read over GraphQL
	}
	out.RateLimitRemaining = toolkit.LowBudget(c, budget)
	return out, nil
}

// listRows renders each element of one page of a REST list that row
// keeps.
func listRows[T any](list []T, meta github.Meta, err error, row func(T) (IssueItem, bool)) ([]IssueItem, int, error) {
	return listRowsErr(list, meta, err, func(v T) (IssueItem, bool, error) {
		r, ok := row(v)
		return r, ok, nil
	})
}

// listRowsErr is listRows for a row that can fail (a lockdown decision
// that reads the repository's visibility): the first failure fails the
// page.
func listRowsErr[T any](list []T, meta github.Meta, err error, row func(T) (IssueItem, bool, error)) ([]IssueItem, int, error) {
	if err != nil {
		return nil, 0, err
	}
	out := make([]IssueItem, 0, len(list))
	for _, v := range list {
		r, ok, err := row(v)
		if err != nil {
			return nil, 0, err
		}
		if ok {
			out = append(out, r)
		}
	}
	return out, meta.NextPage, nil
}

// scanLinkedPRs reads up to linkedPRPages timeline pages from page on and
// keeps the pull requests that reference the issue, each once, those of
// repositories outside g left out. The next page to scan is returned when
// the timeline goes on.
func scanLinkedPRs(ctx context.Context, c *github.Client, g *grant, owner, repo string, number, page int) ([]IssueItem, int, error) {
	var out []IssueItem
	seen := map[string]bool{}
	for range linkedPRPages {
		events, meta, err := c.ListTimeline(ctx, owner, repo, number, gh.ListOptions{Page: toolkit.PageParam(page), PerPage: toolkit.MaxPageSize})
		if err != nil {
			return nil, 0, err
		}
		for _, ev := range events {
			pr, ok := linkedPR(ev, owner, repo)
			if !ok || seen[fmt.Sprint(pr.Repo, "#", pr.Number)] {
				continue
			}
			seen[fmt.Sprint(pr.Repo, "#", pr.Number)] = true
			if g.keeps(pr.Repo) {
				out = append(out, pr)
			}
		}
		if meta.NextPage == 0 {
			return out, 0, nil
		}
		page = meta.NextPage
	}
	return out, page, nil
}

// ListIssueItems is github_list_issue_items.
func (s *Tools) ListIssueItems() tooldef.Spec {
	return tooldef.Tool[ListIssueItemsIn, ListIssueItemsOut]{
		Name:        toolkit.NameListIssueItems,
		Toolset:     Toolset,
		Title:       "List issue items",
		Description: "Issue items by collection; absent: all.",
		Mode:        tooldef.Read,
		// withheld_untrusted comes only under lockdown, which the
		// capability summary names where it is in force.
		Unlisted: []string{"withheld_untrusted"},
		Gated:    map[string]string{toolkit.IncludeUntrustedField: toolkit.IncludeUntrustedGate},
		Run:      s.listIssueItems,
	}
}
