package rest

import (
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// searchScope is the part of a commit or code search that picks
// repositories: repo:, org:, user: and is:public/private, as GitHub's
// search reads them for every kind of result.
type searchScope struct {
	owners, repos []string
	visibility    string
}

// take reads a scope qualifier; it reports false for any other term.
func (s *searchScope) take(key, value string) bool {
	switch key {
	case "org", "user":
		s.owners = append(s.owners, strings.ToLower(value))
	case "repo":
		s.repos = append(s.repos, strings.ToLower(value))
	case "is":
		if value != "public" && value != "private" {
			return false
		}
		s.visibility = value
	default:
		return false
	}
	return true
}

// check refuses a scope naming an account or repository that does not
// exist or that the caller cannot read, with the message GitHub's search
// gives; it answers and returns false then.
func (s *searchScope) check(c *call, doc string) bool {
	for _, login := range s.owners {
		if c.State.Account(login) == nil {
			c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
				Message: usersUnsearchable})
			return false
		}
	}
	for _, name := range s.repos {
		owner, repo, _ := strings.Cut(name, "/")
		r := c.State.Repo(owner, repo)
		if r == nil || c.Token.Permission(r) == state.PermNone {
			c.Invalid("", doc, wire.FieldError{Resource: "Search", Field: "q", Code: "invalid",
				Message: "The listed users and repositories cannot be searched either because the resources do not exist or you do not have permission to view them."})
			return false
		}
	}
	return true
}

// reposFor lists the repositories in scope the caller can read.
func (s *searchScope) reposFor(c *call) []*state.Repo {
	var out []*state.Repo
	for _, r := range c.State.Repos() {
		switch {
		case c.Token.Permission(r) == state.PermNone,
			len(s.owners) > 0 && !containsLower(s.owners, r.Owner.Login),
			len(s.repos) > 0 && !containsLower(s.repos, r.FullName()),
			s.visibility == "public" && r.Private, s.visibility == "private" && !r.Private:
			continue
		}
		out = append(out, r)
	}
	return out
}

func containsLower(list []string, s string) bool {
	s = strings.ToLower(s)
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
