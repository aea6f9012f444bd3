package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// createRepository, archiveRepository and unarchiveRepository, as GitHub's
// schema defines them. They act through the state operations the REST
// routes use (POST /user/repos and /orgs/{org}/repos, PATCH
// /repos/{owner}/{repo} with archived), with the same rules: a repository
// is created for the viewer or an organization the viewer belongs to, and
// only its administrators archive or unarchive it.

type createRepositoryArgs struct {
	Input struct {
		Name             string  `json:"name"`
		OwnerID          *gqlID  `json:"ownerId"`
		Description      *string `json:"description"`
		Visibility       string  `json:"visibility"` // PUBLIC | PRIVATE | INTERNAL
		Template         *bool   `json:"template"`
		HomepageURL      *string `json:"homepageUrl"`
		HasWikiEnabled   *bool   `json:"hasWikiEnabled"`
		HasIssuesEnabled *bool   `json:"hasIssuesEnabled"`
		TeamID           *gqlID  `json:"teamId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

type repositoryIDArgs struct {
	Input struct {
		RepositoryID     gqlID   `json:"repositoryId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// repositoryPayload is what the three mutations return.
type repositoryPayload struct {
	repo             *state.Repo
	clientMutationID *string
}

func registerRepoMutations(r *resolvers) {
	// The homepage is a setting these mutations and PATCH /repos write.
	resolve(r, "Repository.homepageUrl", func(_ *gqlContext, repo *state.Repo) (any, error) {
		if repo.Homepage == "" {
			return nil, nil
		}
		return repo.Homepage, nil
	})
	resolveArgs(r, "Mutation.createRepository", createRepository)
	resolveArgs(r, "Mutation.archiveRepository", setRepoArchived(true, "ArchiveRepository"))
	resolveArgs(r, "Mutation.unarchiveRepository", setRepoArchived(false, "UnarchiveRepository"))
	for _, t := range []string{"CreateRepositoryPayload", "ArchiveRepositoryPayload", "UnarchiveRepositoryPayload"} {
		resolve(r, t+".repository", func(_ *gqlContext, p *repositoryPayload) (any, error) { return p.repo, nil })
		resolve(r, t+".clientMutationId", func(_ *gqlContext, p *repositoryPayload) (any, error) { return p.clientMutationID, nil })
	}
}

func createRepository(x *gqlContext, _ root, a createRepositoryArgs) (any, error) {
	in := a.Input
	owner := x.c.Viewer
	if in.OwnerID != nil {
		acc, _ := x.visibleNode(string(*in.OwnerID)).(*state.Account)
		if acc == nil {
			return nil, nodeNotFound(string(*in.OwnerID))
		}
		owner = acc
	}
	if owner == nil || owner.IsBot {
		return nil, forbidden(x.c.Token.Login, "CreateRepository")
	}
	if owner != x.c.Viewer && !(owner.IsOrg && x.st.MayCreateRepoIn(owner, x.c.Viewer)) {
		return nil, forbidden(x.c.Token.Login, "CreateRepository")
	}
	if in.Visibility == "INTERNAL" && !owner.IsOrg {
		return nil, unprocessable("Visibility can't be internal for a user's repository")
	}
	if !state.ValidRepoName(in.Name) {
		return nil, unprocessable("Name is invalid")
	}
	if x.st.Repo(owner.Login, in.Name) != nil {
		return nil, unprocessable("Name already exists on this account")
	}
	desc := ""
	if in.Description != nil {
		desc = *in.Description
	}
	r := x.st.CreateRepo(owner, x.c.Viewer, in.Name, desc, in.Visibility != "PUBLIC", false)
	if in.HomepageURL != nil {
		r.Homepage = *in.HomepageURL
	}
	r.IssuesDisabled = in.HasIssuesEnabled != nil && !*in.HasIssuesEnabled
	r.WikiDisabled = in.HasWikiEnabled != nil && !*in.HasWikiEnabled
	return &repositoryPayload{repo: r, clientMutationID: in.ClientMutationID}, nil
}

// setRepoArchived is archiveRepository (archived) or unarchiveRepository;
// either needs admin access.
func setRepoArchived(archived bool, mutation string) func(*gqlContext, root, repositoryIDArgs) (any, error) {
	return func(x *gqlContext, _ root, a repositoryIDArgs) (any, error) {
		r, _ := x.visibleNode(string(a.Input.RepositoryID)).(*state.Repo)
		if r == nil {
			return nil, nodeNotFound(string(a.Input.RepositoryID))
		}
		if x.c.Token.Permission(r) < state.PermAdmin {
			return nil, forbidden(x.c.Token.Login, mutation)
		}
		if r.Archived != archived {
			r.Archived = archived
			r.UpdatedAt = x.st.Now()
		}
		return &repositoryPayload{repo: r, clientMutationID: a.Input.ClientMutationID}, nil
	}
}
