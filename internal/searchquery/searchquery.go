// Package searchquery reads the scope qualifiers of a GitHub search query
// (user:, org:, repo:, owner:, project:) as GitHub reads them, and writes
// a query without some of them. GitHub ORs every repository scope in a
// query together, so a scope written in an agent's query text widens
// whatever scope the caller meant; whoever chooses a credential by owner
// must see them.
package searchquery

import (
	"slices"
	"strings"
	"unicode"
)

// scopeQualifiers are the qualifiers that choose the repositories searched:
// user:, org: and repo: as documented, owner: which GitHub accepts too, and
// project:OWNER/N, which names the owner whose issues it matches.
var scopeQualifiers = map[string]bool{"repo": true, "user": true, "org": true, "owner": true, "project": true}

// Ref is one value of a scope qualifier in the query text.
type Ref struct {
	tok   int    // index of its token in the query's tokens
	Name  string // qualifier name, lower-case
	Value string // the value as written, quotes removed
	Owner string // the owner it names, as written
	Repo  string // repo: only
	// AfterNOT marks a qualifier written after NOT. GitHub applies NOT to
	// words only, so it may still widen the scope, or it may narrow: it
	// cannot be relied on either way.
	AfterNOT bool
}

// Tokens splits the query on whitespace outside double quotes,
// keeping the quotes. An unmatched quote is read as a plain character, so
// it cannot hide the qualifiers after it.
func Tokens(q string) []string {
	unmatched := -1
	if strings.Count(q, `"`)%2 == 1 {
		unmatched = strings.LastIndex(q, `"`)
	}
	var out []string
	start, quoted := -1, false
	for i, r := range q {
		switch {
		case isSeparator(r) && !quoted:
			if start >= 0 {
				out = append(out, q[start:i])
				start = -1
			}
			continue
		case r == '"' && i != unmatched:
			quoted = !quoted
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, q[start:])
	}
	return out
}

// isSeparator reports whether r ends a token: white space, and the
// invisible format characters (a zero-width space, say) that a reader
// would take for none at all.
func isSeparator(r rune) bool {
	return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r)
}

// words are the pieces of tok that could each be a qualifier: tok itself
// (USER:"Alice" is one), and when it holds a quote or a parenthesis also
// its pieces between them and any separator, so a qualifier glued to a closing quote or hidden in a
// quoted phrase ("x"repo:a/b, "x repo:a/b") is still seen. Reading a
// quoted one as a scope over-reads; missing one would widen a search
// unseen.
func words(tok string) (pieces []string, split bool) {
	if !strings.ContainsAny(tok, `"()`) {
		return []string{tok}, false
	}
	pieces = []string{tok}
	var prev string
	for _, p := range strings.FieldsFunc(tok, func(r rune) bool {
		return r == '"' || r == '(' || r == ')' || r == '\\' || isSeparator(r)
	}) {
		// A quoted qualifier's value (label:"user:x") is a value.
		if !strings.HasSuffix(prev, ":") {
			pieces = append(pieces, p)
		}
		prev = p
	}
	return pieces, true
}

// isOperator reports whether tok is one of search's boolean operators
// (read case-insensitively: a lower-case one is cheaper to over-read than
// to miss).
func isOperator(tok string) bool {
	return isJoiner(tok) || strings.EqualFold(tok, "NOT")
}

// isJoiner reports whether tok is an operator between two terms.
func isJoiner(tok string) bool {
	return strings.EqualFold(tok, "AND") || strings.EqualFold(tok, "OR")
}

// parseScope reads a token as a scope qualifier: its name and the
// comma-separated values, and whether a leading minus excludes it.
// Grouping parentheses around it are ignored.
func parseScope(tok string) (name string, values []string, excluded, ok bool) {
	t := strings.ReplaceAll(tok, `"`, "")
	rest := strings.TrimLeftFunc(t, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	prefix := t[:len(t)-len(rest)]
	name, value, found := strings.Cut(rest, ":")
	name = strings.ToLower(name)
	if !found || !scopeQualifiers[name] {
		return "", nil, false, false
	}
	for _, v := range strings.Split(strings.TrimRight(value, ")"), ",") {
		if v = strings.TrimSpace(v); v != "" {
			values = append(values, v)
		}
	}
	// A single minus excludes; anything else in front (a doubled minus,
	// say) is not a documented exclusion and is read as a scope.
	return name, values, strings.Count(prefix, "-") == 1, len(values) > 0
}

// Refs lists the scope qualifiers of the query that can widen its
// scope: every one not excluded by a leading minus, and every one after
// NOT.
func Refs(tokens []string) []Ref {
	var out []Ref
	for i, tok := range tokens {
		afterNOT := i > 0 && strings.EqualFold(tokens[i-1], "NOT")
		pieces, split := words(tok)
		seen := map[string]bool{}
		for _, w := range pieces {
			name, values, excluded, ok := parseScope(w)
			// An exclusion counts only written plainly (-repo:a/b): one
			// inside quotes or parentheses may not be one to GitHub.
			if !ok || excluded && !afterNOT && !split {
				continue
			}
			for _, r := range refsOf(i, name, values, afterNOT) {
				if k := r.Name + ":" + r.Value; !seen[k] {
					seen[k] = true
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// refsOf are the Refs of one qualifier's values.
func refsOf(i int, name string, values []string, afterNOT bool) []Ref {
	var out []Ref
	for _, v := range values {
		r := Ref{tok: i, Name: name, Value: v, Owner: v, AfterNOT: afterNOT}
		switch name {
		case "repo":
			r.Owner, r.Repo, _ = strings.Cut(v, "/")
		case "project":
			owner, _, found := strings.Cut(v, "/")
			if !found {
				// A bare project number names no owner.
				continue
			}
			r.Owner = owner
		}
		out = append(out, r)
	}
	return out
}

// ViewerLogin is how search names the credential's own account; it never
// counts as the same owner as a named one, since which login it is depends
// on the credential.
const ViewerLogin = "@me"

// SameOwner compares logins as GitHub does, case-insensitively.
func SameOwner(a, b string) bool {
	return a != ViewerLogin && b != ViewerLogin && strings.EqualFold(a, b)
}

// Owners lists the distinct owners refs name, in the order first named;
// logins compare as [SameOwner] does, so @me is equal only to itself.
func Owners(refs []Ref) []string {
	var owners []string
	for _, r := range refs {
		if !slices.ContainsFunc(owners, func(o string) bool { return o == r.Owner || SameOwner(o, r.Owner) }) {
			owners = append(owners, r.Owner)
		}
	}
	return owners
}

// Within reports whether the qualifier stays inside owner (and repo, when
// given): a repo: of that repository, a project: of that owner, or, with no
// repo, any scope of that owner. user:, org: and owner: would widen a
// repository search to the whole owner.
func (r Ref) Within(owner, repo string) bool {
	switch {
	case !SameOwner(r.Owner, owner):
		return false
	case repo == "" || r.Name == "project":
		return true
	case r.Name == "repo":
		return strings.EqualFold(r.Repo, repo)
	default:
		return false
	}
}

// Rewrite is the query with the drop refs' values removed (a token
// left with none goes, with the NOTs before it and one AND or OR beside
// it) and the NOT before each exclude ref written as the documented
// leading minus. Parentheses of a removed token stay, so groups still
// balance.
func Rewrite(tokens []string, drop, exclude []Ref) string {
	dropped := map[int]map[string]bool{}
	for _, r := range drop {
		if dropped[r.tok] == nil {
			dropped[r.tok] = map[string]bool{}
		}
		dropped[r.tok][r.Value] = true
	}
	skip := map[int]bool{}
	kept := map[int]string{}
	for i, tok := range tokens {
		values := dropped[i]
		if values == nil {
			continue
		}
		name, all, _, _ := parseScope(tok)
		var left []string
		for _, v := range all {
			if !values[v] {
				left = append(left, v)
			}
		}
		if len(left) > 0 {
			kept[i] = leadingPart(tok) + name + ":" + strings.Join(left, ",") + trailingParens(tok)
			continue
		}
		skip[i] = true
		switch from := notsBefore(tokens, i); {
		case from < i:
			for j := from; j < i; j++ {
				skip[j] = true
			}
			if from > 0 && isJoiner(tokens[from-1]) && !skip[from-1] {
				skip[from-1] = true
			}
		case i > 0 && isJoiner(tokens[i-1]) && !skip[i-1]:
			skip[i-1] = true
		case i+1 < len(tokens) && isJoiner(tokens[i+1]):
			skip[i+1] = true
		}
	}
	negate := map[int]bool{}
	for _, r := range exclude {
		if r.AfterNOT && !skip[r.tok] {
			for j := notsBefore(tokens, r.tok); j < r.tok; j++ {
				skip[j] = true
			}
			negate[r.tok] = true
		}
	}
	var out []string
	pending := "" // opening parentheses of a removed token
	for i, tok := range tokens {
		if skip[i] {
			if isOperator(tok) {
				continue
			}
			// A removed token's parentheses stay where they still group
			// something; those that would enclose nothing cancel out.
			pending += strings.Repeat("(", strings.Count(leadingPart(tok), "("))
			for range len(trailingParens(tok)) {
				switch {
				case pending != "":
					pending = pending[1:]
				case len(out) > 0:
					out[len(out)-1] += ")"
				}
			}
			continue
		}
		if k, ok := kept[i]; ok {
			tok = k
		}
		if negate[i] {
			lead := leadingPart(tok)
			tok = strings.ReplaceAll(lead, "-", "") + "-" + tok[len(lead):]
		}
		out = append(out, pending+tok)
		pending = ""
	}
	if pending != "" {
		out = append(out, pending)
	}
	return strings.Join(out, " ")
}

// notsBefore is where the run of NOTs just before token i starts (i when
// there is none).
func notsBefore(tokens []string, i int) int {
	for i > 0 && strings.EqualFold(tokens[i-1], "NOT") {
		i--
	}
	return i
}

// leadingPart is what precedes a token's qualifier name: grouping
// parentheses and an exclusion minus.
func leadingPart(tok string) string {
	rest := strings.TrimLeftFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '"' })
	return tok[:len(tok)-len(rest)]
}

// trailingParens are the closing parentheses that end a token.
func trailingParens(tok string) string {
	return tok[len(strings.TrimRight(tok, ")")):]
}
