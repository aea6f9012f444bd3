package issues

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/github"
)

// namesRead asks, in ONE GraphQL request, whether the names of a
// search's filters exist where it looked: labels by exact name, milestones
// by title, the issue types on offer, whether each login is a GitHub user
// (and, in one repository, can be assigned there). With lists it also
// reads the names close matches are picked from: the labels, milestones
// and assignable users (the first 100 of each). Names travel as
// variables, never spliced into the document.
type namesRead struct {
	owner, repo string
	filters     []namedFilter
	lists       bool
}

// The first this many of an owner's repositories (most recently pushed
// first) are read for an owner-wide search, and of each list.
const namesFirst = 100

// document builds the query and its variables.
func (r namesRead) document() (string, map[string]any) {
	vars := map[string]any{}
	var params, top, sel []string
	param := func(name string, v any) string {
		vars[name] = v
		params = append(params, "$"+name+": String!")
		return "$" + name
	}
	add := func(s string) {
		if !slices.Contains(sel, s) {
			sel = append(sel, s)
		}
	}
	for i, f := range r.filters {
		if r.owner == "" && !f.kind.person() {
			continue // a search everywhere reads no repository's names
		}
		switch f.kind {
		case filterLabel:
			for j, n := range f.names {
				v := fmt.Sprintf("l%d_%d", i, j)
				add(fmt.Sprintf("%s: label(name: %s) { name }", v, param(v, n)))
			}
			if r.lists {
				add(fmt.Sprintf("labels(first: %d) { nodes { name } }", namesFirst))
			}
		case filterMilestone:
			v := fmt.Sprintf("m%d", i)
			add(fmt.Sprintf("%s: milestones(query: %s, first: %d, states: [OPEN, CLOSED]) { nodes { title } }", v, param(v, f.names[0]), namesFirst))
			if r.lists {
				add(fmt.Sprintf("milestones(first: %d, states: [OPEN, CLOSED]) { nodes { title } }", namesFirst))
			}
		case filterType:
			add(fmt.Sprintf("issueTypes(first: %d) { nodes { name isEnabled } }", namesFirst))
		case filterAssignee, filterAuthor:
			v := fmt.Sprintf("u%d", i)
			login := param(v, f.names[0])
			top = append(top, fmt.Sprintf("%s: repositoryOwner(login: %s) { __typename }", v, login))
			if r.repo == "" {
				continue
			}
			if f.kind == filterAssignee {
				add(fmt.Sprintf("a%d: assignableUsers(query: %s, first: 20) { nodes { login } }", i, login))
			}
			if r.lists {
				add(fmt.Sprintf("assignableUsers(first: %d) { nodes { login } }", namesFirst))
			}
		}
	}
	if len(sel) > 0 {
		switch {
		case r.repo != "":
			vars["owner"], vars["repo"] = r.owner, r.repo
			params = append(params, "$owner: String!", "$repo: String!")
			top = append(top, "repository(owner: $owner, name: $repo) { "+strings.Join(sel, " ")+" }")
		case r.owner != "":
			vars["owner"] = r.owner
			params = append(params, "$owner: String!")
			top = append(top, fmt.Sprintf("repositoryOwner(login: $owner) { repositories(first: %d, ownerAffiliations: [OWNER], "+
				"orderBy: {field: PUSHED_AT, direction: DESC}) { pageInfo { hasNextPage } nodes { nameWithOwner %s } } }",
				namesFirst, strings.Join(sel, " ")))
		}
	}
	if len(top) == 0 {
		return "", nil
	}
	return "query(" + strings.Join(params, ", ") + ") { " + strings.Join(top, " ") + " }", vars
}

// repoNames is one repository's answer, by alias.
type repoNames struct {
	full string
	raw  map[string]json.RawMessage
}

// namesFound is what a namesRead found.
type namesFound struct {
	// repos are the repositories read: the one, or the owner's the
	// caller may read.
	repos []repoNames
	// complete is false when the owner has more repositories than were
	// read; hidden counts those read but outside the caller's grant.
	complete bool
	hidden   int
	// accounts holds each person filter's __typename (User,
	// Organization), "" for a login that names no account.
	accounts map[int]string
}

// run asks the question. A repository the caller may not read is left
// out of an owner's, as its rows are (see grant).
func (r namesRead) run(ctx context.Context, c *github.Client) (namesFound, error) {
	found := namesFound{complete: true, accounts: map[int]string{}}
	doc, vars := r.document()
	if doc == "" {
		return found, nil
	}
	var data map[string]json.RawMessage
	if err := c.Query(ctx, doc, vars, &data); err != nil {
		return namesFound{}, err
	}
	for i, f := range r.filters {
		if f.kind.person() {
			var acc struct {
				Typename string `json:"__typename"`
			}
			if err := decodeRaw(data[fmt.Sprintf("u%d", i)], &acc); err != nil {
				return namesFound{}, err
			}
			found.accounts[i] = acc.Typename
		}
	}
	switch {
	case r.repo != "" && !isNull(data["repository"]):
		one := repoNames{full: r.owner + "/" + r.repo}
		if err := json.Unmarshal(data["repository"], &one.raw); err != nil {
			return namesFound{}, err
		}
		found.repos = []repoNames{one}
	case r.repo == "" && r.owner != "":
		var owner struct {
			Repositories struct {
				PageInfo struct {
					HasNextPage bool `json:"hasNextPage"`
				} `json:"pageInfo"`
				Nodes []map[string]json.RawMessage `json:"nodes"`
			} `json:"repositories"`
		}
		if err := decodeRaw(data["repositoryOwner"], &owner); err != nil {
			return namesFound{}, err
		}
		found.complete = !owner.Repositories.PageInfo.HasNextPage
		id := caller.From(ctx)
		for _, raw := range owner.Repositories.Nodes {
			var full string
			if err := decodeRaw(raw["nameWithOwner"], &full); err != nil {
				return namesFound{}, err
			}
			o, name, _ := strings.Cut(full, "/")
			if !id.CanRead(o, name) {
				found.hidden++
				continue
			}
			found.repos = append(found.repos, repoNames{full: full, raw: raw})
		}
	}
	return found, nil
}

// names lists a connection's node names (name, title or login), leaving
// out issue types that are not enabled.
func (rn repoNames) names(alias string) []string {
	var conn struct {
		Nodes []struct {
			Name      string `json:"name"`
			Title     string `json:"title"`
			Login     string `json:"login"`
			IsEnabled *bool  `json:"isEnabled"`
		} `json:"nodes"`
	}
	if decodeRaw(rn.raw[alias], &conn) != nil {
		return nil
	}
	var out []string
	for _, n := range conn.Nodes {
		if n.IsEnabled != nil && !*n.IsEnabled {
			continue
		}
		out = append(out, clean(n.Name+n.Title+n.Login))
	}
	return out
}

// has reports whether the repository has the i-th filter's name n.
func (rn repoNames) has(i int, f namedFilter, n string) bool {
	switch f.kind {
	case filterLabel:
		j := slices.Index(f.names, n)
		return !isNull(rn.raw[fmt.Sprintf("l%d_%d", i, j)])
	case filterMilestone:
		return containsFold(rn.names(fmt.Sprintf("m%d", i)), n)
	case filterType:
		return containsFold(rn.names("issueTypes"), n)
	case filterAssignee:
		return containsFold(rn.names(fmt.Sprintf("a%d", i)), n)
	}
	return false
}

// candidates are the repository's names of kind, read with lists.
func (rn repoNames) candidates(kind filterKind) []string {
	switch kind {
	case filterLabel:
		return rn.names("labels")
	case filterMilestone:
		return rn.names("milestones")
	case filterType:
		return rn.names("issueTypes")
	}
	return rn.names("assignableUsers")
}
