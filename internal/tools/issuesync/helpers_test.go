package issuesync_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issuesync"
	"github.com/ghgate/ghgate/internal/tools/mirrorfile"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

const syncTool = "github_sync_issues"

// start runs ghgate with the sync toolset beside the issue and admin ones
// (to edit, close and delete what the mirror follows), with a fresh
// sync_root; root "-" runs it with none.
func start(t *testing.T, root string) (*servertest.Env, string) {
	t.Helper()
	if root == "" {
		root = t.TempDir()
	}
	if root == "-" {
		root = ""
	}
	env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "admin", "sync"}, SyncRoot: root})
	env.Upstream()
	env.Answered()
	return env, root
}

func refused(t *testing.T, env *servertest.Env, tool string, args any) contract.Error {
	t.Helper()
	res := env.Call(t, tool, args)
	e := res.Envelope(t)
	if e.Message == "" {
		t.Errorf("envelope's message is empty, want one: %s", res.JSON)
	}
	if e.Repair == nil {
		t.Errorf("envelope's repair = nil, want a next step: %s", res.JSON)
	} else if e.Repair.NextStep == "" {
		t.Errorf("envelope's repair.next_step is empty, want one: %s", res.JSON)
	}
	if !strings.HasPrefix(e.RequestID, "ghg_") {
		t.Errorf("envelope's request_id = %q, want a ghg_ prefix", e.RequestID)
	}
	return e
}

// wantSync compares a sync's answer with want on every field but those
// named in ignore (an empty invalid list equals an absent one), reporting
// through report (t.Fatalf or t.Errorf).
func wantSync(t *testing.T, report func(string, ...any), what string, got, want issuesync.SyncIssuesOut, ignore ...string) {
	t.Helper()
	if diff := cmp.Diff(want, got, cmpopts.EquateEmpty(), cmpopts.IgnoreFields(issuesync.SyncIssuesOut{}, ignore...)); diff != "" {
		report("%s mismatch (-want +got):\n%s", what, diff)
	}
}

type args map[string]any

func widgets(extra args) args {
	a := args{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo}
	for k, v := range extra {
		a[k] = v
	}
	return a
}

func doSync(t *testing.T, env *servertest.Env, extra args) issuesync.SyncIssuesOut {
	t.Helper()
	return servertest.CallOK[issuesync.SyncIssuesOut](t, env, syncTool, widgets(extra))
}

// dirFiles reads a mirror directory: every entry's name and bytes (a
// link's target, prefixed "->").
func dirFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		if e.Type()&os.ModeSymlink != 0 {
			to, _ := os.Readlink(p)
			out[e.Name()] = "->" + to
			continue
		}
		if e.IsDir() {
			out[e.Name()] = "dir"
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(b)
	}
	return out
}

// issueFiles keeps the issue files of dirFiles.
func issueFiles(all map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range all {
		if _, ok := mirrorfile.Number(k); ok && !strings.HasPrefix(v, "->") {
			out[k] = v
		}
	}
	return out
}

// fileOf finds issue n's file name in a listing.
func fileOf(t *testing.T, files map[string]string, n int) (string, mirrorfile.File) {
	t.Helper()
	for name, b := range files {
		if m, ok := mirrorfile.Number(name); ok && m == n {
			var f mirrorfile.File
			if err := json.Unmarshal([]byte(b), &f); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return name, f
		}
	}
	t.Fatalf("no file for #%d, want one", n)
	return "", mirrorfile.File{}
}

// seedIssue finds an open issue of acme/widgets that pass accepts.
func seedIssue(t *testing.T, env *servertest.Env, pass func(is *emulator.Issue) bool) int {
	t.Helper()
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	r := s.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo)
	var nums []int
	for _, is := range r.Issues {
		if !is.IsPull && !is.Deleted && is.State == "open" && pass(is) {
			nums = append(nums, is.Number)
		}
	}
	if len(nums) == 0 {
		t.Fatal("no open issue of acme/widgets in the seed passes, want one")
	}
	slices.Sort(nums)
	return nums[0]
}

// openIssues counts acme/widgets' open issues (pull requests aside).
func openIssues(env *servertest.Env, state string) int {
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	n := 0
	for _, is := range s.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo).Issues {
		if !is.IsPull && !is.Deleted && (state == "all" || is.State == state) {
			n++
		}
	}
	return n
}
