package search

import (
	"strings"
	"unicode"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// An issue search query (GET /search/issues's q, GraphQL's search(query:)
// with type ISSUE), read as GitHub's "Filtering and searching issues and
// pull requests" describes it: words and qualifiers separated by spaces are
// all required; a leading "-" excludes what a qualifier or word matches;
// values with spaces are quoted (label:"in progress"); NOT before a term
// excludes it as "-" does; OR and parentheses
// combine terms, as advanced issue search allows (gh groups repeated repo:
// and user: qualifiers so). Repeated repo:, user:, org: and owner:
// qualifiers without an explicit operator widen the scope rather than
// narrow it, as the legacy search GitHub's REST clients still rely on does.
//
// The qualifiers themselves are compiled into predicates by
// qualifiers.go.

// searchExpr is a compiled query or part of one.
type searchExpr interface {
	match(is *state.Issue) bool
}

// searchAll matches when every part matches (the empty one matches all).
type searchAll []searchExpr

func (a searchAll) match(is *state.Issue) bool {
	for _, e := range a {
		if !e.match(is) {
			return false
		}
	}
	return true
}

// searchAny matches when one of its parts matches.
type searchAny []searchExpr

func (a searchAny) match(is *state.Issue) bool {
	for _, e := range a {
		if e.match(is) {
			return true
		}
	}
	return false
}

// searchNot excludes what its part matches.
type searchNot struct{ e searchExpr }

func (n searchNot) match(is *state.Issue) bool { return !n.e.match(is) }

// searchPred is one qualifier's test.
type searchPred func(is *state.Issue) bool

func (p searchPred) match(is *state.Issue) bool { return p(is) }

// Query is a parsed query.
type Query struct {
	expr searchExpr
	// Repos and Owners are the repositories (owner/name) and accounts that
	// positive repo:, user:, org: and owner: qualifiers name: GitHub refuses
	// a query naming one the caller cannot see.
	Repos, Owners []string
	// People are the logins the user qualifiers name (see UnknownPeople).
	People []Person
	// Sort and Order come from a sort: qualifier ("created", "asc").
	Sort, Order string
	// in lists where words are looked for (title, body, comments); empty
	// means title and body.
	in []string
}

// Match reports whether an issue or pull request answers the query.
func (q *Query) Match(is *state.Issue) bool { return !is.Deleted && q.expr.match(is) }

// searchToken is one word of a query, or a parenthesis.
type searchToken struct {
	text   string // without quotes and without the leading "-"
	neg    bool
	quoted bool // the word held a quoted part
	paren  byte // '(' or ')' for a parenthesis, else 0
}

// tokenize splits a query on spaces and parentheses outside double
// quotes. A quote may open anywhere in a word (label:"in progress").
func tokenize(q string) []searchToken {
	var out []searchToken
	rs := []rune(q)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
			continue
		case r == '(' || r == ')':
			out = append(out, searchToken{paren: byte(r)})
			i++
			continue
		}
		var t searchToken
		if r == '-' && i+1 < len(rs) && !unicode.IsSpace(rs[i+1]) {
			t.neg = true
			i++
			if rs[i] == '(' {
				// -( ... ) negates a group: the marker is a token of its own.
				out = append(out, searchToken{neg: true, paren: '('})
				i++
				continue
			}
		}
		var b strings.Builder
		quoted := false
		for ; i < len(rs); i++ {
			c := rs[i]
			if c == '"' {
				quoted = !quoted
				t.quoted = true
				continue
			}
			if !quoted && (unicode.IsSpace(c) || c == ')' || (c == '(' && b.Len() == 0)) {
				break
			}
			b.WriteRune(c)
		}
		t.text = b.String()
		if t.text != "" || t.quoted {
			out = append(out, t)
		}
	}
	return out
}

// searchParser reads tokens into an expression.
type searchParser struct {
	toks   []searchToken
	pos    int
	viewer string // the caller's login, for @me
	q      *Query
}

// Parse parses q for the caller viewer (who @me stands for).
func Parse(q, viewer string) *Query {
	out := &Query{}
	p := &searchParser{toks: tokenize(q), viewer: viewer, q: out}
	var parts searchAll
	for p.pos < len(p.toks) {
		e := p.or()
		if e != nil {
			parts = append(parts, e)
		}
		if p.pos < len(p.toks) && p.toks[p.pos].paren == ')' {
			p.pos++ // an unbalanced ")" is skipped, as GitHub tolerates it
		}
	}
	out.expr = parts
	return out
}

func (p *searchParser) isOr() bool {
	t := p.toks[p.pos]
	return t.paren == 0 && !t.neg && !t.quoted && t.text == "OR"
}

// or is and-groups joined by OR.
func (p *searchParser) or() searchExpr {
	alts := searchAny{p.and()}
	for p.pos < len(p.toks) && p.isOr() {
		p.pos++
		alts = append(alts, p.and())
	}
	if len(alts) == 1 {
		return alts[0]
	}
	return alts
}

// and is terms side by side (or joined by AND), all required. Positive
// scope qualifiers of one kind among them are alternatives.
func (p *searchParser) and() searchExpr {
	var all searchAll
	scopes := map[string]searchAny{}
	var scopeOrder []string
	for p.pos < len(p.toks) {
		t := p.toks[p.pos]
		if t.paren == ')' || p.isOr() {
			break
		}
		p.pos++
		if t.paren == 0 && !t.neg && !t.quoted && t.text == "AND" {
			continue
		}
		if t.paren == 0 && !t.neg && !t.quoted && t.text == "NOT" && p.pos < len(p.toks) && p.toks[p.pos].paren == 0 {
			// NOT excludes the term that follows, as a leading "-" does.
			t = p.toks[p.pos]
			t.neg = !t.neg
			p.pos++
		}
		if t.paren == '(' {
			inner := p.or()
			if p.pos < len(p.toks) && p.toks[p.pos].paren == ')' {
				p.pos++
			}
			if t.neg {
				inner = searchNot{inner}
			}
			all = append(all, inner)
			continue
		}
		e, scope := p.term(t)
		if e == nil {
			continue
		}
		if scope != "" && !t.neg {
			if _, seen := scopes[scope]; !seen {
				scopeOrder = append(scopeOrder, scope)
			}
			scopes[scope] = append(scopes[scope], e)
			continue
		}
		if t.neg {
			e = searchNot{e}
		}
		all = append(all, e)
	}
	for _, s := range scopeOrder {
		all = append(all, scopes[s])
	}
	return all
}

// term compiles one word: a qualifier (key:value) the emulator knows, or
// else a word to find in the text. scope names the kind of a scope
// qualifier ("repo", "owner"), "" for others. A nil expression is a term
// that filters nothing (in:, sort:).
func (p *searchParser) term(t searchToken) (searchExpr, string) {
	key, val, ok := strings.Cut(t.text, ":")
	if ok && val != "" && !strings.ContainsAny(key, " \t") {
		if e, scope, known := p.qualifier(strings.ToLower(key), val, t.neg); known {
			return e, scope
		}
	}
	return p.text(t.text), ""
}

// text finds a word or quoted phrase in the fields in: names, ignoring
// case. The fields are read when matching, since in: may come after.
func (p *searchParser) text(s string) searchExpr {
	needle := strings.ToLower(s)
	q := p.q
	return searchPred(func(is *state.Issue) bool {
		return strings.Contains(issueText(is, q.in), needle)
	})
}

// issueText is the lower-cased text of the fields a search looks in.
func issueText(is *state.Issue, in []string) string {
	fields := in
	if len(fields) == 0 {
		fields = []string{"title", "body"}
	}
	var b strings.Builder
	for _, f := range fields {
		switch f {
		case "title":
			b.WriteString(is.Title)
		case "body":
			if is.Body != nil {
				b.WriteString(*is.Body)
			}
		case "comments":
			for _, c := range is.Comments {
				b.WriteString(c.Body)
				b.WriteByte('\n')
			}
		}
		b.WriteByte('\n')
	}
	return strings.ToLower(b.String())
}

// Terms is a query's words as plain strings ("-" kept on a negated
// one, parentheses dropped), for the user and repository searches, whose
// qualifiers are simple key:value words.
func Terms(q string) []string {
	var out []string
	for _, t := range tokenize(q) {
		if t.paren != 0 {
			continue
		}
		if t.neg {
			out = append(out, "-"+t.text)
			continue
		}
		out = append(out, t.text)
	}
	return out
}
