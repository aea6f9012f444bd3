package callargs

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/parser"

	"github.com/ghgate/ghgate/internal/percent"
	"github.com/ghgate/ghgate/internal/searchquery"
)

// scopeRefs are the scope qualifiers (repo:, org:, user:, owner:,
// project:) a search text names, read as whatever carries it may send
// it: as written, with '+' taken for a space (a query pasted from a
// search page's URL, or put in one unescaped), and with percent escapes
// decoded too (repo%3AOWNER/REPO). Reading a qualifier that was not meant
// can only refuse a call; missing one would widen a search unseen.
func scopeRefs(q string) []searchquery.Ref {
	var out []searchquery.Ref
	seen := map[string]bool{}
	readings := queryReadings(q)
	for i, text := range readings {
		for _, r := range searchquery.Refs(searchquery.Tokens(text)) {
			if i == 0 && len(readings) > 1 && strings.ContainsAny(r.Value, "+%") {
				// "org:a+is:open" as written: the other readings hold
				// what it says.
				continue
			}
			if k := r.Name + ":" + r.Value; !seen[k] {
				seen[k] = true
				out = append(out, r)
			}
		}
	}
	return out
}

// queryReadings are the texts q may be taken for (see [scopeRefs]).
func queryReadings(q string) []string {
	out := []string{q}
	if !strings.ContainsAny(q, "+%") {
		return out
	}
	spaced := strings.ReplaceAll(q, "+", " ")
	return append(out, spaced, strings.ReplaceAll(percent.Decode(spaced), "+", " "))
}

// uncheckableScope finds a qualifier whose scope no owner bounds:
// enterprise:SLUG reaches every organization of an enterprise.
func uncheckableScope(q string) (string, bool) {
	for _, text := range queryReadings(q) {
		for _, tok := range searchquery.Tokens(text) {
			for _, piece := range strings.FieldsFunc(tok, func(r rune) bool { return r == '"' || r == '(' || r == ')' }) {
				name, _, found := strings.Cut(strings.TrimLeft(piece, "-"), ":")
				if found && strings.EqualFold(name, "enterprise") {
					return piece, true
				}
			}
		}
	}
	return "", false
}

// errUncheckable refuses the qualifier piece, whose scope no owner bounds
// (see [uncheckableScope]).
func errUncheckable(piece string) error {
	return fmt.Errorf("has the qualifier %s, whose scope (every organization of an enterprise) no owner's route bounds: name the organization with org: instead", shown(piece))
}

// refFound is what a scope qualifier names: repo:'s owner and
// repository, any other's owner.
func refFound(r searchquery.Ref) found {
	if r.Name == "repo" {
		return found{r.Owner, r.Repo}
	}
	return found{r.Owner, ""}
}

// graphQLDocument reports whether v, trimmed as clients trim it, is a
// GraphQL document: one that GraphQL's grammar parses (an operation, a
// fragment, or a bare selection set, however its comments and white
// space run), or text that starts like one (a selection set, or query,
// mutation, subscription or fragment and a name) and passes arguments
// (repository(owner: …)). Such a document names what it acts on in its
// own syntax, which the broker does not read. Braces alone ("{{ name }}",
// a code search's "{ return err }") are not one.
func graphQLDocument(v string) bool {
	v = trimmed(v)
	if !strings.Contains(v, "{") {
		return false
	}
	if doc, err := parser.ParseQuery(&ast.Source{Input: v}); err == nil && len(doc.Operations)+len(doc.Fragments) > 0 {
		return true
	}
	return graphQLStart.MatchString(v) && graphQLArguments.MatchString(v)
}

var (
	graphQLStart = regexp.MustCompile(`^(?:[\s,\x{feff}]|#[^\r\n]*)*(?:\{|(?:query|mutation|subscription|fragment)\b)`)
	// graphQLArguments is a field or an operation given arguments:
	// name(arg: …), name($var: …).
	graphQLArguments = regexp.MustCompile(`[_A-Za-z][_0-9A-Za-z]*[\s,]*\([\s,]*\$?[_A-Za-z][_0-9A-Za-z]*[\s,]*:`)
)

// QueryRefs are the scope qualifiers of the call's "query" argument, read
// as [scopeRefs] reads them.
func (a Args) QueryRefs() []searchquery.Ref { return scopeRefs(a.Target.Query) }

// errGraphQL refuses a GraphQL document: it names what it acts on in its
// own syntax (repository(owner: …)), which the broker does not read.
var errGraphQL = errors.New("holds a GraphQL document or call, whose owners the broker does not read: call a tool that takes the owner and repository as arguments")
