package projects

import (
	"strings"

	"github.com/ghgate/ghgate/internal/github"
)

// A board's items are filtered by GitHub (items(query:)), in its project
// filter syntax. ghgate reads the filter's qualifiers first, against the
// board it already knows: a qualifier naming no field is refused with the
// closest fields (filter_fields.go), and values the board does not know
// are named in a note beside the page (filter_values.go), since GitHub
// answers them with no rows, the same answer as "no item has it".

// filterAliases are the qualifier names GitHub accepts for built-in
// fields besides the fields' own names, and qualifiers that name no field.
var (
	filterAliases = map[string]string{
		"assignee": "ASSIGNEES", "assignees": "ASSIGNEES", "label": "LABELS", "labels": "LABELS",
		"repo": "REPOSITORY", "repository": "REPOSITORY", "milestone": "MILESTONE", "title": "TITLE",
	}
	filterQualifiers = map[string]bool{"is": true, "has": true, "no": true}
)

// A filterTerm is one qualifier of a filter: [-]key:value[,value...].
type filterTerm struct {
	at     int // the token's index in splitFilter's answer
	negate bool
	key    string // normalized (normKey)
	values []string
	// field is the field the key names; nil for is:, has: and no:.
	field *github.ProjectField
}

// filterTerms reads the qualifiers of s; free text is left out.
func filterTerms(s string) []filterTerm {
	var out []filterTerm
	for i, tok := range splitFilter(s) {
		t := filterTerm{at: i}
		if strings.HasPrefix(tok, "-") {
			t.negate, tok = true, tok[1:]
		}
		key, val, ok := strings.Cut(tok, ":")
		if !ok || key == "" {
			continue
		}
		t.key, t.values = normKey(key), splitValues(val)
		out = append(out, t)
	}
	return out
}

// filterField finds the field a qualifier's key names on board p.
func filterField(p *github.ProjectV2, key string) *github.ProjectField {
	typ := filterAliases[key]
	for i := range p.Fields {
		if p.Fields[i].DataType == typ || normKey(p.Fields[i].Name) == key {
			return &p.Fields[i]
		}
	}
	return nil
}

// filterKeys are the keys that name p's fields, as a filter writes them.
func filterKeys(p *github.ProjectV2) []string {
	out := make([]string, len(p.Fields))
	for i, f := range p.Fields {
		out[i] = normKey(f.Name)
	}
	return out
}

func normKey(k string) string {
	return strings.ReplaceAll(strings.ToLower(strings.Trim(k, `"`)), " ", "-")
}

// splitFilter splits on spaces outside double quotes, quotes kept.
func splitFilter(s string) []string {
	return splitOutsideQuotes(s, func(r rune) bool { return r == ' ' || r == '\t' }, true)
}

// splitValues splits a qualifier's value on commas outside quotes (each
// one an alternative) and unquotes each.
func splitValues(v string) []string {
	out := splitOutsideQuotes(v, func(r rune) bool { return r == ',' }, false)
	for i := range out {
		out[i] = strings.TrimSpace(out[i])
	}
	return out
}

// splitOutsideQuotes splits s where sep holds outside double quotes,
// leaving out empty parts; keep says whether the quotes stay.
func splitOutsideQuotes(s string, sep func(rune) bool, keep bool) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			if keep {
				cur.WriteRune(r)
			}
		case sep(r) && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
			}
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// quoteValue writes a value back as a filter takes it: quoted when it
// holds a space or a comma.
func quoteValue(v string) string {
	if strings.ContainsAny(v, " \t,") {
		return `"` + v + `"`
	}
	return v
}

// withToken returns filter s with its i-th token replaced by tok.
func withToken(s string, i int, tok string) string {
	toks := splitFilter(s)
	toks[i] = tok
	return strings.Join(toks, " ")
}

// token writes a term back as a filter token.
func (t filterTerm) token(key string, values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = quoteValue(v)
	}
	tok := key + ":" + strings.Join(q, ",")
	if t.negate {
		tok = "-" + tok
	}
	return tok
}
