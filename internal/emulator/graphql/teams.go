package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// Teams in GraphQL: User.organizations, Organization.teams and .team, and
// a team's members, with the visibility state/teams.go describes.

type teamsArgs struct {
	connArgs
	UserLogins []string `json:"userLogins"`
	Query      *string  `json:"query"`
}

type teamMembersArgs struct {
	connArgs
	Query *string `json:"query"`
}

type slugArgs struct {
	Slug string `json:"slug"`
}

// seesTeams reports whether the caller may see an organization's teams.
func (x *gqlContext) seesTeams(org *state.Account) bool { return x.st.IsOrgMember(org, x.c.Viewer) }

func registerTeams(r *resolvers) {
	objectType(r, func(*state.Team) string { return "Team" })
	resolve(r, "Team.id", func(_ *gqlContext, t *state.Team) (any, error) { return t.NodeID, nil })
	resolve(r, "Team.databaseId", func(_ *gqlContext, t *state.Team) (any, error) { return t.ID, nil })
	resolve(r, "Team.name", func(_ *gqlContext, t *state.Team) (any, error) { return t.Name, nil })
	resolve(r, "Team.slug", func(_ *gqlContext, t *state.Team) (any, error) { return t.Slug, nil })
	resolve(r, "Team.description", func(_ *gqlContext, t *state.Team) (any, error) { return t.Description, nil })
	resolve(r, "Team.organization", func(_ *gqlContext, t *state.Team) (any, error) { return t.Org, nil })
	resolve(r, "Team.createdAt", func(_ *gqlContext, t *state.Team) (any, error) { return t.CreatedAt, nil })
	resolve(r, "Team.url", func(x *gqlContext, t *state.Team) (any, error) {
		return x.webURL("/orgs/" + t.Org.Login + "/teams/" + t.Slug), nil
	})
	resolveArgs(r, "Team.members", func(x *gqlContext, t *state.Team, a teamMembersArgs) (any, error) {
		list := slices.Clone(t.Members)
		if a.Query != nil && *a.Query != "" {
			list = slices.DeleteFunc(list, func(u *state.Account) bool { return !wire.ContainsFold(*a.Query, u.Login, u.Name) })
		}
		return pageOf(x, list, a.connArgs)
	})

	resolveArgs(r, "Organization.team", func(x *gqlContext, org *state.Account, a slugArgs) (any, error) {
		if t := x.st.FindTeam(org.Login, a.Slug); t != nil && x.seesTeams(org) {
			return t, nil
		}
		return nil, nil
	})
	resolveArgs(r, "Organization.teams", func(x *gqlContext, org *state.Account, a teamsArgs) (any, error) {
		var list []*state.Team
		if x.seesTeams(org) {
			for _, t := range x.st.Teams(org.Login) {
				if len(a.UserLogins) > 0 && !slices.ContainsFunc(t.Members, func(u *state.Account) bool {
					return slices.ContainsFunc(a.UserLogins, func(l string) bool { return strings.EqualFold(l, u.Login) })
				}) {
					continue
				}
				if a.Query != nil && *a.Query != "" && !wire.ContainsFold(*a.Query, t.Name, t.Slug) {
					continue
				}
				list = append(list, t)
			}
		}
		return pageOf(x, list, a.connArgs)
	})
	// Memberships are taken as public, so anyone sees a user's
	// organizations.
	resolveArgs(r, "User.organizations", func(x *gqlContext, u *state.Account, a connArgs) (any, error) {
		return pageOf(x, x.st.OrganizationsOf(u), a)
	})
}
