package admin

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
	"github.com/google/jsonschema-go/jsonschema"
)

// LabelAction is what github_manage_labels does.
type LabelAction string

// JSONSchema implements [tooldef.SelfDescribing].
func (LabelAction) JSONSchema() (*jsonschema.Schema, error) {
	return toolkit.Enum[LabelAction]("create", "update", "delete"), nil
}

// GitHub's limits on a label: a name of at most 50 characters, a
// description of at most 100, a color of six hex digits.
const (
	maxLabelName        = 50
	maxLabelDescription = 100
)

var labelColor = regexp.MustCompile(`^#?[0-9a-fA-F]{6}$`)

// ManageLabelsIn are github_manage_labels' arguments.
type ManageLabelsIn struct {
	Owner   string      `json:"owner"`
	Repo    string      `json:"repo"`
	Action  LabelAction `json:"action"`
	Name    string      `json:"name" jsonschema:"the label; update/delete match it ignoring case"`
	NewName string      `json:"new_name,omitempty" jsonschema:"update: rename; absent keeps"`
	Color   string      `json:"color,omitempty" jsonschema:"6 hex digits; absent: GitHub's default or kept"`
	// A pointer tells absent (keep) from "" (clear) on update.
	Description *string `json:"description,omitempty" jsonschema:"absent: none or kept; \"\" clears"`
}

// Validate checks every rule that needs no request.
func (in *ManageLabelsIn) Validate() *contract.Error {
	if e := toolkit.CheckNames(in.Owner, in.Repo); e != nil {
		return e
	}
	if strings.TrimSpace(in.Name) == "" {
		return contract.Errorf(contract.CodeInvalidField, "name is required").WithField("name", "must hold a non-space character")
	}
	for _, f := range []struct{ field, v string }{{"name", in.Name}, {"new_name", in.NewName}} {
		if n := utf8.RuneCountInString(f.v); n > maxLabelName {
			return contract.Errorf(contract.CodeInvalidField, "%s is %d characters; GitHub allows %d", f.field, n, maxLabelName).
				WithField(f.field, fmt.Sprintf("at most %d characters", maxLabelName))
		}
	}
	if in.Color != "" && !labelColor.MatchString(in.Color) {
		return contract.Errorf(contract.CodeInvalidField, "color must be six hex digits").WithField("color", "six hex digits, like d73a4a, with or without #")
	}
	if in.Description != nil {
		if e := toolkit.CheckLength("description", *in.Description, maxLabelDescription); e != nil {
			return e
		}
	}
	switch in.Action {
	case "create":
		if in.NewName != "" {
			return contract.Errorf(contract.CodeInvalidField, "new_name is for update").WithField("new_name", "only with action update")
		}
	case "update":
		if in.NewName == "" && in.Color == "" && in.Description == nil {
			return contract.Errorf(contract.CodeInvalidField, "update needs something to change").
				WithField("new_name", "give new_name, color or description")
		}
		if in.NewName != "" && strings.TrimSpace(in.NewName) == "" {
			return contract.Errorf(contract.CodeInvalidField, "new_name is blank").WithField("new_name", "must hold a non-space character")
		}
	case "delete":
		if in.NewName != "" || in.Color != "" || in.Description != nil {
			return contract.Errorf(contract.CodeInvalidField, "delete takes only the name").
				WithField(firstSet(map[string]bool{"new_name": in.NewName != "", "color": in.Color != "", "description": in.Description != nil}), "not used by delete; leave it out")
		}
	}
	return nil
}

// firstSet names the first of the fields, in a fixed order, that is set.
func firstSet(set map[string]bool) string {
	for _, f := range []string{"number", "title", "new_name", "color", "description", "due_on"} {
		if set[f] {
			return f
		}
	}
	return ""
}

// LabelView is a label as the tools show it.
type LabelView struct {
	Name        string `json:"name"`
	Color       string `json:"color"`
	Description string `json:"description,omitempty"`
}

// ManageLabelsOut says what the call did.
type ManageLabelsOut struct {
	Action        string     `json:"action"`
	Label         *LabelView `json:"label,omitempty" jsonschema:"as it stands after; absent after delete"`
	ChangedFields []string   `json:"changed_fields,omitempty"`
	Deleted       bool       `json:"deleted,omitempty"`
	NoOp          bool       `json:"no_op,omitempty" jsonschema:"nothing needed writing; note says why"`
	Note          string     `json:"note,omitempty"`
}

// ManageLabels is github_manage_labels.
func (s *Tools) ManageLabels() tooldef.Spec {
	return tooldef.Tool[ManageLabelsIn, ManageLabelsOut]{
		Name:        toolkit.NameManageLabels,
		Toolset:     Toolset,
		Title:       "Manage labels",
		Description: "Create, update or delete a repo's label; already so: no_op. Delete removes it from every issue.",
		Mode:        tooldef.Write,
		// One tool holds create and update beside delete; the hint is
		// per tool, so it says what the most a call can do is: delete a
		// label and take it off every issue that carries it.
		Destructive: true,
		// Every action reads first and answers no_op when the label
		// already stands as asked, so a repeat changes nothing.
		Idempotent: true,
		Run:        s.manageLabels,
	}
}

func (s *Tools) manageLabels(ctx context.Context, in ManageLabelsIn) (ManageLabelsOut, error) {
	c, err := s.Client(ctx, in.Owner, tooldef.Write)
	if err != nil {
		return ManageLabelsOut{}, toolkit.NotStarted(err)
	}
	in.Name = strings.TrimSpace(in.Name)
	in.NewName = strings.TrimSpace(in.NewName)
	in.Color = strings.TrimPrefix(in.Color, "#")
	out := ManageLabelsOut{Action: string(in.Action)}
	switch in.Action {
	case "create":
		err = s.createLabel(ctx, c, in, &out)
	case "update":
		err = s.updateLabel(ctx, c, in, &out)
	case "delete":
		err = s.deleteLabel(ctx, c, in, &out)
	}
	if err != nil {
		return ManageLabelsOut{}, err
	}
	return out, nil
}

func labelView(l *gh.Label) *LabelView {
	return &LabelView{Name: l.GetName(), Color: l.GetColor(), Description: l.GetDescription()}
}

// labelDiffers lists the fields in asks for that l does not already hold.
func labelDiffers(l *gh.Label, in ManageLabelsIn) []string {
	var diff []string
	if in.NewName != "" && in.NewName != l.GetName() {
		diff = append(diff, "name")
	}
	if in.Color != "" && !strings.EqualFold(in.Color, l.GetColor()) {
		diff = append(diff, "color")
	}
	if in.Description != nil && *in.Description != l.GetDescription() {
		diff = append(diff, "description")
	}
	return diff
}

// createLabel creates the label once. Labels are named, so the name is
// the idempotency key: a label of exactly this name holding the values
// asked for is the one wanted (no_op, as a repeat after a lost answer
// finds it); one spelled differently, or holding other values, is
// refused with label_exists naming it, since creating is not the way to
// change it and GitHub itself compares names without case.
func (s *Tools) createLabel(ctx context.Context, c *github.Client, in ManageLabelsIn, out *ManageLabelsOut) error {
	existing, _, err := c.GetLabel(ctx, in.Owner, in.Repo, in.Name)
	switch {
	case err == nil:
		return labelExists(existing, in, out)
	case !isNotFound(err):
		return notStarted(err)
	}
	l, _, err := c.CreateRepoLabel(ctx, in.Owner, in.Repo, github.LabelFields{Name: in.Name, Color: in.Color, Description: in.Description})
	s.forget(ctx, c, in.Owner, in.Repo)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeValidationFailed && alreadyExists(err) {
			// Created by someone else between the read and the write.
			e.Code = contract.CodeLabelExists
			e.Message = fmt.Sprintf("a label named %q (ignoring case) was created in %s/%s meanwhile; nothing was written", in.Name, in.Owner, in.Repo)
			e.WithField("name", "already exists")
			e.Repair = &contract.Repair{NextStep: "call again: the create then compares with the label that exists", Tool: toolkit.NameManageLabels, Arguments: in}
			return e
		}
		if isNotFound(err) {
			// The label's 404 above could not say whether the
			// repository is there; this one, on the repository's own
			// route, does.
			return repoMissing(err, in.Owner, in.Repo)
		}
		return writeLost(err, toolkit.NameManageLabels, in)
	}
	out.Label = labelView(l)
	return nil
}

// alreadyExists reports whether GitHub's 422 says a name is taken.
func alreadyExists(err error) bool {
	var ge *github.Error
	if !errors.As(err, &ge) {
		return false
	}
	for _, f := range ge.Fields {
		if f.Code == "already_exists" {
			return true
		}
	}
	return false
}

// labelExists answers a create that met an existing label.
func labelExists(l *gh.Label, in ManageLabelsIn, out *ManageLabelsOut) error {
	update := in
	update.Action = "update"
	update.Name = l.GetName()
	if l.GetName() != in.Name {
		e := refuse(contract.CodeLabelExists, "name", "differs only in case from an existing label",
			"%s/%s already has the label %q, which differs from %q only in case; GitHub compares label names without case, so it cannot hold both",
			in.Owner, in.Repo, l.GetName(), in.Name)
		e.Details.Value = l.GetName()
		update.NewName = in.Name
		return e.WithRepair(contract.Repair{NextStep: "use the existing label " + l.GetName() + "; to respell it instead, make this call",
			Tool: toolkit.NameManageLabels, Arguments: update,
			Alternative: "pass the existing name to the issue tools: they match labels ignoring case"})
	}
	diff := labelDiffers(l, in)
	if len(diff) == 0 {
		out.Label, out.NoOp = labelView(l), true
		out.Note = "the label already exists as asked; nothing was written"
		return nil
	}
	e := refuse(contract.CodeLabelExists, "name", "already exists with another "+strings.Join(diff, " and "),
		"%s/%s already has the label %q, with another %s; nothing was written", in.Owner, in.Repo, l.GetName(), strings.Join(diff, " and "))
	e.Details.Value = l.GetName()
	return e.WithRepair(contract.Repair{NextStep: "to change the existing label to these values, make this call", Tool: toolkit.NameManageLabels, Arguments: update})
}

// labelMissing is label_not_found for the label an update names.
func labelMissing(in ManageLabelsIn) error {
	e := refuse(contract.CodeLabelNotFound, "name", "no such label in the repository",
		"%s/%s has no label named %q (ignoring case); nothing was written", in.Owner, in.Repo, in.Name)
	return e.WithRepair(contract.Repair{NextStep: "list the repository's labels and pick the one you mean",
		Tool: toolkit.NameListRepoMetadata, Arguments: map[string]any{"owner": in.Owner, "repo": in.Repo, "kind": "labels"},
		Alternative: "create it with action create"})
}

// updateLabel changes what differs, and nothing when nothing does. A
// rename whose answer was lost leaves no label under the old name; the
// repeat then finds the new one as asked and answers no_op.
func (s *Tools) updateLabel(ctx context.Context, c *github.Client, in ManageLabelsIn, out *ManageLabelsOut) error {
	l, _, err := c.GetLabel(ctx, in.Owner, in.Repo, in.Name)
	if err != nil {
		if !isNotFound(err) {
			return notStarted(err)
		}
		if err := absentOrRepoMissing(ctx, c, in.Owner, in.Repo); err != nil {
			return notStarted(err)
		}
		if in.NewName != "" && !strings.EqualFold(in.NewName, in.Name) {
			renamed, _, rerr := c.GetLabel(ctx, in.Owner, in.Repo, in.NewName)
			if rerr == nil && renamed.GetName() == in.NewName && len(labelDiffers(renamed, in)) == 0 {
				out.Label, out.NoOp = labelView(renamed), true
				out.Note = fmt.Sprintf("no label %q, and %q stands as asked: the rename was already made; nothing was written", in.Name, in.NewName)
				return nil
			}
		}
		return labelMissing(in)
	}
	diff := labelDiffers(l, in)
	if len(diff) == 0 {
		out.Label, out.NoOp = labelView(l), true
		out.Note = "the label already holds these values; nothing was written"
		return nil
	}
	f := github.LabelFields{}
	for _, d := range diff {
		switch d {
		case "name":
			f.NewName = in.NewName
		case "color":
			f.Color = in.Color
		case "description":
			f.Description = in.Description
		}
	}
	after, _, err := c.EditLabel(ctx, in.Owner, in.Repo, l.GetName(), f)
	s.forget(ctx, c, in.Owner, in.Repo)
	if err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeValidationFailed && alreadyExists(err) {
			e.Code = contract.CodeLabelExists
			e.Message = fmt.Sprintf("%s/%s already has a label named %q (ignoring case); nothing was written", in.Owner, in.Repo, in.NewName)
			e.WithField("new_name", "another label has this name")
			e.Repair = &contract.Repair{NextStep: "choose another new_name, or delete the other label first"}
			return e
		}
		return writeLost(err, toolkit.NameManageLabels, in)
	}
	out.Label, out.ChangedFields = labelView(after), diff
	return nil
}

// deleteLabel deletes the label; an absent one is a no_op, once the
// repository is known to be there (GitHub's 404 would say the same for a
// repository that is not).
func (s *Tools) deleteLabel(ctx context.Context, c *github.Client, in ManageLabelsIn, out *ManageLabelsOut) error {
	_, err := c.DeleteLabel(ctx, in.Owner, in.Repo, in.Name)
	if err == nil {
		s.forget(ctx, c, in.Owner, in.Repo)
		out.Deleted = true
		out.Note = "deleted, and removed from every issue and pull request that carried it"
		return nil
	}
	if !isNotFound(err) {
		s.forget(ctx, c, in.Owner, in.Repo)
		return writeLost(err, toolkit.NameManageLabels, in)
	}
	if rerr := absentOrRepoMissing(ctx, c, in.Owner, in.Repo); rerr != nil {
		// The 404 was an answer: nothing was deleted.
		e, _ := contract.AsError(rerr)
		if e != nil {
			e.Settlement = contract.NoRemoteSuccessKnown
		}
		return rerr
	}
	out.NoOp = true
	out.Note = fmt.Sprintf("%s/%s has no label named %q (already deleted, or never there); nothing was deleted", in.Owner, in.Repo, in.Name)
	return nil
}
