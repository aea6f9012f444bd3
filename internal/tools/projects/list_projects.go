package projects

import (
	"context"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ListProjectsIn are github_list_projects' arguments.
type ListProjectsIn struct {
	Owner    string           `json:"owner"`
	Query    string           `json:"query,omitempty" jsonschema:"title words; absent: all"`
	PageSize toolkit.PageSize `json:"page_size,omitempty" jsonschema:"default 20"`
	Cursor   string           `json:"cursor,omitempty"`
	Detail   Detail           `json:"detail,omitempty" jsonschema:"default summary"`
}

// Validate checks the owner's name.
func (in *ListProjectsIn) Validate() *contract.Error { return toolkit.CheckNames(in.Owner, "") }

// ListProjectsOut is a page of an owner's boards.
type ListProjectsOut struct {
	OwnerKind string        `json:"owner_kind" jsonschema:"organization or user"`
	Projects  []ProjectView `json:"projects"`
	toolkit.Page
}

const defaultProjectsPage = 20

// ListProjects is github_list_projects.
func (s *Tools) ListProjects() tooldef.Spec {
	return tooldef.Tool[ListProjectsIn, ListProjectsOut]{
		Name:        NameListProjects,
		Toolset:     Toolset,
		Title:       "List projects",
		Description: "An org's or user's Projects v2 boards with fields, types, options, iterations.",
		Mode:        tooldef.Read,
		Keep:        []string{"projects"},
		Run:         s.listProjects,
	}
}

func (s *Tools) listProjects(ctx context.Context, in ListProjectsIn) (ListProjectsOut, error) {
	if in.PageSize == 0 {
		in.PageSize = defaultProjectsPage
	}
	restart := in
	restart.Cursor = ""
	l := toolkit.Listing{Tool: NameListProjects, Scope: strings.ToLower(in.Owner), Field: "cursor", Cursor: in.Cursor, Restart: restart,
		Filters: struct {
			Query    string
			PageSize int
		}{in.Query, int(in.PageSize)}}
	pos, err := s.OpenCursor(l)
	if err != nil {
		return ListProjectsOut{}, err
	}
	// The position holds the owner's kind, so a later page asks the
	// right one at once.
	kind, after, _ := strings.Cut(pos, "|")
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return ListProjectsOut{}, err
	}
	page, err := c.ListProjectsV2(ctx, kind, in.Owner, in.Query, after, int(in.PageSize))
	if err != nil {
		return ListProjectsOut{}, ownerError(err, in.Owner)
	}
	now := s.CurrentTime()
	out := ListProjectsOut{OwnerKind: page.OwnerKind, Projects: []ProjectView{}}
	for i := range page.Projects {
		p := &page.Projects[i]
		// What was just read saves the first write to the board its read.
		s.Projects().Put(toolkit.ProjectKey(c, in.Owner, p.Number), *p, now)
		out.Projects = append(out.Projects, projectView(p, in.Detail == "full", now.UTC().Format(time.DateOnly)))
	}
	if page.HasNext && page.EndCursor != "" {
		out.HasMore, out.NextCursor = true, s.MintCursor(l, page.OwnerKind+"|"+page.EndCursor)
	}
	return out, nil
}

// ownerError names an owner that is neither an organization nor a user.
func ownerError(err error, owner string) error {
	e := toolkit.MapError(err)
	if e == nil || e.Code != contract.CodeNotFound {
		return boardError(err, owner, 0)
	}
	e.Message = owner + " is not an organization or user visible to this credential"
	e.WithField("owner", "no such organization or user")
	e.Repair = &contract.Repair{NextStep: "check the owner's login: it is the first part of a repository's owner/name"}
	return e
}
