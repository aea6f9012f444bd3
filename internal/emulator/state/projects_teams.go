package state

import "slices"

// LinkProjectTeam links a team to a board; linking it again changes
// nothing.
func (s *State) LinkProjectTeam(p *Project, t *Team) {
	p.Teams = linkOnce(p.Teams, t)
	p.UpdatedAt = s.Now()
}

// UnlinkProjectTeam removes a team's link.
func (s *State) UnlinkProjectTeam(p *Project, t *Team) {
	p.Teams = slices.DeleteFunc(p.Teams, func(x *Team) bool { return x == t })
	p.UpdatedAt = s.Now()
}

// SetProjectTemplate marks a board as a template of its organization, or
// unmarks it.
func (s *State) SetProjectTemplate(p *Project, template bool) {
	p.Template = template
	p.UpdatedAt = s.Now()
}
