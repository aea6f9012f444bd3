package state

import "strings"

// LineInDiff reports whether line of the new version of path lies in one
// of the pull request's diff hunks: the lines GitHub lets a review comment
// (on the RIGHT side) anchor to.
func (p *PullRequest) LineInDiff(path string, line int) bool {
	for _, fc := range p.Changes() {
		if fc.Path != path {
			continue
		}
		n := 0
		for _, l := range SplitPatch(fc.Patch) {
			switch {
			case strings.HasPrefix(l, "@@"):
				n = HunkStart(l) - 1
			case strings.HasPrefix(l, "-"), strings.HasPrefix(l, "\\"):
			default:
				n++
				if n == line {
					return true
				}
			}
		}
	}
	return false
}
