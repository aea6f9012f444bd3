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
	if len(local.Comments) != 1 || local.Issue.BodyWindow == nil || local.Comments[0].BodyWindow == nil {
		t.Fatalf("mirror read: issue window %+v, %d comments", local.Issue.BodyWindow, len(local.Comments))
	}
	for _, pair := range [][2]*issueview.BodyWindow{{local.Issue.BodyWindow, remote.Issue.BodyWindow}, {local.Comments[0].BodyWindow, remote.Comments[0].BodyWindow}} {
		l, r := *pair[0], *pair[1]
		if l.Next == "" || r.Next == "" {
			t.Fatalf("no next window: mirror %+v, remote %+v", l, r)
		}
		l.Next, r.Next = "", ""
		if l != r {
			t.Fatalf("windows differ: mirror %+v, remote %+v", l, r)
		}
	}
	if local.Issue.Body != remote.Issue.Body || local.Comments[0].Body != remote.Comments[0].Body {
		t.Fatal("the mirror's first windows differ from GitHub's")
	}

	// The issue's body, window by window, from the mirror alone.
	got, w := local.Issue.Body, local.Issue.BodyWindow
	env.Upstream()
	for w.Next != "" {
		out := get(args{"issue_number": n, "source": "mirror", "body_cursor": w.Next})
		if len(out.Comments) != 0 || out.Issue.BodyWindow == nil {
			t.Fatalf("a body window from the mirror: %+v", out)
		}
		got, w = got+out.Issue.Body, out.Issue.BodyWindow
	}
	if got != text {
		t.Fatalf("reassembled %d bytes of %d", len(got), len(text))
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("windows from the mirror made requests: %q", up)
	}

	one := get(args{"issue_number": n, "source": "mirror", "comment_id": id})
	if one.Comment == nil || one.Comment.ID != id || one.Comment.BodyWindow == nil || one.Comment.Body != local.Comments[0].Body || len(one.Comments) != 0 {
		t.Fatalf("comment %d from the mirror: %+v", id, one.Comment)
	}
	next := get(args{"issue_number": n, "source": "mirror", "body_cursor": one.Comment.BodyWindow.Next})
	if next.Comment == nil || next.Comment.ID != id || next.Comment.BodyWindow.ShownFrom != one.Comment.BodyWindow.ShownTo {
		t.Fatalf("comment %d's next window from the mirror: %+v", id, next.Comment)
	}

	// A comment made after the sync is not in the mirror.
	st.Lock()
	later := st.AddComment(is, alice, "after the sync", emulator.DemoNow().Add(3*time.Hour)).ID
	st.Unlock()
	e := refused(t, env, "github_get_issue", widgets(args{"issue_number": n, "source": "mirror", "comment_id": later}))
	if e.Code != contract.CodeCommentNotFound || e.Details == nil || e.Details.Field != "comment_id" || e.Repair.Alternative == "" {
		t.Fatalf("a comment the mirror lacks: %+v", e)
	}
}
