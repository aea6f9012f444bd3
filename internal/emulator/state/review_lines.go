package state

// LineInDiff reports whether line of the new version of path lies in one
// of the pull request's diff hunks: the lines GitHub lets a review comment
// (on the RIGHT side) anchor to.
func (p *PullRequest) LineInDiff(path string, line int) bool {
	return p.diffHunkOf(path, line) >= 0
}
