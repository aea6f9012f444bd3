package issues

import (
	"strconv"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// ListCursor is the cursor a listing of in (owner and repo set, on the
// list path) hands out for the page starting at upstream row pos: how
// tests make the cursors earlier versions minted.
func ListCursor(c *contract.Cursors, in SearchIssuesIn, pos int) string {
	return c.Mint(toolkit.NameSearchIssues, in.Owner+"/"+in.Repo, in.filters(SourceList), strconv.Itoa(pos))
}
