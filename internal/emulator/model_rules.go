package emulator

import (
	"slices"
	"strings"
)

// association is GitHub's author_association for an author in a repository.
func association(a *Account, r *Repo) string {
	if a == nil {
		return "NONE"
	}
	if strings.EqualFold(a.Login, r.Owner.Login) {
		return "OWNER"
	}
	for _, c := range r.Collaborators {
		if strings.EqualFold(c, a.Login) {
			if r.Owner.IsOrg {
				return "MEMBER"
			}
			return "COLLABORATOR"
		}
	}
	return "CONTRIBUTOR"
}

// GitHub's limits on an issue's text, in characters.
const (
	maxTitleChars = 256
	maxBodyChars  = 65536
)

// maxLabelDescription is the limit GitHub's description of the label
// routes gives: "Must be 100 characters or fewer."
const maxLabelDescription = 100

// milestoneCounts counts the open and closed issues and pull requests in
// a milestone, deleted ones left out.
func milestoneCounts(r *Repo, m *Milestone) (open, closed int) {
	for _, is := range r.Issues {
		if is.Deleted || is.Milestone != m {
			continue
		}
		if is.State == "open" {
			open++
		} else {
			closed++
		}
	}
	return open, closed
}

// completeness is the share of a milestone's issues that are closed.
func completeness(r *Repo, m *Milestone) float64 {
	open, closed := milestoneCounts(r, m)
	if open+closed == 0 {
		return 0
	}
	return float64(closed) / float64(open+closed)
}

// visibleComments drops the comments of other people's pending reviews.
func visibleComments(list []*ReviewComment, viewer *Account) []*ReviewComment {
	return slices.DeleteFunc(slices.Clone(list), func(c *ReviewComment) bool {
		return c.Review.State == "PENDING" && c.Review.User != viewer
	})
}

// repoOfCheckRun finds the repository whose commit a check run checked.
func repoOfCheckRun(st *State, c *CheckRun) *Repo {
	for _, r := range st.Repos() {
		if r.Git != nil && slices.Contains(r.Git.CheckRuns[c.HeadSHA], c) {
			return r
		}
	}
	return nil
}
