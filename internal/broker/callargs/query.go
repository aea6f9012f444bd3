package callargs

import (
	"errors"
	"regexp"
	"strings"

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

// refFound is what a scope qualifier names: repo:'s owner and
// repository, any other's owner.
func refFound(r searchquery.Ref) found {
	if r.Name == "repo" {
		return found{r.Owner, r.Repo}
	}
	return found{r.Owner, ""}
}

// graphQLDocument reports whether v is a GraphQL document: a selection
// set, or an operation or fragment definition, after any ignored tokens
// (white space, commas, byte order marks, comments ended by \n or \r). Such a
// document names what it acts on in its own syntax (repository(owner:…)),
// which the broker does not read.
func graphQLDocument(v string) bool {
	return graphQLStart.MatchString(v)
}

var graphQLStart = regexp.MustCompile(`^(?:[\s,\x{feff}]|#[^\r\n]*)*` +
	// an operation or fragment definition: keyword, name, variables or
	// type condition, directives, then its selection set
	`(?:(?:query|mutation|subscription)[\s,\x{feff}]*(?:[_A-Za-z][_0-9A-Za-z]*)?[\s,\x{feff}]*(?:\([^)]*\))?[\s,\x{feff}]*(?:@[^{]*)?` +
	`|fragment[\s,\x{feff}]+[_A-Za-z][_0-9A-Za-z]*[\s,\x{feff}]+on[\s,\x{feff}]+[_A-Za-z][_0-9A-Za-z]*[\s,\x{feff}]*(?:@[^{]*)?)?` +
	// a selection set opens with a field, an alias or a fragment spread
	`\{(?:[\s,\x{feff}]|#[^\r\n]*)*(?:[_A-Za-z]|\.\.\.)`)

// QueryRefs are the scope qualifiers of the call's "query" argument, read
// as [scopeRefs] reads them.
func (a Args) QueryRefs() []searchquery.Ref { return scopeRefs(a.Target.Query) }

// errGraphQL refuses a GraphQL document: it names what it acts on in its
// own syntax (repository(owner: …)), which the broker does not read.
var errGraphQL = errors.New("holds a GraphQL document or call, whose owners the broker does not read: call a tool that takes the owner and repository as arguments")
