package issuesync_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/ghgate/ghgate/internal/server/servertest"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
	"github.com/google/go-cmp/cmp"
)

// github_get_issue source mirror answers what the remote read answers,
// from the files alone, with the mirror's age.
func TestGetIssueFromMirror(t *testing.T) {
	env, root := start(t, "")
	n := seedIssue(t, env, func(is *emulator.Issue) bool { return len(is.Comments) > 3 })
	e := refused(t, env, "github_get_issue", widgets(args{"issue_number": n, "source": "mirror"}))
	if e.Code != contract.CodeMirrorNotFound {
		t.Fatalf("before any sync: code = %s, want %s", e.Code, contract.CodeMirrorNotFound)
	}
	if e.Repair.Tool != syncTool {
		t.Fatalf("before any sync: repair tool = %q, want %s", e.Repair.Tool, syncTool)
	}
	doSync(t, env, nil)
	// Every issue with relations, and one with comments, read both ways.
	var related []int
	for name, b := range issueFiles(dirFiles(t, filepath.Join(root, "acme", "widgets"))) {
		var f mirrorfile.File
		if err := json.Unmarshal([]byte(b), &f); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if f.Relations != nil {
			related = append(related, f.Issue.Number)
		}
	}
	if len(related) == 0 {
		t.Fatal("the seed has no issue with relations to compare")
	}
	for _, num := range append(related, n) {
		for _, detail := range []string{"full", "summary"} {
			remote := servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", widgets(args{"issue_number": num, "detail": detail}))
			env.Upstream()
			local := servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", widgets(args{"issue_number": num, "detail": detail, "source": "mirror"}))
			if up := env.Upstream(); len(up) != 0 {
				t.Errorf("#%d from the mirror made requests: %q, want none", num, up)
			}
			if local.MirrorAgeS == nil {
				t.Errorf("#%d: mirror_age_s absent from the mirror read, want 0..60", num)
			} else if age := *local.MirrorAgeS; age < 0 || age > 60 {
				t.Errorf("#%d: mirror_age_s = %v, want 0..60", num, age)
			}
			if remote.MirrorAgeS != nil {
				t.Errorf("#%d: the remote read's mirror_age_s = %v, want absent", num, *remote.MirrorAgeS)
			}
			local.MirrorAgeS, local.RateLimitRemaining, remote.RateLimitRemaining = nil, nil, nil
			// Cursors are minted per call; what they lead to is the same.
			if (local.CommentsNextCursor == "") != (remote.CommentsNextCursor == "") {
				t.Errorf("#%d: mirror comments_next_cursor %q, want one where the remote read has one (%q)", num, local.CommentsNextCursor, remote.CommentsNextCursor)
			}
			local.CommentsNextCursor, remote.CommentsNextCursor = "", ""
			if diff := cmp.Diff(remote, local); diff != "" {
				t.Errorf("#%d %s: mirror read differs from the remote one (-remote +mirror):\n%s", num, detail, diff)
			}
		}
	}
	closed := seedIssue(t, env, func(is *emulator.Issue) bool { return is.Number != n })
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": closed, "state": "closed"}))
	doSync(t, env, nil)
	if e := refused(t, env, "github_get_issue", widgets(args{"issue_number": closed, "source": "mirror"})); e.Code != contract.CodeMirrorNotFound {
		t.Errorf("closed, not mirrored: code = %s, want %s: %+v", e.Code, contract.CodeMirrorNotFound, e)
	}
}
