package state

import (
	"strings"
	"time"
)

// ThreadSpot is where a new review thread sits in a pull request's diff:
// a line of the new file, a range of them (StartLine to Line), or, with
// File, the whole file.
type ThreadSpot struct {
	Path      string
	Line      int
	StartLine int
	File      bool
}

// AddReviewThread starts a thread at spot as part of rv.
func (s *State) AddReviewThread(rv *Review, spot ThreadSpot, body string, at time.Time) *ReviewComment {
	line := spot.Line
	if spot.File {
		line = 0
	}
	c := s.AddReviewComment(rv, nil, spot.Path, line, body, at)
	c.Thread.StartLine, c.Thread.File = spot.StartLine, spot.File
	if spot.File {
		// A file comment sits on the file's whole diff, not on a hunk.
		for _, fc := range rv.Pull.Pull.Changes() {
			if fc.Path == spot.Path {
				c.DiffHunk = fc.Patch
			}
		}
	}
	return c
}

// DiffHunkOf is the index of the hunk of the pull request's diff of path
// that holds line of the new file, where GitHub lets a review comment sit;
// -1 when no hunk does.
func DiffHunkOf(is *Issue, path string, line int) int { return is.Pull.diffHunkOf(path, line) }

func (p *PullRequest) diffHunkOf(path string, line int) int {
	for _, fc := range p.Changes() {
		if fc.Path != path {
			continue
		}
		n, hunk := 0, -1
		for _, l := range SplitPatch(fc.Patch) {
			switch {
			case strings.HasPrefix(l, "@@"):
				n, hunk = HunkStart(l)-1, hunk+1
			case strings.HasPrefix(l, "-"), strings.HasPrefix(l, "\\"):
			default:
				n++
				if n == line {
					return hunk
				}
			}
		}
	}
	return -1
}

// InDiff reports whether the pull request changes path.
func InDiff(is *Issue, path string) bool {
	for _, fc := range is.Pull.Changes() {
		if fc.Path == path {
			return true
		}
	}
	return false
}
