package graphql

import "github.com/ghgate/ghgate/internal/emulator/state"

// threadPlace is where addPullRequestReviewThread puts a thread: a line
// (line, side), a range of lines (startLine, startSide to line, side) or,
// with subjectType FILE, a whole file.
type threadPlace struct {
	Path        string  `json:"path"`
	Line        *int    `json:"line"`
	Side        *string `json:"side"`
	StartLine   *int    `json:"startLine"`
	StartSide   *string `json:"startSide"`
	SubjectType *string `json:"subjectType"`
}

// threadSpot checks a thread's place as GitHub does: a file comment needs
// a file the pull request changes; a line comment a line of the new file
// within the diff; a range a start line before the end line, in the same
// hunk. The emulator keeps comments on the new file (side RIGHT).
func (x *gqlContext) threadSpot(is *state.Issue, p threadPlace) (state.ThreadSpot, error) {
	unprocessable := func(msg string) error { return &gqlError{Type: "UNPROCESSABLE", Message: msg} }
	if p.SubjectType != nil && *p.SubjectType == "FILE" {
		if !state.InDiff(is, p.Path) {
			return state.ThreadSpot{}, unprocessable("Path could not be resolved: " + p.Path)
		}
		return state.ThreadSpot{Path: p.Path, File: true}, nil
	}
	if p.Line == nil {
		return state.ThreadSpot{}, unprocessable("line is required")
	}
	spot := state.ThreadSpot{Path: p.Path, Line: *p.Line}
	left := func(side *string) bool { return side != nil && *side == "LEFT" }
	hunk := state.DiffHunkOf(is, p.Path, *p.Line)
	if left(p.Side) || hunk < 0 {
		return state.ThreadSpot{}, unprocessable("Line could not be resolved: " + p.Path)
	}
	if p.StartLine == nil {
		return spot, nil
	}
	switch {
	case *p.StartLine >= *p.Line:
		return state.ThreadSpot{}, unprocessable("pull_request_review_thread.start_line must precede the end line.")
	case left(p.StartSide) || state.DiffHunkOf(is, p.Path, *p.StartLine) != hunk:
		return state.ThreadSpot{}, unprocessable("pull_request_review_thread.start_line must be part of the same hunk as the line.")
	}
	spot.StartLine = *p.StartLine
	return spot, nil
}
