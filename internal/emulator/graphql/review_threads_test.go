package graphql_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// TestGraphQLReviewThreadPlaces puts threads on a range of lines and on a
// whole file, as addPullRequestReviewThread's startLine and subjectType
// do on GitHub, and refuses the places GitHub refuses.
func TestGraphQLReviewThreadPlaces(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	st := w.emu.State()
	st.Lock()
	is := st.Repo("acme", "widgets").Issue(146)
	var path string
	var line, outside int // outside: a line of path no hunk holds
	for _, fc := range is.Pull.Changes() {
		l := state.FirstAddedLine(fc.Patch)
		if l == 0 || state.DiffHunkOf(is, fc.Path, l+1) != state.DiffHunkOf(is, fc.Path, l) {
			continue
		}
		for o := 1; o < l; o++ {
			if state.DiffHunkOf(is, fc.Path, o) < 0 {
				path, line, outside = fc.Path, l, o
			}
		}
	}
	st.Unlock()
	if path == "" || outside == 0 {
		t.Fatalf("#146 has no hunk of two lines after an unchanged line (path %q, line %d)", path, line)
	}
	var pr struct {
		Repository struct{ PullRequest struct{ ID string } }
	}
	w.query(seed.DemoTokenCarol, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 146) { id } } }`, nil).ok(t, &pr)
	var started struct {
		AddPullRequestReview struct{ PullRequestReview struct{ ID string } }
	}
	w.query(seed.DemoTokenCarol, `mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id}) { pullRequestReview { id } } }`,
		map[string]any{"id": pr.Repository.PullRequest.ID}).ok(t, &started)
	review := started.AddPullRequestReview.PullRequestReview.ID

	const add = `mutation($input: AddPullRequestReviewThreadInput!) { addPullRequestReviewThread(input: $input) {
		thread { path line startLine originalStartLine diffSide startDiffSide subjectType comments(first: 1) { nodes { body line startLine subjectType } } } } }`
	thread := func(place map[string]any) gqlResult {
		input := map[string]any{"pullRequestReviewId": review, "path": path, "body": "b"}
		for k, v := range place {
			input[k] = v
		}
		return w.query(seed.DemoTokenCarol, add, map[string]any{"input": input})
	}
	type threadData struct {
		AddPullRequestReviewThread struct {
			Thread struct {
				Path                           string
				Line, StartLine, OriginalStart *int
				DiffSide                       string
				StartDiffSide                  *string
				SubjectType                    string
				Comments                       struct {
					Nodes []struct {
						Line, StartLine *int
						SubjectType     string
					}
				}
			}
		}
	}
	var multi threadData
	thread(map[string]any{"startLine": line, "startSide": "RIGHT", "line": line + 1, "side": "RIGHT", "subjectType": "LINE"}).ok(t, &multi)
	th := multi.AddPullRequestReviewThread.Thread
	if th.Line == nil || *th.Line != line+1 {
		t.Errorf("multi-line thread line = %v, want %d", deref(th.Line), line+1)
	}
	if th.StartLine == nil || *th.StartLine != line {
		t.Errorf("multi-line thread startLine = %v, want %d", deref(th.StartLine), line)
	}
	if th.StartDiffSide == nil || *th.StartDiffSide != "RIGHT" {
		t.Errorf("multi-line thread startDiffSide = %v, want RIGHT", deref(th.StartDiffSide))
	}
	if th.SubjectType != "LINE" {
		t.Errorf("multi-line thread subjectType = %s, want LINE", th.SubjectType)
	}
	if len(th.Comments.Nodes) != 1 {
		t.Errorf("multi-line thread comments = %+v, want 1", th.Comments.Nodes)
	} else if th.Comments.Nodes[0].StartLine == nil {
		t.Errorf("multi-line thread's comment startLine = null, want %d", line)
	}
	var file threadData
	thread(map[string]any{"subjectType": "FILE"}).ok(t, &file)
	th = file.AddPullRequestReviewThread.Thread
	if th.Line != nil {
		t.Errorf("file thread line = %d, want null", *th.Line)
	}
	if th.StartLine != nil {
		t.Errorf("file thread startLine = %d, want null", *th.StartLine)
	}
	if th.SubjectType != "FILE" {
		t.Errorf("file thread subjectType = %s, want FILE", th.SubjectType)
	}
	if len(th.Comments.Nodes) != 1 {
		t.Errorf("file thread comments = %+v, want 1", th.Comments.Nodes)
	} else {
		if c := th.Comments.Nodes[0]; c.SubjectType != "FILE" {
			t.Errorf("file thread's comment subjectType = %s, want FILE", c.SubjectType)
		}
		if c := th.Comments.Nodes[0]; c.Line != nil {
			t.Errorf("file thread's comment line = %d, want null", *c.Line)
		}
	}
	for _, c := range []struct {
		place map[string]any
		msg   string
	}{
		{map[string]any{"startLine": line + 1, "line": line + 1}, "start_line must precede the end line"},
		{map[string]any{"startLine": outside, "line": line + 1}, "start_line must be part of the same hunk as the line"},
		{map[string]any{"subjectType": "FILE", "path": "no/such/file.go"}, "Path could not be resolved"},
		{map[string]any{"subjectType": "LINE"}, "line is required"},
	} {
		r := thread(c.place)
		if len(r.Errors) == 0 || !strings.Contains(r.Errors[0].Message, c.msg) {
			t.Errorf("thread at %v: errors %+v, want the first saying %q", c.place, r.Errors, c.msg)
		}
	}
}
