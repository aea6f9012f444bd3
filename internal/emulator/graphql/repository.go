package graphql

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/search"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

type numberArgs struct {
	Number int `json:"number"`
}

type nameArgs struct {
	Name string `json:"name"`
}

// issueOrder is GitHub's IssueOrder input.
type issueOrder struct {
	Field     string `json:"field"`     // CREATED_AT | UPDATED_AT | COMMENTS
	Direction string `json:"direction"` // ASC | DESC
}

// issuesArgs are the arguments of Repository.issues and pullRequests.
type issuesArgs struct {
	connArgs
	States  []string    `json:"states"`
	Labels  []string    `json:"labels"`
	OrderBy *issueOrder `json:"orderBy"`
}

// searchConnArgs is a connection filtered by a text query.
type searchConnArgs struct {
	connArgs
	Query *string `json:"query"`
}

// labelOrder is GitHub's LabelOrder input; the schema's default is
// CREATED_AT ascending.
type labelOrder struct {
	Field     string `json:"field"`     // CREATED_AT | NAME | ISSUE_COUNT
	Direction string `json:"direction"` // ASC | DESC
}

// labelsArgs are the arguments of Repository.labels.
type labelsArgs struct {
	searchConnArgs
	OrderBy *labelOrder `json:"orderBy"`
}

type milestonesArgs struct {
	connArgs
	States []string `json:"states"`
	Query  *string  `json:"query"`
}

// gitRef is a branch, or with prefix "refs/tags/" a tag, of a
// repository's git data (state/git_objects.go).
type gitRef struct {
	repo   *state.Repo
	name   string
	prefix string // "" for refs/heads/
}

func registerRepository(r *resolvers) {
	objectType(r, func(*gitRef) string { return "Ref" })
	resolve(r, "Ref.name", func(_ *gqlContext, ref *gitRef) (any, error) { return ref.name, nil })
	resolve(r, "Ref.prefix", func(_ *gqlContext, ref *gitRef) (any, error) {
		if ref.prefix != "" {
			return ref.prefix, nil
		}
		return "refs/heads/", nil
	})
	resolve(r, "Ref.repository", func(_ *gqlContext, ref *gitRef) (any, error) { return ref.repo, nil })

	objectType(r, func(*state.Repo) string { return "Repository" })
	const t = "Repository"
	resolve(r, t+".id", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.NodeID, nil })
	resolve(r, t+".databaseId", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.ID, nil })
	resolve(r, t+".name", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.Name, nil })
	resolve(r, t+".nameWithOwner", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.FullName(), nil })
	resolve(r, t+".owner", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.Owner, nil })
	resolve(r, t+".description", func(_ *gqlContext, repo *state.Repo) (any, error) {
		if repo.Description == "" {
			return nil, nil
		}
		return repo.Description, nil
	})
	resolve(r, t+".isPrivate", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.Private, nil })
	resolve(r, t+".visibility", func(_ *gqlContext, repo *state.Repo) (any, error) {
		if repo.Private {
			return "PRIVATE", nil
		}
		return "PUBLIC", nil
	})
	resolve(r, t+".hasIssuesEnabled", func(_ *gqlContext, repo *state.Repo) (any, error) {
		return !repo.IssuesDisabled, nil
	})
	resolve(r, t+".hasWikiEnabled", func(_ *gqlContext, repo *state.Repo) (any, error) { return !repo.WikiDisabled, nil })
	resolve(r, t+".hasProjectsEnabled", func(_ *gqlContext, _ *state.Repo) (any, error) { return state.RepoHasProjects, nil })
	resolve(r, t+".mergeCommitAllowed", func(_ *gqlContext, _ *state.Repo) (any, error) { return state.RepoMergeCommit, nil })
	resolve(r, t+".squashMergeAllowed", func(_ *gqlContext, _ *state.Repo) (any, error) { return state.RepoSquashMerge, nil })
	resolve(r, t+".rebaseMergeAllowed", func(_ *gqlContext, _ *state.Repo) (any, error) { return state.RepoRebaseMerge, nil })
	resolve(r, t+".isFork", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.Parent != nil, nil })
	resolve(r, t+".parent", func(x *gqlContext, repo *state.Repo) (any, error) {
		if repo.Parent == nil || !x.canRead(repo.Parent) {
			return nil, nil
		}
		return repo.Parent, nil
	})
	resolve(r, t+".defaultBranchRef", func(_ *gqlContext, repo *state.Repo) (any, error) {
		return &gitRef{repo: repo, name: state.RepoDefaultBranch}, nil
	})
	resolve(r, t+".createdAt", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.CreatedAt, nil })
	resolve(r, t+".updatedAt", func(_ *gqlContext, repo *state.Repo) (any, error) { return repo.UpdatedAt, nil })
	resolve(r, t+".url", func(x *gqlContext, repo *state.Repo) (any, error) { return x.webURL("/" + repo.FullName()), nil })
	resolve(r, t+".resourcePath", func(_ *gqlContext, repo *state.Repo) (any, error) { return "/" + repo.FullName(), nil })
	resolve(r, t+".viewerPermission", func(x *gqlContext, repo *state.Repo) (any, error) {
		if p := x.c.Token.Permission(repo); p > state.PermNone {
			return state.EnumValue(p.String()), nil
		}
		return nil, nil
	})

	resolveArgs(r, t+".issue", func(_ *gqlContext, repo *state.Repo, a numberArgs) (any, error) {
		is := repo.Issue(a.Number)
		if is != nil && is.MovedTo != nil {
			// A transferred issue is not found under its old number:
			// GitHub answers as for a number that names no issue.
			return nil, notFound("Could not resolve to an Issue with the number of %d.", a.Number)
		}
		if is == nil || is.Deleted {
			return nil, notFound("Could not resolve to an issue or pull request with the number of %d.", a.Number)
		}
		if is.IsPull {
			return nil, notFound("Could not resolve to an Issue with the number of %d.", a.Number)
		}
		return is, nil
	})
	resolveArgs(r, t+".pullRequest", func(_ *gqlContext, repo *state.Repo, a numberArgs) (any, error) {
		is := repo.Issue(a.Number)
		if is == nil || is.Deleted || !is.IsPull {
			return nil, notFound("Could not resolve to a PullRequest with the number of %d.", a.Number)
		}
		return is, nil
	})
	resolveArgs(r, t+".issueOrPullRequest", func(_ *gqlContext, repo *state.Repo, a numberArgs) (any, error) {
		is := repo.Issue(a.Number)
		if is == nil || is.Deleted {
			return nil, notFound("Could not resolve to an issue or pull request with the number of %d.", a.Number)
		}
		return is, nil
	})
	resolveArgs(r, t+".issues", func(x *gqlContext, repo *state.Repo, a issueListArgs) (any, error) {
		return listIssues(x, repo, a, func(*state.Issue) bool { return true })
	})
	// Repository.pullRequests is served with the pull requests (pulls.go).

	resolveArgs(r, t+".labels", func(x *gqlContext, repo *state.Repo, a labelsArgs) (any, error) {
		return pageOf(x, filterLabels(repo, a), a.connArgs)
	})
	resolveArgs(r, t+".label", func(_ *gqlContext, repo *state.Repo, a nameArgs) (any, error) {
		if l := repo.FindLabel(a.Name); l != nil {
			return l, nil
		}
		return nil, nil
	})
	resolveArgs(r, t+".milestones", func(x *gqlContext, repo *state.Repo, a milestonesArgs) (any, error) {
		var list []*state.Milestone
		for _, m := range repo.Milestones {
			if len(a.States) > 0 && !slices.Contains(a.States, state.EnumValue(m.State)) {
				continue
			}
			if a.Query != nil && !strings.Contains(strings.ToLower(m.Title), strings.ToLower(*a.Query)) {
				continue
			}
			list = append(list, m)
		}
		return pageOf(x, list, a.connArgs)
	})
	resolveArgs(r, t+".milestone", func(_ *gqlContext, repo *state.Repo, a numberArgs) (any, error) {
		if m := repo.FindMilestone(a.Number); m != nil {
			return m, nil
		}
		return nil, nil
	})
	resolveArgs(r, t+".assignableUsers", func(x *gqlContext, repo *state.Repo, a searchConnArgs) (any, error) {
		list := x.c.Assignable(repo)
		if a.Query != nil && *a.Query != "" {
			q := strings.ToLower(*a.Query)
			list = slices.DeleteFunc(list, func(u *state.Account) bool {
				return !strings.Contains(strings.ToLower(u.Login), q) && !strings.Contains(strings.ToLower(u.Name), q)
			})
		}
		return pageOf(x, list, a.connArgs)
	})
	resolveArgs(r, t+".issueTypes", func(x *gqlContext, repo *state.Repo, a connArgs) (any, error) {
		var list []*state.IssueType
		for _, it := range x.st.IssueTypes(repo.Owner.Login) {
			if it.IsEnabled {
				list = append(list, it)
			}
		}
		return pageOf(x, list, a)
	})
}

// listIssues answers an IssueConnection field (Repository.issues,
// Label.issues, Milestone.issues): the repository's issues that belong to
// the parent (in), filtered and ordered by the arguments.
func listIssues(x *gqlContext, repo *state.Repo, a issueListArgs, in func(*state.Issue) bool) (any, error) {
	list := slices.DeleteFunc(filterIssues(repo, false, a.issuesArgs), func(is *state.Issue) bool { return !in(is) })
	if f := a.FilterBy; f != nil {
		if f.ViewerSubscribed {
			return nil, errViewerSubscribed
		}
		list = slices.DeleteFunc(list, func(is *state.Issue) bool { return !f.match(is) })
	}
	return pageOf(x, list, a.connArgs)
}

// filterIssues lists a repository's live issues (or pull requests) that
// match the states and labels, in the order asked for: by creation,
// oldest first, unless orderBy says otherwise. Labels match any of those
// given, as GitHub's do.
func filterIssues(repo *state.Repo, pulls bool, a issuesArgs) []*state.Issue {
	var list []*state.Issue
	for _, is := range repo.Issues {
		if is.Deleted || is.IsPull != pulls {
			continue
		}
		if len(a.States) > 0 && !slices.Contains(a.States, pullOrIssueState(is)) {
			continue
		}
		if len(a.Labels) > 0 && !slices.ContainsFunc(is.Labels, func(l *state.Label) bool {
			return slices.ContainsFunc(a.Labels, func(name string) bool { return strings.EqualFold(name, l.Name) })
		}) {
			continue
		}
		list = append(list, is)
	}
	by, dir := "created", "asc"
	if a.OrderBy != nil {
		by = map[string]string{"CREATED_AT": "created", "UPDATED_AT": "updated", "COMMENTS": "comments"}[a.OrderBy.Field]
		dir = strings.ToLower(a.OrderBy.Direction)
	}
	search.SortIssues(list, by, dir)
	return list
}

// filterLabels lists a repository's labels that match the query, in the
// order asked for. GitHub matches the query against names and
// descriptions. The repository keeps its labels in creation order, so
// CREATED_AT needs no sort; NAME compares case-insensitively, as GitHub's
// label list is ordered.
func filterLabels(repo *state.Repo, a labelsArgs) []*state.Label {
	list := slices.Clone(repo.Labels)
	if a.Query != nil && *a.Query != "" {
		q := strings.ToLower(*a.Query)
		list = slices.DeleteFunc(list, func(l *state.Label) bool {
			return !strings.Contains(strings.ToLower(l.Name), q) &&
				(l.Description == nil || !strings.Contains(strings.ToLower(*l.Description), q))
		})
	}
	if a.OrderBy == nil {
		return list
	}
	switch a.OrderBy.Field {
	case "NAME":
		slices.SortStableFunc(list, func(p, q *state.Label) int {
			return strings.Compare(strings.ToLower(p.Name), strings.ToLower(q.Name))
		})
	case "ISSUE_COUNT":
		sortByIssueCount(repo, list)
	}
	if a.OrderBy.Direction == "DESC" {
		slices.Reverse(list)
	}
	return list
}

// pullOrIssueState is an issue's IssueState or a pull request's
// PullRequestState.
func pullOrIssueState(is *state.Issue) string {
	if is.IsPull && is.Merged {
		return "MERGED"
	}
	return state.EnumValue(is.State)
}
