package search

import (
	"sort"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// ResultCap is how many results GitHub's search API will page through.
const ResultCap = 1000

// Hits is every issue and pull request the token can read that the
// query matches, in the order asked for: by sortBy (created, updated,
// comments; the query's sort: qualifier when sortBy is empty) in order
// (desc unless asc), or best match, which the emulator takes as newest
// first.
func Hits(st *state.State, token *state.Token, s *Query, sortBy, order string) []*state.Issue {
	var hits []*state.Issue
	for _, r := range st.Repos() {
		if token.Permission(r) == state.PermNone {
			continue
		}
		for _, is := range r.Issues {
			// Matched as the index holds it (state/search_lag.go), shown as it is.
			if v := st.SearchVersion(is); v != nil && !is.Deleted && s.Match(v) {
				hits = append(hits, is)
			}
		}
	}
	// The sort parameter wins over a sort: qualifier in the query; order
	// applies only with sort, as GitHub documents.
	if sortBy == "" {
		sortBy, order = s.Sort, s.Order
	}
	if sortBy != "created" && sortBy != "updated" && sortBy != "comments" {
		sortBy = ""
	}
	if order != "asc" {
		order = "desc"
	}
	SortIssues(hits, sortBy, order)
	return hits
}

// SortIssues orders by created (default), updated or comments, desc by default.
func SortIssues(list []*state.Issue, by, direction string) {
	key := func(is *state.Issue) int64 {
		switch by {
		case "updated":
			return is.UpdatedAt.Unix()
		case "comments":
			return int64(len(is.Comments))
		}
		return is.CreatedAt.Unix()
	}
	asc := direction == "asc"
	sort.SliceStable(list, func(i, j int) bool {
		a, b := key(list[i]), key(list[j])
		if a == b {
			a, b = int64(list[i].Number), int64(list[j].Number)
		}
		if asc {
			return a < b
		}
		return a > b
	})
}
