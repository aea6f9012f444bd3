package toolkit

import (
	"errors"
	"strconv"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
)

// [DefaultPageSize] and MaxPageSize bound listings.
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

// Pager is one listing call's cursor: the page the call asked for, and
// the means to mint the next page's cursor bound to the same tool,
// repository and filters. Every listing opens one the same way.
type Pager struct {
	cursors     *contract.Cursors
	tool, scope string
	filters     any
	// Page is the upstream page the call asked for, from 1.
	Page int
	// After is an Opaque listing's upstream cursor ("" for the first page).
	After string
}

// Listing describes what a listing's cursor is bound to and how to begin
// it again.
type Listing struct {
	Tool  string
	Scope string // owner/repo the rows were read from
	// Filters are the arguments that shape the rows; a cursor minted under
	// other filters is refused.
	Filters any
	// Field is the argument that carries the cursor; Cursor its value.
	Field, Cursor string
	// Restart is the call that begins the listing again, for the repair
	// of a cursor that cannot be used.
	Restart any
	// Opaque: the position is GitHub's GraphQL cursor, not a page number
	// (Pager.After; FillAfter mints the next).
	Opaque bool
}

// OpenPager opens l's cursor: page 1 without one, the page it points at, or a
// cursor_invalid / cursor_expired envelope naming the field.
func (s *Service) OpenPager(l Listing) (*Pager, error) {
	p := &Pager{cursors: s.Cursors, tool: l.Tool, scope: l.Scope, filters: l.Filters, Page: 1}
	pos, err := s.OpenCursor(l)
	if err != nil || pos == "" {
		return p, err
	}
	if l.Opaque {
		p.After = pos
		return p, nil
	}
	if n, convErr := strconv.Atoi(pos); convErr == nil && n >= 1 {
		p.Page = n
		return p, nil
	}
	return nil, cursorRefusal(l, contract.ErrCursorInvalid)
}

// OpenCursor opens l's cursor and returns the position it holds, "" when
// there is none (the first page): for listings whose position is not a
// page number (a GraphQL connection's end cursor, say). Mint the next
// one with MintCursor.
func (s *Service) OpenCursor(l Listing) (string, error) {
	if l.Cursor == "" {
		return "", nil
	}
	pos, err := s.Cursors.Open(l.Cursor, l.Tool, l.Scope, l.Filters)
	if err == nil && pos != "" {
		return pos, nil
	}
	if err == nil {
		err = contract.ErrCursorInvalid
	}
	return "", cursorRefusal(l, err)
}

// MintCursor is the cursor for position in l's listing.
func (s *Service) MintCursor(l Listing, position string) string {
	return s.Cursors.Mint(l.Tool, l.Scope, l.Filters, position)
}

func cursorRefusal(l Listing, err error) *contract.Error {
	code, msg := contract.CodeCursorInvalid, "the cursor was not minted for this listing (another tool, repository or set of filters)"
	if errors.Is(err, contract.ErrCursorExpired) {
		code, msg = contract.CodeCursorExpired, "the cursor is older than 15 minutes"
	}
	return contract.Errorf(code, "%s", msg).WithField(l.Field, msg).
		WithRepair(contract.Repair{NextStep: "start the listing again from the first page", Tool: l.Tool, Arguments: l.Restart})
}

// Next is the cursor for upstream page next; "" when next is 0 (this was
// the last page).
func (p *Pager) Next(next int) string {
	if next <= 0 {
		return ""
	}
	return p.cursors.Mint(p.tool, p.scope, p.filters, strconv.Itoa(next))
}

// Fill sets out's has_more and next_cursor for upstream page next (0 when
// this was the last page).
func (p *Pager) Fill(out *Page, next int) {
	if c := p.Next(next); c != "" {
		out.HasMore, out.NextCursor = true, c
	}
}

// FillAfter sets out's has_more and next_cursor for an Opaque listing
// whose upstream cursor for the next page is after ("" on the last page).
func (p *Pager) FillAfter(out *Page, after string) {
	if after != "" {
		out.HasMore, out.NextCursor = true, p.cursors.Mint(p.tool, p.scope, p.filters, after)
	}
}

// Param is the page to ask GitHub for: the first page is asked for
// without a page parameter (0), as GitHub's own links do.
func (p *Pager) Param() int { return PageParam(p.Page) }

// PageOf is page (from 1) of items in pages of size, and the next page's
// number, 0 when it is the last: paging for lists GitHub answers whole.
func PageOf[T any](items []T, page, size int) ([]T, int) {
	from := min((page-1)*size, len(items))
	to := min(from+size, len(items))
	next := 0
	if to < len(items) {
		next = page + 1
	}
	return items[from:to], next
}

// LowBudget returns the remaining budget when it is under 10% of the
// limit, so results can warn before a rate_limited error surprises.
func LowBudget(c *github.Client, resource string) *int {
	b := c.RateBudget(resource)
	if !b.Known || b.Limit == 0 || b.Remaining*10 >= b.Limit {
		return nil
	}
	r := b.Remaining
	return &r
}

// PageParam is the page to ask GitHub for (see [Pager.Param]), for
// listings that walk upstream pages themselves.
func PageParam(page int) int {
	if page > 1 {
		return page
	}
	return 0
}
