package peers

import (
	"slices"
	"strconv"
	"testing"
)

// A second gh session, on its own fresh emulator: gh's issue list over
// more than one page of search results (gh pages `--search`, `--label` and
// `--milestone` with search(last: $limit, after: $endCursor)), and an
// explicit null in an update (`--remove-milestone` sends milestoneId: null),
// each read back. It labels and milestones every issue of acme/widgets, so
// it keeps off the main session's emulator.

const ghPagingExpectedList = "gh-paging-expected-failures.txt"

func init() { insideSessions["gh-paging"] = runGhPagingSession }

// demoPulls are the pull request numbers in the demo seed's acme/widgets
// (seed.DemoPulls); the other numbers of 1 to 160 are its 146 issues.
var demoPulls = []int{6, 19, 28, 37, 49, 61, 72, 84, 96, 108, 121, 133, 146, 155}

// demoIssuesNewestFirst lists acme/widgets' issue numbers, newest first.
func demoIssuesNewestFirst() []string {
	var out []string
	for n := 160; n >= 1; n-- {
		if !slices.Contains(demoPulls, n) {
			out = append(out, strconv.Itoa(n))
		}
	}
	return out
}

func ghPagingSession() []ghCheck {
	const repo = "acme/widgets"
	all := demoIssuesNewestFirst()
	numbers := func(args ...string) []string {
		return append(append([]string{"issue", "list", "-R", repo, "--state", "all", "--limit", "146"}, args...),
			"--json", "number", "--jq", ".[].number")
	}
	// gh edits the issues it is given all at once; GitHub refuses more
	// than 100 concurrent requests (a secondary rate limit), so the
	// issues go in two halves.
	edit := func(half int, args ...string) []string {
		part := all[:len(all)/2]
		if half == 2 {
			part = all[len(all)/2:]
		}
		return append(append(append([]string{"issue", "edit"}, part...), "-R", repo), args...)
	}
	count := func(q string) *ghCheck {
		return &ghCheck{args: []string{"api", "search/issues?q=repo:acme/widgets+is:issue+" + q + "&per_page=1", "--jq", ".total_count"},
			exactLines: []string{"146"}}
	}
	return []ghCheck{
		// 146 results: two pages of gh's search(last: 100, after:).
		{name: "issue-list-search-146", args: numbers("--search", "sort:created-desc"), exactLines: all},
		{name: "label-create-bulk", args: []string{"label", "create", "peers-bulk", "-R", repo, "--color", "0e8a16"}},
		{name: "issue-edit-bulk-label-1", args: edit(1, "--add-label", "peers-bulk")},
		{name: "issue-edit-bulk-label-2", args: edit(2, "--add-label", "peers-bulk"), effect: count("label:peers-bulk")},
		{name: "issue-list-label-146", args: numbers("--label", "peers-bulk"), exactLines: all},
		{name: "issue-edit-bulk-milestone-1", args: edit(1, "--milestone", "v1.5.0")},
		{name: "issue-edit-bulk-milestone-2", args: edit(2, "--milestone", "v1.5.0"), effect: count("milestone:v1.5.0")},
		{name: "issue-list-milestone-146", args: numbers("--milestone", "v1.5.0"), exactLines: all},
		// gh sends updateIssue(input: {milestoneId: null}).
		{name: "issue-edit-remove-milestone", args: []string{"issue", "edit", "141", "-R", repo, "--remove-milestone"},
			effect: &ghCheck{args: []string{"api", "repos/acme/widgets/issues/141", "--jq", ".milestone == null"}, exactLines: []string{"true"}}},
		{name: "issue-list-milestone-145", args: numbers("--milestone", "v1.5.0"),
			exactLines: slices.DeleteFunc(slices.Clone(all), func(n string) bool { return n == "141" })},
	}
}

func TestGhPagingSession(t *testing.T) {
	needNamespaces(t, "gh")
	passed, listed, n := judgeGhChecks(t, "gh-paging", ghPagingExpectedList, ghPagingSession())
	t.Logf("gh paging session: %d commands: %d behave as on GitHub, %d fail as listed in %s", n, passed, listed, ghPagingExpectedList)
}

func runGhPagingSession(work string) (any, error) { return runGhChecks(work, ghPagingSession()) }
