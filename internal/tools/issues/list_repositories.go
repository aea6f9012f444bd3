package issues

import (
	"context"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// kindRepositories lists an owner's repositories: the one kind that takes
// no repo.
const kindRepositories MetadataKind = "repositories"

// ownerRepositoriesQuery reads one page of an owner's repositories in ONE
// request, as `gh repo list OWNER` does: the repositories the owner owns
// (not those a user only collaborates on) that the credential can see, in
// name order so that a repository created between two pages does not move
// the others. issues counts issues only: GitHub's REST open_issues_count
// counts pull requests too.
const ownerRepositoriesQuery = `query($owner: String!, $first: Int!, $after: String) {
  repositoryOwner(login: $owner) {
    repositories(first: $first, after: $after, ownerAffiliations: [OWNER], orderBy: {field: NAME, direction: ASC}) {
      nodes { name isArchived visibility hasIssuesEnabled defaultBranchRef { name } issues(states: [OPEN]) { totalCount } }
      pageInfo { hasNextPage endCursor }
    }
  }
}`

// ownerRepositoriesPage is the query's answer; the owner is null when no
// user or organization by that login is visible to the credential.
type ownerRepositoriesPage struct {
	RepositoryOwner *struct {
		Repositories struct {
			Nodes []*struct {
				Name             string `json:"name"`
				IsArchived       bool   `json:"isArchived"`
				Visibility       string `json:"visibility"`
				HasIssuesEnabled bool   `json:"hasIssuesEnabled"`
				DefaultBranchRef *struct {
					Name string `json:"name"`
				} `json:"defaultBranchRef"`
				Issues struct {
					TotalCount int `json:"totalCount"`
				} `json:"issues"`
			} `json:"nodes"`
			PageInfo struct {
				HasNextPage bool   `json:"hasNextPage"`
				EndCursor   string `json:"endCursor"`
			} `json:"pageInfo"`
		} `json:"repositories"`
	} `json:"repositoryOwner"`
}

// listRepositories fills out with one page of owner's repositories after
// the GraphQL cursor after, and returns the cursor of the next page (""
// on the last). A repository outside the caller's grant is left out and
// counted in withheld, as other listings' rows are.
func listRepositories(ctx context.Context, c *github.Client, owner, after string, first int, out *ListRepoMetadataOut) (string, error) {
	vars := map[string]any{"owner": owner, "first": first}
	if after != "" {
		vars["after"] = after
	}
	var data ownerRepositoriesPage
	if err := c.Query(ctx, ownerRepositoriesQuery, vars, &data); err != nil {
		if e := toolkit.MapError(err); e != nil && e.Code == contract.CodeNotFound {
			return "", ownerNotFound(owner)
		}
		return "", err
	}
	if data.RepositoryOwner == nil {
		return "", ownerNotFound(owner)
	}
	g := newGrant(ctx, owner, "")
	conn := data.RepositoryOwner.Repositories
	for _, n := range conn.Nodes {
		if n == nil || !g.keeps(owner+"/"+n.Name) {
			continue
		}
		row := RepoMetaItem{Name: n.Name, Archived: ptr(n.IsArchived), Visibility: strings.ToLower(n.Visibility),
			HasIssues: ptr(n.HasIssuesEnabled), OpenIssues: ptr(n.Issues.TotalCount)}
		if n.DefaultBranchRef != nil {
			row.DefaultBranch = n.DefaultBranchRef.Name
		}
		out.Items = append(out.Items, row)
	}
	out.Withheld = g.withheld
	if !conn.PageInfo.HasNextPage {
		return "", nil
	}
	return conn.PageInfo.EndCursor, nil
}

// ownerNotFound says the owner is neither a user nor an organization the
// credential can see, with the call that finds the name: a text search
// (every issue row names its repository, owner first).
func ownerNotFound(owner string) *contract.Error {
	return contract.Errorf(contract.CodeNotFound, "%s is not a GitHub organization or user visible to this credential", owner).
		WithField("owner", "no such organization or user").
		WithRepair(contract.Repair{NextStep: "check the owner's name: search issues by text to find it (each row names owner/repo)",
			Tool: toolkit.NameSearchIssues, Arguments: SearchIssuesIn{Query: owner, State: "all"}})
}

// checkRepoForKind holds repo to the kind: every kind reads one
// repository but repositories, which lists the owner's. A repo given with
// repositories is refused, not ignored: the caller expected it to narrow
// the answer, and it would not.
func checkRepoForKind(in ListRepoMetadataIn) *contract.Error {
	switch {
	case in.Kind == kindRepositories && in.Repo != "":
		return contract.Errorf(contract.CodeInvalidField, "kind repositories lists the owner's repositories and takes no repo").
			WithField("repo", "leave out with kind repositories").
			WithRepair(contract.Repair{NextStep: "list the owner's repositories without repo", Tool: toolkit.NameListRepoMetadata,
				Arguments: ListRepoMetadataIn{Owner: in.Owner, Kind: kindRepositories}})
	case in.Kind != kindRepositories && in.Repo == "":
		return contract.Errorf(contract.CodeInvalidField, "kind %s needs repo", in.Kind).
			WithField("repo", "is required for every kind but repositories").
			WithRepair(contract.Repair{NextStep: "name the repository in repo; kind repositories lists the owner's", Tool: toolkit.NameListRepoMetadata,
				Arguments: ListRepoMetadataIn{Owner: in.Owner, Kind: kindRepositories}})
	}
	return nil
}
