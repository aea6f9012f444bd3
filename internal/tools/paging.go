package tools

import (
	"errors"
	"strconv"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// DefaultPageSize and MaxPageSize bound listings.
const (
	DefaultPageSize = 30
	MaxPageSize     = 100
)

// Page is the paging part of every listing's output.
type Page struct {
	HasMore    bool   `json:"has_more"`
	NextCursor string `json:"next_cursor,omitempty" jsonschema:"pass as cursor, with the same other arguments, for the next page; valid 15 minutes"`
	// Truncated is set when a cap kept some matching items out of reach.
	Truncated      bool   `json:"truncated,omitempty"`
	TruncationHint string `json:"truncation_hint,omitempty"`
}

// openCursor returns the upstream page a cursor points at (1 without a
// cursor). field names the argument that carried it; restart is the call
// that begins the listing again, for the repair of a cursor that cannot be
// used.
func (s *Service) openCursor(field, cursor, tool, repo string, filters any, restart any) (int, error) {
	if cursor == "" {
		return 1, nil
	}
	pos, err := s.Cursors.Open(cursor, tool, repo, filters)
	if err == nil {
		if p, convErr := strconv.Atoi(pos); convErr == nil && p >= 1 {
			return p, nil
		}
		err = contract.ErrCursorInvalid
	}
	code, msg := contract.CodeCursorInvalid, "the cursor was not minted for this listing (another tool, repository or set of filters)"
	if errors.Is(err, contract.ErrCursorExpired) {
		code, msg = contract.CodeCursorExpired, "the cursor is older than 15 minutes"
	}
	return 0, contract.Errorf(code, "%s", msg).WithField(field, msg).
		WithRepair(contract.Repair{NextStep: "start the listing again from the first page", Tool: tool, Arguments: restart})
}

func (s *Service) mintCursor(tool, repo string, filters any, page int) string {
	return s.Cursors.Mint(tool, repo, filters, strconv.Itoa(page))
}

// lowBudget returns the remaining budget when it is under 10% of the
// limit, so results can warn before a rate_limited error surprises.
func lowBudget(c *github.Client, resource string) *int {
	b := c.RateBudget(resource)
	if !b.Known || b.Limit == 0 || b.Remaining*10 >= b.Limit {
		return nil
	}
	r := b.Remaining
	return &r
}

// pageParam is the page to ask GitHub for: the first page is asked for
// without a page parameter (0), as GitHub's own links do.
func pageParam(page int) int {
	if page > 1 {
		return page
	}
	return 0
}
