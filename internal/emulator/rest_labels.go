package emulator

import (
	"net/http"
	"strings"
	"unicode/utf8"
)

const labelDocs = "rest/issues/labels"

// descriptionTooLong answers 422 when a label description is over the limit.
func (c *restCall) descriptionTooLong(in labelWrite, doc string) bool {
	if !in.Description.Set || in.Description.Null || utf8.RuneCountInString(in.Description.Value) <= maxLabelDescription {
		return false
	}
	c.invalid("", doc, fieldError{Resource: "Label", Field: "description", Code: "custom",
		Message: "description is too long (maximum is 100 characters)"})
	return true
}

func (e *Emulator) listRepoLabels(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	out := []labelJSON{}
	for _, l := range paginate(c, r.Labels) {
		out = append(out, renderLabel(c.links, r, l))
	}
	c.json(http.StatusOK, out)
}

func (e *Emulator) getLabel(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	l := r.FindLabel(c.req.PathValue("name"))
	if l == nil {
		c.notFound()
		return
	}
	c.json(http.StatusOK, renderLabel(c.links, r, l))
}

type labelWrite struct {
	Name        optional[string] `json:"name"`
	NewName     optional[string] `json:"new_name"`
	Color       optional[string] `json:"color"`
	Description optional[string] `json:"description"`
}

func (e *Emulator) createLabel(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	var in labelWrite
	if !c.decode(&in) {
		return
	}
	const doc = labelDocs + "#create-a-label"
	name := strings.TrimSpace(in.Name.Value)
	if name == "" {
		c.invalid("", doc, fieldError{Resource: "Label", Field: "name", Code: "missing_field"})
		return
	}
	color := strings.TrimPrefix(in.Color.Value, "#")
	if color == "" {
		color = "ededed"
	}
	if !hexColor.MatchString(color) {
		c.invalid("", doc, fieldError{Resource: "Label", Field: "color", Code: "invalid"})
		return
	}
	if r.FindLabel(name) != nil {
		c.invalid("", doc, fieldError{Resource: "Label", Field: "name", Code: "already_exists"})
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
	l := c.st.AddLabel(r, name, color, desc)
	out := renderLabel(c.links, r, l)
	c.w.Header().Set("Location", out.URL)
	c.json(http.StatusCreated, out)
}

func (e *Emulator) updateLabel(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	l := r.FindLabel(c.req.PathValue("name"))
	if l == nil {
		c.notFound()
		return
	}
	var in labelWrite
	if !c.decode(&in) {
		return
	}
	const doc = labelDocs + "#update-a-label"
	if in.NewName.Set && !in.NewName.Null {
		name := strings.TrimSpace(in.NewName.Value)
		if name == "" {
			c.invalid("", doc, fieldError{Resource: "Label", Field: "name", Code: "missing_field"})
			return
		}
		if other := r.FindLabel(name); other != nil && other != l {
			c.invalid("", doc, fieldError{Resource: "Label", Field: "name", Code: "already_exists"})
			return
		}
	}
	if c.descriptionTooLong(in, doc) {
		return
	}
	if in.Color.Set && !in.Color.Null {
		color := strings.TrimPrefix(in.Color.Value, "#")
		if !hexColor.MatchString(color) {
			c.invalid("", doc, fieldError{Resource: "Label", Field: "color", Code: "invalid"})
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
		c.st.RenameLabel(l, strings.TrimSpace(in.NewName.Value))
	}
	c.json(http.StatusOK, renderLabel(c.links, r, l))
}

func (e *Emulator) deleteLabel(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	l := r.FindLabel(c.req.PathValue("name"))
	if l == nil {
		c.notFound()
		return
	}
	c.st.DeleteLabel(r, l)
	c.noContent()
}

func (c *restCall) issueLabels(r *Repo, is *Issue) []labelJSON {
	out := []labelJSON{}
	for _, l := range is.Labels {
		out = append(out, renderLabel(c.links, r, l))
	}
	return out
}

func (e *Emulator) listIssueLabels(c *restCall) {
	r := c.repoFor(PermRead)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	out := []labelJSON{}
	for _, l := range paginate(c, is.Labels) {
		out = append(out, renderLabel(c.links, r, l))
	}
	c.json(http.StatusOK, out)
}

// labelsBody reads the add/set body: {"labels": [...]} or a bare array.
func (c *restCall) labelsBody() (labelNames, bool) {
	var in labelNames
	if !c.decode(&in) {
		return nil, false
	}
	return in, true
}

func (e *Emulator) addIssueLabels(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	names, ok := c.labelsBody()
	if !ok {
		return
	}
	c.st.AddLabels(is, c.viewer, c.resolveLabels(r, names)...)
	c.json(http.StatusOK, c.issueLabels(r, is))
}

func (e *Emulator) setIssueLabels(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	names, ok := c.labelsBody()
	if !ok {
		return
	}
	c.st.SetLabels(is, c.viewer, c.resolveLabels(r, names))
	c.json(http.StatusOK, c.issueLabels(r, is))
}

func (e *Emulator) removeAllIssueLabels(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	c.st.SetLabels(is, c.viewer, nil)
	c.noContent()
}

func (e *Emulator) removeIssueLabel(c *restCall) {
	r := c.repoFor(PermTriage)
	if r == nil {
		return
	}
	is := c.issueFor(r)
	if is == nil {
		return
	}
	l := r.FindLabel(c.req.PathValue("name"))
	if l == nil || !c.st.RemoveLabel(is, c.viewer, l) {
		// GitHub answers 404 "Label does not exist" when the label is not on
		// the issue.
		c.fail(http.StatusNotFound, "Label does not exist", labelDocs+"#remove-a-label-from-an-issue")
		return
	}
	c.json(http.StatusOK, c.issueLabels(r, is))
}
