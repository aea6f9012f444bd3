package mirror_test

import (
	"fmt"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tools/issues"
)

// Without sync_root the tool is refused, before any request, with what
// the operator must set.
func TestSyncNotConfigured(t *testing.T) {
	env, _ := start(t, "-")
	e := refused(t, env, syncTool, widgets(nil))
	if e.Code != contract.CodeSyncNotConfigured || !strings.Contains(e.Repair.NextStep, "sync_root") || e.Repair.Tool != "" {
		t.Errorf("%+v", e)
	}
	if e := refused(t, env, "github_get_issue", widgets(args{"issue_number": 1, "source": "mirror"})); e.Code != contract.CodeSyncNotConfigured {
		t.Errorf("get_issue source mirror: %+v", e)
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q", up)
	}
}

// Directories outside sync_root, through "..", inside .git or through a
// symbolic link are refused, and nothing is written anywhere.
func TestSyncRefusesDirs(t *testing.T) {
	outside := t.TempDir()
	root := filepath.Join(t.TempDir(), "root")
	if err := os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	env, _ := start(t, root)
	for _, tc := range []struct{ dir, reason string }{
		{outside, "outside sync_root"},
		{filepath.Join(root, "..", "escape"), "outside sync_root"},
		{"../escape", `".."`},
		{"a/../../escape", `".."`},
		{"repo/.git/mirror", ".git"},
		{"repo/.GIT", ".git"},
		{"link", "symbolic link"},
		{"link/deeper", "symbolic link"},
		{"file/x", "not a directory"},
		{root, "sync_root itself"},
		{".", "sync_root itself"},
	} {
		e := refused(t, env, syncTool, widgets(args{"dir": tc.dir}))
		if e.Code != contract.CodeSyncDirRefused || e.Details == nil || e.Details.Field != "dir" || !strings.Contains(e.Details.Reason, tc.reason) ||
			e.Repair.Tool != syncTool || strings.Contains(fmt.Sprint(e.Repair.Arguments), "dir") {
			t.Errorf("dir %q: %+v %+v", tc.dir, e, e.Details)
		}
	}
	if up := env.Upstream(); len(up) != 0 {
		t.Errorf("upstream calls: %q", up)
	}
	if ents, _ := os.ReadDir(outside); len(ents) != 0 {
		t.Errorf("written outside sync_root: %v", ents)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(root), "escape")); err == nil {
		t.Error("a directory was made outside sync_root")
	}
	if ents, _ := os.ReadDir(filepath.Join(root, "repo", ".git")); len(ents) != 0 {
		t.Errorf("written inside .git: %v", ents)
	}
	// An absolute dir under sync_root is the same as the relative one.
	out := doSync(t, env, args{"dir": filepath.Join(root, "mirrors", "w")})
	if out.Dir != filepath.Join(root, "mirrors", "w") || out.Written == 0 {
		t.Errorf("absolute dir under sync_root: %+v", out)
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
		t.Errorf("invalid: %+v", out.Invalid)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was written: %q", b)
	}
	if ents, _ := os.ReadDir(victimDir); len(ents) != 1 {
		t.Errorf("written beside the link's target: %v", ents)
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
	if err := os.Rename(filepath.Join(dir, issues.MirrorStateFile), filepath.Join(dir, "state.bak")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, issues.MirrorStateFile)); err != nil {
		t.Fatal(err)
	}
	if e := refused(t, env, syncTool, widgets(nil)); e.Code != contract.CodeSyncDirRefused || !strings.Contains(e.Message, "symbolic link") {
		t.Errorf("state file link: %+v", e)
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Errorf("the link's target was written: %q", b)
	}
}

// A directory holding another repository's mirror is not this one's.
func TestSyncRefusesAnotherRepositorysMirror(t *testing.T) {
	env, _ := start(t, "")
	doSync(t, env, args{"dir": "shared"})
	e := refused(t, env, syncTool, args{"owner": emulator.DemoOrg, "repo": "gadgets", "dir": "shared"})
	if e.Code != contract.CodeSyncDirRefused || e.Repair.Tool != syncTool || !strings.Contains(e.Message, "acme/widgets") {
		t.Errorf("%+v", e)
	}
}
