package state

import (
	"slices"
	"strings"
)

// Association is GitHub's author_association for an author in a repository.
func Association(a *Account, r *Repo) string {
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
	MaxTitleChars = 256
	MaxBodyChars  = 65536
)

// MaxLabelDescription is the limit GitHub's description of the label
// routes gives: "Must be 100 characters or fewer."
const MaxLabelDescription = 100

// MilestoneCounts counts the open and closed issues and pull requests in
// a milestone, deleted ones left out.
func MilestoneCounts(r *Repo, m *Milestone) (open, closed int) {
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

// MilestoneCompleteness is the share of a milestone's issues that are closed.
func MilestoneCompleteness(r *Repo, m *Milestone) float64 {
	open, closed := MilestoneCounts(r, m)
	if open+closed == 0 {
		return 0
	}
	return float64(closed) / float64(open+closed)
}

// VisibleReviewComments drops the comments of other people's pending reviews.
func VisibleReviewComments(list []*ReviewComment, viewer *Account) []*ReviewComment {
	return slices.DeleteFunc(slices.Clone(list), func(c *ReviewComment) bool {
		return c.Review.State == "PENDING" && c.Review.User != viewer
	})
}

// RepoOfCheckRun finds the repository whose commit a check run checked.
func RepoOfCheckRun(st *State, c *CheckRun) *Repo {
	if c.Repo != nil {
		return c.Repo
	}
	for _, r := range st.Repos() {
		if r.Git != nil && slices.Contains(r.Git.CheckRuns[c.HeadSHA], c) {
			return r
		}
	}
	return nil
}
