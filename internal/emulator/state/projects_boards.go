package state

import (
	"slices"
	"strconv"
	"time"
)

// Writes to a board as a whole: its settings, its fields, its linked
// repositories, its draft issues' text, copying and deleting it. The
// GraphQL layer checks the caller's rights first.

// ProjectEdit is what updateProjectV2 changes; a nil part stays as it is.
type ProjectEdit struct {
	Title, ShortDescription, Readme *string
	Public, Closed                  *bool
}

// EditProject applies an edit; closing records when, reopening clears it.
func (s *State) EditProject(p *Project, e ProjectEdit) {
	now := s.Now()
	if e.Title != nil {
		p.Title = *e.Title
	}
	if e.ShortDescription != nil {
		p.ShortDescription = e.ShortDescription
	}
	if e.Readme != nil {
		p.Readme = e.Readme
	}
	if e.Public != nil {
		p.Public = *e.Public
	}
	if e.Closed != nil && *e.Closed != p.Closed {
		p.Closed = *e.Closed
		p.ClosedAt = nil
		if p.Closed {
			p.ClosedAt = &now
		}
	}
	p.UpdatedAt = now
}

// DeleteProject removes a board with its fields, items and values; the
// issues on it stay in their repositories.
func (s *State) DeleteProject(p *Project) {
	key := projectKey(p.Owner)
	s.projects[key] = slices.DeleteFunc(s.projects[key], func(x *Project) bool { return x == p })
	for _, it := range slices.Clone(p.Items) {
		s.DeleteProjectItem(it)
	}
	for _, f := range p.Fields {
		delete(s.nodes, f.NodeID)
	}
	delete(s.nodes, p.NodeID)
}

// CopyProject makes a new board for owner with the source's custom fields
// (options and iteration schedules included) and, when drafts is set, its
// draft issues; issues and pull requests are not copied, as GitHub's
// copyProjectV2 leaves them.
func (s *State) CopyProject(src *Project, owner, actor *Account, title string, drafts bool) *Project {
	p := s.AddProject(owner, actor, title, src.ShortDescription, false)
	p.Readme = src.Readme
	for _, f := range src.Fields {
		if f.Builtin() {
			continue
		}
		nf := p.FindField(f.Name)
		if nf == nil {
			nf = s.AddProjectField(p, f.Name, f.DataType)
		}
		nf.Options = nil
		for _, o := range f.Options {
			s.AddProjectOption(nf, o.Name, o.Color, o.Description)
		}
		if f.Iteration != nil {
			c := *f.Iteration
			nf.Iteration = &c
		}
	}
	if drafts {
		for _, it := range src.Items {
			if d := it.Draft; d != nil {
				s.AddDraftItem(p, d.Title, d.Body, slices.Clone(d.Assignees), actor)
			}
		}
	}
	return p
}

// DeleteProjectField removes a custom field and every item's value of it.
func (s *State) DeleteProjectField(f *ProjectField) {
	p := f.Project
	for _, it := range p.Items {
		if it.Value(f) != nil {
			s.ClearProjectValue(it, f)
		}
	}
	p.Fields = slices.DeleteFunc(p.Fields, func(x *ProjectField) bool { return x == f })
	delete(s.nodes, f.NodeID)
	p.UpdatedAt = s.Now()
}

// DraftEdit is what updateProjectV2DraftIssue changes; a nil part stays.
type DraftEdit struct {
	Title, Body *string
	Assignees   *[]*Account
}

// EditDraftIssue applies an edit to a draft issue.
func (s *State) EditDraftIssue(d *DraftIssue, e DraftEdit) {
	now := s.Now()
	if e.Title != nil {
		d.Title = *e.Title
	}
	if e.Body != nil {
		d.Body = *e.Body
	}
	if e.Assignees != nil {
		d.Assignees = *e.Assignees
	}
	d.UpdatedAt = now
	s.touchItem(d.Item, now)
}

// LinkProjectRepo links a repository to the board; linking twice is one
// link.
func (s *State) LinkProjectRepo(p *Project, r *Repo) {
	p.Repos = linkOnce(p.Repos, r)
	p.UpdatedAt = s.Now()
}

// linkOnce adds v to a board's links unless it is there already.
func linkOnce[T comparable](links []T, v T) []T {
	if slices.Contains(links, v) {
		return links
	}
	return append(links, v)
}

// UnlinkProjectRepo removes a repository's link.
func (s *State) UnlinkProjectRepo(p *Project, r *Repo) {
	p.Repos = slices.DeleteFunc(p.Repos, func(x *Repo) bool { return x == r })
	p.UpdatedAt = s.Now()
}

// AddIterationField adds an iteration field with a schedule: the
// iterations given, or three of duration days from start as GitHub makes
// by default.
func (s *State) AddIterationField(p *Project, name string, duration int, start time.Time, iterations []Iteration) *ProjectField {
	f := s.AddProjectField(p, name, "ITERATION")
	cfg := &IterationConfig{Duration: duration, StartDay: int(start.Weekday()+6)%7 + 1}
	if len(iterations) == 0 {
		for i := range 3 {
			iterations = append(iterations, Iteration{Title: "Iteration " + strconv.Itoa(i+1),
				StartDate: start.AddDate(0, 0, i*duration).Format(time.DateOnly), Duration: duration})
		}
	}
	for i, it := range iterations {
		it.ID = optionID(p, f, i)
		cfg.Iterations = append(cfg.Iterations, &it)
	}
	f.Iteration = cfg
	return f
}
