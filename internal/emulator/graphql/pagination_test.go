package graphql_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testGraphQLCommentsPagination(t *testing.T, w *gqlWorld) {
	const doc = `query Comments($number: Int!, $after: String) {
  repository(owner: "acme", name: "widgets") {
    issue(number: $number) {
      comments(first: 10, after: $after) {
        totalCount
        pageInfo { hasNextPage endCursor hasPreviousPage startCursor }
        edges { cursor node { body author { login } } }
      }
    }
  }
}`
	type page struct {
		Repository struct {
			Issue struct {
				Comments struct {
					TotalCount int
					PageInfo   struct {
						HasNextPage, HasPreviousPage bool
						EndCursor, StartCursor       *string
					}
					Edges []struct {
						Cursor string
						Node   struct {
							Body   string
							Author struct{ Login string }
						}
					}
				}
			}
		}
	}
	var bodies []string
	var after any
	seen := map[string]bool{}
	for pageNo := 0; pageNo < 10; pageNo++ { // 25 comments: three pages
		var d page
		w.query("emu-carol", doc, map[string]any{"number": w.bug, "after": after}).ok(t, &d)
		c := d.Repository.Issue.Comments
		if c.TotalCount != 25 {
			t.Fatalf("page %d: totalCount = %d, want 25", pageNo, c.TotalCount)
		}
		if c.PageInfo.HasPreviousPage != (pageNo > 0) {
			t.Errorf("page %d: hasPreviousPage = %v, want %v", pageNo, c.PageInfo.HasPreviousPage, pageNo > 0)
		}
		for _, e := range c.Edges {
			if seen[e.Cursor] {
				t.Fatalf("cursor %s repeated", e.Cursor)
			}
			seen[e.Cursor] = true
			bodies = append(bodies, e.Node.Body)
		}
		if len(c.Edges) > 0 && *c.PageInfo.StartCursor != c.Edges[0].Cursor {
			t.Errorf("page %d: startCursor = %q, want the first edge's %q", pageNo, *c.PageInfo.StartCursor, c.Edges[0].Cursor)
		}
		if len(c.Edges) > 0 && *c.PageInfo.EndCursor != c.Edges[len(c.Edges)-1].Cursor {
			t.Errorf("page %d: endCursor = %q, want the last edge's %q", pageNo, *c.PageInfo.EndCursor, c.Edges[len(c.Edges)-1].Cursor)
		}
		if !c.PageInfo.HasNextPage {
			break
		}
		after = *c.PageInfo.EndCursor
	}
	if len(bodies) != 25 {
		t.Fatalf("paged bodies = %d %v, want 25", len(bodies), bodies)
	}
	if bodies[0] != "comment 01" {
		t.Fatalf("first paged body = %q, want %q", bodies[0], "comment 01")
	}
	if bodies[24] != "comment 25" {
		t.Fatalf("last paged body = %q, want %q", bodies[24], "comment 25")
	}

	// Backwards: the last 5 before the 21st comment are 16..20.
	var d struct {
		Repository struct {
			Issue struct {
				Comments struct {
					Nodes    []struct{ Body string }
					PageInfo struct{ HasNextPage, HasPreviousPage bool }
				}
			}
		}
	}
	cursor21 := wantCursor(20)
	w.query("emu-carol", `query($n: Int!, $before: String) { repository(owner: "acme", name: "widgets") {
  issue(number: $n) { comments(last: 5, before: $before) { nodes { body } pageInfo { hasNextPage hasPreviousPage } } } } }`,
		map[string]any{"n": w.bug, "before": cursor21}).ok(t, &d)
	var got []string
	for _, n := range d.Repository.Issue.Comments.Nodes {
		got = append(got, n.Body)
	}
	if want := "comment 16,comment 17,comment 18,comment 19,comment 20"; strings.Join(got, ",") != want {
		t.Errorf("last 5 before 21 = %v, want %s", got, want)
	}
	if pi := d.Repository.Issue.Comments.PageInfo; !pi.HasNextPage {
		t.Errorf("last 5 before 21: hasNextPage = false, want true")
	}
	if pi := d.Repository.Issue.Comments.PageInfo; !pi.HasPreviousPage {
		t.Errorf("last 5 before 21: hasPreviousPage = false, want true")
	}
}

func testGraphQLPaginationErrors(t *testing.T, w *gqlWorld) {
	res := w.query("emu-alice", `{
  repository(owner: "acme", name: "widgets") {
    name
    issue(number: 1) {
      title
      labels(first: 101) { totalCount }
    }
  }
}`, nil)
	checkStatus(t, "labels(first: 101)", res, 200)
	checkData(t, "labels(first: 101)", res, `{"repository":{"name":"widgets","issue":{"title":"Widget crashes on resize","labels":null}}}`)
	want := []respError{{Type: "EXCESSIVE_PAGINATION", Path: []any{"repository", "issue", "labels"},
		Locations: []respLocation{{Line: 6, Column: 7}},
		Message:   "Requesting 101 records on the `labels` connection exceeds the `first` limit of 100 records."}}
	if diff := cmp.Diff(want, res.Errors); diff != "" {
		t.Errorf("labels(first: 101): errors mismatch (-want +got):\n%s", diff)
	}

	// Only a connection asked for its count alone may go without a page
	// (testGraphQLGhIssueView holds that case).
	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { assignableUsers { totalCount nodes { login } } } }`, nil)
	checkOneError(t, "missing bounds", res.Errors, wantErr{Type: "MISSING_PAGINATION_BOUNDARIES",
		Message: "You must provide a `first` or `last` value to properly paginate the `assignableUsers` connection."})
	// assignableUsers is non-null, so the null reaches the repository.
	checkData(t, "missing bounds", res, `{"repository":null}`)

	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { labels(first: 1, after: "nope") { totalCount } } }`, nil)
	checkOneError(t, "bad cursor", res.Errors,
		wantErr{Type: "INVALID_CURSOR_ARGUMENTS", Message: "`nope` does not appear to be a valid cursor."})
	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { issues(last: 200) { totalCount } } }`, nil)
	checkOneError(t, "last 200", res.Errors,
		wantErr{Message: "Requesting 200 records on the `issues` connection exceeds the `last` limit of 100 records."})
}
