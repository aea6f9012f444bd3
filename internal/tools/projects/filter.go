package projects

import (
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// A board's items are filtered by GitHub (items(query:)), in its project
// filter syntax. ghgate checks only the qualifiers' names first, against
// the board it already knows, so a misspelled field is refused with the
// board's fields and a listing to pick from instead of GitHub's bare
// error.

// filterAliases are the qualifier names GitHub accepts for built-in
// fields besides the fields' own names, and qualifiers that name no field.
var (
	filterAliases = map[string]string{
		"assignee": "ASSIGNEES", "assignees": "ASSIGNEES", "label": "LABELS", "labels": "LABELS",
		"repo": "REPOSITORY", "repository": "REPOSITORY", "milestone": "MILESTONE", "title": "TITLE",
	}
	filterQualifiers = map[string]bool{"is": true, "has": true, "no": true}
)

// checkFilter refuses a qualifier that names no field of board p.
func checkFilter(s string, p *github.ProjectV2) *contract.Error {
	for _, tok := range splitFilter(s) {
		tok = strings.TrimPrefix(tok, "-")
		key, val, ok := strings.Cut(tok, ":")
		if !ok || key == "" {
			continue
		}
		key = normKey(key)
		names := []string{key}
		if key == "has" || key == "no" {
			names = strings.Split(val, ",")
		} else if filterQualifiers[key] {
			continue
		}
		for _, n := range names {
			if !filterNames(p, normKey(n)) {
				return fieldNotFound(p, "filter", n)
			}
		}
	}
	return nil
}

func filterNames(p *github.ProjectV2, key string) bool {
	typ := filterAliases[key]
	for _, f := range p.Fields {
		if f.DataType == typ || normKey(f.Name) == key {
			return true
		}
	}
	return false
}

func normKey(k string) string {
	return strings.ReplaceAll(strings.ToLower(strings.Trim(k, `"`)), " ", "-")
}

// splitFilter splits on spaces outside double quotes.
func splitFilter(s string) []string {
	var out []string
	var cur strings.Builder
	quoted := false
	for _, r := range s {
		switch {
		case r == '"':
			quoted = !quoted
			cur.WriteRune(r)
		case (r == ' ' || r == '\t') && !quoted:
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
