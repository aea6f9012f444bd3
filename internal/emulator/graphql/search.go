package graphql

import (
	"github.com/ghgate/ghgate/internal/emulator/search"
)

// GraphQL's search(query:, type:) for issues and pull requests: the same
// query language and matching as GET /search/issues (package search), the
// same visibility, and GitHub's 1,000-result cap. Types other than ISSUE
// and ISSUE_ADVANCED (repositories, users, discussions) are not served and
// say so.
//
// GitHub's search connection pages differently from the others in one
// respect: `last` without `before` is a page size taken forward from `after`
// (or the first result), not the last results. gh has paged `issue list
// --search/--label/--milestone` with search(last: $limit, after: $endCursor)
// since 2021 and gets every result, newest first, with hasNextPage true
// while more remain; an emulator answering "the last N" drops the newest.

type searchArgs struct {
	connArgs
	Query string `json:"query"`
	Type  string `json:"type"`
}

// searchResult is a SearchResultItemConnection: the page, and the count
// of every match.
type searchResult struct {
	*connection
	issueCount int
}

func registerSearch(r *resolvers) {
	resolveArgs(r, "Query.search", searchIssues)
	resolve(r, "SearchResultItemConnection.issueCount", func(_ *gqlContext, s *searchResult) (any, error) { return s.issueCount, nil })
	resolve(r, "SearchResultItemConnection.nodes", func(_ *gqlContext, s *searchResult) (any, error) { return s.nodes, nil })
	resolve(r, "SearchResultItemConnection.pageInfo", func(_ *gqlContext, s *searchResult) (any, error) { return s.connection, nil })
	resolve(r, "SearchResultItemConnection.edges", func(_ *gqlContext, s *searchResult) (any, error) {
		out := make([]*edge, len(s.nodes))
		for i := range s.nodes {
			out[i] = &edge{cursor: s.cursors[i], node: s.nodes[i]}
		}
		return out, nil
	})
	resolve(r, "SearchResultItemEdge.cursor", func(_ *gqlContext, e *edge) (any, error) { return e.cursor, nil })
	resolve(r, "SearchResultItemEdge.node", func(_ *gqlContext, e *edge) (any, error) { return e.node, nil })
}

func searchIssues(x *gqlContext, _ root, a searchArgs) (any, error) {
	if a.Type != "ISSUE" && a.Type != "ISSUE_ADVANCED" {
		return nil, &gqlError{Message: "The emulator serves search only for issues and pull requests (type: ISSUE or ISSUE_ADVANCED), not " + a.Type + "."}
	}
	hits := search.Hits(x.st, x.c.Token, search.Parse(a.Query, x.c.ViewerLogin()), "", "")
	count := len(hits)
	if len(hits) > search.ResultCap {
		hits = hits[:search.ResultCap]
	}
	page, err := window(x, hits, a.connArgs, true)
	if err != nil {
		return nil, err
	}
	return &searchResult{connection: page, issueCount: count}, nil
}
