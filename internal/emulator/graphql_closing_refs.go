package emulator

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// Issue.closedByPullRequestsReferences: the pull requests that will close
// an issue when merged. GitHub links them from a closing keyword in the
// pull request's description ("Linking a pull request to an issue": close,
// closes, closed, fix, fixes, fixed, resolve, resolves, resolved, before
// #N in the same repository or OWNER/REPO#N in another). The emulator
// keeps no manual links, so userLinkedOnly finds none.

type closedByArgs struct {
	connArgs
	IncludeClosedPrs bool `json:"includeClosedPrs"`
	OrderByState     bool `json:"orderByState"`
	UserLinkedOnly   bool `json:"userLinkedOnly"`
}

var closingKeyword = regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+([A-Za-z0-9-]+/[A-Za-z0-9._-]+)?#(\d+)\b`)

// closingText is where GitHub reads a pull request's closing keywords:
// its description and its commits' messages.
func closingText(pr *Issue) string {
	var text strings.Builder
	if pr.Body != nil {
		text.WriteString(state.StripUnlinked(*pr.Body) + "\n")
	}
	if pr.Pull != nil {
		for _, c := range pr.Pull.Commits() {
			text.WriteString(c.Message + "\n")
		}
	}
	return text.String()
}

// closingRefs are the issues a pull request's closing keywords name, as
// repository full names (the pull request's own when none is written) and
// numbers.
func closingRefs(pr *Issue) []issueRef {
	var out []issueRef
	for _, m := range closingKeyword.FindAllStringSubmatch(closingText(pr), -1) {
		repo := pr.Repo.FullName()
		if m[1] != "" {
			repo = m[1]
		}
		if n, err := strconv.Atoi(m[2]); err == nil {
			out = append(out, issueRef{repo: repo, number: n})
		}
	}
	return out
}

// closes reports whether a pull request's closing keywords name the issue.
func closes(pr, is *Issue) bool {
	return slices.ContainsFunc(closingRefs(pr), func(r issueRef) bool {
		return r.number == is.Number && strings.EqualFold(r.repo, is.Repo.FullName())
	})
}

func registerClosingRefs(r *resolvers) {
	resolveArgs(r, "Issue.closedByPullRequestsReferences", func(x *gqlContext, is *Issue, a closedByArgs) (any, error) {
		var list []*Issue
		if !a.UserLinkedOnly {
			for _, repo := range x.st.Repos() {
				if !x.canRead(repo) {
					continue
				}
				for _, pr := range repo.Issues {
					open := pr.State == "open"
					if pr.IsPull && !pr.Deleted && (open || a.IncludeClosedPrs) && closes(pr, is) {
						list = append(list, pr)
					}
				}
			}
		}
		if a.OrderByState {
			slices.SortStableFunc(list, func(p, q *Issue) int { return strings.Compare(q.State, p.State) }) // open before closed
		}
		return pageOf(x, list, a.connArgs)
	})
}
