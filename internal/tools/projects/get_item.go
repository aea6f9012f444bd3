package projects

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// ItemRef names a board item: by the issue (or pull request) it holds,
// or by the item_id ghgate returned.
type ItemRef struct {
	ItemID      string              `json:"item_id,omitempty"`
	Repo        string              `json:"repo,omitempty"`
	IssueNumber toolkit.IssueNumber `json:"issue_number,omitempty"`
	// bad is why the object did not decode (an unknown key, a wrong
	// type), for validate to refuse by name.
	bad string
}

// JSONSchema implements [tooldef.SelfDescribing]. The object is outlined,
// not spelled out: it appears twice in update_project_item's arguments,
// and validate refuses what does not fit with the field named.
func (ItemRef) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "object", Description: "{repo: owner/name, issue_number} or {item_id}"}, nil
}

// UnmarshalJSON decodes strictly, keeping a failure for validate.
func (r *ItemRef) UnmarshalJSON(b []byte) error {
	type plain ItemRef
	p, bad := decodeStrict[plain](b)
	*r = ItemRef(p)
	r.bad = bad
	return nil
}

func (r *ItemRef) validate(field, owner string) *contract.Error {
	switch {
	case r.bad != "":
		return contract.Errorf(contract.CodeInvalidField, "%s: %s", field, r.bad).WithField(field, "takes {repo, issue_number} or {item_id}")
	case r.ItemID != "" && (r.Repo != "" || r.IssueNumber != 0):
		return contract.Errorf(contract.CodeInvalidField, "%s: give item_id or repo + issue_number, not both", field).WithField(field+".item_id", "give item_id or repo + issue_number")
	case r.ItemID == "" && (r.Repo == "" || r.IssueNumber == 0):
		return contract.Errorf(contract.CodeInvalidField, "%s: name the item by repo + issue_number (or item_id)", field).WithField(field+".repo", "repo and issue_number are needed, or item_id")
	case r.Repo != "":
		return checkRepoArg(field+".repo", owner, r.Repo)
	}
	return nil
}

// GetProjectItemIn are github_get_project_item's arguments.
type GetProjectItemIn struct {
	Owner         string              `json:"owner"`
	ProjectNumber ProjectNumber       `json:"project_number"`
	ItemID        string              `json:"item_id,omitempty" jsonschema:"as returned; absent: by issue"`
	Repo          string              `json:"repo,omitempty" jsonschema:"owner/name; absent: by item_id"`
	IssueNumber   toolkit.IssueNumber `json:"issue_number,omitempty" jsonschema:"absent: by item_id"`
	Detail        Detail              `json:"detail,omitempty" jsonschema:"default summary"`
}

func (in *GetProjectItemIn) ref() ItemRef {
	return ItemRef{ItemID: in.ItemID, Repo: in.Repo, IssueNumber: in.IssueNumber}
}

func getArgs(owner string, number ProjectNumber, r ItemRef) GetProjectItemIn {
	return GetProjectItemIn{Owner: owner, ProjectNumber: number, ItemID: r.ItemID, Repo: r.Repo, IssueNumber: r.IssueNumber}
}

// Validate checks the names and that the item is named one way.
func (in *GetProjectItemIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, ""); e != nil {
		return e
	}
	r := in.ref()
	e := r.validate("item", in.Owner)
	if e != nil && e.Details != nil {
		e.Details.Field = e.Details.Field[len("item."):]
		e.Message = e.Message[len("item: "):]
	}
	return e
}

// GetProjectItemOut is one item.
type GetProjectItemOut struct {
	Project string   `json:"project" jsonschema:"the board's title"`
	Item    ItemView `json:"item"`
}

// GetProjectItem is github_get_project_item.
func (s *Tools) GetProjectItem() tooldef.Spec {
	return tooldef.Tool[GetProjectItemIn, GetProjectItemOut]{
		Name:        NameGetProjectItem,
		Toolset:     Toolset,
		Title:       "Get project item",
		Description: "An issue's item on a board: field values and version.",
		Mode:        tooldef.Read,
		Run:         s.getProjectItem,
	}
}

func (s *Tools) getProjectItem(ctx context.Context, in GetProjectItemIn) (GetProjectItemOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Read)
	if err != nil {
		return GetProjectItemOut{}, err
	}
	b, it, _, err := s.findItem(ctx, c, in.Owner, int(in.ProjectNumber), in.ref())
	if err != nil {
		return GetProjectItemOut{}, err
	}
	if it == nil {
		return GetProjectItemOut{}, notOnBoard(b, in.Owner, in.ProjectNumber, in.ref())
	}
	out := GetProjectItemOut{Item: itemView(it, in.Detail == "full")}
	out.Project, _ = contract.SanitizeText(b.p.Title)
	return out, nil
}

// findItem reads the item ref names on the board, afresh: nil when the
// issue is not on it (issueID is then the issue's node id, for an add)
// or item_id names no item of this board.
func (s *Tools) findItem(ctx context.Context, c *github.Client, owner string, number int, ref ItemRef) (*board, *github.ProjectItem, string, error) {
	if ref.ItemID == "" {
		r := issueRef(owner, ref.Repo, ref.IssueNumber)
		b, on, err := s.openBoard(ctx, c, owner, number, &r, true)
		if err != nil {
			return nil, nil, "", err
		}
		// The fresh read names the issue's author, on the board or not:
		// another user's issue is neither read nor written here under the
		// creator scope.
		if !s.CreatorAllowed(on.IssueAuthor) {
			return nil, nil, "", s.creatorRefusal("issue_number", r)
		}
		if on.Item != nil && unreadable(ctx, on.Item) {
			return nil, nil, "", grantRefusal("repo")
		}
		return b, on.Item, on.IssueID, nil
	}
	b, _, err := s.openBoard(ctx, c, owner, number, nil, false)
	if err != nil {
		return nil, nil, "", err
	}
	it, err := c.ProjectV2ItemByID(ctx, ref.ItemID)
	if err != nil {
		return nil, nil, "", err
	}
	if it == nil || it.ProjectID != b.p.ID {
		return b, nil, "", nil
	}
	if unreadable(ctx, it) {
		return nil, nil, "", grantRefusal("item_id")
	}
	if s.withheldIssue(it) {
		o, r, _ := strings.Cut(it.Repo, "/")
		return nil, nil, "", s.creatorRefusal("item_id", github.IssueRef{Owner: o, Repo: r, Number: it.Number})
	}
	s.rememberItem(b, it)
	return b, it, "", nil
}

// notOnBoard is not_found for an item the board does not hold; for an
// issue, the repair adds it.
func notOnBoard(b *board, owner string, number ProjectNumber, ref ItemRef) *contract.Error {
	if ref.ItemID != "" {
		e := refuse(contract.CodeNotFound, "item_id", "no such item on this board",
			"project #%d %q has no item %s; nothing was written", b.p.Number, b.p.Title, ref.ItemID)
		return e.WithRepair(contract.Repair{NextStep: "list the board's items and use an item_id from there, or name the issue by repo + issue_number",
			Tool: NameListProjectItems, Arguments: ListProjectItemsIn{Owner: owner, ProjectNumber: number}})
	}
	e := refuse(contract.CodeNotFound, "issue_number", "the issue is not on this board",
		"%s#%d is not on project #%d %q", ref.Repo, ref.IssueNumber, b.p.Number, b.p.Title)
	return e.WithRepair(contract.Repair{NextStep: "add the issue to the board",
		Tool: NameUpdateProjectItem, Arguments: UpdateProjectItemIn{Owner: owner, ProjectNumber: number, Item: ref, Action: "add"}})
}
