package graphql

import (
	"slices"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
)

// inDocumentOrder lists validation errors as GitHub does. GitHub's
// graphql-ruby runs every static validation rule in one walk of the
// document and reports each problem as the walk reaches it, so its errors
// come in document order; gqlparser runs its rules one after another and
// groups the errors by rule. And graphql-ruby does not walk into a field
// the type lacks, nor into an inline fragment on a type the schema lacks
// (FieldsAreDefinedOnType and FragmentTypesExist stop there), so it
// reports nothing from inside them; gqlparser walks on and may. Clients
// read the first error (GitHub's MCP server matches it to learn which
// field is missing), so both matter. doc must have been validated: the
// validator records each field's definition on it. Errors without a
// location keep their place at the end.
func inDocumentOrder(schema *ast.Schema, doc *ast.QueryDocument, errs gqlerror.List) gqlerror.List {
	u := &unvisited{schema: schema, at: map[[2]int]bool{}}
	for _, op := range doc.Operations {
		u.walk(op.SelectionSet, false)
	}
	for _, f := range doc.Fragments {
		u.walk(f.SelectionSet, f.TypeCondition != "" && schema.Types[f.TypeCondition] == nil)
	}
	out := slices.DeleteFunc(slices.Clone(errs), func(e *gqlerror.Error) bool {
		return len(e.Locations) > 0 && u.at[[2]int{e.Locations[0].Line, e.Locations[0].Column}]
	})
	slices.SortStableFunc(out, func(a, b *gqlerror.Error) int {
		switch {
		case len(a.Locations) == 0 && len(b.Locations) == 0:
			return 0
		case len(a.Locations) == 0:
			return 1
		case len(b.Locations) == 0:
			return -1
		}
		la, lb := a.Locations[0], b.Locations[0]
		if la.Line != lb.Line {
			return la.Line - lb.Line
		}
		return la.Column - lb.Column
	})
	return out
}

// unvisited collects the positions of the nodes graphql-ruby would not
// walk: everything below a field its type lacks or below an inline
// fragment on a type the schema lacks.
type unvisited struct {
	schema *ast.Schema
	at     map[[2]int]bool
}

func (u *unvisited) mark(p *ast.Position) {
	if p != nil {
		u.at[[2]int{p.Line, p.Column}] = true
	}
}

// walk goes through a selection set; below says it already lies under a
// node graphql-ruby stops at.
func (u *unvisited) walk(set ast.SelectionSet, below bool) {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if below {
				u.mark(s.Position)
			}
			// The validator leaves Definition nil for a field its parent
			// type lacks (and ObjectDefinition nil below such a field).
			stop := below || (s.Definition == nil && s.ObjectDefinition != nil)
			if stop {
				for _, a := range s.Arguments {
					u.mark(a.Position)
					if a.Value != nil {
						u.mark(a.Value.Position)
					}
				}
			}
			u.walk(s.SelectionSet, stop)
		case *ast.InlineFragment:
			if below {
				u.mark(s.Position)
			}
			u.walk(s.SelectionSet, below || (s.TypeCondition != "" && u.schema.Types[s.TypeCondition] == nil))
		case *ast.FragmentSpread:
			if below {
				u.mark(s.Position)
			}
		}
	}
}
