package projects

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// What a filter's values say about the board. GitHub answers a value the
// board does not know (a misspelled status, a label no item carries) with
// no rows, the same answer as "no item has it now"; excluded (-label:x),
// with every row, as if x were left out. So each value is checked, and
// one that matches nothing the board knows is named in a note with the
// closest names. Options and iterations come with the board, at no cost,
// and are checked on every call. Labels, milestones and assignees are read
// from the board's own items (boardValues): those are exactly what the
// filter is matched against (a label the repository has but no item
// carries matches nothing either), where the repositories' metadata would
// take one read per repository and still not say what the board holds.
// That read is made only when it can tell something: for an included
// value when the page came back empty, for an excluded one always.

// checkedTypes are the field types whose values are checked, and what a
// note calls their values.
var checkedTypes = map[string]string{"SINGLE_SELECT": "option", "ITERATION": "iteration",
	"LABELS": "label", "MILESTONE": "milestone", "ASSIGNEES": "assignee"}

// filterNotes names the values of terms owner's board b does not know; empty is
// whether the page came back with no rows.
func (s *Tools) filterNotes(ctx context.Context, c *github.Client, owner string, b *board, terms []filterTerm, empty bool) []string {
	var notes []string
	var onItems []filterTerm
	for _, t := range terms {
		if t.field == nil || checkedTypes[t.field.DataType] == "" {
			continue
		}
		switch t.field.DataType {
		case "SINGLE_SELECT", "ITERATION":
			for _, v := range t.values {
				if n := fieldValueNote(t, v); n != "" {
					notes = append(notes, n)
				}
			}
		default:
			if t.negate || empty {
				onItems = append(onItems, t)
			}
		}
	}
	if len(onItems) == 0 {
		return notes
	}
	vals, err := s.readBoardValues(ctx, c, owner, b)
	if err != nil {
		return append(notes, "whether the filter's labels, milestones and assignees are on the board's items could not be checked")
	}
	for _, t := range onItems {
		for _, v := range t.values {
			if n := vals.note(t, v); n != "" {
				notes = append(notes, n)
			}
		}
	}
	return notes
}

// fieldValueNote names value v of an option or iteration term when the
// field has no such option or iteration; "" when it has, or when v is no
// name (an @ word such as @current, a comparison, a wildcard).
func fieldValueNote(t filterTerm, v string) string {
	if v == "" || strings.ContainsAny(v, "*<>@") || strings.Contains(v, "..") {
		return ""
	}
	names := choices(t.field)
	if slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, v) }) {
		return ""
	}
	if t.field.DataType == "ITERATION" {
		names = slices.DeleteFunc(names, func(n string) bool { return strings.HasPrefix(n, "@") })
	}
	what := fmt.Sprintf("%s %q is no %s of field %q", t.key, v, checkedTypes[t.field.DataType], t.field.Name)
	return what + effect(t) + offer(v, names, "it takes", true)
}

// effect says what an unknown value does to the page.
func effect(t filterTerm) string {
	if t.negate {
		return ", so excluding it leaves out nothing"
	}
	return ", so it matches no item"
}

// offer names the closest of names to v or, with none close (and all
// set), the names themselves: "; closest: …" or "; it takes …".
func offer(v string, names []string, lead string, all bool) string {
	if close := toolkit.CloseMatches(v, names); len(close) > 0 {
		return "; closest: " + strings.Join(quoted(close), ", ")
	}
	switch {
	case len(names) == 0:
		return ""
	case !all && len(names) > 5:
		return fmt.Sprintf("; %s %s and %d more", lead, strings.Join(quoted(names[:5]), ", "), len(names)-5)
	}
	return "; " + lead + " " + strings.Join(quoted(names), ", ")
}
