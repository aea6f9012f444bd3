package github

import (
	"context"
	"fmt"
)

// Development is an issue's Development section: the branches linked to
// it and the pull requests that will close it when merged.
type Development struct {
	Branches []LinkedBranch
	Pulls    []ClosingPull
	// More is true when either list went on past the first page read.
	More bool
}

// LinkedBranch is a branch linked to an issue.
type LinkedBranch struct {
	Name    string
	Repo    string // owner/name
	RepoURL string // the repository's web page
}

// ClosingPull is a pull request that will close an issue when merged.
type ClosingPull struct {
	Number int
	Title  string
	State  string // OPEN, CLOSED or MERGED
	Draft  bool
	Repo   string // owner/name
	URL    string
}

// developmentDoc reads both lists of an issue's Development section in one
// query: Issue.linkedBranches and Issue.closedByPullRequestsReferences
// (closed pull requests included, as the section shows them).
const developmentDoc = `query($owner: String!, $name: String!, $number: Int!, $first: Int!) {
  repository(owner: $owner, name: $name) { issue(number: $number) {
    linkedBranches(first: $first) { nodes { ref { name repository { nameWithOwner url } } } pageInfo { hasNextPage } }
    closedByPullRequestsReferences(first: $first, includeClosedPrs: true) {
      nodes { number title state isDraft url repository { nameWithOwner } } pageInfo { hasNextPage } }
  } } }`

// IssueDevelopment reads up to first (at most 100) linked branches and
// closing pull requests of an issue.
//
// POST /graphql
func (c *Client) IssueDevelopment(ctx context.Context, owner, repo string, number, first int) (Development, error) {
	if err := checkRepo(owner, repo); err != nil {
		return Development{}, invalidArgument(false, err.Error())
	}
	type page struct {
		HasNextPage bool `json:"hasNextPage"`
	}
	var data struct {
		Repository *struct {
			Issue *struct {
				LinkedBranches struct {
					Nodes []*struct {
						Ref *struct {
							Name       string `json:"name"`
							Repository struct {
								NameWithOwner string `json:"nameWithOwner"`
								URL           string `json:"url"`
							} `json:"repository"`
						} `json:"ref"`
					} `json:"nodes"`
					PageInfo page `json:"pageInfo"`
				} `json:"linkedBranches"`
				ClosedBy *struct {
					Nodes []*struct {
						Number     int    `json:"number"`
						Title      string `json:"title"`
						State      string `json:"state"`
						IsDraft    bool   `json:"isDraft"`
						URL        string `json:"url"`
						Repository struct {
							NameWithOwner string `json:"nameWithOwner"`
						} `json:"repository"`
					} `json:"nodes"`
					PageInfo page `json:"pageInfo"`
				} `json:"closedByPullRequestsReferences"`
			} `json:"issue"`
		} `json:"repository"`
	}
	vars := map[string]any{"owner": owner, "name": repo, "number": number, "first": min(max(first, 1), 100)}
	if err := c.Query(ctx, developmentDoc, vars, &data); err != nil {
		return Development{}, err
	}
	if data.Repository == nil || data.Repository.Issue == nil {
		return Development{}, &Error{Code: NotFound, Status: 200, Settlement: NotStarted,
			Message: fmt.Sprintf("%s/%s#%d does not exist or is not visible to this credential", owner, repo, number)}
	}
	is := data.Repository.Issue
	var d Development
	for _, n := range is.LinkedBranches.Nodes {
		if n != nil && n.Ref != nil { // a link whose branch is gone has no ref
			d.Branches = append(d.Branches, LinkedBranch{Name: n.Ref.Name, Repo: n.Ref.Repository.NameWithOwner, RepoURL: n.Ref.Repository.URL})
		}
	}
	d.More = is.LinkedBranches.PageInfo.HasNextPage
	if is.ClosedBy != nil {
		for _, n := range is.ClosedBy.Nodes {
			if n != nil {
				d.Pulls = append(d.Pulls, ClosingPull{Number: n.Number, Title: n.Title, State: n.State, Draft: n.IsDraft,
					Repo: n.Repository.NameWithOwner, URL: n.URL})
				noteNamedRead(ctx, n.Repository.NameWithOwner) // its title is another repository's text
			}
		}
		d.More = d.More || is.ClosedBy.PageInfo.HasNextPage
	}
	return d, nil
}
