package issuesync_test

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"

	"github.com/ghgate/ghgate/internal/emulator"
)

var fileName = regexp.MustCompile(`^[1-9][0-9]*-[\p{Ll}\p{Lo}0-9]+(-[\p{Ll}\p{Lo}0-9]+)*\.json$`)

// The first sync writes one file per open issue, with .gitignore and the
// state; the second, with nothing changed, costs one request answered 304
// and touches no file.
func TestSyncFirstThenUnchanged(t *testing.T) {
	env, root := start(t, "")
	first := doSync(t, env, nil)
	open := openIssues(env, "open")
	dir := filepath.Join(root, "acme", "widgets")
	if first.Dir != dir || first.Written != open || first.Removed != 0 || first.Unchanged != 0 || len(first.Invalid) != 0 || !first.Full {
		t.Fatalf("first sync: %+v (want %d written in %s)", first, open, dir)
	}
	answered := env.Answered()
	if first.Upstream.Calls != len(answered) || first.Upstream.Bytes <= 0 || first.Upstream.NotModified != 0 {
		t.Errorf("first sync reports %+v; the wire saw %d requests", first.Upstream, len(answered))
	}
	all := dirFiles(t, dir)
	if all[".gitignore"] != "*\n" {
		t.Errorf(".gitignore: %q", all[".gitignore"])
	}
	var st mirrorfile.State
	if err := json.Unmarshal([]byte(all[mirrorfile.StateFile]), &st); err != nil || st.Schema != mirrorfile.Schema || st.Repo != "acme/widgets" || st.ETag == "" || st.CommentsCap != 100 {
		t.Errorf("state file: %+v (%v)", st, err)
	}
	files := issueFiles(all)
	if len(files) != open || len(all) != open+2 {
		t.Fatalf("%d issue files, %d entries; want %d open issues", len(files), len(all), open)
	}
	withComments := seedIssue(t, env, func(is *emulator.Issue) bool { return len(is.Comments) > 3 })
	for name, b := range files {
		if !fileName.MatchString(name) || len(strings.TrimSuffix(name[strings.Index(name, "-")+1:], ".json")) > 80 {
			t.Errorf("file name %q", name)
		}
		f, err := mirrorfile.Parse(name, []byte(b), "acme/widgets")
		if err != nil || f.SyncedAt != first.SyncedAt || f.Issue.State != "open" || f.Issue.Version == "" || name != mirrorfile.FileName(f.Issue.Number, f.Issue.Title) {
			t.Errorf("%s: %+v %v", name, f.Issue, err)
		}
	}
	_, f := fileOf(t, files, withComments)
	if len(f.Comments) != f.Issue.Comments || f.CommentsTruncated || f.Comments[0].Body == "" {
		t.Errorf("#%d: %d comments of %d, truncated %v", withComments, len(f.Comments), f.Issue.Comments, f.CommentsTruncated)
	}

	second := doSync(t, env, nil)
	answered = env.Answered()
	if len(answered) != 1 || !strings.HasSuffix(answered[0], " 304") || !strings.Contains(answered[0], "/repos/acme/widgets/issues?") {
		t.Fatalf("second sync on the wire: %q, want one request answered 304", answered)
	}
	if second.Written != 0 || second.Removed != 0 || second.Unchanged != open || second.Full ||
		second.Upstream.Calls != 1 || second.Upstream.NotModified != 1 || second.Upstream.Bytes != 0 {
		t.Errorf("second sync: %+v", second)
	}
	if got := issueFiles(dirFiles(t, dir)); !equalMaps(got, files) {
		t.Error("an unchanged sync changed issue files")
	}
}

func equalMaps(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// An edited issue's file is rewritten (its synced_at alone moves), a
// closed issue's file goes, a retitled issue's file takes the new name.
func TestSyncFollowsEditsClosesAndTitles(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	doSync(t, env, nil)
	before := issueFiles(dirFiles(t, dir))
	edited := seedIssue(t, env, func(is *emulator.Issue) bool { return true })
	closed := seedIssue(t, env, func(is *emulator.Issue) bool { return is.Number > edited })
	retitled := seedIssue(t, env, func(is *emulator.Issue) bool { return is.Number > closed })
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": edited, "body": "rewritten by the test"}))
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": closed, "state": "closed"}))
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": retitled, "title": "A brand new title, for the mirror!"}))
	env.Answered()
	// The next sync runs an hour later by ghgate's clock, so a synced_at
	// that moved is told from one that did not.
	later := time.Now().Add(time.Hour)
	env.Stack.Service.Now = func() time.Time { return later }

	out := doSync(t, env, nil)
	if out.Written != 2 || out.Removed != 1 || out.Unchanged != len(before)-3 || len(out.Invalid) != 0 {
		t.Fatalf("sync after edits: %+v", out)
	}
	after := issueFiles(dirFiles(t, dir))
	name, f := fileOf(t, after, edited)
	oldName, old := fileOf(t, before, edited)
	if name != oldName || f.Issue.Body != "rewritten by the test" || f.SyncedAt != out.SyncedAt || f.SyncedAt == old.SyncedAt {
		t.Errorf("edited #%d: %s %+v", edited, name, f)
	}
	for n := range before {
		if after[n] != before[n] && !strings.HasPrefix(n, itoa(edited)+"-") && !strings.HasPrefix(n, itoa(retitled)+"-") && !strings.HasPrefix(n, itoa(closed)+"-") {
			t.Errorf("%s changed though its issue did not", n)
		}
	}
	for n := range after {
		if strings.HasPrefix(n, itoa(closed)+"-") {
			t.Errorf("closed #%d still has %s", closed, n)
		}
	}
	name, f = fileOf(t, after, retitled)
	if name != itoa(retitled)+"-a-brand-new-title-for-the-mirror.json" || f.Issue.Title != "A brand new title, for the mirror!" {
		t.Errorf("retitled #%d: %s", retitled, name)
	}
	if n := len(after); n != len(before)-1 {
		t.Errorf("%d files after, %d before: the old name must go", n, len(before))
	}
	// And then nothing changed: one request again.
	env.Answered()
	again := doSync(t, env, nil)
	if answered := env.Answered(); len(answered) != 1 || !strings.HasSuffix(answered[0], " 304") || again.Written != 0 {
		t.Errorf("sync after a sync: %+v on the wire %q", again, answered)
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// A deleted issue leaves no trace in a listing by update time: its file
// goes when the listing is complete (full).
func TestSyncRemovesDeletedIssueOnFull(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	doSync(t, env, nil)
	gone := seedIssue(t, env, func(is *emulator.Issue) bool { return true })
	servertest.CallOK[map[string]any](t, env, "github_delete_issue", widgets(args{"issue_number": gone, "confirm_issue_number": gone}))
	doSync(t, env, nil)
	full := doSync(t, env, args{"full": true})
	if !full.Full || full.Removed != 1 || full.Written != 0 {
		t.Fatalf("full sync after a delete: %+v", full)
	}
	for n := range dirFiles(t, dir) {
		if strings.HasPrefix(n, itoa(gone)+"-") {
			t.Errorf("deleted #%d still has %s", gone, n)
		}
	}
}

// comments_cap bounds the comments kept and says so; include_closed keeps
// closed issues too.
func TestSyncCommentsCapAndIncludeClosed(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	many := seedIssue(t, env, func(is *emulator.Issue) bool { return len(is.Comments) > 3 })
	out := doSync(t, env, args{"comments_cap": 2})
	_, f := fileOf(t, issueFiles(dirFiles(t, dir)), many)
	if len(f.Comments) != 2 || !f.CommentsTruncated || f.Issue.Comments <= 2 {
		t.Errorf("#%d with cap 2: %d comments, truncated %v", many, len(f.Comments), f.CommentsTruncated)
	}
	// Another cap rewrites what it changes, from a full listing.
	out = doSync(t, env, args{"include_closed": true})
	all := openIssues(env, "all")
	closed := all - openIssues(env, "open")
	if !out.Full || out.Written < closed || out.Written+out.Unchanged != all || len(issueFiles(dirFiles(t, dir))) != all {
		t.Errorf("include_closed: %+v, want %d files", out, all)
	}
	_, f = fileOf(t, issueFiles(dirFiles(t, dir)), many)
	if len(f.Comments) != f.Issue.Comments || f.CommentsTruncated {
		t.Errorf("#%d with the default cap: %d comments of %d", many, len(f.Comments), f.Issue.Comments)
	}
}
