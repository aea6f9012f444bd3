package state

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// Object ids git itself gives well-known content.
func TestGitObjectIDs(t *testing.T) {
	if got, want := BlobSHA("hello\n"), "ce013625030ba8dba906f756967f9e9ca394464a"; got != want {
		t.Errorf("blob hello = %s, want git's %s", got, want)
	}
	if got, want := gitObjectID("tree", nil), "4b825dc642cb6eb9a060e54bf8d69288fbee4904"; got != want {
		t.Errorf("empty tree = %s, want git's %s", got, want)
	}
}

// gitCLI runs git in dir with a fixed identity and clock, or skips the
// test when git is not installed.
func gitCLI(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null"}, env...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Two commits made by the model get the ids git gives the same commits,
// and the model's diff between them applies with git apply.
func TestGitCommitsMatchGit(t *testing.T) {
	dir := t.TempDir()
	a := &Account{ID: 7, Login: "alice", Name: "Alice Anderson"}
	t1 := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	t2 := t1.Add(time.Hour)
	env := func(at time.Time) []string {
		s := Signature(a, at)
		date := at.Format(time.RFC3339)
		return []string{"GIT_AUTHOR_NAME=" + s.Name, "GIT_AUTHOR_EMAIL=" + s.Email, "GIT_AUTHOR_DATE=" + date,
			"GIT_COMMITTER_NAME=" + s.Name, "GIT_COMMITTER_EMAIL=" + s.Email, "GIT_COMMITTER_DATE=" + date}
	}
	first := map[string]string{"README.md": "# gears\n", "src/a.go": "package a\n", "src/b/c.go": "package b\n\nconst X = 1\n", "src.txt": "x\n"}
	second := map[string]string{"README.md": "# gears\n\nNow with docs.\n", "src/b/c.go": "package b\n\nconst X = 2\n", "src.txt": "x\n", "docs/new.md": "new\n"}

	g := NewGitRepo()
	c1 := g.Commit("main", nil, first, Signature(a, t1), Signature(a, t1), "Initial commit")
	c2 := g.Commit("main", []*GitCommit{c1}, second, Signature(a, t2), Signature(a, t2), "Second\n\nWith a body.")

	gitCLI(t, dir, nil, "init", "-q", "-b", "main")
	writeTree(t, dir, first)
	gitCLI(t, dir, nil, "add", "-A")
	gitCLI(t, dir, env(t1), "commit", "-q", "-m", "Initial commit")
	if got := gitCLI(t, dir, nil, "rev-parse", "HEAD"); got != c1.SHA {
		t.Fatalf("first commit: model %s, want git's %s", c1.SHA, got)
	}
	// The model's diff turns the first tree into the second.
	patch := filepath.Join(t.TempDir(), "change.diff")
	if err := os.WriteFile(patch, []byte(GitDiff(Changes(first, second))), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, dir, nil, "apply", "--index", patch)
	gitCLI(t, dir, env(t2), "commit", "-q", "-m", "Second\n\nWith a body.")
	if got := gitCLI(t, dir, nil, "rev-parse", "HEAD"); got != c2.SHA {
		t.Fatalf("second commit: model %s, want git's %s", c2.SHA, got)
	}
	if got := gitCLI(t, dir, nil, "rev-parse", "HEAD^{tree}"); got != c2.TreeSHA {
		t.Errorf("tree: model %s, want git's %s", c2.TreeSHA, got)
	}
	// git format-patch's mail applies too, back on the first commit.
	mbox := filepath.Join(t.TempDir(), "change.patch")
	if err := os.WriteFile(mbox, []byte(FormatPatch([]*GitCommit{c2})), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCLI(t, dir, nil, "checkout", "-q", "-b", "replay", c1.SHA)
	gitCLI(t, dir, env(t2), "am", "-q", "--committer-date-is-author-date", mbox)
	if got := gitCLI(t, dir, nil, "rev-parse", "HEAD"); got != c2.SHA {
		t.Errorf("git am of the patch: %s, want %s", got, c2.SHA)
	}
}

func TestGitHistory(t *testing.T) {
	a := &Account{ID: 1, Login: "a", Name: "A"}
	at := func(h int) GitSignature { return Signature(a, time.Date(2026, 1, 1, h, 0, 0, 0, time.UTC)) }
	g := NewGitRepo()
	root := g.Commit("main", nil, map[string]string{"f": "1\n"}, at(1), at(1), "root")
	g.Branches["topic"] = root
	t1 := g.Commit("topic", []*GitCommit{root}, map[string]string{"f": "1\n", "t": "t\n"}, at(2), at(2), "topic 1")
	m1 := g.Commit("main", []*GitCommit{root}, map[string]string{"f": "2\n"}, at(3), at(3), "main 1")
	t2 := g.Commit("topic", []*GitCommit{t1}, map[string]string{"f": "1\n", "t": "u\n"}, at(4), at(4), "topic 2")
	if mb := MergeBase(m1, t2); mb != root {
		t.Errorf("merge base = %v, want root", mb)
	}
	if got := Between(m1, t2); !slices.Equal(got, []*GitCommit{t1, t2}) {
		t.Errorf("Between(main 1, topic 2) = %q, want [\"topic 1\" \"topic 2\"]", commitMessages(got))
	}
	if got := g.Resolve(t2.SHA[:9]); got != t2 {
		t.Errorf("abbreviated sha resolves to %q, want \"topic 2\"", commitMessages([]*GitCommit{got}))
	}
	if got := g.Resolve("refs/heads/topic"); got != t2 {
		t.Errorf("Resolve(refs/heads/topic) = %q, want \"topic 2\"", commitMessages([]*GitCommit{got}))
	}
	if got := g.Resolve("nope"); got != nil {
		t.Errorf("Resolve(nope) = %s, want nil", got.SHA)
	}
	// The topic changed t only; main changed f only: no conflict.
	p := &PullRequest{HeadRepo: &Repo{Git: g}, HeadRef: "topic", BaseRef: "main", Head: t2, Base: m1}
	if p.Conflicts(&Repo{Git: g}) {
		t.Error("disjoint changes conflict")
	}
	t3 := g.Commit("topic", []*GitCommit{t2}, map[string]string{"f": "3\n", "t": "u\n"}, at(5), at(5), "topic 3")
	p.Head = t3
	if !p.Conflicts(&Repo{Git: g}) {
		t.Error("both sides changed f differently, yet no conflict")
	}
}

// Commits made within one second tie on the committer date; the merge
// base of a commit and its descendant is still that commit, so a genuine
// fast-forward is recognised whatever the shas sort as.
func TestMergeBaseOfSameSecondCommits(t *testing.T) {
	a := &Account{ID: 1, Login: "a", Name: "A"}
	now := Signature(a, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	g := NewGitRepo()
	chain := []*GitCommit{g.Commit("main", nil, map[string]string{"f": "0\n"}, now, now, "0")}
	for i := 1; i < 8; i++ {
		chain = append(chain, g.Commit("main", []*GitCommit{chain[i-1]},
			map[string]string{"f": strconv.Itoa(i) + "\n"}, now, now, strconv.Itoa(i)))
	}
	for i, older := range chain {
		for j := i; j < len(chain); j++ {
			if mb := MergeBase(older, chain[j]); mb != older {
				t.Errorf("MergeBase(commit %d, its descendant %d) = %v, want commit %d", i, j, mb, i)
			}
			if mb := MergeBase(chain[j], older); mb != older {
				t.Errorf("MergeBase(commit %d, its ancestor %d) = %v, want commit %d", j, i, mb, i)
			}
		}
	}
}

func TestChangesAndHunks(t *testing.T) {
	before := map[string]string{"keep": "same\n", "gone": "a\nb\n", "edit": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n"}
	after := map[string]string{"keep": "same\n", "new": "x\n", "edit": "1\n2\n3\n4\nfive\n6\n7\n8\n9\n10\n11\n"}
	got := Changes(before, after)
	want := []struct {
		path, status string
		add, del     int
	}{{"edit", "modified", 2, 1}, {"gone", "removed", 0, 2}, {"new", "added", 1, 0}}
	if len(got) != len(want) {
		t.Fatalf("changes: %d, want %d: %+v", len(got), len(want), got)
	}
	type row struct {
		Path, Status         string
		Additions, Deletions int
	}
	var gotRows, wantRows []row
	for i, w := range want {
		wantRows = append(wantRows, row{w.path, w.status, w.add, w.del})
		gotRows = append(gotRows, row{got[i].Path, got[i].Status, got[i].Additions, got[i].Deletions})
	}
	if diff := cmp.Diff(wantRows, gotRows); diff != "" {
		t.Errorf("changes mismatch (-want +got):\n%s", diff)
	}
	if !strings.HasPrefix(got[0].Patch, "@@ -2,9 +2,10 @@\n 2\n 3\n 4\n-5\n+five\n") {
		t.Errorf("edit patch does not start with its first hunk \"@@ -2,9 +2,10 @@\":\n%s", got[0].Patch)
	}
	if got[2].Patch != "@@ -0,0 +1 @@\n+x" {
		t.Errorf("new file patch = %q, want %q", got[2].Patch, "@@ -0,0 +1 @@\n+x")
	}
	if FirstAddedLine(got[0].Patch) != 5 {
		t.Errorf("first added line = %d, want 5", FirstAddedLine(got[0].Patch))
	}
}
