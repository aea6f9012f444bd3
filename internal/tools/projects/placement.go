package projects

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
)

// Placement puts an issue on a board, with field values, as part of an
// issue write (github_create_issue, github_update_issue): the issue lands
// on the board in the same call.
type Placement struct {
	Owner         string        `json:"owner"`
	ProjectNumber ProjectNumber `json:"project_number"`
	Fields        Fields        `json:"fields,omitempty"`
	// bad is why the object did not decode, for Validate.
	bad string
}

// JSONSchema implements tooldef.SelfDescribing. The default tools/list
// carries it, so it is outlined in its description rather than spelled
// out; Validate refuses what does not fit, naming the field.
func (Placement) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "object", Description: "{owner, project_number, fields: {name: value}}"}, nil
}

// UnmarshalJSON decodes strictly, keeping a failure for Validate.
func (p *Placement) UnmarshalJSON(b []byte) error {
	type plain Placement
	v, bad := decodeStrict[plain](b)
	*p = Placement(v)
	p.bad = bad
	return nil
}

// decodeStrict decodes an argument object that refuses unknown keys, and
// returns why it did not decode rather than an error: the tool's check
// then refuses it naming the field, instead of the SDK's generic message.
func decodeStrict[T any](b []byte) (T, string) {
	var v T
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&v); err != nil {
		var zero T
		return zero, strings.TrimPrefix(err.Error(), "json: ")
	}
	return v, ""
}

// Validate checks the placement's shape; field is the argument it came
// in ("project"), issueOwner the owner of the issue written. The board
// must be that owner's: the call is routed and authorized (by the broker,
// by an HTTP client's policy) by the issue's owner, whose credential must
// not write to another owner's board. github_update_project_item, routed
// by the board's owner, places an issue on another owner's board.
func (p *Placement) Validate(field, issueOwner string) *contract.Error {
	bad := func(sub, reason string) *contract.Error {
		return contract.Errorf(contract.CodeInvalidField, "%s.%s %s", field, sub, reason).WithField(field+"."+sub, reason)
	}
	switch {
	case p.bad != "":
		return contract.Errorf(contract.CodeInvalidField, "%s: %s", field, p.bad).
			WithField(field, "takes {owner, project_number, fields: {name: value}}; value: string, number or null")
	case p.Owner == "":
		return bad("owner", "is required: the board's owner")
	case toolkit.CheckNames(p.Owner, "") != nil:
		return bad("owner", "must be a GitHub user or organization name")
	case p.ProjectNumber < 1:
		return bad("project_number", "is required: the board's number (1 or more)")
	case !strings.EqualFold(p.Owner, issueOwner):
		return bad("owner", "must be the issue's owner: a board of another owner is reached with "+NameUpdateProjectItem)
	}
	return nil
}

// Placed is what a placement did.
type Placed struct {
	Project       string   `json:"project" jsonschema:"the board's title"`
	Number        int      `json:"number"`
	Added         bool     `json:"added,omitempty" jsonschema:"false: it was already on the board"`
	ChangedFields []string `json:"changed_fields,omitempty"`
	Item          ItemView `json:"item"`
}

// Prepared is a placement checked against the board before the issue
// write: unknown fields and options are refused before anything is
// written.
type Prepared struct {
	t  *Tools
	c  *github.Client
	p  Placement
	b  *board
	rs []resolved
	on *github.IssueOnProject // the issue's item, read with the board; nil for a new issue
}

// Prepare reads (or recalls) the board and checks the values. issue is
// the issue being updated (its item is read in the same request), nil
// for one being created. The refusal names field.
func Prepare(ctx context.Context, s *toolkit.Service, c *github.Client, p Placement, issue *github.IssueRef, field string) (*Prepared, error) {
	t := &Tools{s}
	b, on, err := t.openBoard(ctx, c, p.Owner, int(p.ProjectNumber), issue, true)
	if err != nil {
		e := toolkit.MapError(err)
		if e != nil && e.Details != nil && e.Details.Field == "project_number" {
			e.Details.Field = field + ".project_number"
		}
		return nil, toolkit.NotStarted(err)
	}
	rs, e := resolveFields(&b.p, p.Fields, field+".fields", s.CurrentTime())
	if e != nil {
		return nil, e.WithRepair(contract.Repair{NextStep: "pick a name from details.value (the board's listing shows every field and option), then call again",
			Tool: NameListProjects, Arguments: ListProjectsIn{Owner: p.Owner, Query: b.p.Title}})
	}
	if on != nil && on.Item != nil && on.Item.Archived && len(rs) > 0 {
		// GitHub changes no field of an archived item: refused before
		// the issue is written, not after.
		e := refuse(contract.CodeValidationFailed, field+".fields", "the issue's item is archived",
			"the issue's item on project #%d is archived, and GitHub changes no field of an archived item; nothing was written", b.p.Number)
		return nil, e.WithRepair(contract.Repair{NextStep: "unarchive the item, then call again",
			Tool: NameUpdateProjectItem, Arguments: UpdateProjectItemIn{Owner: p.Owner, ProjectNumber: p.ProjectNumber, Action: "unarchive",
				Item: ItemRef{Repo: issue.Owner + "/" + issue.Repo, IssueNumber: toolkit.IssueNumber(issue.Number)}}})
	}
	return &Prepared{t: t, c: c, p: p, b: b, rs: rs, on: on}, nil
}

// Title is the board's title, for messages.
func (pr *Prepared) Title() string { return pr.b.p.Title }

// Apply puts the issue on the board (unless it is there) and writes the
// values that differ. nodeID is the issue's node id, when the caller has
// it (a created issue); else the one read by Prepare, or a lookup. When
// the add succeeded and the values failed, the Placed (Added) comes back
// beside the error: the issue is on the board.
func (pr *Prepared) Apply(ctx context.Context, issue github.IssueRef, nodeID string) (*Placed, error) {
	out := &Placed{Project: pr.b.p.Title, Number: pr.b.p.Number}
	var it *github.ProjectItem
	if pr.on != nil {
		it = pr.on.Item
		if nodeID == "" {
			nodeID = pr.on.IssueID
		}
	}
	if it == nil && nodeID == "" {
		_, on, err := pr.t.openBoard(ctx, pr.c, pr.p.Owner, int(pr.p.ProjectNumber), &issue, true)
		if err != nil {
			return nil, err
		}
		it, nodeID = on.Item, on.IssueID
	}
	if it == nil {
		added, err := pr.c.AddProjectV2Item(ctx, pr.b.p.ID, nodeID)
		if err != nil {
			return nil, err
		}
		pr.t.rememberItem(pr.b, added)
		it, out.Added = added, true
	}
	if len(pr.rs) > 0 {
		in := UpdateProjectItemIn{Owner: pr.p.Owner, ProjectNumber: pr.p.ProjectNumber, Action: "set_fields", Fields: pr.p.Fields,
			Item: ItemRef{Repo: issue.Owner + "/" + issue.Repo, IssueNumber: toolkit.IssueNumber(issue.Number)}}
		set, err := pr.t.writeFields(ctx, pr.c, pr.b, in, it, pr.rs, false)
		if err != nil {
			if out.Added {
				out.Item = itemView(it, false)
				return out, err
			}
			return nil, err
		}
		out.ChangedFields = set.ChangedFields
		it = nil
		if set.Item != nil {
			out.Item = *set.Item
		}
	}
	if it != nil {
		out.Item = itemView(it, false)
	}
	out.Item.URL = ""
	return out, nil
}
