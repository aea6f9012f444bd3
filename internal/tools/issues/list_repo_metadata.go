package issues

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
)

// ListRepoMetadataIn are github_list_repo_metadata's arguments.
type ListRepoMetadataIn struct {
	Owner    string           `json:"owner"`
	Repo     string           `json:"repo,omitempty" jsonschema:"repositories: omit"`
	Kind     MetadataKind     `json:"kind"`
	PageSize toolkit.PageSize `json:"page_size,omitempty" jsonschema:"default 100"`
	Cursor   string           `json:"cursor,omitempty"`
}

// Validate checks the names before they reach a request path, and that
// repo is given for every kind but repositories.
func (in *ListRepoMetadataIn) Validate() *contract.Error {
	if e := checkRepoForKind(*in); e != nil {
		return e
	}
	return toolkit.CheckNames(in.Owner, in.Repo)
}

// RepoMetaItem is one row; which fields appear depends on the kind:
// labels {name, color, description}; milestones {number, title, state,
// due_on, open_issues, closed_issues}; assignees {login}; issue_types
// {name, description}; templates {file, name, description, title, labels};
// repositories {name, archived, visibility, has_issues, open_issues,
// default_branch}, where open_issues counts open issues only, never pull
// requests (GitHub's REST open_issues_count counts both).
type RepoMetaItem struct {
	Name         string   `json:"name,omitempty"`
	Login        string   `json:"login,omitempty"`
	Number       int      `json:"number,omitempty"`
	Title        string   `json:"title,omitempty"`
	File         string   `json:"file,omitempty"`
	Description  string   `json:"description,omitempty"`
	Color        string   `json:"color,omitempty"`
	State        string   `json:"state,omitempty"`
	DueOn        string   `json:"due_on,omitempty"`
	OpenIssues   *int     `json:"open_issues,omitempty" jsonschema:"open issues: a milestone's as GitHub counts them; a repository's without pull requests"`
	ClosedIssues *int     `json:"closed_issues,omitempty"`
	Labels       []string `json:"labels,omitempty"`
	// The rows of kind repositories.
	Archived      *bool  `json:"archived,omitempty" jsonschema:"repositories: archived (read-only)"`
	Visibility    string `json:"visibility,omitempty" jsonschema:"repositories: public, private or internal"`
	HasIssues     *bool  `json:"has_issues,omitempty" jsonschema:"repositories: issues turned on"`
	DefaultBranch string `json:"default_branch,omitempty" jsonschema:"repositories: absent for an empty repository"`
}

// ListRepoMetadataOut is one page of a repository's metadata, or of an
// owner's repositories.
type ListRepoMetadataOut struct {
	Kind  string         `json:"kind"`
	Items []RepoMetaItem `json:"items,omitempty"`
	toolkit.Page
	Withheld           int  `json:"withheld,omitempty" jsonschema:"repositories this client may not read, left out"`
	RateLimitRemaining *int `json:"rate_limit_remaining,omitempty"`
}

func (s *Tools) listRepoMetadata(ctx context.Context, in ListRepoMetadataIn) (ListRepoMetadataOut, error) {
	const tool = toolkit.NameListRepoMetadata
	if in.PageSize == 0 {
		in.PageSize = toolkit.MaxPageSize
	}
	filters := struct {
		Kind     string
		PageSize int
	}{string(in.Kind), int(in.PageSize)}
	restart := in
	restart.Cursor = ""
	pg, err := s.OpenPager(toolkit.Listing{Tool: tool, Scope: in.Owner + "/" + in.Repo, Filters: filters, Field: "cursor", Cursor: in.Cursor, Restart: restart,
		Opaque: in.Kind == kindRepositories})
	if err != nil {
		return ListRepoMetadataOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ListRepoMetadataOut{}, err
	}
	out := ListRepoMetadataOut{Kind: string(in.Kind)}
	if in.Kind == kindRepositories {
		after, err := listRepositories(ctx, c, in.Owner, pg.After, int(in.PageSize), &out)
		if err != nil {
			return ListRepoMetadataOut{}, err
		}
		pg.FillAfter(&out.Page, after)
		out.RateLimitRemaining = toolkit.LowBudget(c, "graphql")
		return out, nil
	}
	var meta github.Meta
	switch in.Kind {
	case "labels":
		var list []*gh.Label
		list, meta, err = c.ListLabels(ctx, in.Owner, in.Repo, gh.ListOptions{Page: pg.Param(), PerPage: int(in.PageSize)})
		for _, l := range list {
			out.Items = append(out.Items, RepoMetaItem{Name: l.GetName(), Color: l.GetColor(), Description: clean(l.GetDescription())})
		}
	case "milestones":
		var list []*gh.Milestone
		list, meta, err = c.ListMilestones(ctx, in.Owner, in.Repo, "all", gh.ListOptions{Page: pg.Param(), PerPage: int(in.PageSize)})
		for _, m := range list {
			out.Items = append(out.Items, RepoMetaItem{Number: m.GetNumber(), Title: clean(m.GetTitle()), State: m.GetState(),
				DueOn: day(m.GetDueOn()), OpenIssues: ptr(m.GetOpenIssues()), ClosedIssues: ptr(m.GetClosedIssues())})
		}
	case "assignees":
		var list []*gh.User
		list, meta, err = c.ListAssignees(ctx, in.Owner, in.Repo, gh.ListOptions{Page: pg.Param(), PerPage: int(in.PageSize)})
		for _, u := range list {
			out.Items = append(out.Items, RepoMetaItem{Login: u.GetLogin()})
		}
	case "issue_types":
		// The repository's enabled types (its owner's, for an organization);
		// GitHub answers this list whole, without pages.
		var list []*gh.IssueType
		list, meta, err = c.ListRepoIssueTypes(ctx, in.Owner, in.Repo)
		for _, t := range list {
			out.Items = append(out.Items, RepoMetaItem{Name: t.GetName(), Description: clean(t.GetDescription())})
		}
	case "templates":
		var truncated bool
		out.Items, truncated, err = listTemplates(ctx, c, in.Owner, in.Repo, templateRead{max: maxTemplates})
		if truncated {
			out.Truncated = true
			out.TruncationHint = fmt.Sprintf("only the first %d templates were read", maxTemplates)
		}
	default:
		return out, contract.Errorf(contract.CodeInvalidField, "unknown kind").WithField("kind", "must be one of the listed kinds")
	}
	if err != nil {
		return ListRepoMetadataOut{}, notFoundRepo(err, in.Owner, in.Repo)
	}
	// What was just listed exists: a write naming it need not ask again.
	s.rememberListed(c, in.Owner, in.Repo, string(in.Kind), out.Items)
	if in.Kind == "issue_types" || in.Kind == "templates" {
		// GitHub answers these whole; page_size pages them here.
		out.Items, meta.NextPage = toolkit.PageOf(out.Items, pg.Page, int(in.PageSize))
	}
	pg.Fill(&out.Page, meta.NextPage)
	out.RateLimitRemaining = toolkit.LowBudget(c, "core")
	return out, nil
}

// notFoundRepo names the repository in a repo_not_found error, with a search
// of the owner's issues (each row names its repository) to find the
// right one.
func notFoundRepo(err error, owner, repo string) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return err
	}
	e.Code = contract.CodeRepoNotFound
	e.Message = fmt.Sprintf("%s/%s does not exist or is not visible to this credential", owner, repo)
	return e.WithRepair(contract.Repair{NextStep: "search " + owner + "'s issues: each row names its repository",
		Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Owner: owner, State: "all"}})
}

// clean strips hidden characters from a short plain text: a name, a
// description, a title in a metadata row. Counts are not reported for
// those; issue titles count theirs (see cleanTitle).
func clean(s string) string {
	out, _ := contract.SanitizeText(s)
	return out
}

// cleanTitle strips hidden characters from an issue's title in an item
// row, adding how many to the row's removed count.
func cleanTitle(row *IssueItem, title string) {
	out, rm := contract.SanitizeText(title)
	row.Title = out
	row.Removed += rm.ZeroWidth + rm.Bidi + rm.Tags + rm.HTMLComments
}

// ListRepoMetadata is github_list_repo_metadata.
func (s *Tools) ListRepoMetadata() tooldef.Spec {
	return tooldef.Tool[ListRepoMetadataIn, ListRepoMetadataOut]{
		Name:        toolkit.NameListRepoMetadata,
		Toolset:     Toolset,
		Title:       "Repo metadata",
		Description: "A repo's valid issue field values, by kind.",
		Mode:        tooldef.Read,
		Unlisted:    []string{"kind"}, // the argument, repeated
		Run:         s.listRepoMetadata,
	}
}
