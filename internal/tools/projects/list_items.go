package projects

import (
	"context"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ListProjectItemsIn are github_list_project_items' arguments.
type ListProjectItemsIn struct {
	Owner         string           `json:"owner"`
	ProjectNumber ProjectNumber    `json:"project_number"`
	Filter        string           `json:"filter,omitempty" jsonschema:"e.g. status:\"In progress\" -is:archived; absent: all"`
	PageSize      toolkit.PageSize `json:"page_size,omitempty" jsonschema:"default 30"`
	Cursor        string           `json:"cursor,omitempty"`
	Detail        Detail           `json:"detail,omitempty" jsonschema:"default summary"`
}

// Validate checks the owner's name.
func (in *ListProjectItemsIn) Validate() *contract.Error { return toolkit.CheckNames(in.Owner, "") }

// ItemCounts counts a page's rows by kind and repository, so issues of
// other repositories, pull requests and drafts are never taken for issues
// of one repository.
type ItemCounts struct {
	Issues       int            `json:"issues"`
	PullRequests int            `json:"pull_requests"`
	DraftIssues  int            `json:"draft_issues"`
	Redacted     int            `json:"redacted,omitempty" jsonschema:"content this credential cannot see"`
	Archived     int            `json:"archived,omitempty"`
	Repos        map[string]int `json:"repos,omitempty" jsonschema:"owner/name: issues and pull requests"`
}

// ListProjectItemsOut is a page of a board's items.
type ListProjectItemsOut struct {
	Project string     `json:"project" jsonschema:"the board's title"`
	Total   int        `json:"total" jsonschema:"items the filter matches (all, without one)"`
	Counts  ItemCounts `json:"counts" jsonschema:"of this page's rows"`
	Items   []ItemView `json:"items"`
	// Withheld counts this page's rows left out (and out of counts):
	// issues other users opened, under the creator scope, and issues and
	// pull requests of repositories the client may not read.
	Withheld int `json:"withheld,omitempty" jsonschema:"rows left out: other authors' issues (creator scope), or of repositories this client may not read"`
	// Notes name the filter's values the board does not know (a status
	// option it lacks, a label on none of its items), with the closest.
	Notes []string `json:"notes,omitempty" jsonschema:"filter values the board does not know, with the closest"`
	toolkit.Page
}

// ListProjectItems is github_list_project_items.
func (s *Tools) ListProjectItems() tooldef.Spec {
	return tooldef.Tool[ListProjectItemsIn, ListProjectItemsOut]{
		Name:        NameListProjectItems,
		Toolset:     Toolset,
		Title:       "List project items",
		Description: "A board's items with field values by name; issues, PRs, drafts and repos counted apart.",
		Mode:        tooldef.Read,
		Keep:        []string{"items"},
		Run:         s.listProjectItems,
	}
}

func (s *Tools) listProjectItems(ctx context.Context, in ListProjectItemsIn) (ListProjectItemsOut, error) {
	if in.PageSize == 0 {
		in.PageSize = toolkit.DefaultPageSize
	}
	restart := in
	restart.Cursor = ""
	l := toolkit.Listing{Tool: NameListProjectItems, Scope: strings.ToLower(in.Owner) + "#" + strconv.Itoa(int(in.ProjectNumber)),
		Field: "cursor", Cursor: in.Cursor, Restart: restart,
		Filters: struct {
			Filter   string
			PageSize int
		}{in.Filter, int(in.PageSize)}}
	// The position is GitHub's end cursor of the page before.
	pos, err := s.OpenCursor(l)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	b, _, err := s.openBoard(ctx, c, in.Owner, int(in.ProjectNumber), nil, false)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	filter := strings.TrimSpace(in.Filter)
	terms, err := checkFilter(in, &b.p)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	page, err := c.ProjectV2Items(ctx, b.p.OwnerKind, in.Owner, int(in.ProjectNumber), filter, pos, int(in.PageSize))
	if err != nil {
		return ListProjectItemsOut{}, itemsError(err, in)
	}
	out := ListProjectItemsOut{Items: []ItemView{}, Total: page.Total}
	out.Project, _ = contract.SanitizeText(b.p.Title)
	for i := range page.Items {
		it := &page.Items[i]
		if s.withheldIssue(it) || unreadable(ctx, it) {
			// Counted, not passed off: the page is not all the board holds.
			out.Withheld++
			continue
		}
		s.rememberItem(b, it)
		out.Items = append(out.Items, rowView(it, in.Detail == "full"))
		out.Counts.add(it)
	}
	// The first page carries the notes; a later one has nothing to add.
	if in.Cursor == "" {
		out.Notes = s.filterNotes(ctx, c, in.Owner, b, terms, page.Total == 0)
	}
	next := ""
	if page.HasNext {
		next = page.EndCursor
	}
	if next != "" {
		out.HasMore, out.NextCursor = true, s.MintCursor(l, next)
	}
	return out, nil
}

func rowView(it *github.ProjectItem, full bool) ItemView {
	v := itemView(it, full)
	if !full {
		v.Version = ""
	}
	return v
}

func (c *ItemCounts) add(it *github.ProjectItem) {
	switch it.Type {
	case "ISSUE":
		c.Issues++
	case "PULL_REQUEST":
		c.PullRequests++
	case "DRAFT_ISSUE":
		c.DraftIssues++
	default:
		c.Redacted++
	}
	if it.Archived {
		c.Archived++
	}
	if it.Repo != "" {
		if c.Repos == nil {
			c.Repos = map[string]int{}
		}
		c.Repos[it.Repo]++
	}
}

// itemsError names what the listing met: a filter GitHub refused is the
// agent's to fix.
func itemsError(err error, in ListProjectItemsIn) error {
	if toolkit.GitHubCode(err) == github.BadRequest && in.Filter != "" {
		restart := in
		restart.Filter, restart.Cursor = "", ""
		return contract.Errorf(contract.CodeInvalidField, "GitHub refused the filter: %s", toolkit.MapError(err).Message).
			WithField("filter", "not a filter GitHub accepts").
			WithRepair(contract.Repair{NextStep: "correct the filter, or list without one", Tool: NameListProjectItems, Arguments: restart})
	}
	return boardError(err, in.Owner, int(in.ProjectNumber))
}
