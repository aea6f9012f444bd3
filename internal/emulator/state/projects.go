package state

import (
	"slices"
	"strings"
	"time"
)

// Projects (v2): boards owned by an organization or a user, numbered per
// owner from 1. A board has fields in position order: the built-in ones
// every GitHub project has (Title, Assignees, Status, Labels, Linked pull
// requests, Milestone, Repository, Reviewers), whose values for an issue
// come from the issue itself (Status excepted, which is a single-select
// kept on the item), and custom fields of five kinds (TEXT, NUMBER, DATE,
// SINGLE_SELECT, ITERATION). Items are issues, pull requests or draft
// issues, in position order; an item holds at most one value per custom
// field. The mutations (projects_mutations.go) keep these invariants.

// Project is one Projects (v2) board.
type Project struct {
	ID               int64
	NodeID           string
	Owner            *Account
	Number           int
	Title            string
	ShortDescription *string
	Readme           *string
	Public           bool
	Closed           bool
	ClosedAt         *time.Time
	Creator          *Account
	CreatedAt        time.Time
	UpdatedAt        time.Time
	// Roles are the people given a role on the board, by lower-case
	// login. A user's own board is theirs to administer; other members
	// of an owning organization may read it; anyone may read a public
	// one.
	Roles map[string]Permission
	// Repos are the repositories linked to the board
	// (linkProjectV2ToRepository), in the order they were linked.
	Repos []*Repo
	// Teams are the teams linked to an organization's board
	// (linkProjectV2ToTeam), in the order they were linked.
	Teams []*Team
	// Template marks an organization's board as one of its templates
	// (markProjectV2AsTemplate).
	Template bool
	Fields   []*ProjectField
	// Items are in the board's manual order (updateProjectV2ItemPosition).
	Items []*ProjectItem
}

// Built-in field data types, whose values the item's content carries.
var builtinFieldTypes = []string{"TITLE", "ASSIGNEES", "LABELS", "LINKED_PULL_REQUESTS", "MILESTONE", "REPOSITORY", "REVIEWERS"}

// ProjectField is one field of a board.
type ProjectField struct {
	ID        int64
	NodeID    string
	Project   *Project
	Name      string
	DataType  string // ProjectV2FieldType
	Options   []*ProjectOption
	Iteration *IterationConfig
	CreatedAt time.Time
	UpdatedAt time.Time
}

// Builtin reports whether the field's values come from the item's content.
func (f *ProjectField) Builtin() bool { return slices.Contains(builtinFieldTypes, f.DataType) }

// ProjectOption is one choice of a single-select field. Its id is an
// eight-hex-digit string unique within the field, as GitHub's are.
type ProjectOption struct {
	ID          string
	Name        string
	Color       string // ProjectV2SingleSelectFieldOptionColor
	Description string
}

// IterationConfig is an iteration field's schedule: the iterations still
// to finish (current first) and the completed ones (most recent first).
type IterationConfig struct {
	Duration   int // days
	StartDay   int // 1 = Monday ... 7 = Sunday
	Iterations []*Iteration
	Completed  []*Iteration
}

// Iteration is one iteration of an iteration field.
type Iteration struct {
	ID        string
	Title     string
	StartDate string // YYYY-MM-DD
	Duration  int    // days
}

// Contains reports whether day (YYYY-MM-DD) falls within the iteration.
func (it *Iteration) Contains(day string) bool {
	start, err := time.Parse(time.DateOnly, it.StartDate)
	if err != nil {
		return false
	}
	d, err := time.Parse(time.DateOnly, day)
	if err != nil {
		return false
	}
	return !d.Before(start) && d.Before(start.AddDate(0, 0, it.Duration))
}

// AllIterations lists the field's iterations, completed ones included.
func (f *ProjectField) AllIterations() []*Iteration {
	if f.Iteration == nil {
		return nil
	}
	return append(slices.Clone(f.Iteration.Iterations), f.Iteration.Completed...)
}

// FindOption finds a single-select option by id.
func (f *ProjectField) FindOption(id string) *ProjectOption {
	for _, o := range f.Options {
		if o.ID == id {
			return o
		}
	}
	return nil
}

// FindIteration finds an iteration by id, completed ones included.
func (f *ProjectField) FindIteration(id string) *Iteration {
	for _, it := range f.AllIterations() {
		if it.ID == id {
			return it
		}
	}
	return nil
}

// DraftIssue is a draft issue: an item that lives only on its board.
type DraftIssue struct {
	ID        int64
	NodeID    string
	Title     string
	Body      string
	Assignees []*Account
	Creator   *Account
	CreatedAt time.Time
	UpdatedAt time.Time
	Item      *ProjectItem
}

// ProjectItem is one card of a board: an issue or pull request (Issue) or
// a draft issue (Draft).
type ProjectItem struct {
	ID         int64
	NodeID     string
	Project    *Project
	Issue      *Issue
	Draft      *DraftIssue
	Archived   bool
	ArchivedAt *time.Time
	Creator    *Account
	CreatedAt  time.Time
	UpdatedAt  time.Time
	// Values are the item's values of custom fields and Status, at most
	// one per field, in the order they were first set.
	Values []*ProjectValue
}

// Type is the item's ProjectV2ItemType. An item whose issue was deleted
// is REDACTED, as GitHub shows content the viewer can no longer see.
func (it *ProjectItem) Type() string {
	switch {
	case it.Draft != nil:
		return "DRAFT_ISSUE"
	case it.Issue == nil || it.Issue.Deleted:
		return "REDACTED"
	case it.Issue.IsPull:
		return "PULL_REQUEST"
	}
	return "ISSUE"
}

// Value is the item's value of a field, nil when unset.
func (it *ProjectItem) Value(f *ProjectField) *ProjectValue {
	for _, v := range it.Values {
		if v.Field == f {
			return v
		}
	}
	return nil
}

// ProjectValue is an item's value of one field: Text for TEXT, Number for
// NUMBER, Date (YYYY-MM-DD) for DATE, Option for SINGLE_SELECT, Iteration
// for ITERATION.
type ProjectValue struct {
	ID        int64
	NodeID    string
	Item      *ProjectItem
	Field     *ProjectField
	Text      string
	Number    float64
	Date      string
	Option    *ProjectOption
	Iteration *Iteration
	Creator   *Account
	CreatedAt time.Time
	UpdatedAt time.Time
}

// ProjectPermission is what a viewer may do on a board.
func (s *State) ProjectPermission(p *Project, viewer *Account) Permission {
	if viewer == nil {
		return PermNone
	}
	if p.Owner == viewer {
		return PermAdmin
	}
	// An organization's owners can always view and manage every board of
	// the organization, whatever its roles say.
	if p.Owner.IsOrg && s.OrgRole(p.Owner, viewer.Login) == OrgRoleOwner {
		return PermAdmin
	}
	if r, ok := p.Roles[strings.ToLower(viewer.Login)]; ok {
		return r
	}
	if p.Public || (p.Owner.IsOrg && s.IsOrgMember(p.Owner, viewer)) {
		return PermRead
	}
	return PermNone
}

// TokenProjectPermission is what a request made with t, as viewer, may do
// on a board. A fine-grained token can do nothing on a user's board, which
// no such token can be granted. A GitHub App installation token reaches
// its installation's organization boards at its organization_projects
// level, and another account's only where they are public (GitHub offers
// Apps no permission for a user's boards).
func (s *State) TokenProjectPermission(t *Token, viewer *Account, p *Project) Permission {
	switch {
	case t.FineGrained && !p.Owner.IsOrg:
		return PermNone
	case t.App != nil:
		if p.Owner.IsOrg && strings.EqualFold(p.Owner.Login, t.App.Installation.Account) {
			switch t.App.Permissions["organization_projects"] {
			case "admin":
				return PermAdmin
			case "write":
				return PermWrite
			case "read":
				return PermRead
			}
		}
		if p.Public {
			return PermRead
		}
		return PermNone
	}
	return s.ProjectPermission(p, viewer)
}

// projectKey indexes an owner's boards.
func projectKey(owner *Account) string { return strings.ToLower(owner.Login) }

// AddProject creates a board for owner, numbered after every board it
// has had, with
// the built-in fields and a Status field (Todo, In progress, Done) as a
// new GitHub project has.
func (s *State) AddProject(owner, creator *Account, title string, shortDescription *string, public bool) *Project {
	if s.projects == nil {
		s.projects = map[string][]*Project{}
		s.projectNumbers = map[string]int{}
	}
	id := s.nextID()
	now := s.Now()
	key := projectKey(owner)
	s.projectNumbers[key]++
	p := &Project{ID: id, NodeID: NodeID("PVT", id), Owner: owner, Number: s.projectNumbers[key], Title: title,
		ShortDescription: shortDescription, Public: public, Creator: creator, CreatedAt: now, UpdatedAt: now}
	if owner.IsOrg && creator != nil {
		// GitHub makes whoever creates an organization's board its admin.
		p.Roles = map[string]Permission{strings.ToLower(creator.Login): PermAdmin}
	}
	s.projects[key] = append(s.projects[key], p)
	s.nodes[p.NodeID] = p
	for _, b := range []struct{ name, typ string }{
		{"Title", "TITLE"}, {"Assignees", "ASSIGNEES"}, {"Status", "SINGLE_SELECT"}, {"Labels", "LABELS"},
		{"Linked pull requests", "LINKED_PULL_REQUESTS"}, {"Milestone", "MILESTONE"}, {"Repository", "REPOSITORY"},
		{"Reviewers", "REVIEWERS"},
	} {
		f := s.AddProjectField(p, b.name, b.typ)
		if b.name == "Status" {
			f.Options = []*ProjectOption{
				{ID: optionID(p, f, 0), Name: "Todo", Color: "GREEN", Description: "This item hasn't been started"},
				{ID: optionID(p, f, 1), Name: "In progress", Color: "YELLOW", Description: "This is actively being worked on"},
				{ID: optionID(p, f, 2), Name: "Done", Color: "PURPLE", Description: "This has been completed"},
			}
		}
	}
	return p
}

// optionID derives a stable eight-hex-digit option id from the field's
// database id and the option's position.
func optionID(p *Project, f *ProjectField, i int) string {
	const hex = "0123456789abcdef"
	n := uint32(f.ID*2654435761) ^ uint32(p.ID*40503) ^ uint32(i*97+1)*2246822519
	b := make([]byte, 8)
	for k := 7; k >= 0; k-- {
		b[k] = hex[n&15]
		n >>= 4
	}
	return string(b)
}

// AddProjectField adds a field at the end of the board's fields.
// dataType is a ProjectV2FieldType; a SINGLE_SELECT field gets options
// with AddProjectOption, an ITERATION field its schedule in Iteration.
func (s *State) AddProjectField(p *Project, name, dataType string) *ProjectField {
	id := s.nextID()
	prefix := "PVTF"
	switch dataType {
	case "SINGLE_SELECT":
		prefix = "PVTSSF"
	case "ITERATION":
		prefix = "PVTIF"
	}
	f := &ProjectField{ID: id, NodeID: NodeID(prefix, id), Project: p, Name: name, DataType: dataType,
		CreatedAt: s.Now(), UpdatedAt: s.Now()}
	p.Fields = append(p.Fields, f)
	s.nodes[f.NodeID] = f
	return f
}

// AddProjectOption appends an option to a single-select field.
func (s *State) AddProjectOption(f *ProjectField, name, color, description string) *ProjectOption {
	o := &ProjectOption{ID: optionID(f.Project, f, len(f.Options)), Name: name, Color: color, Description: description}
	f.Options = append(f.Options, o)
	return o
}

// Projects lists an owner's boards by number.
func (s *State) Projects(owner *Account) []*Project { return s.projects[projectKey(owner)] }

// Project finds an owner's board by number.
func (s *State) Project(owner *Account, number int) *Project {
	for _, p := range s.projects[projectKey(owner)] {
		if p.Number == number {
			return p
		}
	}
	return nil
}

// FindField finds a board's field by name, case-insensitively, as
// GitHub's ProjectV2.field(name:) does.
func (p *Project) FindField(name string) *ProjectField {
	for _, f := range p.Fields {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// ItemOf finds the board's item for an issue or pull request.
func (p *Project) ItemOf(is *Issue) *ProjectItem {
	for _, it := range p.Items {
		if it.Issue == is {
			return it
		}
	}
	return nil
}

// ItemByID finds an item by database id.
func (p *Project) ItemByID(id int64) *ProjectItem {
	for _, it := range p.Items {
		if it.ID == id {
			return it
		}
	}
	return nil
}

// FieldByID finds a field by database id.
func (p *Project) FieldByID(id int64) *ProjectField {
	for _, f := range p.Fields {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// ProjectItemsOf lists the items of an issue or pull request across every
// board, in board then position order.
func (s *State) ProjectItemsOf(is *Issue) []*ProjectItem {
	var out []*ProjectItem
	for _, acc := range s.projectOwners() {
		for _, p := range s.projects[acc] {
			if it := p.ItemOf(is); it != nil {
				out = append(out, it)
			}
		}
	}
	return out
}

// projectOwners lists the keys of owners with boards, sorted, so
// ProjectItemsOf answers in a stable order.
func (s *State) projectOwners() []string {
	keys := make([]string, 0, len(s.projects))
	for k := range s.projects {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// LinkedPullRequests are the pull requests linked to an issue, which a
// board's "Linked pull requests" field shows: those whose closing keywords
// name it, open, closed or merged, in any repository. A pull request has
// none: GitHub links pull requests to issues, not to each other.
func (s *State) LinkedPullRequests(is *Issue) []*Issue {
	if is.IsPull {
		return nil
	}
	var out []*Issue
	for _, repo := range s.Repos() {
		for _, pr := range repo.Issues {
			if pr.IsPull && !pr.Deleted && Closes(pr, is) {
				out = append(out, pr)
			}
		}
	}
	return out
}
