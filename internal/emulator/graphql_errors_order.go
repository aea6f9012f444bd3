package emulator

import (
	"slices"

	"github.com/vektah/gqlparser/v2/gqlerror"
)

// inDocumentOrder orders validation errors as GitHub lists them. GitHub's
// graphql-ruby runs every static validation rule in one walk of the
// document and reports each problem as the walk reaches it, so its errors
// come in document order; gqlparser runs its rules one after another and
// groups the errors by rule. Clients read the first error (GitHub's MCP
// server matches it to decide whether a field exists), so the order
// matters. Errors without a location keep their place at the end.
func inDocumentOrder(errs gqlerror.List) gqlerror.List {
	out := slices.Clone(errs)
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
