package reports

import (
	"cmp"
	"context"
	"slices"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ordered sorts a report's rows by repository (case ignored), then
// number, and never returns nil: an empty report says rows: [].
func ordered[T any](rows []T, key func(T) (string, int)) []T {
	if rows == nil {
		return []T{}
	}
	slices.SortFunc(rows, func(a, b T) int {
		ra, na := key(a)
		rb, nb := key(b)
		return cmp.Or(byName(ra, rb), cmp.Compare(na, nb))
	})
	return rows
}

// readable reports whether the caller may read owner's repository repo
// ([caller.Identity.CanRead]). A report is authorized for its owner as a
// whole or for the repositories it names; the owner's listing, its
// organization lists and its search answer for every repository, and a
// row of one outside the caller's grant is left out all the same.
func readable(ctx context.Context, owner, repo string) bool {
	return caller.From(ctx).CanRead(owner, repo)
}

// skipCode is the error code a skipped repository or pull request is
// reported with.
func skipCode(err error) string {
	if e := toolkit.MapError(err); e != nil {
		return string(e.Code)
	}
	return string(contract.CodeInternal)
}
