package toolkit

import (
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
)

func testService(t *testing.T, now func() time.Time) *Service {
	t.Helper()
	cursors, err := contract.NewCursors([]byte("0123456789abcdef0123456789abcdef"), now)
	if err != nil {
		t.Fatal(err)
	}
	return &Service{Cursors: cursors}
}

// The pager opens page 1 without a cursor, the page a cursor it minted
// points at, and refuses a cursor minted for another listing or one that
// has expired, naming the field and offering the restart.
func TestPager(t *testing.T) {
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	s := testService(t, func() time.Time { return now })
	type filters struct{ Kind string }
	listing := Listing{Tool: NameListRepoMetadata, Scope: "acme/widgets", Filters: filters{"labels"}, Field: "cursor", Restart: "again"}

	first, err := s.OpenPager(listing)
	if err != nil {
		t.Fatalf("no cursor: %v", err)
	}
	if first.Page != 1 {
		t.Fatalf("no cursor: page = %d, want 1", first.Page)
	}
	if got := first.Param(); got != 0 {
		t.Fatalf("no cursor: page parameter = %d, want 0 (asked for without one)", got)
	}
	var out Page
	first.Fill(&out, 0)
	if out.HasMore {
		t.Fatalf("last page: has_more = true, want false")
	}
	if out.NextCursor != "" {
		t.Fatalf("last page: next_cursor = %q, want none", out.NextCursor)
	}
	first.Fill(&out, 3)
	if !out.HasMore {
		t.Fatalf("next page 3: has_more = false, want true")
	}
	if out.NextCursor == "" {
		t.Fatalf("next page 3: next_cursor is empty, want one")
	}

	next := listing
	next.Cursor = out.NextCursor
	third, err := s.OpenPager(next)
	if err != nil {
		t.Fatalf("minted cursor: %v", err)
	}
	if third.Page != 3 {
		t.Fatalf("minted cursor: page = %d, want 3", third.Page)
	}
	if got := third.Param(); got != 3 {
		t.Fatalf("minted cursor: page parameter = %d, want 3", got)
	}

	for _, c := range []struct {
		name string
		edit func(*Listing)
		code contract.Code
	}{
		{"other filters", func(l *Listing) { l.Filters = filters{"milestones"} }, contract.CodeCursorInvalid},
		{"other repository", func(l *Listing) { l.Scope = "acme/gadgets" }, contract.CodeCursorInvalid},
		{"other tool", func(l *Listing) { l.Tool = NameSearchIssues }, contract.CodeCursorInvalid},
		{"not a cursor", func(l *Listing) { l.Cursor = "abc.def" }, contract.CodeCursorInvalid},
		{"expired", func(*Listing) { now = now.Add(16 * time.Minute) }, contract.CodeCursorExpired},
	} {
		t.Run(c.name, func(t *testing.T) {
			l := next
			c.edit(&l)
			_, err := s.OpenPager(l)
			e, ok := contract.AsError(err)
			if !ok {
				t.Fatalf("error = %v, want %s on %s with the restart", err, c.code, l.Field)
			}
			if e.Code != c.code {
				t.Fatalf("code = %s, want %s", e.Code, c.code)
			}
			if e.Details == nil {
				t.Fatalf("details = nil, want field %s", l.Field)
			}
			if e.Details.Field != l.Field {
				t.Fatalf("details.field = %q, want %q", e.Details.Field, l.Field)
			}
			if e.Repair == nil {
				t.Fatalf("repair = nil, want the restart")
			}
			if e.Repair.Tool != l.Tool {
				t.Fatalf("repair tool = %q, want %q", e.Repair.Tool, l.Tool)
			}
			if e.Repair.Arguments != "again" {
				t.Fatalf("repair arguments = %v, want the restart, again", e.Repair.Arguments)
			}
		})
	}
}

// PageOf pages a list GitHub answers whole.
func TestPageOf(t *testing.T) {
	items := []int{1, 2, 3, 4, 5}
	for _, c := range []struct {
		name       string
		page, size int
		want       []int
		next       int
	}{
		{"first", 1, 2, []int{1, 2}, 2},
		{"last, short", 3, 2, []int{5}, 0},
		{"exact fit", 1, 5, []int{1, 2, 3, 4, 5}, 0},
		{"past the end", 4, 2, []int{}, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, next := PageOf(items, c.page, c.size)
			if len(got) != len(c.want) {
				t.Fatalf("PageOf(page %d, size %d) = %v, want %v", c.page, c.size, got, c.want)
			}
			if next != c.next {
				t.Fatalf("PageOf(page %d, size %d) next = %d, want %d", c.page, c.size, next, c.next)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("PageOf(page %d, size %d) = %v; want %v", c.page, c.size, got, c.want)
				}
			}
		})
	}
}
