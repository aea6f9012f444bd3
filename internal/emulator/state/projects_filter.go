package state

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Project item filters, in the syntax GitHub documents for project views
// and the items API's q ("Filtering projects"): space-separated terms,
// all of which must hold; each term is free text (found in the title) or
// a qualifier key:value, where several comma-separated values are
// alternatives, a leading "-" negates, and quotes keep spaces in a value.
// The qualifiers:
//
//	<field>:value   any field by name, lower-cased, spaces as "-" or quoted
//	                (status:"In progress", target-date:>=2026-10-01,
//	                estimate:2..5, iteration:@current, notes:"support")
//	assignee:login  also @me; label:name; milestone:title;
//	                repo:owner/name; title:text
//	is:issue|pr|draft|open|closed|merged|archived
//	has:field, no:field
//
// Numbers and dates compare with >, >=, <, <= and a..b; dates also take
// @today and @today-Nd / @today+Nd; iterations @previous, @current, @next.
// Archived items are left out unless the filter says is:archived, as a
// board's views leave them out.

// ItemFilter is a parsed filter.
type ItemFilter struct {
	terms []filterTerm
	// archived is whether the filter asks for archived items (is:archived)
	// or for live ones (-is:archived or nothing about it).
	archived bool
}

type filterTerm struct {
	negate bool
	key    string // "" for free text
	values []string
}

// ParseItemFilter reads a filter against a board's fields: a qualifier
// naming no field the board has is an error that lists them.
func ParseItemFilter(p *Project, q string) (*ItemFilter, error) {
	f := &ItemFilter{}
	for _, tok := range splitFilter(q) {
		t := filterTerm{}
		if strings.HasPrefix(tok, "-") && len(tok) > 1 {
			t.negate, tok = true, tok[1:]
		}
		key, value, ok := cutQualifier(tok)
		if !ok {
			t.values = []string{unquote(tok)}
			f.terms = append(f.terms, t)
			continue
		}
		t.key = normalizeKey(key)
		t.values = splitValues(value)
		switch t.key {
		case "is":
			for _, v := range t.values {
				if !slices.Contains([]string{"issue", "pr", "draft", "open", "closed", "merged", "archived"}, strings.ToLower(v)) {
					return nil, fmt.Errorf("is:%s is not a filter: is takes issue, pr, draft, open, closed, merged or archived", v)
				}
				if strings.EqualFold(v, "archived") {
					f.archived = !t.negate
				}
			}
		case "has", "no":
			for _, v := range t.values {
				if filterField(p, normalizeKey(v)) == nil {
					return nil, unknownFilterField(p, v)
				}
			}
		default:
			if filterField(p, t.key) == nil {
				return nil, unknownFilterField(p, key)
			}
		}
		f.terms = append(f.terms, t)
	}
	return f, nil
}

func unknownFilterField(p *Project, key string) error {
	var names []string
	for _, f := range p.Fields {
		names = append(names, strings.ReplaceAll(strings.ToLower(f.Name), " ", "-"))
	}
	return fmt.Errorf("the project has no field %q to filter on (fields: %s)", key, strings.Join(names, ", "))
}

// filterAliases are the qualifier names GitHub accepts for built-in
// fields besides the fields' own names.
var filterAliases = map[string]string{
	"assignee": "ASSIGNEES", "assignees": "ASSIGNEES", "label": "LABELS", "labels": "LABELS",
	"repo": "REPOSITORY", "repository": "REPOSITORY", "milestone": "MILESTONE", "title": "TITLE",
}

// filterField finds the field a qualifier names.
func filterField(p *Project, key string) *ProjectField {
	if typ, ok := filterAliases[key]; ok {
		for _, f := range p.Fields {
			if f.DataType == typ {
				return f
			}
		}
	}
	for _, f := range p.Fields {
		if normalizeKey(f.Name) == key {
			return f
		}
	}
	return nil
}

func normalizeKey(k string) string {
	return strings.ReplaceAll(strings.ToLower(unquote(k)), " ", "-")
}

// splitFilter splits on spaces outside double quotes.
func splitFilter(q string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range q {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case (r == ' ' || r == '\t' || r == '\n') && !quoted:
			if cur.Len() > 0 {
				out = append(out, cur.String())
				cur.Reset()
			}
		default:
			cur.WriteRune(r)
		}
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

// cutQualifier splits key:value at the first colon outside quotes.
func cutQualifier(tok string) (key, value string, ok bool) {
	quoted := false
	for i, r := range tok {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ':' && !quoted && i > 0:
			return tok[:i], tok[i+1:], true
		}
	}
	return "", "", false
}

// splitValues splits on commas outside quotes and unquotes each value.
func splitValues(v string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range v {
		switch {
		case r == '"':
			quoted = !quoted
		case r == ',' && !quoted:
			out = append(out, cur.String())
			cur.Reset()
		default:
			cur.WriteRune(r)
		}
	}
	return append(out, cur.String())
}

func unquote(s string) string { return strings.Trim(s, `"`) }

// Match reports whether an item passes the filter. viewer stands for
// @me, today for @today and the current iteration.
func (f *ItemFilter) Match(it *ProjectItem, viewer *Account, today time.Time) bool {
	if it.Archived != f.archived {
		return false
	}
	for _, t := range f.terms {
		if t.match(it, viewer, today) == t.negate {
			return false
		}
	}
	return true
}

// match reports whether any of the term's values holds.
func (t filterTerm) match(it *ProjectItem, viewer *Account, today time.Time) bool {
	p := it.Project
	for _, v := range t.values {
		var ok bool
		switch t.key {
		case "":
			ok = strings.Contains(strings.ToLower(itemTitle(it)), strings.ToLower(v))
		case "is":
			ok = itemIs(it, strings.ToLower(v))
		case "has", "no":
			ok = hasValue(it, filterField(p, normalizeKey(v))) == (t.key == "has")
		default:
			ok = fieldMatches(it, filterField(p, t.key), v, viewer, today)
		}
		if ok {
			return true
		}
	}
	return false
}

func itemTitle(it *ProjectItem) string {
	if it.Draft != nil {
		return it.Draft.Title
	}
	if it.Issue != nil {
		return it.Issue.Title
	}
	return ""
}

func itemIs(it *ProjectItem, v string) bool {
	is := it.Issue
	switch v {
	case "issue":
		return is != nil && !is.IsPull
	case "pr":
		return is != nil && is.IsPull
	case "draft":
		return it.Draft != nil
	case "open":
		return is != nil && is.State == "open"
	case "closed":
		return is != nil && is.State == "closed"
	case "merged":
		return is != nil && is.Merged
	case "archived":
		return it.Archived
	}
	return false
}

func itemAssignees(it *ProjectItem) []*Account {
	if it.Draft != nil {
		return it.Draft.Assignees
	}
	if it.Issue != nil {
		return it.Issue.Assignees
	}
	return nil
}

// hasValue reports whether the item has a value for the field.
func hasValue(it *ProjectItem, f *ProjectField) bool {
	switch f.DataType {
	case "TITLE":
		return true
	case "ASSIGNEES":
		return len(itemAssignees(it)) > 0
	case "LABELS":
		return it.Issue != nil && len(it.Issue.Labels) > 0
	case "MILESTONE":
		return it.Issue != nil && it.Issue.Milestone != nil
	case "REPOSITORY":
		return it.Issue != nil
	case "LINKED_PULL_REQUESTS", "REVIEWERS":
		return false
	}
	return it.Value(f) != nil
}

// fieldMatches tests one value of a field qualifier.
func fieldMatches(it *ProjectItem, f *ProjectField, want string, viewer *Account, today time.Time) bool {
	switch f.DataType {
	case "TITLE":
		return strings.Contains(strings.ToLower(itemTitle(it)), strings.ToLower(want))
	case "ASSIGNEES":
		return slices.ContainsFunc(itemAssignees(it), func(a *Account) bool {
			return strings.EqualFold(a.Login, want) || (want == "@me" && a == viewer)
		})
	case "LABELS":
		return it.Issue != nil && slices.ContainsFunc(it.Issue.Labels, func(l *Label) bool { return strings.EqualFold(l.Name, want) })
	case "MILESTONE":
		return it.Issue != nil && it.Issue.Milestone != nil && strings.EqualFold(it.Issue.Milestone.Title, want)
	case "REPOSITORY":
		return it.Issue != nil && (strings.EqualFold(it.Issue.Repo.FullName(), want) || strings.EqualFold(it.Issue.Repo.Name, want))
	}
	v := it.Value(f)
	if v == nil {
		return false
	}
	switch f.DataType {
	case "TEXT":
		return strings.Contains(strings.ToLower(v.Text), strings.ToLower(want))
	case "SINGLE_SELECT":
		return strings.EqualFold(v.Option.Name, want)
	case "NUMBER":
		return compareRange(want, func(s string) (float64, bool) {
			n, err := strconv.ParseFloat(s, 64)
			return n, err == nil
		}, v.Number)
	case "DATE":
		d, err := time.Parse(time.DateOnly, v.Date)
		if err != nil {
			return false
		}
		return compareRange(want, func(s string) (float64, bool) {
			t, ok := filterDate(s, today)
			return float64(t.Unix()), ok
		}, float64(d.Unix()))
	case "ITERATION":
		if it := relativeIteration(f, want, today); it != nil {
			return v.Iteration == it
		}
		return strings.EqualFold(v.Iteration.Title, want)
	}
	return false
}

// compareRange matches a value against ">x", ">=x", "<x", "<=x", "a..b"
// or "x", reading bounds with parse.
func compareRange(want string, parse func(string) (float64, bool), got float64) bool {
	for _, op := range []string{">=", "<=", ">", "<"} {
		if rest, ok := strings.CutPrefix(want, op); ok {
			n, ok := parse(rest)
			if !ok {
				return false
			}
			switch op {
			case ">=":
				return got >= n
			case "<=":
				return got <= n
			case ">":
				return got > n
			}
			return got < n
		}
	}
	if lo, hi, ok := strings.Cut(want, ".."); ok {
		a, okA := parse(lo)
		b, okB := parse(hi)
		return okA && okB && got >= a && got <= b
	}
	n, ok := parse(want)
	return ok && got == n
}

// filterDate reads YYYY-MM-DD, @today or @today±Nd.
func filterDate(s string, today time.Time) (time.Time, bool) {
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	if rest, ok := strings.CutPrefix(s, "@today"); ok {
		if rest == "" {
			return day, true
		}
		n, err := strconv.Atoi(strings.TrimSuffix(rest, "d"))
		if err != nil || !strings.HasSuffix(rest, "d") {
			return time.Time{}, false
		}
		return day.AddDate(0, 0, n), true
	}
	t, err := time.Parse(time.DateOnly, s)
	return t, err == nil
}

// CurrentIteration is the field's iteration that holds today, nil if none.
func (f *ProjectField) CurrentIteration(today time.Time) *Iteration {
	d := today.UTC().Format(time.DateOnly)
	for _, it := range f.AllIterations() {
		if it.Contains(d) {
			return it
		}
	}
	return nil
}

// relativeIteration resolves @previous, @current and @next, nil for
// anything else.
func relativeIteration(f *ProjectField, want string, today time.Time) *Iteration {
	all := f.AllIterations()
	slices.SortFunc(all, func(a, b *Iteration) int { return strings.Compare(a.StartDate, b.StartDate) })
	cur := slices.Index(all, f.CurrentIteration(today))
	at := -1
	switch strings.ToLower(want) {
	case "@current":
		at = cur
	case "@next":
		if cur >= 0 {
			at = cur + 1
		}
	case "@previous":
		if cur > 0 {
			at = cur - 1
		}
	default:
		return nil
	}
	if at < 0 || at >= len(all) {
		return &Iteration{} // names no iteration: matches nothing
	}
	return all[at]
}
