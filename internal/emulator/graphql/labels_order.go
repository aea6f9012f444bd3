package graphql

import (
	"slices"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// sortByIssueCount orders labels by how many of the repository's live
// issues and pull requests carry each, fewest first (LabelOrder's
// ISSUE_COUNT; DESC reverses it). Labels carried equally keep their
// creation order.
func sortByIssueCount(repo *state.Repo, list []*state.Label) {
	count := map[*state.Label]int{}
	for _, is := range repo.Issues {
		if is.Deleted {
			continue
		}
		for _, l := range is.Labels {
			count[l]++
		}
	}
	slices.SortStableFunc(list, func(p, q *state.Label) int { return count[p] - count[q] })
}
