package issues

import (
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/searchquery"
)

// The names a search filters on. GitHub answers a filter naming a label,
// milestone or issue type the repository lacks with no rows, the same
// answer as "no issue has it"; so when a first page comes back empty,
// github_search_issues checks the names it filtered on (search_names_check.go)
// and says which do not exist. Nothing is read when rows come back.

// filterKind is what a named filter names; it is also the qualifier that
// names it in a query.
type filterKind string

// The kinds of named filter.
const (
	filterLabel     filterKind = "label"
	filterMilestone filterKind = "milestone"
	filterType      filterKind = "type"
	filterAssignee  filterKind = "assignee"
	filterAuthor    filterKind = "author"
)

// person reports whether the kind names a GitHub account.
func (k filterKind) person() bool { return k == filterAssignee || k == filterAuthor }

// A namedFilter is one name every row must carry: a label (or one of
// names, for label:a,b), a milestone's title, an issue type, an
// assignee's or an author's login.
type namedFilter struct {
	kind  filterKind
	names []string
	// field is the argument that named it: labels, assignee, author or
	// query; at is its index in labels, or its token's in the query.
	field string
	at    int
}

// namedFilters lists the names in that every row must carry, as the
// arguments and the query's qualifiers give them. A query with OR or
// parentheses is read for its arguments only: a name in it may be one
// alternative among others, and missing, need not empty the page. Words
// that are no name (none, @me, an app, is:issue's type:issue) are left
// out, and so are excluded ones (-label:x).
func (in SearchIssuesIn) namedFilters() []namedFilter {
	var out []namedFilter
	add := func(f namedFilter) {
		same := func(g namedFilter) bool {
			return g.kind == f.kind && slices.EqualFunc(g.names, f.names, strings.EqualFold)
		}
		if len(f.names) > 0 && !slices.ContainsFunc(out, same) {
			out = append(out, f)
		}
	}
	for i, l := range in.Labels {
		add(namedFilter{kind: filterLabel, names: []string{l}, field: "labels", at: i})
	}
	if login, ok := personName(filterAssignee, in.Assignee); ok {
		add(namedFilter{kind: filterAssignee, names: []string{login}, field: "assignee"})
	}
	if login, ok := personName(filterAuthor, in.Author); ok {
		add(namedFilter{kind: filterAuthor, names: []string{login}, field: "author"})
	}
	tokens := searchquery.Tokens(in.Query)
	if slices.ContainsFunc(tokens, func(t string) bool {
		return strings.EqualFold(t, "OR") || strings.ContainsAny(t, "()")
	}) {
		return out
	}
	for i, tok := range tokens {
		if strings.HasPrefix(tok, "-") || i > 0 && strings.EqualFold(tokens[i-1], "NOT") {
			continue
		}
		key, val, ok := strings.Cut(tok, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(strings.ReplaceAll(val, `"`, ""))
		f := namedFilter{kind: filterKind(strings.ToLower(key)), field: "query", at: i}
		switch f.kind {
		case filterLabel:
			for _, n := range strings.Split(val, ",") {
				if n = strings.TrimSpace(n); n != "" {
					f.names = append(f.names, n)
				}
			}
		case filterMilestone:
			f.names = []string{val}
		case filterType:
			if v := strings.ToLower(val); v != "issue" && v != "pr" && v != "pull-request" && val != "" {
				f.names = []string{val}
			}
		case filterAssignee, filterAuthor:
			if login, ok := personName(f.kind, val); ok {
				f.names = []string{login}
			}
		}
		add(f)
	}
	return out
}

// personName is the login a person filter names, or false for the words
// that name none (none, @me) and for an app (app/slug), which is no user.
func personName(kind filterKind, v string) (string, bool) {
	if v == "" || v == "@me" || kind == filterAssignee && strings.EqualFold(v, "none") ||
		strings.HasPrefix(strings.ToLower(v), "app/") || github.CheckOwner(v) != nil {
		return "", false
	}
	return v, true
}

// with returns in, from its first page, with the filter naming name
// instead: a repair's arguments. It returns false where no single name
// can stand in (label:a,b), or name could not be written as a qualifier.
func (f namedFilter) with(in SearchIssuesIn, name string) (SearchIssuesIn, bool) {
	in.Cursor = ""
	switch {
	case len(f.names) != 1 || strings.ContainsAny(name, `,"`):
		return in, false
	case f.field == "labels":
		in.Labels = slices.Clone(in.Labels)
		in.Labels[f.at] = name
	case f.field == "assignee":
		in.Assignee = name
	case f.field == "author":
		in.Author = name
	default:
		tokens := searchquery.Tokens(in.Query)
		tokens[f.at] = string(f.kind) + ":" + quoteQualifier(name)
		in.Query = strings.Join(tokens, " ")
	}
	return in, true
}

// scopeOfNames is where the names are looked for: owner and repo for one
// repository (the arguments', or the one repo: the query names), owner
// alone for an owner's repositories, neither for a search everywhere.
func (in SearchIssuesIn) scopeOfNames() (owner, repo string) {
	owner, repo = in.routedOwner(), in.Repo
	if repo != "" {
		return owner, repo
	}
	refs := searchquery.Refs(searchquery.Tokens(in.Query))
	if len(refs) == 1 && refs[0].Name == "repo" && !refs[0].AfterNOT && refs[0].Repo != "" &&
		searchquery.SameOwner(refs[0].Owner, owner) {
		return owner, refs[0].Repo
	}
	return owner, ""
}
