package graphql

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
)

// connArgs are the Relay pagination arguments every connection takes.
type connArgs struct {
	First  *int    `json:"first"`
	After  *string `json:"after"`
	Last   *int    `json:"last"`
	Before *string `json:"before"`
}

// maxPageSize is GitHub's limit on first and last.
const maxPageSize = 100

// connection is one page of a list: what every *Connection, *Edge and
// PageInfo field resolves from.
type connection struct {
	nodes   []any
	cursors []string
	total   int
	hasNext bool
	hasPrev bool
}

// edge is one element of a connection's edges.
type edge struct {
	cursor string
	node   any
}

// cursorPrefix makes cursors look and decode like GitHub's ("cursor:v2:"
// then a position), while staying opaque to clients.
const cursorPrefix = "cursor:v2:"

func encodeCursor(index int) string {
	return base64.StdEncoding.EncodeToString([]byte(cursorPrefix + strconv.Itoa(index)))
}

func decodeCursor(s string) (int, bool) {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return 0, false
	}
	rest, ok := strings.CutPrefix(string(b), cursorPrefix)
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// pageOf cuts the page the arguments ask for out of items, with GitHub's
// errors for missing, negative or excessive bounds and for bad cursors. The
// connection is named after the field being resolved, as GitHub names it.
func pageOf[T any](x *gqlContext, items []T, a connArgs) (*connection, error) {
	return window(x, items, a, false)
}

// window is pageOf, with one difference for GitHub's search connection:
// lastPagesForward reads `last` without `before` as a page size taken
// forward from `after` (or the start), which is how GitHub's search answers
// the `search(last: $limit, after: $endCursor)` gh pages issue searches
// with, instead of the last elements of what follows the cursor.
func window[T any](x *gqlContext, items []T, a connArgs, lastPagesForward bool) (*connection, error) {
	name := x.field.Name
	if a.First == nil && a.Last == nil {
		if x.selectsOnlyTotalCount() {
			// GitHub counts a connection without paging it when nothing
			// but totalCount is asked of it.
			return &connection{total: len(items)}, nil
		}
		return nil, &gqlError{Type: "MISSING_PAGINATION_BOUNDARIES",
			Message: "You must provide a `first` or `last` value to properly paginate the `" + name + "` connection."}
	}
	if a.First != nil && a.Last != nil {
		return nil, &gqlError{Message: "Passing both `first` and `last` to paginate the `" + name + "` connection is not supported."}
	}
	for _, bound := range []struct {
		arg string
		n   *int
	}{{"first", a.First}, {"last", a.Last}} {
		if bound.n == nil {
			continue
		}
		if *bound.n < 0 {
			return nil, &gqlError{Message: fmt.Sprintf("`%s` on the `%s` connection cannot be less than zero.", bound.arg, name)}
		}
		if *bound.n > maxPageSize {
			return nil, &gqlError{Type: "EXCESSIVE_PAGINATION", Message: fmt.Sprintf(
				"Requesting %d records on the `%s` connection exceeds the `%s` limit of %d records.", *bound.n, name, bound.arg, maxPageSize)}
		}
	}
	if lastPagesForward && a.Last != nil && a.Before == nil {
		a.First, a.Last = a.Last, nil
	}
	start, end := 0, len(items)
	if a.After != nil {
		i, ok := decodeCursor(*a.After)
		if !ok {
			return nil, invalidCursor(*a.After)
		}
		// i comes from the client: compare before adding so a cursor near
		// the integer limit cannot wrap to a negative index.
		start = end
		if i < end {
			start = i + 1
		}
	}
	if a.Before != nil {
		i, ok := decodeCursor(*a.Before)
		if !ok {
			return nil, invalidCursor(*a.Before)
		}
		end = max(min(i, end), start)
	}
	if a.First != nil {
		end = min(end, start+*a.First)
	}
	if a.Last != nil {
		start = max(start, end-*a.Last)
	}
	c := &connection{total: len(items), hasNext: end < len(items), hasPrev: start > 0}
	for i := start; i < end; i++ {
		c.nodes = append(c.nodes, items[i])
		c.cursors = append(c.cursors, encodeCursor(i))
	}
	return c, nil
}

// selectsOnlyTotalCount reports whether the connection being resolved is
// asked for its totalCount (and __typename) only, through fragments too.
func (x *gqlContext) selectsOnlyTotalCount() bool {
	def := x.ex.schema.Types[x.field.Definition.Type.Name()]
	groups := x.ex.collect(def, x.field.SelectionSet, nil, map[string]bool{})
	for _, g := range groups {
		if name := g.fields[0].Name; name != "totalCount" && name != "__typename" {
			return false
		}
	}
	return len(groups) > 0
}

func invalidCursor(s string) error {
	return &gqlError{Type: "INVALID_CURSOR_ARGUMENTS", Message: "`" + s + "` does not appear to be a valid cursor."}
}

// registerConnectionType serves a connection type and its edge type from
// a *connection.
func registerConnectionType(r *resolvers, conn, edgeType string) {
	resolve(r, conn+".nodes", func(_ *gqlContext, c *connection) (any, error) { return c.nodes, nil })
	resolve(r, conn+".totalCount", func(_ *gqlContext, c *connection) (any, error) { return c.total, nil })
	resolve(r, conn+".pageInfo", func(_ *gqlContext, c *connection) (any, error) { return c, nil })
	resolve(r, conn+".edges", func(_ *gqlContext, c *connection) (any, error) {
		out := make([]*edge, len(c.nodes))
		for i := range c.nodes {
			out[i] = &edge{cursor: c.cursors[i], node: c.nodes[i]}
		}
		return out, nil
	})
	resolve(r, edgeType+".cursor", func(_ *gqlContext, e *edge) (any, error) { return e.cursor, nil })
	resolve(r, edgeType+".node", func(_ *gqlContext, e *edge) (any, error) { return e.node, nil })
}

// connectionTypes are the connection types the emulator serves, each with
// its edge type.
var connectionTypes = []struct{ conn, edge string }{
	{"IssueConnection", "IssueEdge"},
	{"PullRequestConnection", "PullRequestEdge"},
	{"IssueCommentConnection", "IssueCommentEdge"},
	{"LabelConnection", "LabelEdge"},
	{"UserConnection", "UserEdge"},
	{"MilestoneConnection", "MilestoneEdge"},
	{"IssueTypeConnection", "IssueTypeEdge"},
	{"RepositoryConnection", "RepositoryEdge"},
	{"ReactingUserConnection", "ReactingUserEdge"},
	{"IssueFieldsConnection", "IssueFieldsEdge"},
	{"IssueFieldValueConnection", "IssueFieldValueEdge"},
	{"OrganizationConnection", "OrganizationEdge"},
	{"TeamConnection", "TeamEdge"},
	{"TeamMemberConnection", "TeamMemberEdge"},
	{"ProjectV2Connection", "ProjectV2Edge"},
	{"ProjectV2ItemConnection", "ProjectV2ItemEdge"},
	{"ProjectV2FieldConfigurationConnection", "ProjectV2FieldConfigurationEdge"},
	{"ProjectV2ItemFieldValueConnection", "ProjectV2ItemFieldValueEdge"},
}

func registerConnections(r *resolvers) {
	for _, ct := range connectionTypes {
		registerConnectionType(r, ct.conn, ct.edge)
	}
	resolve(r, "PageInfo.hasNextPage", func(_ *gqlContext, c *connection) (any, error) { return c.hasNext, nil })
	resolve(r, "PageInfo.hasPreviousPage", func(_ *gqlContext, c *connection) (any, error) { return c.hasPrev, nil })
	resolve(r, "PageInfo.startCursor", func(_ *gqlContext, c *connection) (any, error) {
		if len(c.cursors) == 0 {
			return nil, nil
		}
		return c.cursors[0], nil
	})
	resolve(r, "PageInfo.endCursor", func(_ *gqlContext, c *connection) (any, error) {
		if len(c.cursors) == 0 {
			return nil, nil
		}
		return c.cursors[len(c.cursors)-1], nil
	})
}
