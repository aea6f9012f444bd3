package rest

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

const labelDocs = "rest/issues/labels"

// descriptionTooLong answers 422 when a label description is over the limit.
func (c *call) descriptionTooLong(in labelWrite, doc string) bool {
	if !in.Description.Set || in.Description.Null || utf8.RuneCountInString(in.Description.Value) <= state.MaxLabelDescription {
		return false
	}
	c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "description", Code: "custom",
		Message: "description is too long (maximum is 100 characters)"})
	return true
}

func listRepoLabels(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	out := []labelJSON{}
	for _, l := range paginate(c, r.Labels) {
		out = append(out, renderLabel(c.Links, r, l))
	}
	c.JSON(http.StatusOK, out)
}

func getLabel(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	l := r.FindLabel(c.Req.PathValue("name"))
	if l == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, renderLabel(c.Links, r, l))
}

type labelWrite struct {
	Name        wire.Optional[string] `json:"name"`
	NewName     wire.Optional[string] `json:"new_name"`
	Color       wire.Optional[string] `json:"color"`
	Description wire.Optional[string] `json:"description"`
}

func createLabel(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	var in labelWrite
	if !c.Decode(&in) {
		return
	}
	const doc = labelDocs + "#create-a-label"
	name := strings.TrimSpace(in.Name.Value)
	if name == "" {
		c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "name", Code: "missing_field"})
		return
	}
	color := strings.TrimPrefix(in.Color.Value, "#")
	if color == "" {
		color = "ededed"
	}
	if !wire.HexColor.MatchString(color) {
		c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "color", Code: "invalid"})
		return
	}
	if r.FindLabel(name) != nil {
		c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "name", Code: "already_exists"})
		return
	}
	if c.descriptionTooLong(in, doc) {
		return
	}
	var desc *string
	if in.Description.Set && !in.Description.Null {
		d := in.Description.Value
		desc = &d
	}
	// GitHub keeps the color as the client spelled it ("BADA55").
	l := c.State.AddLabel(r, name, color, desc)
	out := renderLabel(c.Links, r, l)
	c.W.Header().Set("Location", out.URL)
	c.JSON(http.StatusCreated, out)
}

func updateLabel(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	l := r.FindLabel(c.Req.PathValue("name"))
	if l == nil {
		c.NotFound()
		return
	}
	var in labelWrite
	if !c.Decode(&in) {
		return
	}
	const doc = labelDocs + "#update-a-label"
	if in.NewName.Set && !in.NewName.Null {
		name := strings.TrimSpace(in.NewName.Value)
		if name == "" {
			c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "name", Code: "missing_field"})
			return
		}
		if other := r.FindLabel(name); other != nil && other != l {
			c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "name", Code: "already_exists"})
			return
		}
	}
	if c.descriptionTooLong(in, doc) {
		return
	}
	if in.Color.Set && !in.Color.Null {
		color := strings.TrimPrefix(in.Color.Value, "#")
		if !wire.HexColor.MatchString(color) {
			c.Invalid("", doc, wire.FieldError{Resource: "Label", Field: "color", Code: "invalid"})
			return
		}
		l.Color = color
	}
	if in.Description.Set {
		if in.Description.Null {
			l.Description = nil
		} else {
			d := in.Description.Value
			l.Description = &d
		}
	}
	if in.NewName.Set && !in.NewName.Null {
		c.State.RenameLabel(l, strings.TrimSpace(in.NewName.Value))
	}
	c.JSON(http.StatusOK, renderLabel(c.Links, r, l))
}

func deleteLabel(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	l := r.FindLabel(c.Req.PathValue("name"))
	if l == nil {
		c.NotFound()
		return
	}
	c.State.DeleteLabel(r, l)
	c.NoContent()
}

func (c *call) issueLabels(r *state.Repo, is *state.Issue) []labelJSON {
	out := []labelJSON{}
	for _, l := range is.Labels {
		out = append(out, renderLabel(c.Links, r, l))
	}
	return out
}

func listIssueLabels(c *call) {
	r := c.RepoFor(state.PermRead)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	out := []labelJSON{}
	for _, l := range paginate(c, is.Labels) {
		out = append(out, renderLabel(c.Links, r, l))
	}
	c.JSON(http.StatusOK, out)
}

// labelsBody reads the add/set body: {"labels": [...]} or a bare array.
func (c *call) labelsBody() (labelNames, bool) {
	var in labelNames
	if !c.Decode(&in) {
		return nil, false
	}
	return in, true
}

func addIssueLabels(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	names, ok := c.labelsBody()
	if !ok {
		return
	}
	c.State.AddLabels(is, c.Viewer, c.resolveLabels(r, names)...)
	c.JSON(http.StatusOK, c.issueLabels(r, is))
}

func setIssueLabels(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	names, ok := c.labelsBody()
	if !ok {
		return
	}
	c.State.SetLabels(is, c.Viewer, c.resolveLabels(r, names))
	c.JSON(http.StatusOK, c.issueLabels(r, is))
}

func removeAllIssueLabels(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	c.State.SetLabels(is, c.Viewer, nil)
	c.NoContent()
}

func removeIssueLabel(c *call) {
	r := c.RepoFor(state.PermTriage)
	if r == nil {
		return
	}
	is := c.IssueFor(r)
	if is == nil {
		return
	}
	l := r.FindLabel(c.Req.PathValue("name"))
	if l == nil || !c.State.RemoveLabel(is, c.Viewer, l) {
		// GitHub answers 404 "Label does not exist" when the label is not on
		// the issue.
		c.Fail(http.StatusNotFound, "Label does not exist", labelDocs+"#remove-a-label-from-an-issue")
		return
	}
	c.JSON(http.StatusOK, c.issueLabels(r, is))
}
