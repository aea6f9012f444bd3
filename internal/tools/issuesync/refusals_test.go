package issuesync_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
)

// Without sync_root the tool is refused, before any request, with what
// the operator must set.
func TestSyncNotConfigured(t *testing.T) {
	env, _ := start(t, "-")
	e := refused(t, env, syncTool, widgets(nil))
	if e.Code != contract.CodeSyncNotConfigured {
		t.Errorf("code = %s, want %s", e.Code, contract.CodeSyncNotConfigured)
	}
	if !strings.Contains(e.Repair.NextStep, "sync_root") {
		t.Errorf("repair.next_step = %q, want it to name sync_root", e.Repair.NextStep)
	}
	if e.Repair.Tool != "" {
		t.Errorf("repair tool = %q, want none", e.Repair.Tool)
	}
	if e := refused(t, env, "github_get_issue", widgets(args{"issue_number": 1, "source": "mirror"})); e.Code != contract.CodeSyncNotConfigured {
		t.Errorf("get_issue source mirror: code = %s, want %s", e.Code, contract.CodeSyncNotConfigured)
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q", up)
	}
}

// A caller names the repository, never the directory: a dir argument is
// refused before anything is read or written, and each repository's
// mirror is sync_root/OWNER/REPO in lower case.
func TestSyncRefusesADirArgument(t *testing.T) {
	env, root := start(t, "")
	for _, dir := range []string{"alice/notes", "../escape", t.TempDir(), "acme/widgets"} {
		e := refused(t, env, syncTool, widgets(args{"dir": dir}))
		if e.Code != contract.CodeInvalidField {
			t.Errorf("dir %q: code = %s, want %s", dir, e.Code, contract.CodeInvalidField)
		}
		if e.Settlement != contract.NotStarted {
			t.Errorf("dir %q: settlement = %q, want %q", dir, e.Settlement, contract.NotStarted)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q", up)
	}
	if ents, _ := os.ReadDir(root); len(ents) != 0 {
		t.Errorf("sync_root after refused calls: %v, want it empty", ents)
	}
	out := doSync(t, env, args{"owner": "ACME", "repo": "Widgets"})
	if want := filepath.Join(root, "acme", "widgets"); out.Dir != want {
		t.Errorf("dir = %s, want %s", out.Dir, want)
	}
}

// The way down to a repository's mirror passes no symbolic link, file,
// .git directory, project checkout or directory others can write: each is
// refused, with the operator's repair, and nothing is written anywhere.
func TestSyncRefusesUnsafeMirrorDirs(t *testing.T) {
	outside := t.TempDir()
	root := filepath.Join(t.TempDir(), "root")
	writeTree(t, root, map[string]string{"proj/checkout/.git/": "", "afile": "", "open/": ""})
	if err := os.Symlink(outside, filepath.Join(root, "linked")); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(root, "open"), 0o777); err != nil {
		t.Fatal(err)
	}
	env, _ := start(t, root)
	for _, tc := range []struct{ owner, repo, reason string }{
		{"linked", "widgets", "symbolic link"},
		{"afile", "widgets", "not a directory"},
		{"proj", "checkout", ".git"},
		{"acme", ".git", ".git"},
		{"open", "widgets", "writable by group or others"},
	} {
		e := refused(t, env, syncTool, args{"owner": tc.owner, "repo": tc.repo})
		if e.Code != contract.CodeSyncDirRefused {
			t.Errorf("%s/%s: code = %s, want %s", tc.owner, tc.repo, e.Code, contract.CodeSyncDirRefused)
			continue
		}
		if e.Details == nil {
			t.Errorf("%s/%s: details = nil, want a reason saying %q", tc.owner, tc.repo, tc.reason)
		} else if !strings.Contains(e.Details.Reason, tc.reason) {
			t.Errorf("%s/%s: details.reason = %q, want it to say %q", tc.owner, tc.repo, e.Details.Reason, tc.reason)
		}
		if !strings.Contains(e.Repair.NextStep, "operator") {
			t.Errorf("%s/%s: repair = %q, want the operator's", tc.owner, tc.repo, e.Repair.NextStep)
		}
		if e.Settlement != contract.NotStarted {
			t.Errorf("%s/%s: settlement = %q, want %q", tc.owner, tc.repo, e.Settlement, contract.NotStarted)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q", up)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "proj", "checkout")); len(ents) != 1 {
		t.Errorf("written beside the checkout's .git: %v", ents)
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "open")); len(ents) != 0 {
		t.Errorf("written in a directory others can write: %v", ents)
	}
}

// A sync_root that others can write, or that sits below a directory they
// can rename things in, is refused for every mirror, read or written:
// whoever can write it can plant a file another caller reads as an issue.
func TestSyncRefusesASyncRootOthersCanChange(t *testing.T) {
	for _, tc := range []struct {
		name         string
		root, parent os.FileMode
	}{
		{"world-writable with the sticky bit", os.ModeSticky | 0o777, 0o755},
		{"group-writable", 0o770, 0o755},
		{"below a group-writable directory", 0o700, 0o775},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			parent := filepath.Join(t.TempDir(), "shared")
			root := filepath.Join(parent, "mirrors")
			writeTree(t, root, map[string]string{"acme/widgets/": ""})
			for _, d := range []struct {
				path string
				mode os.FileMode
			}{{root, tc.root}, {parent, tc.parent}} {
				if err := os.Chmod(d.path, d.mode); err != nil {
					t.Fatal(err)
				}
			}
			env, _ := start(t, root)
			for _, call := range []struct {
				tool string
				args args
			}{{syncTool, widgets(nil)}, {"github_get_issue", widgets(args{"issue_number": 1, "source": "mirror"})}} {
				e := refused(t, env, call.tool, call.args)
				if e.Code != contract.CodeSyncNotConfigured {
					t.Errorf("%s: code = %s, want %s", call.tool, e.Code, contract.CodeSyncNotConfigured)
				}
				if !strings.Contains(e.Message, "sync_root") {
					t.Errorf("%s: message = %q, want it to name sync_root", call.tool, e.Message)
				}
			}
			if up := env.Upstream(); len(up) != 0 {
				t.Errorf("upstream calls: %q", up)
			}
			if ents, _ := os.ReadDir(filepath.Join(root, "acme", "widgets")); len(ents) != 0 {
				t.Errorf("written under an unsafe sync_root: %v", ents)
			}
		})
	}
}

// A caller syncs, and reads from the mirror, only repositories its grant
// lets it read: the mirror holds their issues.
func TestSyncOnlyWhatTheCallerMayRead(t *testing.T) {
	root := t.TempDir()
	id := caller.Identity{ID: "http:triage", Readable: func(owner, repo string) bool {
		return strings.EqualFold(owner, emulator.DemoOrg) && strings.EqualFold(repo, emulator.DemoWidgetsRepo)
	}}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "sync"}, SyncRoot: root, Caller: &id})
	env.Upstream()
	doSync(t, env, nil)
	for _, call := range []struct {
		tool string
		args args
	}{
		{syncTool, args{"owner": "alice", "repo": "notes"}},
		{"github_get_issue", args{"owner": "alice", "repo": "notes", "issue_number": 1, "source": "mirror"}},
	} {
		e := refused(t, env, call.tool, call.args)
		if e.Code != contract.CodeInsufficientScope {
			t.Errorf("%s: code = %s, want %s", call.tool, e.Code, contract.CodeInsufficientScope)
			continue
		}
		if e.Details == nil {
			t.Errorf("%s: details = nil, want required_scopes [read:alice/notes]", call.tool)
		} else if want := []string{"read:alice/notes"}; !slices.Equal(e.Details.RequiredScopes, want) {
			t.Errorf("%s: required_scopes = %v, want %v", call.tool, e.Details.RequiredScopes, want)
		}
		if call.tool == syncTool && e.Settlement != contract.NotStarted {
			t.Errorf("%s: settlement = %q, want %q", call.tool, e.Settlement, contract.NotStarted)
		}
	}
	if _, err := os.Stat(filepath.Join(root, "alice")); err == nil {
		t.Error("a directory was made for a repository the caller may not read")
	}
}

// Links planted in the mirror are reported, never followed or removed;
// so are files the sync did not write (bad JSON, another schema, a name
// of no issue). The rest of the mirror goes on.
func TestSyncPlantedLinksAndInvalidFiles(t *testing.T) {
	env, root := start(t, "")
	dir := filepath.Join(root, "acme", "widgets")
	doSync(t, env, nil)
	victimDir := t.TempDir()
	victim := filepath.Join(victimDir, "victim")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	files := issueFiles(dirFiles(t, dir))
	target := seedIssue(t, env, func(is *emulator.Issue) bool { return true })
	name, _ := fileOf(t, files, target)
	if err := os.Remove(filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
	plant := map[string]string{name: victim, "99999-evil.json": victim, "sub": victimDir}
	for n, to := range plant {
		if err := os.Symlink(to, filepath.Join(dir, n)); err != nil {
			t.Fatal(err)
		}
	}
	junk := map[string]string{"88888-junk.json": "{not json", "77777-future.json": `{"schema": 99}`, "notes.txt": "mine",
		"66666-other.json": `{"schema":1,"repo":"acme/widgets","issue":{"number":5,"title":"x","state":"open","labels":[],"assignees":[],"milestone":null},"comments":[],"comments_truncated":false,"synced_at":"2026-01-01T00:00:00Z"}`}
	for n, b := range junk {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	servertest.CallOK[map[string]any](t, env, "github_update_issue", widgets(args{"issue_number": target, "body": "changed, so the sync wants to write it"}))
	out := doSync(t, env, args{"full": true})
	reasons := map[string]string{}
	for _, iv := range out.Invalid {
		reasons[filepath.Base(iv.Path)] = iv.Reason
		if filepath.Dir(iv.Path) != dir {
			t.Errorf("invalid path %s not in %s", iv.Path, dir)
		}
	}
	want := map[string]string{name: "symbolic link", "99999-evil.json": "symbolic link", "sub": "symbolic link",
		"88888-junk.json": "not valid JSON", "77777-future.json": "unknown schema", "notes.txt": "NUMBER-SLUG.json", "66666-other.json": "issue 5"}
	for n, r := range want {
		if !strings.Contains(reasons[n], r) {
			t.Errorf("%s: reason %q, want it to say %q", n, reasons[n], r)
		}
	}
	if len(reasons) != len(want) {
		t.Errorf("%d files invalid, want %d: %+v", len(reasons), len(want), out.Invalid)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target = %q, want it unwritten, %q", b, "keep me")
	}
	if ents, _ := os.ReadDir(victimDir); len(ents) != 1 {
		t.Errorf("beside the link's target: %v, want only the target", ents)
	}
	after := dirFiles(t, dir)
	for n, to := range plant {
		if after[n] != "->"+to {
			t.Errorf("%s: %q, want the link left as it was", n, after[n])
		}
	}
	for n, b := range junk {
		if after[n] != b {
			t.Errorf("%s was changed or removed", n)
		}
	}
	// A link as the state file refuses the whole sync.
	if err := os.Rename(filepath.Join(dir, mirrorfile.StateFile), filepath.Join(dir, "state.bak")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, mirrorfile.StateFile)); err != nil {
		t.Fatal(err)
	}
	if e := refused(t, env, syncTool, widgets(nil)); e.Code != contract.CodeSyncDirRefused {
		t.Errorf("state file link: code = %s, want %s", e.Code, contract.CodeSyncDirRefused)
	} else if !strings.Contains(e.Message, "symbolic link") {
		t.Errorf("state file link: message = %q, want it to say symbolic link", e.Message)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// A directory holding another repository's mirror (as an older ghgate
// let a caller put it there) is not this one's: the sync is refused with
// the operator's repair, and the files stay.
func TestSyncRefusesAnotherRepositorysMirror(t *testing.T) {
	env, root := start(t, "")
	doSync(t, env, nil)
	widgetsDir, gadgets := filepath.Join(root, "acme", "widgets"), filepath.Join(root, "acme", "gadgets")
	if err := os.Rename(widgetsDir, gadgets); err != nil {
		t.Fatal(err)
	}
	before := dirFiles(t, gadgets)
	e := refused(t, env, syncTool, args{"owner": emulator.DemoOrg, "repo": "gadgets"})
	if e.Code != contract.CodeSyncDirRefused {
		t.Errorf("code = %s, want %s", e.Code, contract.CodeSyncDirRefused)
	}
	if !strings.Contains(e.Message, "acme/widgets") {
		t.Errorf("message = %q, want it to name acme/widgets", e.Message)
	}
	if !strings.Contains(e.Repair.NextStep, "operator") {
		t.Errorf("repair = %q, want the operator's", e.Repair.NextStep)
	}
	if after := dirFiles(t, gadgets); len(after) != len(before) {
		t.Errorf("%d files after the refusal, want the %d there were", len(after), len(before))
	}
}
