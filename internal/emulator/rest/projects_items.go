package rest

import (
	"encoding/json"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// A board's fields and items over REST. An item's fields are the values
// of the fields asked for by id (fields=1,2 or fields[]=1), the Title alone
// when none are asked for, each as {id, name, data_type, value}.

// rawHTML is the {raw, html} pair GitHub gives names and titles in.
type rawHTML struct {
	Raw  string `json:"raw"`
	HTML string `json:"html"`
}

func textPair(s string) rawHTML {
	return rawHTML{Raw: s, HTML: strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)}
}

type projectOptionJSON struct {
	ID          string  `json:"id"`
	Name        rawHTML `json:"name"`
	Description rawHTML `json:"description"`
	Color       string  `json:"color"`
}

type iterationJSON struct {
	ID        string  `json:"id"`
	StartDate string  `json:"start_date"`
	Duration  int     `json:"duration"`
	Title     rawHTML `json:"title"`
	Completed bool    `json:"completed"`
}

type iterationConfigJSON struct {
	StartDay   int             `json:"start_day"`
	Duration   int             `json:"duration"`
	Iterations []iterationJSON `json:"iterations"`
}

// projectFieldJSON is GitHub's projects-v2-field.
type projectFieldJSON struct {
	ID            int64                `json:"id"`
	NodeID        string               `json:"node_id"`
	ProjectURL    string               `json:"project_url"`
	Name          string               `json:"name"`
	DataType      string               `json:"data_type"`
	Options       []projectOptionJSON  `json:"options,omitempty"`
	Configuration *iterationConfigJSON `json:"configuration,omitempty"`
	CreatedAt     string               `json:"created_at"`
	UpdatedAt     string               `json:"updated_at"`
}

func optionJSON(o *state.ProjectOption) projectOptionJSON {
	return projectOptionJSON{ID: o.ID, Name: textPair(o.Name), Description: textPair(o.Description), Color: strings.ToLower(o.Color)}
}

func iterJSON(it *state.Iteration, completed bool) iterationJSON {
	return iterationJSON{ID: it.ID, StartDate: it.StartDate, Duration: it.Duration, Title: textPair(it.Title), Completed: completed}
}

func (c *call) fieldJSON(f *state.ProjectField) projectFieldJSON {
	out := projectFieldJSON{ID: f.ID, NodeID: f.NodeID, ProjectURL: c.projectURL(f.Project), Name: f.Name,
		DataType: strings.ToLower(f.DataType), CreatedAt: wire.Timestamp(f.CreatedAt), UpdatedAt: wire.Timestamp(f.UpdatedAt)}
	for _, o := range f.Options {
		out.Options = append(out.Options, optionJSON(o))
	}
	if f.DataType == "ITERATION" {
		cfg := &iterationConfigJSON{StartDay: 1, Duration: 14, Iterations: []iterationJSON{}}
		if f.Iteration != nil {
			cfg.StartDay, cfg.Duration = f.Iteration.StartDay, f.Iteration.Duration
			for _, it := range f.Iteration.Iterations {
				cfg.Iterations = append(cfg.Iterations, iterJSON(it, false))
			}
			for _, it := range f.Iteration.Completed {
				cfg.Iterations = append(cfg.Iterations, iterJSON(it, true))
			}
		}
		out.Configuration = cfg
	}
	return out
}

func listProjectFields(c *call) {
	p := c.projectFor(state.PermRead)
	if p == nil {
		return
	}
	out := []projectFieldJSON{}
	for _, f := range cursorPage(c, p.Fields) {
		out = append(out, c.fieldJSON(f))
	}
	c.JSON(http.StatusOK, out)
}

func getProjectField(c *call) {
	p := c.projectFor(state.PermRead)
	if p == nil {
		return
	}
	id, err := strconv.ParseInt(c.Req.PathValue("field_id"), 10, 64)
	f := p.FieldByID(id)
	if err != nil || f == nil {
		c.NotFound()
		return
	}
	c.JSON(http.StatusOK, c.fieldJSON(f))
}

// projectItemJSON is GitHub's projects-v2-item-with-content (and, without
// fields, projects-v2-item-simple).
type projectItemJSON struct {
	ID          int64           `json:"id"`
	NodeID      string          `json:"node_id"`
	ProjectURL  string          `json:"project_url"`
	ContentType string          `json:"content_type"`
	Content     any             `json:"content"`
	Creator     *userJSON       `json:"creator"`
	CreatedAt   string          `json:"created_at"`
	UpdatedAt   string          `json:"updated_at"`
	ArchivedAt  *string         `json:"archived_at"`
	ItemURL     string          `json:"item_url"`
	Fields      []itemFieldJSON `json:"fields,omitempty"`
}

type itemFieldJSON struct {
	ID       int64  `json:"id"`
	Name     string `json:"name"`
	DataType string `json:"data_type"`
	Value    any    `json:"value"`
}

// draftJSON is GitHub's projects-v2-draft-issue.
type draftJSON struct {
	ID        int64     `json:"id"`
	NodeID    string    `json:"node_id"`
	Title     string    `json:"title"`
	Body      *string   `json:"body"`
	User      *userJSON `json:"user"`
	CreatedAt string    `json:"created_at"`
	UpdatedAt string    `json:"updated_at"`
}

// seesContent reports whether the caller may read the item's issue or
// pull request; content it may not read is left out (null).
func (c *call) seesContent(it *state.ProjectItem) bool {
	if it.Draft != nil {
		return true
	}
	return it.Issue != nil && !it.Issue.Deleted && c.Token.Permission(it.Issue.Repo) >= state.PermRead
}

func (c *call) itemJSON(it *state.ProjectItem, fields []*state.ProjectField) projectItemJSON {
	out := projectItemJSON{ID: it.ID, NodeID: it.NodeID, ProjectURL: c.projectURL(it.Project),
		Creator: renderSimpleUser(c.Links, it.Creator), CreatedAt: wire.Timestamp(it.CreatedAt), UpdatedAt: wire.Timestamp(it.UpdatedAt),
		ItemURL: c.projectURL(it.Project) + "/items/" + strconv.FormatInt(it.ID, 10)}
	if it.ArchivedAt != nil {
		s := wire.Timestamp(*it.ArchivedAt)
		out.ArchivedAt = &s
	}
	switch {
	case it.Draft != nil:
		out.ContentType = "DraftIssue"
		d := it.Draft
		out.Content = draftJSON{ID: d.ID, NodeID: d.NodeID, Title: d.Title, Body: &d.Body, User: renderSimpleUser(c.Links, d.Creator),
			CreatedAt: wire.Timestamp(d.CreatedAt), UpdatedAt: wire.Timestamp(d.UpdatedAt)}
	case it.Issue != nil && it.Issue.IsPull:
		out.ContentType = "PullRequest"
		if c.seesContent(it) {
			out.Content = c.pullJSON(it.Issue, false)
		}
	default:
		out.ContentType = "Issue"
		if c.seesContent(it) {
			out.Content = renderIssue(c.Links, it.Issue)
		}
	}
	for _, f := range fields {
		out.Fields = append(out.Fields, itemFieldJSON{ID: f.ID, Name: f.Name, DataType: strings.ToLower(f.DataType), Value: c.fieldValue(it, f)})
	}
	return out
}

// fieldValue is an item's value of a field as the REST API writes it, nil
// when it has none.
func (c *call) fieldValue(it *state.ProjectItem, f *state.ProjectField) any {
	is := it.Issue
	if it.Draft == nil && !c.seesContent(it) && f.Builtin() {
		return nil
	}
	switch f.DataType {
	case "TITLE":
		title := ""
		if it.Draft != nil {
			title = it.Draft.Title
		} else {
			title = is.Title
		}
		return textPair(title)
	case "ASSIGNEES":
		var as []*state.Account
		if it.Draft != nil {
			as = it.Draft.Assignees
		} else {
			as = is.Assignees
		}
		if len(as) == 0 {
			return nil
		}
		out := []*userJSON{}
		for _, a := range as {
			out = append(out, renderSimpleUser(c.Links, a))
		}
		return out
	case "LABELS":
		if is == nil || len(is.Labels) == 0 {
			return nil
		}
		out := []labelJSON{}
		for _, l := range is.Labels {
			out = append(out, renderLabel(c.Links, is.Repo, l))
		}
		return out
	case "MILESTONE":
		if is == nil || is.Milestone == nil {
			return nil
		}
		return renderMilestone(c.Links, is.Repo, is.Milestone)
	case "REPOSITORY":
		if is == nil {
			return nil
		}
		return c.repoJSON(is.Repo, false)
	case "LINKED_PULL_REQUESTS", "REVIEWERS":
		return nil
	}
	v := it.Value(f)
	if v == nil {
		return nil
	}
	switch f.DataType {
	case "TEXT":
		return v.Text
	case "NUMBER":
		return v.Number
	case "DATE":
		return v.Date
	case "SINGLE_SELECT":
		return optionJSON(v.Option)
	case "ITERATION":
		return map[string]any{"id": v.Iteration.ID, "title": textPair(v.Iteration.Title), "start_date": v.Iteration.StartDate,
			"duration": v.Iteration.Duration}
	}
	return nil
}

// askedFields reads fields=1,2 or fields[]=1&fields[]=2: unknown ids are
// left out; nothing asked means the Title alone.
func (c *call) askedFields(p *state.Project) []*state.ProjectField {
	q := c.Req.URL.Query()
	var ids []string
	for _, v := range append(q["fields"], q["fields[]"]...) {
		ids = append(ids, strings.Split(v, ",")...)
	}
	var out []*state.ProjectField
	for _, s := range ids {
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
		if f := p.FieldByID(id); err == nil && f != nil && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(ids) == 0 {
		for _, f := range p.Fields {
			if f.DataType == "TITLE" {
				out = append(out, f)
			}
		}
	}
	return out
}

func listProjectItems(c *call) {
	p := c.projectFor(state.PermRead)
	if p == nil {
		return
	}
	items := p.Items
	if q := strings.TrimSpace(c.Req.URL.Query().Get("q")); q != "" {
		// A filter naming no field of the board matches nothing: GitHub's
		// description gives this route no 422 to refuse it with (GraphQL's
		// items(query:) says which field it does not know).
		f, err := state.ParseItemFilter(p, q)
		items = nil
		for _, it := range p.Items {
			if err == nil && f.Match(it, c.Viewer, c.State.Now()) {
				items = append(items, it)
			}
		}
	}
	fields := c.askedFields(p)
	out := []projectItemJSON{}
	for _, it := range cursorPage(c, items) {
		out = append(out, c.itemJSON(it, fields))
	}
	c.JSON(http.StatusOK, out)
}

// itemFor resolves {item_id} on the board.
func (c *call) itemFor(p *state.Project) *state.ProjectItem {
	id, err := strconv.ParseInt(c.Req.PathValue("item_id"), 10, 64)
	it := p.ItemByID(id)
	if err != nil || it == nil {
		c.NotFound()
		return nil
	}
	return it
}

func getProjectItem(c *call) {
	p := c.projectFor(state.PermRead)
	if p == nil {
		return
	}
	if it := c.itemFor(p); it != nil {
		c.JSON(http.StatusOK, c.itemJSON(it, c.askedFields(p)))
	}
}

// addItemBody is the POST items body: an issue or pull request by id, or
// by repository owner, name and number.
type addItemBody struct {
	Type   string `json:"type"`
	ID     *int64 `json:"id"`
	Owner  string `json:"owner"`
	Repo   string `json:"repo"`
	Number *int   `json:"number"`
}

// addProjectItem adds an issue or pull request; one already on the board
// is answered with its item, as GitHub's add is idempotent.
func addProjectItem(c *call) {
	p := c.projectFor(state.PermWrite)
	if p == nil {
		return
	}
	var in addItemBody
	if !c.Decode(&in) {
		return
	}
	if in.Type != "Issue" && in.Type != "PullRequest" {
		c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2Item", Field: "type", Code: "invalid"})
		return
	}
	var is *state.Issue
	switch {
	case in.ID != nil:
		is = c.State.IssueByID(*in.ID)
	case in.Owner != "" && in.Repo != "" && in.Number != nil:
		if r := c.State.Repo(in.Owner, in.Repo); r != nil {
			is = r.Issue(*in.Number)
		}
	default:
		c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2Item", Field: "id", Code: "missing_field"})
		return
	}
	if is == nil || is.Deleted || c.Token.Permission(is.Repo) < state.PermRead || is.IsPull != (in.Type == "PullRequest") {
		c.NotFound()
		return
	}
	it, _ := c.State.AddProjectItem(p, is, c.Viewer)
	c.JSON(http.StatusCreated, c.itemJSON(it, nil))
}

// updateItemBody is the PATCH body: field values to set (null clears) and
// archived.
type updateItemBody struct {
	Fields []struct {
		ID    int64           `json:"id"`
		Value json.RawMessage `json:"value"`
	} `json:"fields"`
	Archived *bool `json:"archived"`
}

// updateProjectItem checks every value against its field before it
// writes any, then sets them and the archived state.
func updateProjectItem(c *call) {
	p := c.projectFor(state.PermWrite)
	if p == nil {
		return
	}
	it := c.itemFor(p)
	if it == nil {
		return
	}
	var in updateItemBody
	if !c.Decode(&in) {
		return
	}
	type change struct {
		f     *state.ProjectField
		v     state.ProjectValue
		clear bool
	}
	var changes []change
	for _, fv := range in.Fields {
		f := p.FieldByID(fv.ID)
		if f == nil {
			c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2ItemFieldValue", Field: "id", Code: "invalid", Value: fv.ID,
				Message: "The field " + strconv.FormatInt(fv.ID, 10) + " does not belong to the project"})
			return
		}
		if f.Builtin() {
			c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2ItemFieldValue", Field: "value", Code: "invalid",
				Message: "The field " + f.Name + " of type " + strings.ToLower(f.DataType) + " cannot be updated: only text, number, date, single select and iteration fields can"})
			return
		}
		if len(fv.Value) == 0 || string(fv.Value) == "null" {
			changes = append(changes, change{f: f, clear: true})
			continue
		}
		v, msg := restFieldValue(f, fv.Value)
		if msg != "" {
			c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2ItemFieldValue", Field: "value", Code: "invalid", Message: msg})
			return
		}
		changes = append(changes, change{f: f, v: v})
	}
	archived := it.Archived
	if in.Archived != nil {
		archived = *in.Archived
	}
	if archived && len(changes) > 0 {
		c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2Item", Field: "fields", Code: "invalid",
			Message: "The item is archived and cannot be updated"})
		return
	}
	if in.Archived != nil && *in.Archived != it.Archived {
		c.State.SetItemArchived(it, *in.Archived)
	}
	for _, ch := range changes {
		if ch.clear {
			c.State.ClearProjectValue(it, ch.f)
		} else {
			c.State.SetProjectValue(it, ch.v, c.Viewer)
		}
	}
	asked := []*state.ProjectField{}
	for _, ch := range changes {
		asked = append(asked, ch.f)
	}
	c.JSON(http.StatusOK, c.itemJSON(it, asked))
}

// restFieldValue reads a PATCH value for the field: a string for text, a
// date (YYYY-MM-DD) or an option or iteration id, a number for number. It
// returns GitHub's reason when the value does not fit.
func restFieldValue(f *state.ProjectField, raw json.RawMessage) (state.ProjectValue, string) {
	v := state.ProjectValue{Field: f}
	var s string
	isString := json.Unmarshal(raw, &s) == nil
	switch f.DataType {
	case "NUMBER":
		var n float64
		if err := json.Unmarshal(raw, &n); err != nil || math.IsInf(n, 0) || math.IsNaN(n) {
			return v, "Did not receive a number value to update a field of type number"
		}
		v.Number = n
		return v, ""
	case "TEXT":
		if !isString {
			return v, "Did not receive a text value to update a field of type text"
		}
		v.Text = s
	case "DATE":
		if !isString {
			return v, "Did not receive a date value to update a field of type date"
		}
		d, err := time.Parse(time.DateOnly, s)
		if err != nil {
			return v, "Date is not a valid date: " + s
		}
		v.Date = d.Format(time.DateOnly)
	case "SINGLE_SELECT":
		if v.Option = f.FindOption(s); !isString || v.Option == nil {
			return v, "The single select option Id does not belong to the field"
		}
	case "ITERATION":
		if v.Iteration = f.FindIteration(s); !isString || v.Iteration == nil {
			return v, "The iteration Id does not belong to the field"
		}
	}
	return v, ""
}

func deleteProjectItem(c *call) {
	p := c.projectFor(state.PermWrite)
	if p == nil {
		return
	}
	if it := c.itemFor(p); it != nil {
		c.State.DeleteProjectItem(it)
		c.NoContent()
	}
}

// addDraftItem adds a draft issue with a title and an optional body.
func addDraftItem(c *call) {
	p := c.projectFor(state.PermWrite)
	if p == nil {
		return
	}
	var in struct {
		Title *string `json:"title"`
		Body  string  `json:"body"`
	}
	if !c.Decode(&in) {
		return
	}
	if in.Title == nil || strings.TrimSpace(*in.Title) == "" {
		c.Invalid("", projectsDoc, wire.FieldError{Resource: "ProjectV2Item", Field: "title", Code: "missing_field"})
		return
	}
	it := c.State.AddDraftItem(p, strings.TrimSpace(*in.Title), in.Body, nil, c.Viewer)
	c.JSON(http.StatusCreated, c.itemJSON(it, nil))
}
