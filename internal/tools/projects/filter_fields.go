package projects

import (
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// checkFilter reads in's filter against board p: its terms, each with the
// field it names, or the refusal of the first qualifier that names no
// field (a key, or a field in has: and no:). GitHub refuses such a filter
// as a whole, so nothing could match: it is refused here, before the
// read, with the board's closest fields.
func checkFilter(in ListProjectItemsIn, p *github.ProjectV2) ([]filterTerm, error) {
	terms := filterTerms(strings.TrimSpace(in.Filter))
	for k := range terms {
		t := &terms[k]
		switch {
		case t.key == "has" || t.key == "no":
			for j, v := range t.values {
				if filterField(p, normKey(v)) == nil {
					return nil, unknownFilterField(in, p, *t, j)
				}
			}
		case filterQualifiers[t.key]:
		default:
			if t.field = filterField(p, t.key); t.field == nil {
				return nil, unknownFilterField(in, p, *t, -1)
			}
		}
	}
	return terms, nil
}

// unknownFilterField refuses term t, whose key (or, at j >= 0, its j-th
// value, a field of has: or no:) names no field of p. The repair lists
// the items again with the closest field in its place when one is close
// enough to be the one meant, else lists the board with its fields.
func unknownFilterField(in ListProjectItemsIn, p *github.ProjectV2, t filterTerm, j int) error {
	name := t.key
	if j >= 0 {
		name = normKey(t.values[j])
	}
	keys := filterKeys(p)
	ranked := toolkit.RankNames(name, keys)
	e := refuse(contract.CodeProjectFieldNotFound, "filter", "names no field of the project",
		"project #%d %q has no field %q to filter on; its fields are %s", p.Number, p.Title, name, strings.Join(keys, ", "))
	e.Details.Value = keys
	list := contract.Repair{NextStep: "pick a field from details.value; the project's listing shows each field's values",
		Tool: NameListProjects, Arguments: ListProjectsIn{Owner: in.Owner, Query: p.Title}}
	if len(ranked) == 0 || ranked[0].Score >= toolkit.WeakMatch {
		return e.WithRepair(list)
	}
	closest := ranked[0].Name
	e.Details.Value = toolkit.CloseMatches(name, keys)
	tok := t.token(closest, t.values)
	if j >= 0 {
		values := append([]string(nil), t.values...)
		values[j] = closest
		tok = t.token(t.key, values)
	}
	again := in
	again.Filter, again.Cursor = withToken(strings.TrimSpace(in.Filter), t.at, tok), ""
	return e.WithRepair(contract.Repair{NextStep: fmt.Sprintf("list again with field %s, the closest; details.value lists the close ones", closest),
		Tool: NameListProjectItems, Arguments: again, Alternative: list.NextStep + " (" + NameListProjects + ")"})
}
