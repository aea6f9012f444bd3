package github

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// Projects v2 live in GraphQL only for what ghgate needs (a board's
// fields and options, an issue's item, the item mutations), so every
// call here is a GraphQL document; each validates against GitHub's
// published schema in this package's tests.

// Owner kinds of a project.
const (
	ProjectOwnerOrg  = "organization"
	ProjectOwnerUser = "user"
)

// ProjectV2 is a board and its fields.
type ProjectV2 struct {
	ID          string
	Number      int
	Title       string
	URL         string
	Closed      bool
	Description string
	// OwnerKind is ProjectOwnerOrg or ProjectOwnerUser.
	OwnerKind string
	Fields    []ProjectField
}

// Field finds a field by name, exactly first, else ignoring case.
func (p *ProjectV2) Field(name string) *ProjectField {
	for i := range p.Fields {
		if p.Fields[i].Name == name {
			return &p.Fields[i]
		}
	}
	for i := range p.Fields {
		if strings.EqualFold(p.Fields[i].Name, name) {
			return &p.Fields[i]
		}
	}
	return nil
}

// ProjectField is one field of a board. DataType is GitHub's
// ProjectV2FieldType (TEXT, NUMBER, DATE, SINGLE_SELECT, ITERATION, and
// the built-in ones: TITLE, ASSIGNEES, LABELS, ...).
type ProjectField struct {
	ID       string
	Name     string
	DataType string
	Options  []ProjectOption // SINGLE_SELECT
	// Iterations are the current and coming ones, in order; Completed
	// those that ended (ITERATION).
	Iterations, Completed []ProjectIteration
}

// ProjectOption is a single-select option.
type ProjectOption struct{ ID, Name string }

// ProjectIteration is one iteration of an iteration field.
type ProjectIteration struct {
	ID, Title, StartDate string
	Duration             int
}

// ProjectItem is one item of a board, with its field values.
type ProjectItem struct {
	ID string
	// Type is ISSUE, PULL_REQUEST, DRAFT_ISSUE or REDACTED (content the
	// credential cannot see).
	Type     string
	Archived bool
	// Repo is owner/name of an issue's or pull request's repository.
	Repo   string
	Number int
	Title  string
	State  string // OPEN, CLOSED (issues and pull requests), MERGED
	URL    string
	// Author is who opened an issue (its REST login; "" for a deleted
	// account), for a deployment limited to one user's issues.
	Author string
	// Assignees and Labels are the content's (the first 10 and 20).
	Assignees, Labels []string
	Values            []ProjectValue
	// ProjectID is the board the item is on.
	ProjectID string
}

// ProjectValue is an item's value of one field: one of the typed parts
// is set, by DataType.
type ProjectValue struct {
	Field, DataType string
	Text            string
	Number          *float64
	Date            string
	Option          string // single select: the option's name
	Iteration       string // iteration: its title
	IterationStart  string
}

// ProjectPage is a page of an owner's projects.
type ProjectPage struct {
	OwnerKind string
	Projects  []ProjectV2
	EndCursor string
	HasNext   bool
}

// ProjectItemPage is a page of a board's items.
type ProjectItemPage struct {
	Items     []ProjectItem
	Total     int
	EndCursor string
	HasNext   bool
}

// IssueOnProject is an issue and its item on one board, if it has one.
type IssueOnProject struct {
	IssueID string
	// IssueAuthor is who opened the issue (REST login).
	IssueAuthor string
	Item        *ProjectItem // nil: not on the board
}

// FineGrained reports whether the credential is a fine-grained personal
// access token, which GitHub does not let reach user-owned projects.
func (c *Client) FineGrained() bool { return strings.HasPrefix(c.token, "github_pat_") }

const projectFragments = `
fragment ghgField on ProjectV2FieldConfiguration {
  ... on ProjectV2FieldCommon { id name dataType }
  ... on ProjectV2SingleSelectField { options { id name } }
  ... on ProjectV2IterationField { configuration {
    iterations { id title startDate duration }
    completedIterations { id title startDate duration } } }
}
fragment ghgProject on ProjectV2 {
  id number title url closed shortDescription
  fields(first: 50) { nodes { ...ghgField } }
}`

const itemFragments = `
fragment ghgFieldName on ProjectV2FieldConfiguration { ... on ProjectV2FieldCommon { name dataType } }
fragment ghgItem on ProjectV2Item {
  id type isArchived project { id }
  content {
    __typename
    ... on Issue { number title issueState: state url repository { nameWithOwner } author { login __typename }
      assignees(first: 10) { nodes { login } } labels(first: 20) { nodes { name } } }
    ... on PullRequest { number title prState: state url repository { nameWithOwner }
      assignees(first: 10) { nodes { login } } labels(first: 20) { nodes { name } } }
    ... on DraftIssue { title }
  }
  fieldValues(first: 50) { nodes {
    ... on ProjectV2ItemFieldSingleSelectValue { name field { ...ghgFieldName } }
    ... on ProjectV2ItemFieldIterationValue { title startDate field { ...ghgFieldName } }
    ... on ProjectV2ItemFieldDateValue { date field { ...ghgFieldName } }
    ... on ProjectV2ItemFieldNumberValue { number field { ...ghgFieldName } }
    ... on ProjectV2ItemFieldTextValue { text field { ...ghgFieldName } }
  } }
}`

// Wire shapes.
type (
	gqlIteration struct {
		ID        string `json:"id"`
		Title     string `json:"title"`
		StartDate string `json:"startDate"`
		Duration  int    `json:"duration"`
	}
	gqlField struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		DataType string `json:"dataType"`
		Options  []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"options"`
		Configuration *struct {
			Iterations          []gqlIteration `json:"iterations"`
			CompletedIterations []gqlIteration `json:"completedIterations"`
		} `json:"configuration"`
	}
	gqlProject struct {
		ID               string  `json:"id"`
		Number           int     `json:"number"`
		Title            string  `json:"title"`
		URL              string  `json:"url"`
		Closed           bool    `json:"closed"`
		ShortDescription *string `json:"shortDescription"`
		Fields           struct {
			Nodes []*gqlField `json:"nodes"`
		} `json:"fields"`
	}
	gqlItem struct {
		ID         string `json:"id"`
		Type       string `json:"type"`
		IsArchived bool   `json:"isArchived"`
		Project    *struct {
			ID string `json:"id"`
		} `json:"project"`
		Content *struct {
			Typename   string `json:"__typename"`
			Number     int    `json:"number"`
			Title      string `json:"title"`
			IssueState string `json:"issueState"`
			PRState    string `json:"prState"`
			URL        string `json:"url"`
			Repository *struct {
				NameWithOwner string `json:"nameWithOwner"`
			} `json:"repository"`
			Author    *gqlAuthor `json:"author"`
			Assignees *struct {
				Nodes []*struct {
					Login string `json:"login"`
				} `json:"nodes"`
			} `json:"assignees"`
			Labels *struct {
				Nodes []*struct {
					Name string `json:"name"`
				} `json:"nodes"`
			} `json:"labels"`
		} `json:"content"`
		FieldValues struct {
			Nodes []*struct {
				Name      *string  `json:"name"`
				Title     *string  `json:"title"`
				StartDate string   `json:"startDate"`
				Date      *string  `json:"date"`
				Number    *float64 `json:"number"`
				Text      *string  `json:"text"`
				Field     *struct {
					Name     string `json:"name"`
					DataType string `json:"dataType"`
				} `json:"field"`
			} `json:"nodes"`
		} `json:"fieldValues"`
	}
	gqlOwnerProjects struct {
		ProjectsV2 struct {
			Nodes    []*gqlProject `json:"nodes"`
			PageInfo struct {
				HasNextPage bool   `json:"hasNextPage"`
				EndCursor   string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"projectsV2"`
	}
)

func iterations(in []gqlIteration) []ProjectIteration {
	out := make([]ProjectIteration, 0, len(in))
	for _, i := range in {
		out = append(out, ProjectIteration(i))
	}
	return out
}

func (g *gqlProject) project(kind string) ProjectV2 {
	p := ProjectV2{ID: g.ID, Number: g.Number, Title: g.Title, URL: g.URL, Closed: g.Closed, OwnerKind: kind}
	if g.ShortDescription != nil {
		p.Description = *g.ShortDescription
	}
	for _, f := range g.Fields.Nodes {
		if f == nil {
			continue
		}
		pf := ProjectField{ID: f.ID, Name: f.Name, DataType: f.DataType}
		for _, o := range f.Options {
			pf.Options = append(pf.Options, ProjectOption{ID: o.ID, Name: o.Name})
		}
		if f.Configuration != nil {
			pf.Iterations = iterations(f.Configuration.Iterations)
			pf.Completed = iterations(f.Configuration.CompletedIterations)
		}
		p.Fields = append(p.Fields, pf)
	}
	return p
}

func (g *gqlItem) item() ProjectItem {
	it := ProjectItem{ID: g.ID, Type: g.Type, Archived: g.IsArchived}
	if g.Project != nil {
		it.ProjectID = g.Project.ID
	}
	if c := g.Content; c != nil {
		it.Number, it.Title, it.URL = c.Number, c.Title, c.URL
		it.State = c.IssueState + c.PRState
		if c.Repository != nil {
			it.Repo = c.Repository.NameWithOwner
		}
		it.Author = c.Author.login()
		if c.Assignees != nil {
			for _, a := range c.Assignees.Nodes {
				if a != nil {
					it.Assignees = append(it.Assignees, a.Login)
				}
			}
		}
		if c.Labels != nil {
			for _, l := range c.Labels.Nodes {
				if l != nil {
					it.Labels = append(it.Labels, l.Name)
				}
			}
		}
	}
	for _, v := range g.FieldValues.Nodes {
		if v == nil || v.Field == nil {
			continue
		}
		pv := ProjectValue{Field: v.Field.Name, DataType: v.Field.DataType}
		switch v.Field.DataType {
		case "SINGLE_SELECT":
			if v.Name == nil {
				continue
			}
			pv.Option = *v.Name
		case "ITERATION":
			if v.Title == nil {
				continue
			}
			pv.Iteration, pv.IterationStart = *v.Title, v.StartDate
		case "DATE":
			if v.Date == nil {
				continue
			}
			pv.Date = *v.Date
		case "NUMBER":
			if v.Number == nil {
				continue
			}
			pv.Number = v.Number
		case "TEXT":
			if v.Text == nil {
				continue
			}
			pv.Text = *v.Text
		default: // the title and other built-in fields are the content's own
			continue
		}
		it.Values = append(it.Values, pv)
	}
	return it
}

// notFoundAt reports whether err holds a GraphQL NOT_FOUND error at
// exactly path.
func notFoundAt(err error, path ...string) bool {
	var e *Error
	if !errors.As(err, &e) {
		return false
	}
	for _, ge := range e.GraphQL {
		if ge.Type != "NOT_FOUND" || len(ge.Path) != len(path) {
			continue
		}
		same := true
		for i, p := range ge.Path {
			if strings.Trim(string(p), `"`) != path[i] {
				same = false
			}
		}
		if same {
			return true
		}
	}
	return false
}

// onlyNotFoundUnder reports whether every GraphQL error of err is a
// NOT_FOUND under root: the rest of the answer is whole.
func onlyNotFoundUnder(err error, root string) bool {
	var e *Error
	if !errors.As(err, &e) || len(e.GraphQL) == 0 {
		return false
	}
	for _, ge := range e.GraphQL {
		if ge.Type != "NOT_FOUND" || len(ge.Path) == 0 || strings.Trim(string(ge.Path[0]), `"`) != root {
			return false
		}
	}
	return true
}

// ownerKinds is the order owners are tried in: the kind known, or an
// organization first and then a user, as GitHub's own clients do.
func ownerKinds(kind string) []string {
	if kind != "" {
		return []string{kind}
	}
	return []string{ProjectOwnerOrg, ProjectOwnerUser}
}

// fineGrainedRefusal is the answer for a user's board asked for with a
// fine-grained token: GitHub does not let those reach user-owned
// projects at all, so the board is not missing, the credential cannot
// see it.
func fineGrainedRefusal(owner string) *Error {
	return &Error{Code: InsufficientScope, Status: 200, RequiredScopes: []string{"project"},
		Message: fmt.Sprintf("%s is a user: GitHub does not let fine-grained personal access tokens reach user-owned projects; a classic token with the project scope (read:project to read) or a GitHub App user token can", owner)}
}

// userBoardRefused turns what GitHub answers a fine-grained token for a
// user's board (nothing there, or forbidden) into fineGrainedRefusal.
func (c *Client) userBoardRefused(kind, owner string, err error) error {
	var e *Error
	if kind == ProjectOwnerUser && c.FineGrained() && (err == nil || errors.As(err, &e) && (e.Code == NotFound || e.Code == InsufficientScope)) {
		return fineGrainedRefusal(owner)
	}
	return err
}

func projectNotFound(owner string, number int) *Error {
	return &Error{Code: NotFound, Status: 200, Message: fmt.Sprintf("%s has no project #%d visible to this credential", owner, number)}
}

// ListProjectsV2 lists a page of owner's projects with their fields,
// matching query when given (GitHub's project search). kind names the
// owner's kind when known; else an organization is tried first, then a
// user.
//
// POST /graphql
func (c *Client) ListProjectsV2(ctx context.Context, kind, owner, query, after string, first int) (ProjectPage, error) {
	if err := CheckOwner(owner); err != nil {
		return ProjectPage{}, invalidArgument(false, err.Error())
	}
	vars := map[string]any{"owner": owner, "first": first}
	if after != "" {
		vars["after"] = after
	}
	if query != "" {
		vars["q"] = query
	}
	var err error
	for _, k := range ownerKinds(kind) {
		if k == ProjectOwnerUser && c.FineGrained() {
			// Not asked: GitHub shows such a token no user's boards.
			return ProjectPage{}, fineGrainedRefusal(owner)
		}
		doc := `query($owner: String!, $first: Int!, $after: String, $q: String) { owner: ` + k + `(login: $owner) {
  projectsV2(first: $first, after: $after, query: $q, orderBy: {field: NUMBER, direction: ASC}) {
    nodes { ...ghgProject } pageInfo { hasNextPage endCursor } } } }` + projectFragments
		var data struct {
			Owner *gqlOwnerProjects `json:"owner"`
		}
		if err = c.Query(ctx, doc, vars, &data); err != nil {
			if notFoundAt(err, "owner") {
				continue
			}
			return ProjectPage{}, c.userBoardRefused(k, owner, err)
		}
		if data.Owner == nil {
			continue
		}
		page := ProjectPage{OwnerKind: k, EndCursor: data.Owner.ProjectsV2.PageInfo.EndCursor, HasNext: data.Owner.ProjectsV2.PageInfo.HasNextPage}
		for _, p := range data.Owner.ProjectsV2.Nodes {
			if p != nil {
				page.Projects = append(page.Projects, p.project(k))
			}
		}
		return page, nil
	}
	return ProjectPage{}, &Error{Code: NotFound, Status: 200, Message: fmt.Sprintf("%s is not an organization or user visible to this credential", owner)}
}

// ProjectV2 reads owner's project number with its fields; with issue set,
// the same query reads the issue's node id and its item on the board (one
// request). kind as for ListProjectsV2.
//
// POST /graphql
func (c *Client) ProjectV2(ctx context.Context, kind, owner string, number int, issue *IssueRef) (*ProjectV2, *IssueOnProject, error) {
	if err := CheckOwner(owner); err != nil {
		return nil, nil, invalidArgument(false, err.Error())
	}
	vars := map[string]any{"owner": owner, "number": number}
	params, issuePart := "", ""
	if issue != nil {
		if err := checkRepo(issue.Owner, issue.Repo); err != nil {
			return nil, nil, invalidArgument(false, err.Error())
		}
		vars["ro"], vars["rn"], vars["in"] = issue.Owner, issue.Repo, issue.Number
		params = ", $ro: String!, $rn: String!, $in: Int!"
		issuePart = ` repository(owner: $ro, name: $rn) { issue(number: $in) { id author { login __typename } projectItems(first: 50) { nodes { ...ghgItem } } } }`
	}
	for _, k := range ownerKinds(kind) {
		if k == ProjectOwnerUser && c.FineGrained() {
			// Not asked: GitHub shows such a token no user's boards.
			return nil, nil, fineGrainedRefusal(owner)
		}
		doc := `query($owner: String!, $number: Int!` + params + `) { owner: ` + k + `(login: $owner) { projectV2(number: $number) { ...ghgProject } }` +
			issuePart + ` }` + projectFragments
		if issue != nil {
			doc += itemFragments
		}
		var data struct {
			Owner *struct {
				ProjectV2 *gqlProject `json:"projectV2"`
			} `json:"owner"`
			Repository *struct {
				Issue *struct {
					ID           string     `json:"id"`
					Author       *gqlAuthor `json:"author"`
					ProjectItems struct {
						Nodes []*gqlItem `json:"nodes"`
					} `json:"projectItems"`
				} `json:"issue"`
			} `json:"repository"`
		}
		err := c.Query(ctx, doc, vars, &data)
		if err != nil && !onlyNotFoundUnder(err, "repository") {
			if notFoundAt(err, "owner") {
				continue
			}
			if notFoundAt(err, "owner", "projectV2") {
				return nil, nil, c.userBoardRefused(k, owner, projectNotFound(owner, number))
			}
			return nil, nil, c.userBoardRefused(k, owner, err)
		}
		if data.Owner == nil {
			continue
		}
		if data.Owner.ProjectV2 == nil {
			return nil, nil, c.userBoardRefused(k, owner, projectNotFound(owner, number))
		}
		p := data.Owner.ProjectV2.project(k)
		if issue == nil {
			return &p, nil, nil
		}
		if data.Repository == nil || data.Repository.Issue == nil {
			// The board answered; the issue did not.
			return &p, nil, err
		}
		on := &IssueOnProject{IssueID: data.Repository.Issue.ID, IssueAuthor: data.Repository.Issue.Author.login()}
		for _, n := range data.Repository.Issue.ProjectItems.Nodes {
			if n != nil && n.Project != nil && n.Project.ID == p.ID {
				it := n.item()
				on.Item = &it
			}
		}
		return &p, on, nil
	}
	return nil, nil, projectNotFound(owner, number)
}

// ProjectV2Items lists a page of a board's items, filtered by query
// (GitHub's project filter syntax) when given. Each item says whether it
// is archived.
//
// POST /graphql
func (c *Client) ProjectV2Items(ctx context.Context, kind, owner string, number int, query, after string, first int) (ProjectItemPage, error) {
	if err := CheckOwner(owner); err != nil {
		return ProjectItemPage{}, invalidArgument(false, err.Error())
	}
	vars := map[string]any{"owner": owner, "number": number, "first": first}
	if after != "" {
		vars["after"] = after
	}
	if query != "" {
		vars["q"] = query
	}
	for _, k := range ownerKinds(kind) {
		if k == ProjectOwnerUser && c.FineGrained() {
			// Not asked: GitHub shows such a token no user's boards.
			return ProjectItemPage{}, fineGrainedRefusal(owner)
		}
		doc := `query($owner: String!, $number: Int!, $first: Int!, $after: String, $q: String) { owner: ` + k + `(login: $owner) { projectV2(number: $number) {
  items(first: $first, after: $after, query: $q) { totalCount pageInfo { hasNextPage endCursor } nodes { ...ghgItem } } } } }` + itemFragments
		var data struct {
			Owner *struct {
				ProjectV2 *struct {
					Items struct {
						TotalCount int `json:"totalCount"`
						PageInfo   struct {
							HasNextPage bool   `json:"hasNextPage"`
							EndCursor   string `json:"endCursor"`
						} `json:"pageInfo"`
						Nodes []*gqlItem `json:"nodes"`
					} `json:"items"`
				} `json:"projectV2"`
			} `json:"owner"`
		}
		if err := c.Query(ctx, doc, vars, &data); err != nil {
			if notFoundAt(err, "owner") {
				continue
			}
			if notFoundAt(err, "owner", "projectV2") {
				return ProjectItemPage{}, c.userBoardRefused(k, owner, projectNotFound(owner, number))
			}
			return ProjectItemPage{}, c.userBoardRefused(k, owner, err)
		}
		if data.Owner == nil {
			continue
		}
		if data.Owner.ProjectV2 == nil {
			return ProjectItemPage{}, c.userBoardRefused(k, owner, projectNotFound(owner, number))
		}
		its := data.Owner.ProjectV2.Items
		page := ProjectItemPage{Total: its.TotalCount, EndCursor: its.PageInfo.EndCursor, HasNext: its.PageInfo.HasNextPage}
		for _, n := range its.Nodes {
			if n != nil {
				it := n.item()
				noteNamedRead(ctx, it.Repo)
				page.Items = append(page.Items, it)
			}
		}
		return page, nil
	}
	return ProjectItemPage{}, projectNotFound(owner, number)
}

// ProjectV2ItemByID reads one item by its node id; nil when there is no
// such item.
//
// POST /graphql
func (c *Client) ProjectV2ItemByID(ctx context.Context, id string) (*ProjectItem, error) {
	doc := `query($id: ID!) { node(id: $id) { ... on ProjectV2Item { ...ghgItem } } }` + itemFragments
	var data struct {
		Node *gqlItem `json:"node"`
	}
	if err := c.Query(ctx, doc, map[string]any{"id": id}, &data); err != nil {
		if notFoundAt(err, "node") {
			return nil, nil
		}
		return nil, err
	}
	if data.Node == nil || data.Node.ID == "" {
		return nil, nil
	}
	it := data.Node.item()
	noteNamedRead(ctx, it.Repo)
	return &it, nil
}

// ProjectFieldSet is one field value to write: exactly one of the value
// parts is set, as GitHub's ProjectV2FieldValue input takes it.
type ProjectFieldSet struct {
	FieldID string
	Text    *string
	Number  *float64
	Date    string
	Option  string // option id
	IterID  string // iteration id
}

func (f ProjectFieldSet) value() map[string]any {
	switch {
	case f.Text != nil:
		return map[string]any{"text": *f.Text}
	case f.Number != nil:
		return map[string]any{"number": *f.Number}
	case f.Date != "":
		return map[string]any{"date": f.Date}
	case f.Option != "":
		return map[string]any{"singleSelectOptionId": f.Option}
	default:
		return map[string]any{"iterationId": f.IterID}
	}
}

// settleItem finishes a mutation that answers with the item.
func settleItem(g *gqlItem, what string) (*ProjectItem, error) {
	if g == nil || g.ID == "" {
		return nil, &Error{Code: MalformedResponse, Status: 200, Settlement: Indeterminate, Message: "GitHub's " + what + " answer held no item"}
	}
	it := g.item()
	return &it, nil
}

// AddProjectV2Item puts content (an issue's or pull request's node id) on
// a board and returns its item; GitHub answers with the existing item
// when the content is already there.
//
// POST /graphql
func (c *Client) AddProjectV2Item(ctx context.Context, projectID, contentID string) (*ProjectItem, error) {
	doc := `mutation($p: ID!, $c: ID!) { addProjectV2ItemById(input: {projectId: $p, contentId: $c}) { item { ...ghgItem } } }` + itemFragments
	var out struct {
		Add *struct {
			Item *gqlItem `json:"item"`
		} `json:"addProjectV2ItemById"`
	}
	if _, err := c.Mutate(ctx, doc, map[string]any{"p": projectID, "c": contentID}, &out); err != nil {
		return nil, err
	}
	if out.Add == nil {
		return settleItem(nil, "addProjectV2ItemById")
	}
	return settleItem(out.Add.Item, "addProjectV2ItemById")
}

// SetProjectV2Fields writes sets to an item in one request: GitHub runs
// the mutations of a document in order, and the last answers with the
// item as it then stands. applied is how many of sets were written when
// a later one failed.
//
// POST /graphql
func (c *Client) SetProjectV2Fields(ctx context.Context, projectID, itemID string, sets []ProjectFieldSet) (it *ProjectItem, applied int, err error) {
	var b strings.Builder
	b.WriteString("mutation($p: ID!, $i: ID!")
	vars := map[string]any{"p": projectID, "i": itemID}
	for n := range sets {
		fmt.Fprintf(&b, ", $f%d: ID!, $v%d: ProjectV2FieldValue!", n, n)
		vars[fmt.Sprintf("f%d", n)] = sets[n].FieldID
		vars[fmt.Sprintf("v%d", n)] = sets[n].value()
	}
	b.WriteString(") {")
	for n := range sets {
		sel := "{ id }"
		if n == len(sets)-1 {
			sel = "{ ...ghgItem }"
		}
		fmt.Fprintf(&b, " s%d: updateProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f%d, value: $v%d}) { projectV2Item %s }", n, n, n, sel)
	}
	b.WriteString(" }" + itemFragments)
	var out map[string]*struct {
		Item *gqlItem `json:"projectV2Item"`
	}
	_, err = c.Mutate(ctx, b.String(), vars, &out)
	for n := range sets {
		if r := out[fmt.Sprintf("s%d", n)]; r != nil && r.Item != nil {
			applied = n + 1
		}
	}
	if err != nil {
		return nil, applied, err
	}
	last := out[fmt.Sprintf("s%d", len(sets)-1)]
	if last == nil {
		it, err = settleItem(nil, "updateProjectV2ItemFieldValue")
		return it, applied, err
	}
	it, err = settleItem(last.Item, "updateProjectV2ItemFieldValue")
	return it, applied, err
}

// ClearProjectV2Field clears one field of an item and returns the item.
//
// POST /graphql
func (c *Client) ClearProjectV2Field(ctx context.Context, projectID, itemID, fieldID string) (*ProjectItem, error) {
	doc := `mutation($p: ID!, $i: ID!, $f: ID!) { clearProjectV2ItemFieldValue(input: {projectId: $p, itemId: $i, fieldId: $f}) { projectV2Item { ...ghgItem } } }` + itemFragments
	var out struct {
		Clear *struct {
			Item *gqlItem `json:"projectV2Item"`
		} `json:"clearProjectV2ItemFieldValue"`
	}
	if _, err := c.Mutate(ctx, doc, map[string]any{"p": projectID, "i": itemID, "f": fieldID}, &out); err != nil {
		return nil, err
	}
	if out.Clear == nil {
		return settleItem(nil, "clearProjectV2ItemFieldValue")
	}
	return settleItem(out.Clear.Item, "clearProjectV2ItemFieldValue")
}

// ArchiveProjectV2Item archives (or, with archive false, restores) an
// item and returns it.
//
// POST /graphql
func (c *Client) ArchiveProjectV2Item(ctx context.Context, projectID, itemID string, archive bool) (*ProjectItem, error) {
	name := "archiveProjectV2Item"
	if !archive {
		name = "unarchiveProjectV2Item"
	}
	doc := `mutation($p: ID!, $i: ID!) { r: ` + name + `(input: {projectId: $p, itemId: $i}) { item { ...ghgItem } } }` + itemFragments
	var out struct {
		R *struct {
			Item *gqlItem `json:"item"`
		} `json:"r"`
	}
	if _, err := c.Mutate(ctx, doc, map[string]any{"p": projectID, "i": itemID}, &out); err != nil {
		return nil, err
	}
	if out.R == nil {
		return settleItem(nil, name)
	}
	return settleItem(out.R.Item, name)
}

// MoveProjectV2Item places an item right after afterID, or first when
// afterID is "".
//
// POST /graphql
func (c *Client) MoveProjectV2Item(ctx context.Context, projectID, itemID, afterID string) error {
	doc := `mutation($p: ID!, $i: ID!, $a: ID) { updateProjectV2ItemPosition(input: {projectId: $p, itemId: $i, afterId: $a}) { clientMutationId } }`
	vars := map[string]any{"p": projectID, "i": itemID, "a": nil}
	if afterID != "" {
		vars["a"] = afterID
	}
	_, err := c.Mutate(ctx, doc, vars, nil)
	return err
}

// DeleteProjectV2Item removes an item from its board (the issue itself
// stays).
//
// POST /graphql
func (c *Client) DeleteProjectV2Item(ctx context.Context, projectID, itemID string) error {
	doc := `mutation($p: ID!, $i: ID!) { deleteProjectV2Item(input: {projectId: $p, itemId: $i}) { deletedItemId } }`
	_, err := c.Mutate(ctx, doc, map[string]any{"p": projectID, "i": itemID}, nil)
	return err
}

// gqlAuthor is an issue's author as GraphQL names it.
type gqlAuthor struct {
	Login    string `json:"login"`
	Typename string `json:"__typename"`
}

// login is the author's REST login: GraphQL names a bot without the
// "[bot]" REST gives it. A deleted account (nil) has none.
func (a *gqlAuthor) login() string {
	if a == nil {
		return ""
	}
	if a.Typename == "Bot" && !strings.HasSuffix(a.Login, "[bot]") {
		return a.Login + "[bot]"
	}
	return a.Login
}
