package search

import (
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// A Person is one login a user qualifier (author:, assignee:, mentions:,
// commenter:, involves:) names, as written or, for @me, the caller's.
type Person struct {
	Qualifier, Login string
	Neg              bool
}

// UnknownPeople reports whether GitHub's search refuses the query for
// its logins, with 422 "The listed users cannot be searched either
// because the users do not exist or you do not have permission to view
// the users.": a user qualifier whose logins of one sign (every author:,
// or every -author:) name no account at all. One known login among them
// is enough, and an organization's login is an account, as GitHub
// resolves them. An app is named app/slug, for its bot account.
func (q *Query) UnknownPeople(st *state.State) bool {
	type group struct {
		qualifier string
		neg       bool
	}
	known := map[group]bool{}
	for _, p := range q.People {
		g := group{p.Qualifier, p.Neg}
		known[g] = known[g] || accountExists(st, p.Login)
	}
	for _, ok := range known {
		if !ok {
			return true
		}
	}
	return false
}

// accountExists reports whether login (or app/slug) names an account.
func accountExists(st *state.State, login string) bool {
	if slug, ok := strings.CutPrefix(strings.ToLower(login), "app/"); ok {
		a := st.Account(slug + "[bot]")
		return a != nil && a.IsBot
	}
	return login != "" && st.Account(login) != nil
}
