package issuesync_test

import (
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issueview"
	"github.com/google/go-cmp/cmp"
)

// A read of the mirror windows long bodies as a read from GitHub does,
// and its body cursors read the following windows from the files; one
// comment is found by its id among the file's.
func TestMirrorReadsLongBodiesInWindows(t *testing.T) {
	env, _ := start(t, "")
	text := strings.Repeat("log line é 日 😀\n", 1500) // 22,500 characters
	var n int
	var id int64
	st := env.Emu.Emu.State()
	st.Lock()
	alice := st.Account("alice")
	is := st.AddIssue(st.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo), alice, "A pasted log", &text, false, emulator.DemoNow().Add(time.Hour))
	id = st.AddComment(is, alice, "the log again:\n"+text, emulator.DemoNow().Add(2*time.Hour)).ID
	n = is.Number
	st.Unlock()
	doSync(t, env, nil)

	get := func(a args) issues.GetIssueOut {
		t.Helper()
		return servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", widgets(a))
	}
	remote, local := get(args{"issue_number": n}), get(args{"issue_number": n, "source": "mirror"})
	if len(local.Comments) != 1 {
		t.Fatalf("mirror read: %d comments, want 1", len(local.Comments))
	}
	if local.Issue.BodyWindow == nil {
		t.Fatal("mirror read: issue body_window = nil, want one")
	}
	if local.Comments[0].BodyWindow == nil {
		t.Fatal("mirror read: comment body_window = nil, want one")
	}
	for _, pair := range [][2]*issueview.BodyWindow{{local.Issue.BodyWindow, remote.Issue.BodyWindow}, {local.Comments[0].BodyWindow, remote.Comments[0].BodyWindow}} {
		l, r := *pair[0], *pair[1]
		if l.Next == "" {
			t.Fatalf("mirror window %+v has no next, want one", l)
		}
		if r.Next == "" {
			t.Fatalf("remote window %+v has no next, want one", r)
		}
		l.Next, r.Next = "", ""
		if diff := cmp.Diff(r, l); diff != "" {
			t.Fatalf("mirror window differs from the remote one (-remote +mirror):\n%s", diff)
		}
	}
	if local.Issue.Body != remote.Issue.Body {
		t.Fatalf("the mirror's first window of the body = %q, want GitHub's %q", local.Issue.Body, remote.Issue.Body)
	}
	if local.Comments[0].Body != remote.Comments[0].Body {
		t.Fatalf("the mirror's first window of the comment = %q, want GitHub's %q", local.Comments[0].Body, remote.Comments[0].Body)
	}

	// The issue's body, window by window, from the mirror alone.
	got, w := local.Issue.Body, local.Issue.BodyWindow
	env.Upstream()
	for w.Next != "" {
		out := get(args{"issue_number": n, "source": "mirror", "body_cursor": w.Next})
		if len(out.Comments) != 0 {
			t.Fatalf("a body window from the mirror: %d comments, want none", len(out.Comments))
		}
		if out.Issue.BodyWindow == nil {
			t.Fatalf("a body window from the mirror: body_window = nil, want one: %+v", out)
		}
		got, w = got+out.Issue.Body, out.Issue.BodyWindow
	}
	if got != text {
		t.Fatalf("reassembled %d bytes, want the body's %d", len(got), len(text))
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("windows from the mirror made requests: %q, want none", up)
	}

	one := get(args{"issue_number": n, "source": "mirror", "comment_id": id})
	if one.Comment == nil {
		t.Fatalf("comment %d from the mirror: comment = nil, want it", id)
	}
	if one.Comment.ID != id {
		t.Fatalf("comment %d from the mirror: id = %d, want %d", id, one.Comment.ID, id)
	}
	if one.Comment.BodyWindow == nil {
		t.Fatalf("comment %d from the mirror: body_window = nil, want one", id)
	}
	if one.Comment.Body != local.Comments[0].Body {
		t.Fatalf("comment %d from the mirror: body = %q, want the issue read's %q", id, one.Comment.Body, local.Comments[0].Body)
	}
	if len(one.Comments) != 0 {
		t.Fatalf("comment %d from the mirror: %d comments beside it, want none", id, len(one.Comments))
	}
	next := get(args{"issue_number": n, "source": "mirror", "body_cursor": one.Comment.BodyWindow.Next})
	if next.Comment == nil {
		t.Fatalf("comment %d's next window from the mirror: comment = nil, want it", id)
	}
	if next.Comment.ID != id {
		t.Fatalf("comment %d's next window from the mirror: id = %d, want %d", id, next.Comment.ID, id)
	}
	if next.Comment.BodyWindow.ShownFrom != one.Comment.BodyWindow.ShownTo {
		t.Fatalf("comment %d's next window from the mirror: shown_from = %d, want the first's shown_to %d", id, next.Comment.BodyWindow.ShownFrom, one.Comment.BodyWindow.ShownTo)
	}

	// A comment made after the sync is not in the mirror.
	st.Lock()
	later := st.AddComment(is, alice, "after the sync", emulator.DemoNow().Add(3*time.Hour)).ID
	st.Unlock()
	e := refused(t, env, "github_get_issue", widgets(args{"issue_number": n, "source": "mirror", "comment_id": later}))
	if e.Code != contract.CodeCommentNotFound {
		t.Fatalf("a comment the mirror lacks: code = %s, want %s", e.Code, contract.CodeCommentNotFound)
	}
	if e.Details == nil {
		t.Fatal("a comment the mirror lacks: details = nil, want field comment_id")
	}
	if e.Details.Field != "comment_id" {
		t.Fatalf("a comment the mirror lacks: details.field = %q, want comment_id", e.Details.Field)
	}
	if e.Repair.Alternative == "" {
		t.Fatalf("a comment the mirror lacks: repair.alternative is empty, want one: %+v", e.Repair)
	}
}
