package graphql_test

import (
	"reflect"
	"strings"
	"testing"
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
			t.Fatalf("totalCount = %d", c.TotalCount)
		}
		if c.PageInfo.HasPreviousPage != (pageNo > 0) {
			t.Errorf("page %d: hasPreviousPage = %v", pageNo, c.PageInfo.HasPreviousPage)
		}
		for _, e := range c.Edges {
			if seen[e.Cursor] {
				t.Fatalf("cursor %s repeated", e.Cursor)
			}
			seen[e.Cursor] = true
			bodies = append(bodies, e.Node.Body)
		}
		if len(c.Edges) > 0 && (*c.PageInfo.StartCursor != c.Edges[0].Cursor || *c.PageInfo.EndCursor != c.Edges[len(c.Edges)-1].Cursor) {
			t.Errorf("page %d: start/end cursors do not match the edges", pageNo)
		}
		if !c.PageInfo.HasNextPage {
			break
		}
		after = *c.PageInfo.EndCursor
	}
	if len(bodies) != 25 || bodies[0] != "comment 01" || bodies[24] != "comment 25" {
		t.Fatalf("paged bodies = %v", bodies)
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
	if strings.Join(got, ",") != "comment 16,comment 17,comment 18,comment 19,comment 20" {
		t.Errorf("last 5 before 21 = %v", got)
	}
	if pi := d.Repository.Issue.Comments.PageInfo; !pi.HasNextPage || !pi.HasPreviousPage {
		t.Errorf("pageInfo = %+v", pi)
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
	if res.Status != 200 || string(res.Data) != `{"repository":{"name":"widgets","issue":{"title":"Widget crashes on resize","labels":null}}}` {
		t.Errorf("data = %s", res.Data)
	}
	want := []respError{{Type: "EXCESSIVE_PAGINATION", Path: []any{"repository", "issue", "labels"},
		Locations: []respLocation{{Line: 6, Column: 7}},
		Message:   "Requesting 101 records on the `labels` connection exceeds the `first` limit of 100 records."}}
	if !reflect.DeepEqual(res.Errors, want) {
		t.Errorf("errors = %+v, want %+v", res.Errors, want)
	}

	// Only a connection asked for its count alone may go without a page
	// (testGraphQLGhIssueView holds that case).
	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { assignableUsers { totalCount nodes { login } } } }`, nil)
	if len(res.Errors) != 1 || res.Errors[0].Type != "MISSING_PAGINATION_BOUNDARIES" ||
		res.Errors[0].Message != "You must provide a `first` or `last` value to properly paginate the `assignableUsers` connection." {
		t.Errorf("missing bounds = %s", res.raw)
	}
	// assignableUsers is non-null, so the null reaches the repository.
	if string(res.Data) != `{"repository":null}` {
		t.Errorf("data = %s", res.Data)
	}

	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { labels(first: 1, after: "nope") { totalCount } } }`, nil)
	if len(res.Errors) != 1 || res.Errors[0].Type != "INVALID_CURSOR_ARGUMENTS" || res.Errors[0].Message != "`nope` does not appear to be a valid cursor." {
		t.Errorf("bad cursor = %s", res.raw)
	}
	res = w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { issues(last: 200) { totalCount } } }`, nil)
	if len(res.Errors) != 1 || res.Errors[0].Message != "Requesting 200 records on the `issues` connection exceeds the `last` limit of 100 records." {
		t.Errorf("last 200 = %s", res.raw)
	}
}
