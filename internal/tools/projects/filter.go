package projects

import (
	"strconv"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// GitHub's published GraphQL schema gives a board's items no query
// argument, so ghgate reads the items and applies GitHub's project filter
// syntax itself: FIELD:value (values split by commas match any; "quoted"
// values hold spaces; a field's spaces may be written as hyphens),
// -FIELD:value to exclude, >, >=, <, <= before numbers and dates,
// @current/@next for iterations and @today for dates, no:FIELD and
// has:FIELD, is:issue|pr|draft|open|closed|merged|archived,
// assignee:, label:, repo:owner/name, and words matched in the title.

// term is one qualifier of a filter.
type term struct {
	neg    bool
	key    string // "" for a title word
	values []string
}

// filter is a parsed filter, checked against the board.
type filter struct {
	terms []term
	b     *github.ProjectV2
	day   string
}

// splitFilter splits on spaces outside quotes, dropping the quotes.
func splitFilter(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, has := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, has = !quoted, true
		case (r == ' ' || r == '\t') && !quoted:
			if has {
				out = append(out, cur.String())
			}
			cur.Reset()
			has = false
		default:
			cur.WriteRune(r)
			has = true
		}
	}
	if has {
		out = append(out, cur.String())
	}
	return out
}

var qualifiers = map[string]bool{"is": true, "no": true, "has": true, "assignee": true, "label": true, "repo": true}

// parseFilter parses s against board p; a qualifier that names neither a
// field of p nor one of the built-in qualifiers is refused with the
// board's fields.
func parseFilter(s string, p *github.ProjectV2, today time.Time) (*filter, *contract.Error) {
	f := &filter{b: p, day: today.UTC().Format(time.DateOnly)}
	for _, tok := range splitFilter(s) {
		t := term{}
		if strings.HasPrefix(tok, "-") && strings.Contains(tok, ":") {
			t.neg, tok = true, tok[1:]
		}
		key, val, ok := strings.Cut(tok, ":")
		if !ok {
			f.terms = append(f.terms, term{values: []string{tok}})
			continue
		}
		t.key = strings.ToLower(key)
		t.values = strings.Split(val, ",")
		if !qualifiers[t.key] && f.field(t.key) == nil {
			return nil, fieldNotFound(p, "filter", key)
		}
		if t.key == "no" || t.key == "has" {
			for _, v := range t.values {
				if f.field(strings.ToLower(v)) == nil && !qualifiers[strings.ToLower(v)] {
					return nil, fieldNotFound(p, "filter", v)
				}
			}
		}
		f.terms = append(f.terms, t)
	}
	return f, nil
}

// field finds a board field by a filter's spelling of its name.
func (f *filter) field(key string) *github.ProjectField {
	norm := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "-") }
	for i := range f.b.Fields {
		if norm(f.b.Fields[i].Name) == norm(key) {
			return &f.b.Fields[i]
		}
	}
	return nil
}

func (f *filter) match(it *github.ProjectItem) bool {
	for _, t := range f.terms {
		if f.matchTerm(it, t) == t.neg {
			return false
		}
	}
	return true
}

func (f *filter) matchTerm(it *github.ProjectItem, t term) bool {
	any := func(pred func(v string) bool) bool {
		for _, v := range t.values {
			if pred(v) {
				return true
			}
		}
		return false
	}
	switch t.key {
	case "":
		return strings.Contains(strings.ToLower(it.Title), strings.ToLower(t.values[0]))
	case "is":
		return any(func(v string) bool { return isMatch(it, strings.ToLower(v)) })
	case "no", "has":
		return any(func(v string) bool { return f.hasValue(it, strings.ToLower(v)) == (t.key == "has") })
	case "assignee":
		return any(func(v string) bool { return containsFold(it.Assignees, strings.TrimPrefix(v, "@")) })
	case "label":
		return any(func(v string) bool { return containsFold(it.Labels, v) })
	case "repo":
		return any(func(v string) bool { return strings.EqualFold(it.Repo, v) })
	}
	fld := f.field(t.key)
	var have *github.ProjectValue
	for i := range it.Values {
		if it.Values[i].Field == fld.Name {
			have = &it.Values[i]
		}
	}
	if have == nil {
		return false
	}
	return any(func(v string) bool { return f.valueMatch(fld, have, v) })
}

func isMatch(it *github.ProjectItem, v string) bool {
	switch v {
	case "issue":
		return it.Type == "ISSUE"
	case "pr":
		return it.Type == "PULL_REQUEST"
	case "draft":
		return it.Type == "DRAFT_ISSUE"
	case "archived":
		return it.Archived
	case "open", "closed", "merged":
		return strings.EqualFold(it.State, v)
	}
	return false
}

func (f *filter) hasValue(it *github.ProjectItem, key string) bool {
	switch key {
	case "assignee":
		return len(it.Assignees) > 0
	case "label":
		return len(it.Labels) > 0
	}
	fld := f.field(key)
	if fld == nil {
		return false
	}
	for _, v := range it.Values {
		if v.Field == fld.Name {
			return true
		}
	}
	return false
}

// valueMatch compares one value of an item with one of a term's.
func (f *filter) valueMatch(fld *github.ProjectField, have *github.ProjectValue, want string) bool {
	op := ""
	for _, o := range []string{">=", "<=", ">", "<"} {
		if strings.HasPrefix(want, o) {
			op, want = o, want[len(o):]
			break
		}
	}
	switch fld.DataType {
	case "NUMBER":
		n, err := strconv.ParseFloat(want, 64)
		return err == nil && compare(*have.Number-n, op)
	case "DATE":
		if strings.EqualFold(want, "@today") {
			want = f.day
		}
		return compare(float64(strings.Compare(have.Date, want)), op)
	case "ITERATION":
		if it := findIterationOn(fld, want, f.day); it != nil {
			return it.Title == have.Iteration
		}
		return strings.EqualFold(have.Iteration, want)
	case "SINGLE_SELECT":
		return strings.EqualFold(have.Option, want)
	}
	return strings.Contains(strings.ToLower(have.Text), strings.ToLower(want))
}

func compare(d float64, op string) bool {
	switch op {
	case ">":
		return d > 0
	case ">=":
		return d >= 0
	case "<":
		return d < 0
	case "<=":
		return d <= 0
	}
	return d == 0
}

func containsFold(list []string, s string) bool {
	for _, l := range list {
		if strings.EqualFold(l, s) {
			return true
		}
	}
	return false
}
