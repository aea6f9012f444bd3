package graphql

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// gqlID is a GraphQL ID argument: a string, though clients may send an
// integer literal.
type gqlID string

// UnmarshalJSON accepts a string or a number.
func (id *gqlID) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		*id = gqlID(s)
		return nil
	}
	var n json.Number
	if err := json.Unmarshal(b, &n); err != nil {
		return err
	}
	*id = gqlID(n.String())
	return nil
}

type nodeArgs struct {
	ID gqlID `json:"id"`
}

type nodesArgs struct {
	IDs []gqlID `json:"ids"`
}

type repositoryArgs struct {
	Owner string `json:"owner"`
	Name  string `json:"name"`
	// FollowRenames is accepted and has no effect: emulated repositories
	// are never renamed.
	FollowRenames *bool `json:"followRenames"`
}

type loginArgs struct {
	Login string `json:"login"`
}

type deleteIssueArgs struct {
	Input struct {
		IssueID          gqlID   `json:"issueId"`
		ClientMutationID *string `json:"clientMutationId"`
	} `json:"input"`
}

// rateLimitInfo is the GraphQL budget as the rateLimit field reports it.
type rateLimitInfo struct {
	cost, limit, remaining, used int
	resetAt                      time.Time
}

// deleteIssuePayload is what deleteIssue returns.
type deleteIssuePayload struct {
	repo             *state.Repo
	clientMutationID *string
}

func registerRoot(r *resolvers) {
	resolveArgs(r, "Query.node", func(x *gqlContext, _ root, a nodeArgs) (any, error) {
		if n := x.visibleNode(string(a.ID)); n != nil {
			return n, nil
		}
		return nil, nodeNotFound(string(a.ID))
	})
	resolveArgs(r, "Query.nodes", func(x *gqlContext, _ root, a nodesArgs) (any, error) {
		if len(a.IDs) > maxPageSize {
			return nil, &gqlError{Type: "ARGUMENT_LIMIT", Message: fmt.Sprintf(
				"You may not provide more than %d node ids; you provided %d.", maxPageSize, len(a.IDs))}
		}
		out := make([]any, len(a.IDs))
		for i, id := range a.IDs {
			if out[i] = x.visibleNode(string(id)); out[i] == nil {
				x.errorAt(i, nodeNotFound(string(id)))
			}
		}
		return out, nil
	})
	resolveArgs(r, "Query.repository", func(x *gqlContext, _ root, a repositoryArgs) (any, error) {
		repo := x.st.Repo(a.Owner, a.Name)
		if repo == nil || !x.canRead(repo) {
			return nil, notFound("Could not resolve to a Repository with the name '%s/%s'.", a.Owner, a.Name)
		}
		return repo, nil
	})
	resolve(r, "Query.viewer", func(x *gqlContext, _ root) (any, error) { return x.c.Viewer, nil })
	resolveArgs(r, "Query.user", func(x *gqlContext, _ root, a loginArgs) (any, error) {
		if acc := x.st.Account(a.Login); acc != nil && !acc.IsOrg {
			return acc, nil
		}
		return nil, notFound("Could not resolve to a User with the login of '%s'.", a.Login)
	})
	resolveArgs(r, "Query.organization", func(x *gqlContext, _ root, a loginArgs) (any, error) {
		if acc := x.st.Account(a.Login); acc != nil && acc.IsOrg {
			return acc, nil
		}
		return nil, notFound("Could not resolve to an Organization with the login of '%s'.", a.Login)
	})
	resolve(r, "Query.rateLimit", func(x *gqlContext, _ root) (any, error) {
		// The server charges the query after it has run; the budget
		// reported here already counts it, as GitHub's does.
		s := x.limits.Snapshot(x.c.Token.Value, "graphql")
		return &rateLimitInfo{cost: 1, limit: s.Limit, used: min(s.Used+1, s.Limit),
			remaining: max(s.Remaining-1, 0), resetAt: s.Reset}, nil
	})
	resolve(r, "RateLimit.cost", func(_ *gqlContext, l *rateLimitInfo) (any, error) { return l.cost, nil })
	resolve(r, "RateLimit.limit", func(_ *gqlContext, l *rateLimitInfo) (any, error) { return l.limit, nil })
	resolve(r, "RateLimit.remaining", func(_ *gqlContext, l *rateLimitInfo) (any, error) { return l.remaining, nil })
	resolve(r, "RateLimit.used", func(_ *gqlContext, l *rateLimitInfo) (any, error) { return l.used, nil })
	resolve(r, "RateLimit.resetAt", func(_ *gqlContext, l *rateLimitInfo) (any, error) { return l.resetAt, nil })

	resolveArgs(r, "Mutation.deleteIssue", deleteIssue)
	resolve(r, "DeleteIssuePayload.repository", func(_ *gqlContext, p *deleteIssuePayload) (any, error) { return p.repo, nil })
	resolve(r, "DeleteIssuePayload.clientMutationId", func(_ *gqlContext, p *deleteIssuePayload) (any, error) {
		return p.clientMutationID, nil
	})
}

// deleteIssue needs admin permission on the repository, as GitHub's does.
func deleteIssue(x *gqlContext, _ root, a deleteIssueArgs) (any, error) {
	id := string(a.Input.IssueID)
	is, _ := x.visibleNode(id).(*state.Issue)
	if is == nil || is.IsPull {
		return nil, nodeNotFound(id)
	}
	if x.c.Token.Permission(is.Repo) < state.PermAdmin {
		return nil, forbidden(x.c.Token.Login, "DeleteIssue")
	}
	x.st.DeleteIssue(is)
	return &deleteIssuePayload{repo: is.Repo, clientMutationID: a.Input.ClientMutationID}, nil
}

func nodeNotFound(id string) error {
	return notFound("Could not resolve to a node with the global id of '%s'", id)
}

// canRead reports whether the caller may see a repository; one it may not
// see answers as if it did not exist.
func (x *gqlContext) canRead(r *state.Repo) bool { return x.c.Token.Permission(r) >= state.PermRead }

// visibleNode finds an object by global id if the caller may see it.
func (x *gqlContext) visibleNode(id string) any {
	switch v := x.st.Node(id).(type) {
	case *state.Issue:
		if !v.Deleted && x.canRead(v.Repo) {
			return v
		}
	case *state.Repo:
		if x.canRead(v) {
			return v
		}
	case *state.Comment:
		if !v.Issue.Deleted && x.canRead(v.Issue.Repo) {
			return v
		}
	case *state.Label:
		if repo := repoOfLabel(x.st, v); repo != nil && x.canRead(repo) {
			return v
		}
	case *state.Milestone:
		if repo := repoOfMilestone(x.st, v); repo != nil && x.canRead(repo) {
			return v
		}
	case *state.LinkedBranch:
		if !v.Issue.Deleted && x.canRead(v.Issue.Repo) && x.canRead(v.Repo) {
			return v
		}
	case *state.ReviewThread:
		// A review thread is a Node on GitHub: thread ids resolve by node().
		if !v.Pull.Deleted && x.canRead(v.Pull.Repo) && slices.Contains(v.Pull.Pull.Threads, v) {
			return v
		}
	case *state.Account, *state.IssueType:
		return v
	case *state.Team:
		// A team is seen by its organization's members, as
		// Organization.team shows it.
		if x.seesTeams(v.Org) {
			return v
		}
	case *state.Project:
		if x.c.Token.HasScope("read:project") && x.seesProject(v) {
			return v
		}
	case *state.ProjectItem:
		if x.c.Token.HasScope("read:project") && x.seesProject(v.Project) {
			return v
		}
	case *state.ProjectField:
		if x.c.Token.HasScope("read:project") && x.seesProject(v.Project) {
			return v
		}
	case *state.DraftIssue:
		if x.c.Token.HasScope("read:project") && x.seesProject(v.Item.Project) {
			return v
		}
	}
	return nil
}

// repoOfLabel finds the repository a label belongs to; labels do not point
// back at it.
func repoOfLabel(st *state.State, l *state.Label) *state.Repo {
	for _, r := range st.Repos() {
		for _, x := range r.Labels {
			if x == l {
				return r
			}
		}
	}
	return nil
}

// repoOfMilestone finds the repository a milestone belongs to.
func repoOfMilestone(st *state.State, m *state.Milestone) *state.Repo {
	for _, r := range st.Repos() {
		for _, x := range r.Milestones {
			if x == m {
				return r
			}
		}
	}
	return nil
}

// webURL is an object's github.com address on the emulator's host.
func (x *gqlContext) webURL(path string) string { return x.c.Links.Web + path }
