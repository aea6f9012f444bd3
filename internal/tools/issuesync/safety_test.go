package issuesync_test

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issuesync"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
)

// writeTree makes files (and their directories) under dir.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, b := range files {
		p := filepath.Join(dir, name)
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A project checkout (a directory holding .git) or any non-empty
// directory that is no mirror, where a repository's mirror belongs, is
// refused before anything is written: its .gitignore and files stay as
// they were.
func TestSyncRefusesForeignDirs(t *testing.T) {
	proj := map[string]string{"acme/gadgets/.git/": "", "acme/gadgets/.gitignore": "node_modules/\nsecret.env\n",
		"acme/gadgets/.ghgate-tmp-notmine": "mine", "acme/gadgets/main.go": "package main\n",
		"alice/notes/todo.txt": "mine", "alice/notes/.ghgate-tmp-0123456789abcdef": "mine"}
	env, root := start(t, "")
	writeTree(t, root, proj)
	for _, r := range []args{{"owner": "acme", "repo": "gadgets"}, {"owner": "alice", "repo": "notes"}} {
		e := refused(t, env, syncTool, r)
		if e.Code != contract.CodeSyncDirRefused {
			t.Errorf("%v: code = %s, want %s", r, e.Code, contract.CodeSyncDirRefused)
		}
		if e.Details == nil {
			t.Errorf("%v: details = nil, want a reason", r)
		} else if e.Details.Reason == "" {
			t.Errorf("%v: details.reason is empty, want one", r)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q, want none", up)
	}
	for name, b := range proj {
		if strings.HasSuffix(name, "/") {
			continue
		}
		if got, err := os.ReadFile(filepath.Join(root, name)); err != nil {
			t.Errorf("%s: %v, want it untouched", name, err)
		} else if string(got) != b {
			t.Errorf("%s = %q, want it untouched, %q", name, got, b)
		}
	}
	for _, d := range []string{"acme/gadgets", "alice/notes"} {
		if ents, _ := os.ReadDir(filepath.Join(root, d)); len(ents) != len(entriesUnder(proj, d)) {
			t.Errorf("%s: %d entries, want %d", d, len(ents), len(entriesUnder(proj, d)))
		}
	}
	// An empty directory is a mirror's to start, also after a first sync
	// into it failed (here: no such repository) and left it empty.
	if e := refused(t, env, syncTool, args{"owner": emulator.DemoOrg, "repo": "no-such-repo"}); e.Code != contract.CodeRepoNotFound {
		t.Errorf("no such repository: code = %s, want %s: %+v", e.Code, contract.CodeRepoNotFound, e)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "acme", "no-such-repo")); len(ents) != 0 {
		t.Errorf("a failed first sync left %v, want nothing", ents)
	}
	writeTree(t, root, map[string]string{"acme/widgets/": ""})
	if out := doSync(t, env, nil); out.Written == 0 {
		t.Errorf("empty dir: written = 0, want the issues written: %+v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "acme", "widgets", ".gitignore")); string(b) != "*\n" {
		t.Errorf("a new mirror's .gitignore = %q, want %q", b, "*\n")
	}
}

// entriesUnder counts the names directly under dir in a writeTree map.
func entriesUnder(files map[string]string, dir string) map[string]bool {
	out := map[string]bool{}
	for name := range files {
		rest, ok := strings.CutPrefix(name, dir+"/")
		if ok {
			out[strings.SplitN(rest, "/", 2)[0]] = true
		}
	}
	return out
}

// In its own mirror a sync replaces no .gitignore it did not write (one
// without "*" is reported) and removes only temporary files of its own
// naming that are old enough that no sync can be writing them.
func TestSyncKeepsForeignGitignoreAndTmpFiles(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	doSync(t, env, nil)
	if b, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(b) != "*\n" {
		t.Errorf("the mirror's .gitignore = %q, want %q", b, "*\n")
	}
	young, old := ".ghgate-tmp-0123456789abcdef", ".ghgate-tmp-fedcba9876543210"
	planted := map[string]string{".gitignore": "node_modules/\n", ".ghgate-tmp-notmine": "mine", young: "a write in progress", old: "a crashed write"}
	writeTree(t, dir, planted)
	hours := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, old), hours, hours); err != nil {
		t.Fatal(err)
	}
	out := doSync(t, env, nil)
	reasons := map[string]string{}
	for _, iv := range out.Invalid {
		reasons[filepath.Base(iv.Path)] = iv.Reason
	}
	if !strings.Contains(reasons[".gitignore"], `"*"`) {
		t.Errorf(".gitignore invalid for %q, want a reason naming \"*\"", reasons[".gitignore"])
	}
	if reasons[".ghgate-tmp-notmine"] == "" {
		t.Errorf(".ghgate-tmp-notmine not reported invalid, want it reported: %+v", out.Invalid)
	}
	if len(reasons) != 2 {
		t.Errorf("%d files invalid, want 2: %+v", len(reasons), out.Invalid)
	}
	after := dirFiles(t, dir)
	for _, name := range []string{".gitignore", ".ghgate-tmp-notmine", young} {
		if after[name] != planted[name] {
			t.Errorf("%s = %q, want it left as it was, %q", name, after[name], planted[name])
		}
	}
	if _, ok := after[old]; ok {
		t.Errorf("%s, ghgate's and two hours old, was not removed", old)
	}
}

// A title of 80 four-byte letters still names a file the file system
// takes (at most 200 bytes of slug), and the sync completes.
func TestSyncLongMultibyteTitle(t *testing.T) {
	env, root := start(t, "")
	title := strings.Repeat("𝐀", 80)
	var created struct {
		Issue struct {
			Number int `json:"number"`
		} `json:"issue"`
	}
	res := env.Call(t, "github_create_issue", widgets(args{"title": title}))
	if res.IsError {
		t.Fatalf("create: error %s, want success", res.JSON)
	}
	res.Decode(t, &created)
	out := doSync(t, env, nil)
	if len(out.Invalid) != 0 {
		t.Errorf("invalid = %+v, want none", out.Invalid)
	}
	name, f := fileOf(t, issueFiles(dirFiles(t, filepath.Join(root, "acme", "widgets"))), created.Issue.Number)
	if len(name) > 255 {
		t.Errorf("file %q is %d bytes, want at most 255", name, len(name))
	}
	if f.Issue.Title != title {
		t.Errorf("file %q holds title %q, want %q", name, f.Issue.Title, title)
	}
	if !utf8.ValidString(name) {
		t.Errorf("file name %q is not valid UTF-8, want it valid", name)
	}
	for _, tc := range []struct {
		title      string
		runes, len int
	}{
		{title, 50, 200},
		{strings.Repeat("é", 100), 80, 160},
		{"a " + strings.Repeat("𝐀", 60), 51, 198},
	} {
		s := mirrorfile.Slug(tc.title)
		if got := utf8.RuneCountInString(s); got != tc.runes {
			t.Errorf("Slug(%q) = %q: %d characters, want %d", tc.title, s, got, tc.runes)
		}
		if len(s) != tc.len {
			t.Errorf("Slug(%q) = %q: %d bytes, want %d", tc.title, s, len(s), tc.len)
		}
		if !utf8.ValidString(s) {
			t.Errorf("Slug(%q) = %q, want valid UTF-8", tc.title, s)
		}
	}
}

// Mirror directories are 0700 and files 0600: issue text may be private.
func TestSyncModes(t *testing.T) {
	env, root := start(t, "")
	doSync(t, env, nil)
	dir := filepath.Join(root, "acme", "widgets")
	for _, d := range []string{filepath.Join(root, "acme"), dir} {
		if fi, err := os.Stat(d); err != nil {
			t.Errorf("%s: %v", d, err)
		} else if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s: mode %v, want no group or other permissions", d, fi.Mode())
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	if len(ents) < 3 {
		t.Fatalf("%s holds %v, want at least 3 entries", dir, ents)
	}
	for _, e := range ents {
		fi, err := e.Info()
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Fatalf("%s: mode %v, want no group or other permissions", e.Name(), fi.Mode())
		}
	}
}

// A mirror read resolves the owner's read client as the remote read
// does: where there is none (here no token; under a broker, an owner
// without a route), a mirror synced earlier is refused, with no request.
func TestMirrorReadNeedsClient(t *testing.T) {
	env, root := start(t, "")
	doSync(t, env, nil)
	n := seedIssue(t, env, func(*emulator.Issue) bool { return true })
	servertest.CallOK[issues.GetIssueOut](t, env, "github_get_issue", widgets(args{"issue_number": n, "source": "mirror"}))
	bare := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "sync"}, SyncRoot: root, Emu: env.Emu, Token: "-"})
	bare.Upstream()
	remote := refused(t, bare, "github_get_issue", widgets(args{"issue_number": n}))
	e := refused(t, bare, "github_get_issue", widgets(args{"issue_number": n, "source": "mirror"}))
	if e.Code != contract.CodeMissingCredential {
		t.Errorf("mirror read without a client: code = %s, want %s", e.Code, contract.CodeMissingCredential)
	}
	if e.Code != remote.Code {
		t.Errorf("mirror read without a client: code = %s, want the remote read's %s", e.Code, remote.Code)
	}
	if up := bare.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q, want none", up)
	}
}

// A file the file system refuses is reported in invalid, its older copy
// kept; the sync still writes the others and saves its state.
func TestSyncReportsARefusedFile(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	doSync(t, env, nil)
	n := seedIssue(t, env, func(*emulator.Issue) bool { return true })
	before, _ := fileOf(t, issueFiles(dirFiles(t, dir)), n)
	was := dirFiles(t, dir)[before]
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": n, "body": "changed"}))
	prefix := fmt.Sprintf("%d-", n)
	defer issuesync.SetWriteIssueFile(func(r *os.Root, name string, b []byte) error {
		if strings.HasPrefix(name, prefix) {
			return &fs.PathError{Op: "open", Path: name, Err: syscall.ENAMETOOLONG}
		}
		return issuesync.WriteFile(r, name, b)
	})()
	out := doSync(t, env, nil)
	if len(out.Invalid) != 1 {
		t.Errorf("invalid = %+v, want 1 file", out.Invalid)
	} else {
		if want := filepath.Join(dir, before); out.Invalid[0].Path != want {
			t.Errorf("invalid path = %s, want %s", out.Invalid[0].Path, want)
		}
		if !strings.Contains(out.Invalid[0].Reason, "file name too long") {
			t.Errorf("invalid reason = %q, want it to say file name too long", out.Invalid[0].Reason)
		}
	}
	if got := dirFiles(t, dir)[before]; got != was {
		t.Errorf("%s = %q, want the older copy kept, %q", before, got, was)
	}
	var st mirrorfile.State
	b, err := os.ReadFile(filepath.Join(dir, mirrorfile.StateFile))
	if err != nil {
		t.Errorf("state not saved: %v", err)
	} else if err := json.Unmarshal(b, &st); err != nil {
		t.Errorf("state not saved: %s: %v", b, err)
	} else if st.SyncedAt != out.SyncedAt {
		t.Errorf("state synced_at = %q, want the sync's %q", st.SyncedAt, out.SyncedAt)
	}
}
