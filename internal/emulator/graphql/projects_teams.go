package graphql

import (
	"slices"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// An organization's boards can be linked to its teams and marked as its
// templates (gh project link --team, gh project mark-template). Both are
// settings of the board, so they need its admin role, and both exist only
// for organizations: a user's board has neither teams nor templates.
// Whether the viewer may create boards for an organization
// (Organization.viewerCanCreateProjects, which gh reads to offer owners)
// follows createProjectV2: its members may.

type linkTeamArgs struct {
	Input struct {
		ProjectID        gqlID   `json:"projectId"`
		TeamID           gqlID   `json:"teamId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// teamPayload is what linkProjectV2ToTeam and unlinkProjectV2FromTeam
// return.
type teamPayload struct {
	team             *state.Team
	clientMutationID *string
}

func registerProjectTeams(r *resolvers) {
	resolveArgs(r, "Mutation.markProjectV2AsTemplate", func(x *gqlContext, _ root, a projectIDArgs) (any, error) {
		return markTemplate(x, a, true)
	})
	resolveArgs(r, "Mutation.unmarkProjectV2AsTemplate", func(x *gqlContext, _ root, a projectIDArgs) (any, error) {
		return markTemplate(x, a, false)
	})
	for _, t := range []string{"MarkProjectV2AsTemplatePayload", "UnmarkProjectV2AsTemplatePayload"} {
		resolve(r, t+".projectV2", func(_ *gqlContext, p *boardPayload) (any, error) { return p.project, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *boardPayload) (any, error) { return p.clientMutationID, nil })
	}
	resolveArgs(r, "Mutation.linkProjectV2ToTeam", func(x *gqlContext, _ root, a linkTeamArgs) (any, error) {
		return linkTeam(x, a, true)
	})
	resolveArgs(r, "Mutation.unlinkProjectV2FromTeam", func(x *gqlContext, _ root, a linkTeamArgs) (any, error) {
		return linkTeam(x, a, false)
	})
	for _, t := range []string{"LinkProjectV2ToTeamPayload", "UnlinkProjectV2FromTeamPayload"} {
		resolve(r, t+".team", func(_ *gqlContext, p *teamPayload) (any, error) { return p.team, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *teamPayload) (any, error) { return p.clientMutationID, nil })
	}
	resolve(r, "ProjectV2.template", func(_ *gqlContext, p *state.Project) (any, error) { return p.Template, nil })
	// The links read back, in the order they were made.
	resolveArgs(r, "ProjectV2.teams", func(x *gqlContext, p *state.Project, a connArgs) (any, error) {
		return pageOf(x, p.Teams, a)
	})
	resolveArgs(r, "ProjectV2.repositories", func(x *gqlContext, p *state.Project, a connArgs) (any, error) {
		return pageOf(x, slices.DeleteFunc(slices.Clone(p.Repos), func(r *state.Repo) bool { return !x.canRead(r) }), a)
	})
	resolve(r, "Organization.viewerCanCreateProjects", func(x *gqlContext, org *state.Account) (any, error) {
		return x.c.Viewer != nil && x.st.IsOrgMember(org, x.c.Viewer), nil
	})
}

func markTemplate(x *gqlContext, a projectIDArgs, template bool) (any, error) {
	name := "MarkProjectV2AsTemplate"
	if !template {
		name = "UnmarkProjectV2AsTemplate"
	}
	p, err := x.boardWithRole(a.Input.ProjectID, state.PermAdmin, name)
	if err != nil {
		return nil, err
	}
	if !p.Owner.IsOrg {
		return nil, unprocessable("Only projects owned by an organization can be templates")
	}
	x.st.SetProjectTemplate(p, template)
	return &boardPayload{project: p, clientMutationID: a.Input.ClientMutationID}, nil
}

// linkTeam links or unlinks a team of the board's organization.
func linkTeam(x *gqlContext, a linkTeamArgs, link bool) (any, error) {
	name := "LinkProjectV2ToTeam"
	if !link {
		name = "UnlinkProjectV2FromTeam"
	}
	p, err := x.boardWithRole(a.Input.ProjectID, state.PermAdmin, name)
	if err != nil {
		return nil, err
	}
	team, err := x.ownersTeam(p.Owner, a.Input.TeamID)
	if err != nil {
		return nil, err
	}
	switch {
	case link:
		x.st.LinkProjectTeam(p, team)
	case !slices.Contains(p.Teams, team):
		return nil, unprocessable("The team is not linked to the project")
	default:
		x.st.UnlinkProjectTeam(p, team)
	}
	return &teamPayload{team: team, clientMutationID: a.Input.ClientMutationID}, nil
}

// ownersTeam resolves a team of the organization that owns a board.
func (x *gqlContext) ownersTeam(owner *state.Account, id gqlID) (*state.Team, error) {
	team, _ := x.st.Node(string(id)).(*state.Team)
	if team == nil || x.c.Viewer == nil || !x.st.IsOrgMember(team.Org, x.c.Viewer) {
		// A team is visible to its organization's members only.
		return nil, nodeNotFound(string(id))
	}
	if team.Org != owner {
		return nil, unprocessable("The team must belong to the organization that owns the project")
	}
	return team, nil
}
