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

// ItemAction is what github_update_project_item does.
type ItemAction string

// JSONSchema implements [tooldef.SelfDescribing].
func (ItemAction) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[ItemAction]("add", "set_fields", "clear_field", "archive", "unarchive", "move", "remove"), nil
}

// UpdateProjectItemIn are github_update_project_item's arguments.
type UpdateProjectItemIn struct {
	Owner           string        `json:"owner"`
	ProjectNumber   ProjectNumber `json:"project_number"`
	Item            ItemRef       `json:"item"`
	Action          ItemAction    `json:"action"`
	Fields          Fields        `json:"fields,omitempty" jsonschema:"set_fields, add: {name: option|iteration|@current|@next|YYYY-MM-DD|number|text|null}; absent: none"`
	Field           string        `json:"field,omitempty" jsonschema:"clear_field's; absent: none"`
	AfterItem       *ItemRef      `json:"after_item,omitempty" jsonschema:"move: place after it; absent: first"`
	Confirm         bool          `json:"confirm,omitempty" jsonschema:"remove needs true"`
	ExpectedVersion string        `json:"expected_version,omitempty" jsonschema:"conflict if stale; absent: no check"`
}

// Validate checks what needs no request.
func (in *UpdateProjectItemIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, ""); e != nil {
		return e
	}
	if e := in.Item.validate("item", in.Owner); e != nil {
		return e
	}
	bad := func(field, reason string) *contract.Error {
		return contract.Errorf(contract.CodeInvalidField, "%s %s", field, reason).WithField(field, reason)
	}
	a := in.Action
	switch {
	case a == "add" && in.Item.ItemID != "":
		return bad("item", "add names the issue by repo + issue_number; item_id names what is already on the board")
	case a == "set_fields" && len(in.Fields) == 0:
		return bad("fields", "set_fields needs at least one field")
	case len(in.Fields) > 0 && a != "set_fields" && a != "add":
		return bad("fields", "is for set_fields or add")
	case a == "clear_field" && strings.TrimSpace(in.Field) == "":
		return bad("field", "clear_field needs the field's name")
	case in.Field != "" && a != "clear_field":
		return bad("field", "is for clear_field")
	case in.AfterItem != nil && a != "move":
		return bad("after_item", "is for move")
	case in.Confirm && a != "remove":
		return bad("confirm", "is for remove")
	case in.ExpectedVersion != "" && a != "set_fields" && a != "clear_field" && a != "archive" && a != "unarchive":
		return bad("expected_version", "is for set_fields, clear_field, archive and unarchive")
	case in.ExpectedVersion != "" && !contract.IsVersion(in.ExpectedVersion):
		return bad("expected_version", "is not a version ghgate returned").WithRepair(contract.Repair{
			NextStep: "read the item and pass the version it returns", Tool: NameGetProjectItem,
			Arguments: getArgs(in.Owner, in.ProjectNumber, in.Item)})
	case a == "remove" && !in.Confirm:
		fixed := *in
		fixed.Confirm = true
		return bad("confirm", "remove takes the item off the board (its field values with it); it needs confirm: true").
			WithRepair(contract.Repair{NextStep: "if the item is the one meant, call again with confirm: true (the issue itself stays)", Tool: NameUpdateProjectItem, Arguments: fixed})
	}
	if in.AfterItem != nil {
		return in.AfterItem.validate("after_item", in.Owner)
	}
	return nil
}

// UpdateProjectItemOut says what the call did.
type UpdateProjectItemOut struct {
	Action        string    `json:"action"`
	Project       string    `json:"project" jsonschema:"the board's title"`
	Item          *ItemView `json:"item,omitempty" jsonschema:"as it now stands; for remove, as it stood"`
	ChangedFields []string  `json:"changed_fields,omitempty"`
	NoOp          bool      `json:"no_op,omitempty" jsonschema:"nothing needed writing; note says why"`
	Removed       bool      `json:"removed,omitempty"`
	Note          string    `json:"note,omitempty"`
}

// UpdateProjectItem is github_update_project_item.
func (s *Tools) UpdateProjectItem() tooldef.Spec {
	return tooldef.Tool[UpdateProjectItemIn, UpdateProjectItemOut]{
		Name:        NameUpdateProjectItem,
		Toolset:     Toolset,
		Title:       "Update project item",
		Description: "Add an issue to a board, set/clear fields by name, archive, move or remove it; values checked first; already so: no_op.",
		Mode:        tooldef.Write,
		Destructive: true,
		Idempotent:  true,
		Run:         s.updateProjectItem,
	}
}

func (s *Tools) updateProjectItem(ctx context.Context, in UpdateProjectItemIn) (UpdateProjectItemOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return UpdateProjectItemOut{}, toolkit.NotStarted(err)
	}
	out, err := s.applyItem(ctx, c, in, false)
	if err != nil && staleIDs(err) {
		// A remembered id GitHub no longer knows (the item removed, the
		// board's fields changed): nothing was written; read afresh once.
		s.Projects().Drop(toolkit.ProjectKey(c, in.Owner, int(in.ProjectNumber)))
		out, err = s.applyItem(ctx, c, in, true)
	}
	return out, err
}

// staleIDErr marks a write refused because an id from the cache is gone.
type staleIDErr struct{ error }

func staleIDs(err error) bool {
	_, ok := err.(staleIDErr)
	return ok
}

// applyItem runs one action. fresh forces every read (the retry after a
// stale id).
func (s *Tools) applyItem(ctx context.Context, c *github.Client, in UpdateProjectItemIn, fresh bool) (UpdateProjectItemOut, error) {
	number := int(in.ProjectNumber)
	out := UpdateProjectItemOut{Action: string(in.Action)}
	// A set or clear without a version check needs no read when the
	// board and the issue's item are known: the write answers with the
	// item as it then stands.
	// Under the creator scope the issue's author is read first, so no
	// write is blind.
	blind := !fresh && in.ExpectedVersion == "" && in.Item.ItemID == "" && (in.Action == "set_fields" || in.Action == "clear_field") &&
		s.AllowedIssueCreator == ""
	var (
		b      *board
		it     *github.ProjectItem
		target string
		err    error
	)
	if blind {
		r := issueRef(in.Owner, in.Item.Repo, in.Item.IssueNumber)
		var on *github.IssueOnProject
		b, on, err = s.openBoard(ctx, c, in.Owner, number, &r, false)
		if err == nil {
			it, target = on.Item, on.IssueID
			blind = b.cached && it != nil && len(it.Values) == 0 && it.ProjectID == ""
		}
	} else {
		b, it, target, err = s.findItem(ctx, c, in.Owner, number, in.Item)
	}
	if err != nil {
		return out, toolkit.NotStarted(err)
	}
	out.Project, _ = contract.SanitizeText(b.p.Title)
	if in.Action == "add" {
		return s.add(ctx, c, b, in, it, target, out)
	}
	if it == nil {
		if in.Action == "remove" {
			out.NoOp, out.Note = true, "the item is not on the board (already removed, or never added); nothing was removed"
			return out, nil
		}
		e := notOnBoard(b, in.Owner, in.ProjectNumber, in.Item)
		if in.Action == "set_fields" && in.Item.ItemID == "" {
			fixed := in
			fixed.Action = "add"
			e.Repair = &contract.Repair{NextStep: "add the issue to the board with these fields", Tool: NameUpdateProjectItem, Arguments: fixed}
		}
		return out, e
	}
	if in.ExpectedVersion != "" && itemVersion(it) != in.ExpectedVersion {
		e := refuse(contract.CodeConflict, "expected_version", "is not the item's current version",
			"the item's fields changed since expected_version was read; nothing was written")
		return out, e.WithRepair(contract.Repair{NextStep: "re-read the item, apply your change to what it holds now, and pass its version",
			Tool: NameGetProjectItem, Arguments: getArgs(in.Owner, in.ProjectNumber, in.Item)})
	}
	if it.Archived && (in.Action == "set_fields" || in.Action == "clear_field") {
		// GitHub refuses to change an archived item's fields.
		e := refuse(contract.CodeValidationFailed, "item", "the item is archived",
			"the item is archived on project #%d; GitHub changes no field of an archived item; nothing was written", b.p.Number)
		fixed := in
		fixed.Action, fixed.Fields, fixed.Field, fixed.ExpectedVersion = "unarchive", nil, "", ""
		return out, e.WithRepair(contract.Repair{NextStep: "unarchive it first, then set its fields", Tool: NameUpdateProjectItem, Arguments: fixed})
	}
	switch in.Action {
	case "set_fields", "clear_field":
		fields := in.Fields
		if in.Action == "clear_field" {
			fields = Fields{in.Field: {Null: true}}
		}
		return s.setFields(ctx, c, b, in, it, fields, blind, out)
	case "archive", "unarchive":
		want := in.Action == "archive"
		if it.Archived == want {
			out.Item, out.NoOp, out.Note = viewPtr(it), true, "the item is already "+string(in.Action)+"d; nothing was written"
			return out, nil
		}
		after, err := c.ArchiveProjectV2Item(ctx, b.p.ID, it.ID, want)
		if err != nil {
			return out, writeFailed(err, b, in)
		}
		out.Item, out.ChangedFields = viewPtr(after), []string{"archived"}
		return out, nil
	case "move":
		afterID := ""
		if in.AfterItem != nil {
			_, a, _, err := s.findItem(ctx, c, in.Owner, number, *in.AfterItem)
			if err != nil {
				return out, toolkit.NotStarted(err)
			}
			if a == nil {
				e := notOnBoard(b, in.Owner, in.ProjectNumber, *in.AfterItem)
				e.Details.Field = "after_item"
				return out, e
			}
			afterID = a.ID
		}
		if err := c.MoveProjectV2Item(ctx, b.p.ID, it.ID, afterID); err != nil {
			return out, writeFailed(err, b, in)
		}
		out.Item, out.ChangedFields = viewPtr(it), []string{"position"}
		return out, nil
	default: // remove
		if err := c.DeleteProjectV2Item(ctx, b.p.ID, it.ID); err != nil {
			if toolkit.GitHubCode(err) == github.NotFound {
				out.NoOp, out.Note = true, "the item was removed meanwhile; nothing was removed by this call"
				return out, nil
			}
			return out, writeFailed(err, b, in)
		}
		if it.Type == "ISSUE" {
			owner, repo, _ := strings.Cut(it.Repo, "/")
			s.Projects().SetItem(b.key, toolkit.IssueKey(owner, repo, it.Number), "")
		}
		out.Item, out.Removed = viewPtr(it), true
		out.Note = "removed from the board with its field values; the issue itself is unchanged"
		return out, nil
	}
}

// add puts the issue on the board once (already there: no_op), then sets
// any fields given.
func (s *Tools) add(ctx context.Context, c *github.Client, b *board, in UpdateProjectItemIn, it *github.ProjectItem, issueID string, out UpdateProjectItemOut) (UpdateProjectItemOut, error) {
	var resolvedFields []resolved
	if len(in.Fields) > 0 {
		var e *contract.Error
		if resolvedFields, e = resolveFields(&b.p, in.Fields, "fields", s.CurrentTime()); e != nil {
			return out, fieldRepair(e, b, in)
		}
	}
	if it != nil {
		out.NoOp, out.Note = true, "the issue is already on the board; it was not added again"
	} else {
		added, err := c.AddProjectV2Item(ctx, b.p.ID, issueID)
		if err != nil {
			return out, writeFailed(err, b, in)
		}
		s.rememberItem(b, added)
		it = added
		out.ChangedFields = []string{"added"}
	}
	if len(resolvedFields) == 0 {
		out.Item = viewPtr(it)
		return out, nil
	}
	set, err := s.writeFields(ctx, c, b, in, it, resolvedFields, false)
	if err != nil {
		if out.NoOp {
			return out, err
		}
		return out, addedButNotSet(err, b, in)
	}
	set.ChangedFields = append(out.ChangedFields, set.ChangedFields...)
	set.NoOp = set.NoOp && out.NoOp
	if !set.NoOp {
		set.Note = ""
		if out.NoOp {
			set.Note = "the issue was already on the board; its fields were set"
		}
	}
	set.Action, set.Project = out.Action, out.Project
	return set, nil
}

func (s *Tools) setFields(ctx context.Context, c *github.Client, b *board, in UpdateProjectItemIn, it *github.ProjectItem, fields Fields, blind bool, out UpdateProjectItemOut) (UpdateProjectItemOut, error) {
	rs, e := resolveFields(&b.p, fields, map[bool]string{true: "field", false: "fields"}[in.Action == "clear_field"], s.CurrentTime())
	if e != nil {
		if in.Action == "clear_field" && e.Details != nil {
			e.Details.Field = "field"
		}
		return out, fieldRepair(e, b, in)
	}
	set, err := s.writeFields(ctx, c, b, in, it, rs, blind)
	set.Action, set.Project = out.Action, out.Project
	return set, err
}

// writeFields writes what differs from the item's values (all of rs when
// they were not read), sets in one request and clears one request each.
func (s *Tools) writeFields(ctx context.Context, c *github.Client, b *board, in UpdateProjectItemIn, it *github.ProjectItem, rs []resolved, blind bool) (UpdateProjectItemOut, error) {
	out := UpdateProjectItemOut{}
	var sets []github.ProjectFieldSet
	var clears []resolved
	var order []string // the names in the order they are written
	for _, r := range rs {
		if !blind && sameValue(it, r) {
			continue
		}
		out.ChangedFields = append(out.ChangedFields, r.field.Name)
		if r.set == nil {
			clears = append(clears, r)
		} else {
			sets = append(sets, *r.set)
			order = append(order, r.field.Name)
		}
	}
	for _, r := range clears {
		order = append(order, r.field.Name)
	}
	if len(out.ChangedFields) == 0 {
		out.Item, out.NoOp, out.Note = viewPtr(it), true, "the fields already hold these values; nothing was written"
		return out, nil
	}
	after := it
	written := 0
	if len(sets) > 0 {
		var err error
		var applied int
		after, applied, err = c.SetProjectV2Fields(ctx, b.p.ID, it.ID, sets)
		if err != nil {
			if applied == 0 && blind && b.cached && toolkit.GitHubCode(err) == github.NotFound {
				return out, staleIDErr{err}
			}
			if applied > 0 {
				return out, partialFields(err, b, in, order[:applied])
			}
			return out, writeFailed(err, b, in)
		}
		written = len(sets)
	}
	for _, r := range clears {
		a, err := c.ClearProjectV2Field(ctx, b.p.ID, it.ID, r.field.ID)
		if err != nil {
			if written == 0 && blind && b.cached && toolkit.GitHubCode(err) == github.NotFound {
				return out, staleIDErr{err}
			}
			if written > 0 {
				return out, partialFields(err, b, in, order[:written])
			}
			return out, writeFailed(err, b, in)
		}
		after = a
		written++
	}
	s.rememberItem(b, after)
	out.Item = viewPtr(after)
	if blind {
		out.Note = "written without reading first (board and item known): changed_fields lists every field sent"
	}
	return out, nil
}

func viewPtr(it *github.ProjectItem) *ItemView {
	v := itemView(it, true)
	return &v
}

// fieldRepair adds the repair to an unknown field or option: list the
// board, whose fields and options the refusal's details.value also names.
func fieldRepair(e *contract.Error, b *board, in UpdateProjectItemIn) *contract.Error {
	if e.Code != contract.CodeProjectFieldNotFound && e.Code != contract.CodeProjectOptionNotFound {
		return e
	}
	return e.WithRepair(contract.Repair{NextStep: "pick a name from details.value (the project's listing shows every field and option), then call again",
		Tool: NameListProjects, Arguments: ListProjectsIn{Owner: in.Owner, Query: b.p.Title}})
}

// writeFailed finishes the envelope of a write that failed. Every action
// reads (or writes values, which is idempotent) before it writes, so the
// same call is the safe way to find out and finish one whose answer was
// lost.
func writeFailed(err error, b *board, in UpdateProjectItemIn) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	if toolkit.MayHaveWritten(e) {
		e.Temporary = true
		e.Repair = &contract.Repair{NextStep: "call again with the same arguments: it reads first, so what landed answers no_op",
			Tool: NameUpdateProjectItem, Arguments: in}
	}
	_ = b
	return e
}

// addedButNotSet is the partial success of an add whose fields failed.
func addedButNotSet(err error, b *board, in UpdateProjectItemIn) error {
	e := toolkit.MapError(err)
	if e == nil {
		return err
	}
	follow := in
	follow.Action = "set_fields"
	p := contract.Errorf(contract.CodePartialSuccess, "the issue was added to project #%d %q, but setting its fields failed: %s", b.p.Number, b.p.Title, e.Message)
	p.Settlement = contract.RemoteSuccessKnown
	p.FollowUp = &contract.Repair{NextStep: "set the fields on the item now on the board", Tool: NameUpdateProjectItem, Arguments: follow}
	return p
}

// partialFields is the partial success of a set_fields whose later
// fields failed after earlier ones were written.
func partialFields(err error, b *board, in UpdateProjectItemIn, written []string) error {
	e := toolkit.MapError(err)
	msg := ""
	if e != nil {
		msg = e.Message
	}
	p := contract.Errorf(contract.CodePartialSuccess, "%s were written on project #%d %q; the rest failed: %s", strings.Join(written, ", "), b.p.Number, b.p.Title, msg)
	p.Settlement = contract.RemoteSuccessKnown
	p.FollowUp = &contract.Repair{NextStep: "call again: fields already holding their values are skipped", Tool: NameUpdateProjectItem, Arguments: in}
	return p
}
