package state

import (
	"slices"
	"time"
)

// Writes to Projects (v2) boards. The GraphQL and REST layers check the
// caller's rights and the value's fit to the field before calling these;
// these keep the board's invariants (one item per issue, one value per
// field) and its timestamps.

// AddProjectItem puts an issue or pull request on the board, at the end,
// and reports whether it was new; an issue already there keeps its item,
// as GitHub's addProjectV2ItemById returns the existing one.
func (s *State) AddProjectItem(p *Project, is *Issue, actor *Account) (*ProjectItem, bool) {
	if it := p.ItemOf(is); it != nil {
		return it, false
	}
	it := s.newProjectItem(p, actor)
	it.Issue = is
	// GitHub links the issue's repository to the board.
	s.LinkProjectRepo(p, is.Repo)
	return it, true
}

// AddDraftItem puts a draft issue on the board, at the end.
func (s *State) AddDraftItem(p *Project, title, body string, assignees []*Account, actor *Account) *ProjectItem {
	it := s.newProjectItem(p, actor)
	id := s.nextID()
	d := &DraftIssue{ID: id, NodeID: NodeID("DI", id), Title: title, Body: body, Assignees: assignees,
		Creator: actor, CreatedAt: it.CreatedAt, UpdatedAt: it.CreatedAt, Item: it}
	it.Draft = d
	s.nodes[d.NodeID] = d
	return it
}

func (s *State) newProjectItem(p *Project, actor *Account) *ProjectItem {
	id := s.nextID()
	now := s.Now()
	it := &ProjectItem{ID: id, NodeID: NodeID("PVTI", id), Project: p, Creator: actor, CreatedAt: now, UpdatedAt: now}
	p.Items = append(p.Items, it)
	p.UpdatedAt = now
	s.nodes[it.NodeID] = it
	return it
}

// SetProjectValue gives the item its value of v.Field, replacing any
// earlier one. v carries the field and the one member its kind uses.
func (s *State) SetProjectValue(it *ProjectItem, v ProjectValue, actor *Account) *ProjectValue {
	now := s.Now()
	v.Item, v.Creator, v.UpdatedAt = it, actor, now
	if old := it.Value(v.Field); old != nil {
		v.ID, v.NodeID, v.CreatedAt = old.ID, old.NodeID, old.CreatedAt
		*old = v
		s.touchItem(it, now)
		return old
	}
	v.ID = s.nextID()
	v.NodeID = NodeID("PVTFV", v.ID)
	v.CreatedAt = now
	nv := &v
	it.Values = append(it.Values, nv)
	s.nodes[nv.NodeID] = nv
	s.touchItem(it, now)
	return nv
}

// ClearProjectValue removes the item's value of f, if any.
func (s *State) ClearProjectValue(it *ProjectItem, f *ProjectField) {
	if i := slices.IndexFunc(it.Values, func(v *ProjectValue) bool { return v.Field == f }); i >= 0 {
		delete(s.nodes, it.Values[i].NodeID)
		it.Values = slices.Delete(it.Values, i, i+1)
	}
	s.touchItem(it, s.Now())
}

// SetItemArchived archives or restores an item; its values are kept.
func (s *State) SetItemArchived(it *ProjectItem, archived bool) {
	now := s.Now()
	it.Archived = archived
	it.ArchivedAt = nil
	if archived {
		it.ArchivedAt = &now
	}
	s.touchItem(it, now)
}

// MoveProjectItem places an item right after another, or first when after
// is nil.
func (s *State) MoveProjectItem(it, after *ProjectItem) {
	p := it.Project
	p.Items = slices.DeleteFunc(p.Items, func(x *ProjectItem) bool { return x == it })
	at := 0
	if after != nil {
		at = slices.Index(p.Items, after) + 1
	}
	p.Items = slices.Insert(p.Items, at, it)
	s.touchItem(it, s.Now())
}

// DeleteProjectItem removes an item from its board; a draft issue goes
// with it, an issue stays in its repository.
func (s *State) DeleteProjectItem(it *ProjectItem) {
	p := it.Project
	p.Items = slices.DeleteFunc(p.Items, func(x *ProjectItem) bool { return x == it })
	delete(s.nodes, it.NodeID)
	for _, v := range it.Values {
		delete(s.nodes, v.NodeID)
	}
	if it.Draft != nil {
		delete(s.nodes, it.Draft.NodeID)
	}
	p.UpdatedAt = s.Now()
}

func (s *State) touchItem(it *ProjectItem, now time.Time) {
	it.UpdatedAt = now
	it.Project.UpdatedAt = now
}
