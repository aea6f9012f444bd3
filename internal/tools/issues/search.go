package issues

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/searchquery"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// SearchIssuesIn are github_search_issues' arguments.
type SearchIssuesIn struct {
	Owner string `json:"owner,omitempty"`
	// Repo without Owner is refused by name (Validate, with the repair),
	// so tools/list need not spend bytes saying it.
	Repo         string           `json:"repo,omitempty"`
	Query        string           `json:"query,omitempty" jsonschema:"text, qualifiers"`
	State        SearchState      `json:"state,omitempty" jsonschema:"default open"`
	Labels       SearchLabels     `json:"labels,omitempty" jsonschema:"all these"`
	NoLabels     bool             `json:"no_labels,omitempty" jsonschema:"default false"`
	Assignee     string           `json:"assignee,omitempty" jsonschema:"login or none"`
	Author       string           `json:"author,omitempty" jsonschema:"login"`
	UpdatedAfter string           `json:"updated_after,omitempty" jsonschema:"date/RFC 3339"`
	IncludePRs   bool             `json:"include_prs,omitempty" jsonschema:"default false"`
	Sort         SearchSort       `json:"sort,omitempty" jsonschema:"default best_match"`
	Order        SortOrder        `json:"order,omitempty" jsonschema:"default desc"`
	Detail       Detail           `json:"detail,omitempty" jsonschema:"default summary"`
	PageSize     toolkit.PageSize `json:"page_size,omitempty" jsonschema:"default 30"`
	Cursor       string           `json:"cursor,omitempty"`
	// IncludeUntrusted true shows (for the mirror: writes) the text
	// lockdown withholds, audited. It is listed and accepted only where
	// the operator allows it (Gated on toolkit.IncludeUntrustedGate); the
	// capability summary says what it does.
	IncludeUntrusted bool `json:"include_untrusted,omitempty" jsonschema:"default false"`
}

// Validate checks rules that span fields.
func (in *SearchIssuesIn) Validate() *contract.Error {
	if in.Repo != "" && in.Owner == "" {
		return contract.Errorf(contract.CodeInvalidField, "repo needs owner").WithField("owner", "is required when repo is given").
			WithRepair(contract.Repair{NextStep: "call again with the repository's owner beside repo", Tool: toolkit.NameSearchIssues,
				Alternative: "or leave repo out to search every repository the credential can see"})
	}
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	// author and assignee become qualifiers of the query: anything but a
	// login would add terms of its own, a scope among them.
	if e := checkLoginFilter("author", in.Author, "@me"); e != nil {
		return e
	}
	if e := checkLoginFilter("assignee", in.Assignee, "@me", "none"); e != nil {
		return e
	}
	if e := in.checkScope(); e != nil {
		return e
	}
	for _, l := range in.Labels {
		// A comma separates alternatives in GitHub's label: qualifier, and
		// a double quote cannot be written inside one: such a name would
		// silently match other issues, or none.
		if strings.ContainsAny(l, ",\"") {
			return contract.Errorf(contract.CodeInvalidField, "GitHub's search cannot filter on a label whose name holds a comma or a double quote").
				WithField("labels", "a name with , or \" cannot be searched for").
				WithRepair(contract.Repair{NextStep: "search without that label and check each row's labels (detail: summary lists them)", Tool: toolkit.NameSearchIssues})
		}
	}
	if in.UpdatedAfter != "" {
		if _, err := parseDateArg(in.UpdatedAfter); err != nil {
			return contract.Errorf(contract.CodeInvalidField, "updated_after must be YYYY-MM-DD or RFC 3339").
				WithField("updated_after", "must be YYYY-MM-DD or RFC 3339").
				WithRepair(contract.Repair{NextStep: "call again with updated_after as a date such as 2026-01-31", Tool: toolkit.NameSearchIssues})
		}
	}
	return nil
}

// checkScope refuses scope qualifiers in query that reach past the owner
// the call is routed by: GitHub ORs them with the owner's own scope, so they
// would be read on that owner's credential. Without owner, the query may
// name one owner, which then routes the call (see routedOwner).
func (in *SearchIssuesIn) checkScope() *contract.Error {
	const tool = toolkit.NameSearchIssues
	tokens := searchquery.Tokens(in.Query)
	refs := searchquery.Refs(tokens)
	if len(refs) == 0 {
		return nil
	}
	fixed := *in
	fixed.Cursor = ""
	if in.Owner != "" {
		where := in.Owner
		if in.Repo != "" {
			where += "/" + in.Repo
		}
		var outside []searchquery.Ref
		for _, r := range refs {
			if !r.Within(in.Owner, in.Repo) {
				outside = append(outside, r)
			}
		}
		if len(outside) == 0 {
			return nil
		}
		fixed.Query = searchquery.Rewrite(tokens, outside, nil)
		return contract.Errorf(contract.CodeInvalidField, "query's %s reaches past %s, the scope this search is routed and authorized by", qualifierList(outside), where).
			WithField("query", "must not name repositories outside "+where).
			WithRepair(contract.Repair{NextStep: "call again without those qualifiers; owner already limits the search to " + where, Tool: tool, Arguments: fixed,
				Alternative: "to search another owner's issues, call again with owner set to that owner"})
	}
	var plain, notted, others []searchquery.Ref
	for _, r := range refs {
		if r.AfterNOT {
			notted = append(notted, r)
		} else {
			plain = append(plain, r)
		}
	}
	owners := searchquery.Owners(plain)
	for _, r := range plain {
		if r.Owner != owners[0] && !searchquery.SameOwner(r.Owner, owners[0]) {
			others = append(others, r)
		}
	}
	fixed.Query = searchquery.Rewrite(tokens, others, notted)
	if len(owners) > 1 {
		return contract.Errorf(contract.CodeInvalidField, "query names repositories of %d owners (%s); a search is routed by one owner's credential", len(owners), strings.Join(owners, ", ")).
			WithField("query", "must name repositories of one owner only").
			WithRepair(contract.Repair{NextStep: "search one owner at a time: these arguments search " + owners[0] + "; then call again with each other owner's qualifiers", Tool: tool, Arguments: fixed})
	}
	if len(notted) > 0 {
		return contract.Errorf(contract.CodeInvalidField, "query's %s is ambiguous: GitHub applies NOT to words, not to qualifiers", qualifierList(notted)).
			WithField("query", "must exclude a scope with a leading minus, not NOT").
			WithRepair(contract.Repair{NextStep: "call again with the exclusion written as -qualifier:value", Tool: tool, Arguments: fixed})
	}
	return nil
}

// qualifierList names refs for a message, as name:value.
func qualifierList(refs []searchquery.Ref) string {
	var names []string
	for _, r := range refs {
		q := r.Name + ":" + r.Value
		if r.AfterNOT {
			q = "NOT " + q
		}
		if !slices.Contains(names, q) {
			names = append(names, q)
		}
	}
	return strings.Join(names, ", ")
}

// routedOwner is the owner whose credential serves the search: owner when
// given, else the one owner the query's scope qualifiers name (checkScope
// has refused two), else "" as for any unscoped call. The credential's own
// account (@me) names no route.
func (in SearchIssuesIn) routedOwner() string {
	if in.Owner != "" {
		return in.Owner
	}
	for _, r := range searchquery.Refs(searchquery.Tokens(in.Query)) {
		if !r.AfterNOT && r.Owner != searchquery.ViewerLogin {
			return r.Owner
		}
	}
	return ""
}

// checkLoginFilter refuses a login filter that is not a GitHub login, one
// of the words the qualifier takes, or (for author) an app/ slug.
func checkLoginFilter(field, value string, words ...string) *contract.Error {
	if value == "" || slices.Contains(words, value) {
		return nil
	}
	login := value
	if field == "author" {
		login = strings.TrimPrefix(value, "app/")
	}
	if github.CheckOwner(login) == nil {
		return nil
	}
	reason := "must be a GitHub login"
	if len(words) > 0 {
		reason += " or " + strings.Join(words, " or ")
	}
	return contract.Errorf(contract.CodeInvalidField, "%s %s", field, reason).WithField(field, reason).
		WithRepair(contract.Repair{NextStep: "call again with " + field + " set to one login; put other search terms in query", Tool: toolkit.NameSearchIssues})
}

func parseDateArg(s string) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Parse("2006-01-02", s)
}

// SearchIssuesOut is one page of results.
type SearchIssuesOut struct {
	Items []issueview.Issue `json:"items,omitempty"`
	// TotalCount is every match: search counts them; the list endpoint
	// does not, so a listing gives it only when one upstream page (sized
	// from page_size, see listBucket) holds them all.
	TotalCount int    `json:"total_count,omitempty"`
	Source     Source `json:"source"`
	toolkit.Page
	// Withheld counts this page's matches left out: issues another user
	// opened, under the creator scope, and issues of repositories the
	// client may not read.
	Withheld int `json:"withheld,omitempty" jsonschema:"matches left out: other authors' (creator scope), or of repositories this client may not read"`
	// Notes carry search's freshness caveat and, on an empty first page,
	// what was found of the names filtered on (see explainEmpty).
	Notes              []string `json:"notes,omitempty"`
	RateLimitRemaining *int     `json:"rate_limit_remaining,omitempty" jsonschema:"present when under 10% of the search budget is left"`
}

// searchFilters is what a cursor is bound to: every argument that decides
// the rows. detail does not (summary and full have the same rows), so the
// next page may be read at another detail.
type searchFilters struct {
	Query, State, Assignee, Author, UpdatedAfter, Sort, Order string
	Labels                                                    []string
	NoLabels, IncludePRs                                      bool
	PageSize                                                  int
	// Source is the path the listing takes (list or search).
	Source string
}

// filters are what a cursor of in on source is bound to.
func (in SearchIssuesIn) filters(source Source) searchFilters {
	return searchFilters{in.Query, string(in.State), in.Assignee, in.Author, in.UpdatedAfter, string(in.Sort), string(in.Order),
		in.Labels, in.NoLabels, in.IncludePRs, int(in.PageSize), string(source)}
}

// githubQuery builds GitHub's q parameter from the typed filters.
func (in SearchIssuesIn) githubQuery() string {
	var q []string
	if in.Query != "" {
		q = append(q, in.Query)
	}
	switch {
	case in.Owner != "" && in.Repo != "":
		q = append(q, "repo:"+in.Owner+"/"+in.Repo)
	case in.Owner != "":
		q = append(q, "user:"+in.Owner)
	}
	if !in.IncludePRs && !hasQualifier(in.Query, "is:pr", "type:pr", "is:pull-request", "type:pull-request", "is:issue", "type:issue") {
		q = append(q, "is:issue")
	}
	switch in.State {
	case "":
		// The default yields to a state the query text names itself, or
		// "is:closed is:open" would match nothing.
		if !hasQualifier(in.Query, "is:open", "is:closed", "state:open", "state:closed", "is:merged", "is:unmerged") {
			q = append(q, "is:open")
		}
	case "open":
		q = append(q, "is:open")
	case "closed":
		q = append(q, "is:closed")
	}
	for _, l := range in.Labels {
		q = append(q, "label:"+quoteQualifier(l))
	}
	if in.NoLabels {
		q = append(q, "no:label")
	}
	switch in.Assignee {
	case "":
	case "none":
		q = append(q, "no:assignee")
	default:
		q = append(q, "assignee:"+in.Assignee)
	}
	if in.Author != "" {
		q = append(q, "author:"+in.Author)
	}
	if in.UpdatedAfter != "" {
		q = append(q, "updated:>="+in.UpdatedAfter)
	}
	return strings.Join(q, " ")
}

// hasQualifier reports whether the query text carries one of the
// qualifiers (case-insensitive, as GitHub reads them).
func hasQualifier(query string, qualifiers ...string) bool {
	for _, tok := range strings.Fields(strings.ToLower(query)) {
		for _, q := range qualifiers {
			if tok == q {
				return true
			}
		}
	}
	return false
}

func quoteQualifier(v string) string {
	if strings.ContainsAny(v, " :\"") {
		return `"` + strings.ReplaceAll(v, `"`, ``) + `"`
	}
	return v
}

// searchCap is how far GitHub's search API pages.
const searchCap = 1000

func (s *Tools) searchIssues(ctx context.Context, in SearchIssuesIn) (SearchIssuesOut, error) {
	const tool = toolkit.NameSearchIssues
	if in.PageSize == 0 {
		in.PageSize = toolkit.DefaultPageSize
	}
	detail := Detail(in.Detail)
	if detail == "" {
		detail = Summary
	}
	// The cursor is bound to the owner whose credential read the rows, and
	// to the path that read them: a page number means nothing on the other.
	owner := in.routedOwner()
	scope := owner + "/" + in.Repo
	restart := in
	restart.Cursor = ""
	asked := in
	if s.AllowedIssueCreator != "" {
		// The creator scope narrows the query itself, so pages stay full.
		if in.Author != "" && !s.CreatorAllowed(in.Author) {
			return SearchIssuesOut{}, contract.Errorf(contract.CodeIssueCreatorNotAllowed,
				"this deployment only works on issues opened by %s", s.AllowedIssueCreator).WithField("author", "must be "+s.AllowedIssueCreator+" or omitted")
		}
		in.Author = s.AllowedIssueCreator
	}
	plan, listed := in.listPlan()
	source := SourceSearch
	if listed {
		source = SourceList
	}
	pg, err := s.OpenPager(toolkit.Listing{Tool: tool, Scope: scope, Filters: asked.filters(source), Field: "cursor", Cursor: in.Cursor, Restart: restart})
	if err != nil {
		return SearchIssuesOut{}, err
	}
	c, err := s.Client(ctx, owner, tooldef.Read)
	if err != nil {
		return SearchIssuesOut{}, err
	}
	again := asked
	again.IncludeUntrusted = false
	v, err := s.openViews(ctx, c, tool, owner, in.Repo, in.IncludeUntrusted, again)
	if err != nil {
		return SearchIssuesOut{}, err
	}
	var out SearchIssuesOut
	if listed {
		out, err = s.listPage(ctx, c, v, in, plan, pg, detail)
	} else {
		out, err = s.searchPage(ctx, c, v, in, pg, detail)
	}
	if err != nil {
		return SearchIssuesOut{}, s.refusedNames(ctx, c, asked, err)
	}
	// Only an empty first page is checked: rows prove their names exist,
	// and a later page's filters were the first page's.
	if in.Cursor == "" && len(out.Items) == 0 && out.Withheld == 0 {
		if err := s.explainEmpty(ctx, c, asked, &out); err != nil {
			return SearchIssuesOut{}, err
		}
	}
	return out, nil
}

// searchPage reads one page of in through the search API.
func (s *Tools) searchPage(ctx context.Context, c *github.Client, v views, in SearchIssuesIn, pg *toolkit.Pager, detail Detail) (SearchIssuesOut, error) {
	opts := github.SearchOptions{Page: pg.Page, PerPage: int(in.PageSize), Order: string(in.Order)}
	if in.Sort != "" && in.Sort != "best_match" {
		opts.Sort = string(in.Sort)
	}
	res, meta, err := c.SearchIssues(ctx, in.githubQuery(), opts)
	if err != nil {
		return SearchIssuesOut{}, err
	}
	out := SearchIssuesOut{TotalCount: res.GetTotal(), Source: SourceSearch, Notes: []string{searchLagNote},
		RateLimitRemaining: toolkit.LowBudget(c, "search")}
	g := newGrant(ctx, in.routedOwner(), in.Repo)
	rows := make([]*github.IssueRow, len(res.Issues))
	for i, is := range res.Issues {
		rows[i] = github.IssueRowOf(is)
	}
	creator, err := s.fillRows(c, v, g, &out, rows, detail, in.Repo == "")
	if err != nil {
		return SearchIssuesOut{}, err
	}
	reachable := min(out.TotalCount, searchCap)
	next := meta.NextPage
	if next*int(in.PageSize)-int(in.PageSize) >= reachable {
		// The next page would start past what search can reach.
		next = 0
	}
	pg.Fill(&out.Page, next)
	if out.TotalCount > searchCap {
		out.Truncated = true
		out.TruncationHint = fmt.Sprintf("GitHub search reaches only the first %d of %d matches; narrow the query (labels, author, updated_after) to see the rest", searchCap, out.TotalCount)
	}
	s.noteWithheld(&out, creator, g)
	if res.GetIncompleteResults() {
		out.Truncated = true
		out.TruncationHint = "GitHub's search timed out and returned partial results; repeat the search or narrow it"
	}
	return out, nil
}

// fillRows adds the rows of issues to out at detail, through v
// (lockdown), but those of repositories outside g (counted there), and
// returns how many the creator scope withheld. GitHub's search API has
// been seen to answer NONE for a member's issue (the issues API answered
// MEMBER): under lockdown such a row's body is withheld, which errs on
// the safe side; github_get_issue reads it by the issues API.
func (s *Tools) fillRows(c *github.Client, v views, g *grant, out *SearchIssuesOut, issues []*github.IssueRow, detail Detail, withRepo bool) (withheld int, err error) {
	s.rememberSeen(c, issues...)
	for _, is := range issues {
		if !g.keeps(repoOfURL(is.RepositoryURL)) {
			continue
		}
		if !s.CreatorAllowed(is.User.Login) {
			// The agent's own query text can widen what author: narrows
			// (another author:, OR), so the scope is enforced on the rows.
			withheld++
			continue
		}
		row, err := v.issue(is, detail, withRepo, "")
		if err != nil {
			return 0, err
		}
		out.Items = append(out.Items, row)
	}
	return withheld, nil
}

// noteWithheld counts the rows left out, creator by the creator scope
// and the rest by the caller's grant g, and says why.
func (s *Tools) noteWithheld(out *SearchIssuesOut, creator int, g *grant) {
	out.Withheld = creator + g.withheld
	scope := ""
	if creator > 0 {
		scope = fmt.Sprintf("%d matches opened by someone other than %s were left out; "+
			"this deployment only shows that user's issues", creator, s.AllowedIssueCreator)
	}
	if hint := joinHints(out.TruncationHint, scope, g.hint()); hint != "" {
		out.Truncated, out.TruncationHint = true, hint
	}
}

// SearchIssues is github_search_issues.
func (s *Tools) SearchIssues() tooldef.Spec {
	return tooldef.Tool[SearchIssuesIn, SearchIssuesOut]{
		Name:    toolkit.NameSearchIssues,
		Toolset: Toolset,
		Title:   "Search issues",
		// "Absent: any" is said once here, for every filter (and
		// owner and repo) that gives no default of its own.
		Description: "Issues in a repo, an owner's or all; absent: any; detail=full adds bodies.",
		Mode:        tooldef.Read,
		Keep:        triageState("items[]"),
		Gated:       map[string]string{toolkit.IncludeUntrustedField: toolkit.IncludeUntrustedGate},
		Run:         s.searchIssues,
	}
}

func ptr[T any](v T) *T { return &v }
