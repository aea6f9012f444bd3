package issues

import (
	"strconv"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// CommentsPerChunk is how many comments github_get_issue returns at once,
// and so the size of each comment chunk a resource serves.
const CommentsPerChunk = commentsPerPage

// commentsFilters is what github_get_issue's comments cursor is bound to:
// the issue (the repository is bound by the pager).
func commentsFilters(number int) any { return struct{ Number int }{number} }

// CommentsCursor is github_get_issue's comments_cursor for chunk (from 1)
// of an issue's comments; "" for the first, which takes none. Resources
// address comment chunks by number, so a chunk's URI stays the same for
// every reader and cache, and github_get_issue answers them.
func CommentsCursor(s *toolkit.Service, owner, repo string, number, chunk int) string {
	if chunk <= 1 {
		return ""
	}
	return s.Cursors.Mint(toolkit.NameGetIssue, owner+"/"+repo, commentsFilters(number), strconv.Itoa(chunk))
}
