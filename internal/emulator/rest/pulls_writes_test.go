package rest_test

import (
	"encoding/base64"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A contributor's flow over REST: branch, commit, open, push again, ask
// for reviews, retitle.
func TestRESTPullWrites(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", carol, &main)

	if r := send(t, http.MethodPost, base+"/git/refs", carol, map[string]any{"ref": "refs/heads/x", "sha": main.Commit.SHA}); r.status != http.StatusForbidden {
		t.Errorf("carol creates a branch: status %d, want %d", r.status, http.StatusForbidden)
	}
	for _, body := range []map[string]any{
		{"ref": "heads/x", "sha": main.Commit.SHA},
		{"ref": "refs/heads/main", "sha": main.Commit.SHA},
		{"ref": "refs/heads/x", "sha": strings.Repeat("1", 40)},
	} {
		if r := send(t, http.MethodPost, base+"/git/refs", bob, body); r.status != http.StatusUnprocessableEntity {
			t.Errorf("create ref %v: status %d, want %d: %s", body, r.status, http.StatusUnprocessableEntity, r.body)
		}
	}
	if r := send(t, http.MethodPost, base+"/git/refs", bob, map[string]any{"ref": "refs/heads/docs/faq", "sha": main.Commit.SHA}); r.status != http.StatusCreated {
		t.Fatalf("create branch: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	// No commits over main yet.
	open := map[string]any{"title": "Add a FAQ", "head": "docs/faq", "base": "main", "body": "For #9."}
	checkReply(t, "pull request without commits", send(t, http.MethodPost, base+"/pulls", bob, open),
		http.StatusUnprocessableEntity, "No commits between main and docs/faq")
	put := func(content, sha string) reply {
		return send(t, http.MethodPut, base+"/contents/docs/faq.md", bob, map[string]any{"message": "FAQ", "branch": "docs/faq",
			"content": base64.StdEncoding.EncodeToString([]byte(content)), "sha": sha})
	}
	if r := put("# FAQ\n", ""); r.status != http.StatusCreated {
		t.Fatalf("create file: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	r := send(t, http.MethodPost, base+"/pulls", bob, open)
	var pr struct {
		Number  int
		Commits int
		Head    struct{ SHA string }
	}
	decode(t, r, http.StatusCreated, &pr)
	if want := emulator.DemoWidgetsIssueCount + 1; pr.Number != want {
		t.Fatalf("open: number %d, want %d", pr.Number, want)
	}
	if pr.Commits != 1 {
		t.Fatalf("open: commits %d, want 1", pr.Commits)
	}
	checkReply(t, "second pull request for the branch", send(t, http.MethodPost, base+"/pulls", bob, open),
		http.StatusUnprocessableEntity, "already exists for acme:docs/faq")
	// Updating needs the current blob's sha.
	if r := put("# FAQ\n\nQ.\n", ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("update without sha: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := put("# FAQ\n\nQ.\n", strings.Repeat("2", 40)); r.status != http.StatusConflict {
		t.Errorf("update with a stale sha: status %d, want %d", r.status, http.StatusConflict)
	}
	var file struct{ SHA string }
	getJSON(t, base+"/contents/docs/faq.md?ref=docs/faq", carol, &file)
	if r := put("# FAQ\n\nQ.\n", file.SHA); r.status != http.StatusOK {
		t.Fatalf("update: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	pull := base + "/pulls/161"
	var after struct {
		Commits   int
		Additions int
		Title     string
		State     string
		Head      struct{ SHA string }
	}
	getJSON(t, pull, carol, &after)
	if after.Commits != 2 {
		t.Errorf("after the push: commits %d, want 2", after.Commits)
	}
	if after.Additions != 3 {
		t.Errorf("after the push: additions %d, want 3", after.Additions)
	}
	if after.Head.SHA == pr.Head.SHA {
		t.Errorf("after the push: head %s, want a new one", after.Head.SHA)
	}
	// Review requests: not the author, not outsiders; teams by slug.
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"bob"}}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("asking the author: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"dave"}}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("asking an outsider: status %d, want %d", r.status, http.StatusUnprocessableEntity)
	}
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"alice"}, "team_reviewers": []string{"maintainers"}}); r.status != http.StatusCreated {
		t.Errorf("asking alice and the maintainers: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	var requested struct {
		Users []struct{ Login string }
		Teams []struct{ Slug string }
	}
	getJSON(t, pull+"/requested_reviewers", carol, &requested)
	if diff := cmp.Diff([]struct{ Login string }{{"alice"}}, requested.Users); diff != "" {
		t.Errorf("requested users mismatch (-want +got):\n%s", diff)
	}
	if len(requested.Teams) != 1 {
		t.Errorf("requested teams: %d, want 1: %+v", len(requested.Teams), requested.Teams)
	}
	if r := send(t, http.MethodPatch, pull, carol, map[string]any{"title": "x"}); r.status != http.StatusForbidden {
		t.Errorf("carol retitles bob's pull request: status %d, want %d", r.status, http.StatusForbidden)
	}
	if r := send(t, http.MethodPatch, pull, bob, map[string]any{"title": "Add a FAQ page", "state": "closed"}); r.status != http.StatusOK {
		t.Fatalf("retitle and close: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	getJSON(t, pull, carol, &after)
	if after.Title != "Add a FAQ page" {
		t.Errorf("after the edit: title %q, want %q", after.Title, "Add a FAQ page")
	}
	if after.State != "closed" {
		t.Errorf("after the edit: state %q, want %q", after.State, "closed")
	}
}

// Several files in one commit through the Git Data API, as clients push
// them: tree, commit, then the branch moved forward.
func TestRESTGitDataWrites(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	var pull struct {
		Head struct{ Ref, SHA string }
	}
	getJSON(t, base+"/pulls/146", carol, &pull)
	var head struct {
		Tree struct{ SHA string }
	}
	getJSON(t, base+"/git/commits/"+pull.Head.SHA, carol, &head)
	var tree struct {
		SHA  string
		Tree []struct{ Path, Type string }
	}
	getJSON(t, base+"/git/trees/"+head.Tree.SHA+"?recursive=1", carol, &tree)
	if tree.SHA != head.Tree.SHA {
		t.Fatalf("tree sha %s, want the head's tree %s", tree.SHA, head.Tree.SHA)
	}
	if len(tree.Tree) == 0 {
		t.Fatalf("tree %s has no entries, want some", tree.SHA)
	}
	r := send(t, http.MethodPost, base+"/git/trees", bob, map[string]any{"base_tree": head.Tree.SHA, "tree": []map[string]any{
		{"path": "docs/a.md", "mode": "100644", "type": "blob", "content": "a\n"},
		{"path": "docs/b.md", "mode": "100644", "type": "blob", "content": "b\n"},
		{"path": "CHANGELOG.md", "mode": "100644", "type": "blob", "sha": nil},
	}})
	var created struct{ SHA string }
	decode(t, r, http.StatusCreated, &created)
	r = send(t, http.MethodPost, base+"/git/commits", bob, map[string]any{"message": "Add two pages", "tree": created.SHA, "parents": []string{pull.Head.SHA}})
	var commit struct {
		SHA    string
		Author struct{ Name string }
	}
	decode(t, r, http.StatusCreated, &commit)
	if commit.Author.Name != "Bob Brennan" {
		t.Fatalf("create commit: author %q, want %q", commit.Author.Name, "Bob Brennan")
	}
	// A commit that does not descend from the branch's tip is refused
	// unless forced.
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", carol, &main)
	ref := base + "/git/refs/heads/" + pull.Head.Ref
	if r := send(t, http.MethodPatch, ref, bob, map[string]any{"sha": main.Commit.SHA}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("non-fast-forward: status %d, want %d: %s", r.status, http.StatusUnprocessableEntity, r.body)
	}
	if r := send(t, http.MethodPatch, ref, bob, map[string]any{"sha": commit.SHA}); r.status != http.StatusOK {
		t.Fatalf("update ref: status %d, want %d: %s", r.status, http.StatusOK, r.body)
	}
	var after struct {
		ChangedFiles int `json:"changed_files"`
		Commits      int
		Head         struct{ SHA string }
	}
	getJSON(t, base+"/pulls/146", carol, &after)
	// The pull request now also adds two pages and deletes the changelog.
	if after.Head.SHA != commit.SHA {
		t.Errorf("pull request after the push: head %s, want the new commit %s", after.Head.SHA, commit.SHA)
	}
	if after.Commits != 3 {
		t.Errorf("pull request after the push: commits %d, want 3", after.Commits)
	}
	if after.ChangedFiles != 5 {
		t.Errorf("pull request after the push: changed_files %d, want 5", after.ChangedFiles)
	}
}

func TestRESTFork(t *testing.T) {
	base := serveDemo(t)
	var fork struct {
		Fork   bool
		Parent struct {
			FullName string `json:"full_name"`
		}
		Source struct {
			FullName string `json:"full_name"`
		}
	}
	getJSON(t, base+"/repos/dave/widgets", emulator.DemoTokenDave, &fork)
	if !fork.Fork {
		t.Errorf("dave/widgets fork = false, want true")
	}
	if fork.Parent.FullName != "acme/widgets" {
		t.Errorf("dave/widgets parent %q, want %q", fork.Parent.FullName, "acme/widgets")
	}
	if fork.Source.FullName != "acme/widgets" {
		t.Errorf("dave/widgets source %q, want %q", fork.Source.FullName, "acme/widgets")
	}
	var parent struct {
		Fork       bool
		ForksCount int `json:"forks_count"`
	}
	getJSON(t, base+"/repos/acme/widgets", emulator.DemoTokenDave, &parent)
	if parent.Fork {
		t.Errorf("acme/widgets fork = true, want false")
	}
	if parent.ForksCount != 1 {
		t.Errorf("acme/widgets forks_count %d, want 1", parent.ForksCount)
	}
}
