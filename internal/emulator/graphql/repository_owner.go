package graphql

import (
	"slices"
	"sort"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Query.repositoryOwner and RepositoryOwner.repositories, over User and
// Organization: what `gh repo list` and github_list_repo_metadata's
// repositories read. The emulator models owners, collaborators, forks,
// archiving and stars but no organization membership, so
// ORGANIZATION_MEMBER, which would need it, is refused.

// repositoryOrder is GitHub's RepositoryOrder input.
type repositoryOrder struct {
	Field     string `json:"field"`     // CREATED_AT | NAME | PUSHED_AT | STARGAZERS | UPDATED_AT
	Direction string `json:"direction"` // ASC | DESC
}

// ownerRepositoriesArgs are the arguments of RepositoryOwner.repositories
// the emulator honours; the others (affiliations, hasIssuesEnabled,
// isLocked, visibility) fail validation rather than being ignored.
type ownerRepositoriesArgs struct {
	connArgs
	Privacy           *string          `json:"privacy"` // PUBLIC | PRIVATE
	IsFork            *bool            `json:"isFork"`
	IsArchived        *bool            `json:"isArchived"`
	OwnerAffiliations []string         `json:"ownerAffiliations"`
	OrderBy           *repositoryOrder `json:"orderBy"`
}

// defaultOwnerAffiliations is the schema's default for ownerAffiliations.
var defaultOwnerAffiliations = []string{"OWNER", "COLLABORATOR"}

func registerRepositoryOwner(r *resolvers) {
	// An unknown login, or a bot (no RepositoryOwner), answers null without
	// an error, which gh reads as "not recognized as either a GitHub user or
	// an organization".
	resolveArgs(r, "Query.repositoryOwner", func(x *gqlContext, _ root, a loginArgs) (any, error) {
		if acc := x.st.Account(a.Login); acc != nil && !acc.IsBot {
			return acc, nil
		}
		return nil, nil
	})
	for _, t := range []string{"User", "Organization"} {
		resolveArgs(r, t+".repositories", ownerRepositories)
	}

	// Archived as REST's archived says; a repository is pushed to when it
	// changes, as the REST API's pushed_at reports.
	resolve(r, "Repository.isArchived", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.Archived, nil })
	resolve(r, "Repository.pushedAt", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.UpdatedAt, nil })
	// Stars, as REST's stargazers_count and /user/starred show them.
	resolve(r, "Repository.stargazerCount", func(_ *gqlContext, repo *state.Repo) (any, error) { return len(repo.Stars), nil })
	resolve(r, "Repository.viewerHasStarred", func(x *gqlContext, repo *state.Repo) (any, error) {
		return x.c.Viewer != nil && repo.StarredBy(x.c.Viewer) != nil, nil
	})
}

// ownerRepositories lists the repositories of an owner that the caller can
// see, filtered and ordered as asked, oldest first without orderBy.
func ownerRepositories(x *gqlContext, owner *state.Account, a ownerRepositoriesArgs) (any, error) {
	affiliations := a.OwnerAffiliations
	if affiliations == nil {
		affiliations = defaultOwnerAffiliations
	}
	if slices.Contains(affiliations, "ORGANIZATION_MEMBER") {
		return nil, &gqlError{Message: "The emulator keeps no organization membership (ownerAffiliations: ORGANIZATION_MEMBER)."}
	}
	var list []*state.Repo
	for _, repo := range x.st.Repos() {
		owns := repo.Owner == owner
		collaborates := !owner.IsOrg && !owns && repo.IsCollaborator(owner.Login)
		affiliated := (owns && slices.Contains(affiliations, "OWNER")) ||
			(collaborates && slices.Contains(affiliations, "COLLABORATOR"))
		if !affiliated || !x.canRead(repo) {
			continue
		}
		if a.Privacy != nil && (*a.Privacy == "PRIVATE") != repo.Private {
			continue
		}
		if (a.IsFork != nil && *a.IsFork != (repo.Parent != nil)) || (a.IsArchived != nil && *a.IsArchived != repo.Archived) {
			continue
		}
		list = append(list, repo)
	}
	if a.OrderBy != nil {
		sortRepositories(list, *a.OrderBy)
	}
	return pageOf(x, list, a.connArgs)
}

// sortRepositories orders by the field asked for (STARGAZERS by the number
// of stars); ties keep creation order.
func sortRepositories(list []*state.Repo, o repositoryOrder) {
	less := func(a, b *state.Repo) int {
		switch o.Field {
		case "NAME":
			return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
		case "CREATED_AT":
			return a.CreatedAt.Compare(b.CreatedAt)
		case "PUSHED_AT", "UPDATED_AT":
			return a.UpdatedAt.Compare(b.UpdatedAt)
		case "STARGAZERS":
			return len(a.Stars) - len(b.Stars)
		}
		return 0
	}
	sort.SliceStable(list, func(i, j int) bool {
		c := less(list[i], list[j])
		if o.Direction == "DESC" {
			return c > 0
		}
		return c < 0
	})
}
