package issues

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// GetOverviewIn are github_get_overview's arguments.
type GetOverviewIn struct {
	Owner string `json:"owner"`
	Repo  string `json:"repo"`
}

// Validate checks the names before they reach a request.
func (in *GetOverviewIn) Validate() *contract.Error { return toolkit.CheckNames(in.Owner, in.Repo) }

// Request is one upstream request a call made.
type Request struct {
	API  string `json:"api" jsonschema:"graphql or rest"`
	What string `json:"what"`
}

// GetOverviewOut orients an agent in a repository: what is open, the
// names it may use, and what its credential may do. It is grouped in a few
// objects so that tools/list, which outlines only the top level, stays
// small; the ghgate://schemas resource describes every field.
type GetOverviewOut struct {
	Permission string          `json:"permission,omitempty" jsonschema:"the credential's role: read, triage, write, maintain, admin or none; absent: not read"`
	Counts     *OverviewCounts `json:"counts,omitempty" jsonschema:"absent: not read"`
	Metadata   OverviewMeta    `json:"metadata,omitzero" jsonschema:"absent: none"`
	Issues     OverviewIssues  `json:"issues,omitzero" jsonschema:"absent: none open"`
	// PartialSuccess names the sections that could not be read (absent:
	// every section was read); the call fails only when none could be.
	PartialSuccess *OverviewPartial `json:"partial_success,omitempty" jsonschema:"sections not read, and why"`
	// Requests lists every upstream request the call made, in order.
	Requests []Request `json:"requests"`
	// Truncated is set when a list was cut; the hint says how to read it whole.
	Truncated          bool   `json:"truncated,omitempty"`
	TruncationHint     string `json:"truncation_hint,omitempty"`
	RateLimitRemaining *int   `json:"rate_limit_remaining,omitempty"`
}

// OverviewCounts are the repository's open issues and pull requests.
type OverviewCounts struct {
	OpenIssues int `json:"open_issues"`
	OpenPRs    int `json:"open_prs"`
}

// OverviewMeta are the names an issue may carry, as list_repo_metadata's
// rows: labels {name, color, open_issues}, by name; the open milestones
// {number, title, due_on, open_issues, closed_issues}, earliest due first.
// Counts are of issues, pull requests left out.
type OverviewMeta struct {
	Labels     []RepoMetaItem `json:"labels,omitempty" jsonschema:"name, color, open_issues"`
	Milestones []RepoMetaItem `json:"milestones,omitempty" jsonschema:"open; number, title, due_on, open_issues, closed_issues"`
	IssueTypes []string       `json:"issue_types,omitempty"`
	Templates  []RepoMetaItem `json:"templates,omitempty" jsonschema:"file, name, description, title, labels"`
}

// OverviewIssues are open issues as search's summary rows.
type OverviewIssues struct {
	Newest        []issueview.Issue `json:"newest,omitempty" jsonschema:"newest open issues"`
	MostCommented []issueview.Issue `json:"most_commented,omitempty" jsonschema:"open issues with the most comments"`
}

// The overview's bounds. One GraphQL query reads everything but the
// templates, which GitHub serves only as files: their directory and each
// file are a request, so at most maxOverviewRequests-2 files are read.
const (
	maxOverviewRequests = 5
	overviewIssues      = 5
	overviewLabels      = 100
	overviewMilestones  = 25
	overviewTypes       = 25
)

// overviewDoc is the overview's one GraphQL query. Names travel as
// variables; issue rows select what a search summary row shows.
var overviewDoc = fmt.Sprintf(`query($owner: String!, $repo: String!) { repository(owner: $owner, name: $repo) {
 hasIssuesEnabled viewerPermission
 openIssues: issues(states: OPEN) { totalCount }
 openPRs: pullRequests(states: OPEN) { totalCount }
 labels(first: %[2]d, orderBy: {field: NAME, direction: ASC}) { totalCount nodes { name color issues(states: OPEN) { totalCount } } }
 milestones(first: %[3]d, states: OPEN) { totalCount nodes { number title dueOn
  open: issues(states: OPEN) { totalCount } closed: issues(states: CLOSED) { totalCount } } }
 issueTypes(first: %[4]d) { nodes { name isEnabled } }
 newest: issues(first: %[1]d, states: OPEN, orderBy: {field: CREATED_AT, direction: DESC}) { nodes { %[5]s } }
 mostCommented: issues(first: %[1]d, states: OPEN, orderBy: {field: COMMENTS, direction: DESC}) { nodes { %[5]s } }
} }`, overviewIssues, overviewLabels, overviewMilestones, overviewTypes, summarySelection)

// summarySelection is what issueView shows of an issue at summary detail,
// and its author, which the creator scope checks.
const summarySelection = `number title state author { login __typename } milestone { number title } issueType { name } comments(first: 1) { totalCount }
 labels(first: 100) { nodes { name } } assignees(first: 100) { nodes { login } } updatedAt`

type gqlCount struct {
	TotalCount int `json:"totalCount"`
}

// overviewData is overviewDoc's answer.
type overviewData struct {
	Repository *overviewRepo `json:"repository"`
}

// overviewRepo is the repository overviewDoc reads. HasIssuesEnabled is
// nil when its field failed: that says nothing of the issues.
type overviewRepo struct {
	HasIssuesEnabled *bool    `json:"hasIssuesEnabled"`
	ViewerPermission *string  `json:"viewerPermission"`
	OpenIssues       gqlCount `json:"openIssues"`
	OpenPRs          gqlCount `json:"openPRs"`
	Labels           struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			Name   string   `json:"name"`
			Color  string   `json:"color"`
			Issues gqlCount `json:"issues,omitzero" jsonschema:"absent: none open"`
		} `json:"nodes"`
	} `json:"labels"`
	Milestones struct {
		TotalCount int `json:"totalCount"`
		Nodes      []struct {
			Number int      `json:"number"`
			Title  string   `json:"title"`
			DueOn  *string  `json:"dueOn"`
			Open   gqlCount `json:"open"`
			Closed gqlCount `json:"closed"`
		} `json:"nodes"`
	} `json:"milestones"`
	IssueTypes *struct {
		Nodes []struct {
			Name      string `json:"name"`
			IsEnabled bool   `json:"isEnabled"`
		} `json:"nodes"`
	} `json:"issueTypes"`
	Newest        struct{ Nodes []gqlIssue } `json:"newest"`
	MostCommented struct{ Nodes []gqlIssue } `json:"mostCommented"`
}

func (s *Tools) getOverview(ctx context.Context, in GetOverviewIn) (GetOverviewOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return GetOverviewOut{}, err
	}
	out := GetOverviewOut{Requests: []Request{{API: "graphql",
		What: "counts, labels, milestones, issue types, permission, newest and most-commented issues"}}}
	var data overviewData
	qerr := c.Query(ctx, overviewDoc, map[string]any{"owner": in.Owner, "repo": in.Repo}, &data)
	r := data.Repository
	if r == nil && qerr == nil {
		qerr = notFoundErr(in.Owner, in.Repo)
	}
	// A section the query could not read is left out and named; the
	// call fails whole only for a missing repository, or when the
	// templates could not be read either.
	var unread []UnreadSection
	failed := map[string]bool{}
	if qerr != nil {
		if e := toolkit.MapError(qerr); r == nil && (e == nil || contract.IsNotFound(e.Code)) {
			return GetOverviewOut{}, notFoundRepo(qerr, in.Owner, in.Repo)
		}
		for _, sec := range failedQuerySections(qerr, r != nil) {
			failed[sec] = true
			unread = append(unread, unreadSection(sec, qerr))
		}
		if len(failed) == len(querySections) {
			r = nil
		}
	}
	if r != nil && r.HasIssuesEnabled != nil && !*r.HasIssuesEnabled {
		return GetOverviewOut{}, contract.Errorf(contract.CodeGone, "issues are disabled in %s/%s", in.Owner, in.Repo).
			WithRepair(contract.Repair{NextStep: "find a repository of " + in.Owner + " whose issues are on",
				Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: in.Owner, State: "all"}})
	}
	var cut []string
	withheld := map[int]bool{}
	if r != nil {
		cut = s.overviewQuerySections(c, in, r, failed, &out, withheld)
	}

	// The repository exists if the query found it: a missing template
	// directory then means no templates; otherwise the templates read
	// asks for the repository to tell the two apart.
	templates, truncated, terr := listTemplates(ctx, c, in.Owner, in.Repo, templateRead{max: maxOverviewRequests - 2, repoKnown: r != nil,
		sent: func(path string) {
			what := "GET contents/" + path
			if path == "" {
				what = "GET " + in.Owner + "/" + in.Repo
			}
			out.Requests = append(out.Requests, Request{API: "rest", What: what})
		}})
	switch {
	case terr == nil:
		out.Metadata.Templates = templates
	case r == nil:
		// Nothing could be read: the query's failure is the answer,
		// unless the templates read found the repository missing.
		if e := toolkit.MapError(terr); e != nil && contract.IsNotFound(e.Code) {
			return GetOverviewOut{}, notFoundRepo(terr, in.Owner, in.Repo)
		}
		return GetOverviewOut{}, notFoundRepo(qerr, in.Owner, in.Repo)
	default:
		unread = append(unread, unreadSection(secTemplates, terr))
	}
	if truncated {
		cut = append(cut, "templates")
	}
	if len(unread) > 0 {
		out.PartialSuccess = &OverviewPartial{Unread: unread}
	}
	var hints []string
	if len(cut) > 0 {
		hints = append(hints, "cut: "+strings.Join(cut, ", ")+"; "+toolkit.NameListRepoMetadata+" lists each kind whole")
	}
	if len(withheld) > 0 {
		hints = append(hints, fmt.Sprintf("%d open issues opened by someone other than %s were left out of newest and most_commented "+
			"(counts and label counts include them); this deployment only shows that user's issues; %s with author %s lists theirs",
			len(withheld), s.AllowedIssueCreator, toolkit.NameSearchIssues, s.AllowedIssueCreator))
	}
	if len(hints) > 0 {
		out.Truncated = true
		out.TruncationHint = strings.Join(hints, ". ")
	}
	out.RateLimitRemaining = toolkit.LowBudget(c, "graphql")
	return out, nil
}

// overviewQuerySections fills out's sections from the query's answer,
// those in failed left out, and returns what was cut. Under the creator
// scope the rows of other users' issues are withheld, as search withholds
// them, and counted in withheld (an issue in both lists once).
func (s *Tools) overviewQuerySections(c *github.Client, in GetOverviewIn, r *overviewRepo, failed map[string]bool,
	out *GetOverviewOut, withheld map[int]bool) (cut []string) {
	if !failed[secPermission] {
		out.Permission = "none"
		if r.ViewerPermission != nil {
			out.Permission = strings.ToLower(*r.ViewerPermission)
		}
	}
	if !failed[secCounts] {
		out.Counts = &OverviewCounts{OpenIssues: r.OpenIssues.TotalCount, OpenPRs: r.OpenPRs.TotalCount}
	}
	if !failed[secLabels] {
		for _, l := range r.Labels.Nodes {
			out.Metadata.Labels = append(out.Metadata.Labels, RepoMetaItem{Name: l.Name, Color: l.Color, OpenIssues: ptr(l.Issues.TotalCount)})
		}
		if r.Labels.TotalCount > len(r.Labels.Nodes) {
			cut = append(cut, fmt.Sprintf("labels (%d of %d)", len(r.Labels.Nodes), r.Labels.TotalCount))
		}
		// What was just listed exists: a write naming it need not ask
		// again.
		s.rememberListed(c, in.Owner, in.Repo, "labels", out.Metadata.Labels)
	}
	if !failed[secMilestones] {
		for _, m := range r.Milestones.Nodes {
			row := RepoMetaItem{Number: m.Number, Title: clean(m.Title), OpenIssues: ptr(m.Open.TotalCount), ClosedIssues: ptr(m.Closed.TotalCount)}
			if m.DueOn != nil {
				row.DueOn, _, _ = strings.Cut(*m.DueOn, "T")
			}
			out.Metadata.Milestones = append(out.Metadata.Milestones, row)
		}
		slices.SortStableFunc(out.Metadata.Milestones, byDue)
		if r.Milestones.TotalCount > len(r.Milestones.Nodes) {
			cut = append(cut, fmt.Sprintf("milestones (%d of %d)", len(r.Milestones.Nodes), r.Milestones.TotalCount))
		}
		s.rememberListed(c, in.Owner, in.Repo, "milestones", out.Metadata.Milestones)
	}
	if !failed[secTypes] && r.IssueTypes != nil {
		var types []RepoMetaItem
		for _, t := range r.IssueTypes.Nodes {
			if t.IsEnabled {
				out.Metadata.IssueTypes = append(out.Metadata.IssueTypes, clean(t.Name))
				types = append(types, RepoMetaItem{Name: clean(t.Name)})
			}
		}
		s.rememberListed(c, in.Owner, in.Repo, "issue_types", types)
	}
	if !failed[secIssues] {
		rows := func(nodes []gqlIssue) (list []issueview.Issue) {
			for _, g := range nodes {
				is := g.rest()
				if !s.CreatorAllowed(is.GetUser().GetLogin()) {
					withheld[g.Number] = true
					continue
				}
				list = append(list, issueView(github.IssueRowOf(is), Summary, false))
			}
			return list
		}
		out.Issues.Newest = rows(r.Newest.Nodes)
		out.Issues.MostCommented = rows(r.MostCommented.Nodes)
	}
	return cut
}

// byDue orders milestones by due date, undated ones last, then by number.
func byDue(a, b RepoMetaItem) int {
	switch {
	case a.DueOn == b.DueOn:
		return cmp.Compare(a.Number, b.Number)
	case a.DueOn == "":
		return 1
	case b.DueOn == "":
		return -1
	}
	return strings.Compare(a.DueOn, b.DueOn)
}

// notFoundErr is GitHub's not-found, for a query that answered a missing
// repository with null and no error.
func notFoundErr(owner, repo string) error {
	return contract.Errorf(contract.CodeNotFound, "%s/%s not found", owner, repo)
}

// GetOverview is github_get_overview.
func (s *Tools) GetOverview() tooldef.Spec {
	return tooldef.Tool[GetOverviewIn, GetOverviewOut]{
		Name:        toolkit.NameGetOverview,
		Toolset:     Toolset,
		Title:       "Repo overview",
		Description: "A repo's open counts, labels, milestones, types, templates, top issues, your role.",
		Mode:        tooldef.Read,
		// Zero counts are counts, not omissions.
		Keep: append([]string{"counts.open_issues", "counts.open_prs"},
			append(triageState("issues.newest[]"), triageState("issues.most_commented[]")...)...),
		Run: s.getOverview,
	}
}
