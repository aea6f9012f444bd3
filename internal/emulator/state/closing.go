package state

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// A pull request closes the issues its closing keywords name when it is
// merged. GitHub's "Linking a pull request to an issue": close, closes,
// closed, fix, fixes, fixed, resolve, resolves, resolved, before #N in the
// same repository or OWNER/REPO#N in another.
var closingKeyword = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?):?\s+(` + ownerPattern + `/[A-Za-z0-9._-]+)?#(\d+)\b`)
})

// closingRef is an issue a closing keyword names: a repository full name
// and a number.
type closingRef struct {
	repo   string
	number int
}

// closingText is where GitHub reads a pull request's closing keywords:
// its description and its commits' messages.
func closingText(pr *Issue) string {
	var text strings.Builder
	if pr.Body != nil {
		text.WriteString(StripUnlinked(*pr.Body) + "\n")
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
func closingRefs(pr *Issue) []closingRef {
	var out []closingRef
	for _, m := range closingKeyword().FindAllStringSubmatch(closingText(pr), -1) {
		repo := pr.Repo.FullName()
		if m[1] != "" {
			repo = m[1]
		}
		if n, err := strconv.Atoi(m[2]); err == nil {
			out = append(out, closingRef{repo: repo, number: n})
		}
	}
	return out
}

// Closes reports whether a pull request's closing keywords name the issue.
func Closes(pr, is *Issue) bool {
	return slices.ContainsFunc(closingRefs(pr), func(r closingRef) bool {
		return r.number == is.Number && strings.EqualFold(r.repo, is.Repo.FullName())
	})
}

// ClosingIssues are the issues in the pull request's repository that its
// description or commits say it fixes, closes or resolves ("Fixes #12").
func ClosingIssues(is *Issue) []*Issue {
	var out []*Issue
	for _, ref := range closingRefs(is) {
		if !strings.EqualFold(ref.repo, is.Repo.FullName()) {
			continue
		}
		if target := is.Repo.Issue(ref.number); target != nil && !target.IsPull && !target.Deleted && !slices.Contains(out, target) {
			out = append(out, target)
		}
	}
	return out
}
