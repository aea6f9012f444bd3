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
	"github.com/ghgate/ghgate/internal/tools/issuesync"
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
	wantSync(t, t.Fatalf, "first sync", first, issuesync.SyncIssuesOut{Dir: dir, Written: open, Full: true}, "Upstream", "SyncedAt")
	answered := env.Answered()
	if first.Upstream.Calls != len(answered) {
		t.Errorf("first sync reports %d upstream calls, want the %d the wire saw", first.Upstream.Calls, len(answered))
	}
	if first.Upstream.Bytes <= 0 {
		t.Errorf("first sync reports %d upstream bytes, want above 0", first.Upstream.Bytes)
	}
	if first.Upstream.NotModified != 0 {
		t.Errorf("first sync reports %d calls answered 304, want 0", first.Upstream.NotModified)
	}
	all := dirFiles(t, dir)
	if all[".gitignore"] != "*\n" {
		t.Errorf(".gitignore = %q, want %q", all[".gitignore"], "*\n")
	}
	var st mirrorfile.State
	if err := json.Unmarshal([]byte(all[mirrorfile.StateFile]), &st); err != nil {
		t.Errorf("state file: %v", err)
	}
	if st.Schema != mirrorfile.Schema {
		t.Errorf("state file: schema = %v, want %v", st.Schema, mirrorfile.Schema)
	}
	if st.Repo != "acme/widgets" {
		t.Errorf("state file: repo = %q, want acme/widgets", st.Repo)
	}
	if st.ETag == "" {
		t.Errorf("state file: etag is empty, want one")
	}
	if st.CommentsCap != 100 {
		t.Errorf("state file: comments_cap = %d, want 100", st.CommentsCap)
	}
	files := issueFiles(all)
	if len(files) != open {
		t.Fatalf("%d issue files, want one per open issue, %d", len(files), open)
	}
	if len(all) != open+2 {
		t.Fatalf("%d entries, want %d (the issue files, .gitignore and the state)", len(all), open+2)
	}
	withComments := seedIssue(t, env, func(is *emulator.Issue) bool { return len(is.Comments) > 3 })
	for name, b := range files {
		if !fileName.MatchString(name) {
			t.Errorf("file name %q, want NUMBER-SLUG.json", name)
		}
		if slug := strings.TrimSuffix(name[strings.Index(name, "-")+1:], ".json"); len(slug) > 80 {
			t.Errorf("file name %q: slug of %d bytes, want at most 80", name, len(slug))
		}
		f, err := mirrorfile.Parse(name, []byte(b), "acme/widgets")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if f.SyncedAt != first.SyncedAt {
			t.Errorf("%s: synced_at = %q, want the sync's %q", name, f.SyncedAt, first.SyncedAt)
		}
		if f.Issue.State != "open" {
			t.Errorf("%s: state = %q, want open", name, f.Issue.State)
		}
		if f.Issue.Version == "" {
			t.Errorf("%s: version is empty, want one", name)
		}
		if want := mirrorfile.FileName(f.Issue.Number, f.Issue.Title); name != want {
			t.Errorf("file name %q, want %q", name, want)
		}
	}
	_, f := fileOf(t, files, withComments)
	if len(f.Comments) != f.Issue.Comments {
		t.Errorf("#%d: %d comments, want all %d", withComments, len(f.Comments), f.Issue.Comments)
	}
	if f.CommentsTruncated {
		t.Errorf("#%d: comments_truncated = true, want false", withComments)
	}
	if len(f.Comments) == 0 {
		t.Errorf("#%d: no comments, want the first with a body", withComments)
	} else if f.Comments[0].Body == "" {
		t.Errorf("#%d: first comment's body is empty, want it", withComments)
	}

	second := doSync(t, env, nil)
	answered = env.Answered()
	if len(answered) != 1 {
		t.Fatalf("second sync on the wire: %q, want one request answered 304", answered)
	}
	if !strings.HasSuffix(answered[0], " 304") {
		t.Fatalf("second sync on the wire: %q, want it answered 304", answered[0])
	}
	if !strings.Contains(answered[0], "/repos/acme/widgets/issues?") {
		t.Fatalf("second sync on the wire: %q, want the issue listing", answered[0])
	}
	wantSync(t, t.Errorf, "second sync", second, issuesync.SyncIssuesOut{Unchanged: open, Upstream: issuesync.Upstream{Calls: 1, NotModified: 1}},
		"Dir", "Invalid", "SyncedAt")
	if got := issueFiles(dirFiles(t, dir)); !equalMaps(got, files) {
		t.Errorf("an unchanged sync changed issue files: %d files now, %d before", len(got), len(files))
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
	wantSync(t, t.Fatalf, "sync after edits", out, issuesync.SyncIssuesOut{Written: 2, Removed: 1, Unchanged: len(before) - 3},
		"Dir", "Full", "Upstream", "SyncedAt")
	after := issueFiles(dirFiles(t, dir))
	name, f := fileOf(t, after, edited)
	oldName, old := fileOf(t, before, edited)
	if name != oldName {
		t.Errorf("edited #%d: file %s, want the same name, %s", edited, name, oldName)
	}
	if f.Issue.Body != "rewritten by the test" {
		t.Errorf("edited #%d: body = %q, want %q", edited, f.Issue.Body, "rewritten by the test")
	}
	if f.SyncedAt != out.SyncedAt {
		t.Errorf("edited #%d: synced_at = %q, want the sync's %q", edited, f.SyncedAt, out.SyncedAt)
	}
	if f.SyncedAt == old.SyncedAt {
		t.Errorf("edited #%d: synced_at = %q, want it moved from the first sync's", edited, f.SyncedAt)
	}
	for n := range before {
		if after[n] != before[n] && !strings.HasPrefix(n, itoa(edited)+"-") && !strings.HasPrefix(n, itoa(retitled)+"-") && !strings.HasPrefix(n, itoa(closed)+"-") {
			t.Errorf("%s changed though its issue did not, want it unchanged", n)
		}
	}
	for n := range after {
		if strings.HasPrefix(n, itoa(closed)+"-") {
			t.Errorf("closed #%d still has %s, want it removed", closed, n)
		}
	}
	name, f = fileOf(t, after, retitled)
	if want := itoa(retitled) + "-a-brand-new-title-for-the-mirror.json"; name != want {
		t.Errorf("retitled #%d: file %s, want %s", retitled, name, want)
	}
	if want := "A brand new title, for the mirror!"; f.Issue.Title != want {
		t.Errorf("retitled #%d: title = %q, want %q", retitled, f.Issue.Title, want)
	}
	if n := len(after); n != len(before)-1 {
		t.Errorf("%d files after, want %d (one fewer than before): the old name must go", n, len(before)-1)
	}
	// And then nothing changed: one request again.
	env.Answered()
	again := doSync(t, env, nil)
	if answered := env.Answered(); len(answered) != 1 {
		t.Errorf("sync after a sync on the wire: %q, want one request answered 304", answered)
	} else if !strings.HasSuffix(answered[0], " 304") {
		t.Errorf("sync after a sync on the wire: %q, want it answered 304", answered[0])
	}
	if again.Written != 0 {
		t.Errorf("sync after a sync: written = %d, want 0", again.Written)
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
	if !full.Full {
		t.Fatalf("full sync after a delete: full = false, want true")
	}
	if full.Removed != 1 {
		t.Fatalf("full sync after a delete: removed = %d, want 1", full.Removed)
	}
	if full.Written != 0 {
		t.Fatalf("full sync after a delete: written = %d, want 0", full.Written)
	}
	for n := range dirFiles(t, dir) {
		if strings.HasPrefix(n, itoa(gone)+"-") {
			t.Errorf("deleted #%d still has %s, want it removed", gone, n)
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
	if len(f.Comments) != 2 {
		t.Errorf("#%d with cap 2: %d comments, want 2", many, len(f.Comments))
	}
	if !f.CommentsTruncated {
		t.Errorf("#%d with cap 2: comments_truncated = false, want true", many)
	}
	if f.Issue.Comments <= 2 {
		t.Errorf("#%d with cap 2: the issue counts %d comments, want more than 2", many, f.Issue.Comments)
	}
	// Another cap rewrites what it changes, from a full listing.
	out = doSync(t, env, args{"include_closed": true})
	all := openIssues(env, "all")
	closed := all - openIssues(env, "open")
	if !out.Full {
		t.Errorf("include_closed: full = false, want true")
	}
	if out.Written < closed {
		t.Errorf("include_closed: written = %d, want at least the %d closed issues", out.Written, closed)
	}
	if got := out.Written + out.Unchanged; got != all {
		t.Errorf("include_closed: written + unchanged = %d, want every issue, %d", got, all)
	}
	if got := len(issueFiles(dirFiles(t, dir))); got != all {
		t.Errorf("include_closed: %d files, want %d", got, all)
	}
	_, f = fileOf(t, issueFiles(dirFiles(t, dir)), many)
	if len(f.Comments) != f.Issue.Comments {
		t.Errorf("#%d with the default cap: %d comments, want all %d", many, len(f.Comments), f.Issue.Comments)
	}
	if f.CommentsTruncated {
		t.Errorf("#%d with the default cap: comments_truncated = true, want false", many)
	}
}
