package projects

import (
	"context"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// ListProjectItemsIn are github_list_project_items' arguments.
type ListProjectItemsIn struct {
	Owner         string        `json:"owner"`
	ProjectNumber ProjectNumber `json:"project_number"`
	Filter        string        `json:"filter,omitempty" jsonschema:"GitHub's project filter, e.g. status:\"In progress\" assignee:bob -is:archived; absent: all"`
	PageSize      core.PageSize `json:"page_size,omitempty" jsonschema:"default 30"`
	Cursor        string        `json:"cursor,omitempty"`
	Detail        Detail        `json:"detail,omitempty" jsonschema:"default summary; full adds url and version"`
}

// Validate checks the owner's name.
func (in *ListProjectItemsIn) Validate() *contract.Error { return core.CheckNames(in.Owner, "") }

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
	Project      string     `json:"project" jsonschema:"the board's title"`
	TotalOnBoard int        `json:"total_on_board" jsonschema:"every item, before the filter"`
	Counts       ItemCounts `json:"counts" jsonschema:"of this page's rows"`
	Items        []ItemView `json:"items"`
	core.Page
}

// upstreamPage is how many items a filtered listing reads at once, and
// filteredPages how many such pages one call reads at most before it
// answers with what it found.
const (
	upstreamPage  = 100
	filteredPages = 10
)

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
		in.PageSize = core.DefaultPageSize
	}
	restart := in
	restart.Cursor = ""
	l := core.Listing{Tool: NameListProjectItems, Scope: strings.ToLower(in.Owner) + "#" + strconv.Itoa(int(in.ProjectNumber)),
		Field: "cursor", Cursor: in.Cursor, Restart: restart,
		Filters: struct {
			Filter   string
			PageSize int
		}{in.Filter, int(in.PageSize)}}
	pos, err := s.OpenCursor(l)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	after, offset := splitPosition(pos)
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	b, _, err := s.openBoard(ctx, c, in.Owner, int(in.ProjectNumber), nil, false)
	if err != nil {
		return ListProjectItemsOut{}, err
	}
	var flt *filter
	if strings.TrimSpace(in.Filter) != "" {
		var e *contract.Error
		if flt, e = parseFilter(in.Filter, &b.p, s.CurrentTime()); e != nil {
			restart.Filter = ""
			return ListProjectItemsOut{}, e.WithRepair(contract.Repair{NextStep: "list the project's fields, or list without a filter",
				Tool: NameListProjects, Arguments: ListProjectsIn{Owner: in.Owner, Query: b.p.Title}})
		}
	}
	size := int(in.PageSize)
	first := size
	if flt != nil {
		first = upstreamPage
	}
	out := ListProjectItemsOut{Items: []ItemView{}}
	out.Project, _ = contract.SanitizeText(b.p.Title)
	full := in.Detail == "full"
	next := ""
	for read := 0; read < filteredPages; read++ {
		page, err := c.ProjectV2Items(ctx, b.p.OwnerKind, in.Owner, int(in.ProjectNumber), after, first)
		if err != nil {
			return ListProjectItemsOut{}, boardError(err, in.Owner, int(in.ProjectNumber))
		}
		out.TotalOnBoard = page.Total
		stopped := false
		for i := offset; i < len(page.Items); i++ {
			it := &page.Items[i]
			s.rememberItem(b, it)
			if flt != nil && !flt.match(it) {
				continue
			}
			if len(out.Items) == size {
				// A full page: the next one starts at this item.
				next, stopped = joinPosition(after, i), true
				break
			}
			out.Items = append(out.Items, rowView(it, full))
			out.Counts.add(it)
		}
		if stopped {
			break
		}
		offset = 0
		if !page.HasNext {
			break
		}
		after = page.EndCursor
		if len(out.Items) == size || read == filteredPages-1 {
			next = joinPosition(after, 0)
			break
		}
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

// A position is the upstream cursor a page is read after and how many
// of that page's items were already listed.
func joinPosition(after string, offset int) string { return strconv.Itoa(offset) + "|" + after }

func splitPosition(pos string) (after string, offset int) {
	o, after, ok := strings.Cut(pos, "|")
	if !ok {
		return "", 0
	}
	n, _ := strconv.Atoi(o)
	return after, max(n, 0)
}
