package state

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
)

// Teams are groups of an organization's members. The emulator keeps no
// separate membership list for an organization: its members are the
// collaborators of its repositories (whom Association reports as
// MEMBER) and the members of its teams. Every team is visible to the
// organization's members ("closed", GitHub's default) and to nobody else.

// Team is an organization's team.
type Team struct {
	ID          int64
	NodeID      string
	Org         *Account
	Name        string
	Slug        string
	Description *string
	Members     []*Account
	CreatedAt   time.Time
}

var slugUnsafe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`[^a-z0-9_]+`) })

// teamSlug is GitHub's slug for a team name: lower case, runs of other
// characters turned into one hyphen.
func teamSlug(name string) string {
	return strings.Trim(slugUnsafe().ReplaceAllString(strings.ToLower(name), "-"), "-")
}

// AddTeam creates a team in an organization.
func (s *State) AddTeam(org *Account, name string, description *string, members ...*Account) *Team {
	id := s.nextID()
	t := &Team{ID: id, NodeID: NodeID("T", id), Org: org, Name: name, Slug: teamSlug(name),
		Description: description, Members: members, CreatedAt: s.Now()}
	if s.teams == nil {
		s.teams = map[string][]*Team{}
	}
	key := strings.ToLower(org.Login)
	s.teams[key] = append(s.teams[key], t)
	s.nodes[t.NodeID] = t
	return t
}

// Teams lists an organization's teams in creation order.
func (s *State) Teams(org string) []*Team { return s.teams[strings.ToLower(org)] }

// FindTeam finds an organization's team by slug.
func (s *State) FindTeam(org, slug string) *Team {
	for _, t := range s.Teams(org) {
		if strings.EqualFold(t.Slug, slug) {
			return t
		}
	}
	return nil
}

// IsOrgMember reports whether an account belongs to an organization.
func (s *State) IsOrgMember(org, a *Account) bool {
	if a == nil || !org.IsOrg {
		return false
	}
	for _, r := range s.Repos() {
		if r.Owner == org && slices.ContainsFunc(r.Collaborators, func(l string) bool { return strings.EqualFold(l, a.Login) }) {
			return true
		}
	}
	return slices.ContainsFunc(s.Teams(org.Login), func(t *Team) bool { return slices.Contains(t.Members, a) })
}

// OrganizationsOf lists the organizations an account belongs to, in
// creation order.
func (s *State) OrganizationsOf(a *Account) []*Account {
	var out []*Account
	for _, org := range s.AccountsInOrder() {
		if s.IsOrgMember(org, a) {
			out = append(out, org)
		}
	}
	return out
}
