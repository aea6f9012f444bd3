package rest_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

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
		t.Errorf("carol creates a branch: %d", r.status)
	}
	for _, body := range []map[string]any{
		{"ref": "heads/x", "sha": main.Commit.SHA},
		{"ref": "refs/heads/main", "sha": main.Commit.SHA},
		{"ref": "refs/heads/x", "sha": strings.Repeat("1", 40)},
	} {
		if r := send(t, http.MethodPost, base+"/git/refs", bob, body); r.status != http.StatusUnprocessableEntity {
			t.Errorf("create ref %v: %d %s", body, r.status, r.body)
		}
	}
	if r := send(t, http.MethodPost, base+"/git/refs", bob, map[string]any{"ref": "refs/heads/docs/faq", "sha": main.Commit.SHA}); r.status != http.StatusCreated {
		t.Fatalf("create branch: %d %s", r.status, r.body)
	}
	// No commits over main yet.
	open := map[string]any{"title": "Add a FAQ", "head": "docs/faq", "base": "main", "body": "For #9."}
	if r := send(t, http.MethodPost, base+"/pulls", bob, open); r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "No commits between main and docs/faq") {
		t.Errorf("pull request without commits: %d %s", r.status, r.body)
	}
	put := func(content, sha string) reply {
		return send(t, http.MethodPut, base+"/contents/docs/faq.md", bob, map[string]any{"message": "FAQ", "branch": "docs/faq",
			"content": base64.StdEncoding.EncodeToString([]byte(content)), "sha": sha})
	}
	if r := put("# FAQ\n", ""); r.status != http.StatusCreated {
		t.Fatalf("create file: %d %s", r.status, r.body)
	}
	r := send(t, http.MethodPost, base+"/pulls", bob, open)
	var pr struct {
		Number  int
		Commits int
		Head    struct{ SHA string }
	}
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &pr) != nil || pr.Number != emulator.DemoWidgetsIssueCount+1 || pr.Commits != 1 {
		t.Fatalf("open: %d %s", r.status, r.body)
	}
	if r := send(t, http.MethodPost, base+"/pulls", bob, open); r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "already exists for acme:docs/faq") {
		t.Errorf("second pull request for the branch: %d %s", r.status, r.body)
	}
	// Updating needs the current blob's sha.
	if r := put("# FAQ\n\nQ.\n", ""); r.status != http.StatusUnprocessableEntity {
		t.Errorf("update without sha: %d", r.status)
	}
	if r := put("# FAQ\n\nQ.\n", strings.Repeat("2", 40)); r.status != http.StatusConflict {
		t.Errorf("update with a stale sha: %d", r.status)
	}
	var file struct{ SHA string }
	getJSON(t, base+"/contents/docs/faq.md?ref=docs/faq", carol, &file)
	if r := put("# FAQ\n\nQ.\n", file.SHA); r.status != http.StatusOK {
		t.Fatalf("update: %d %s", r.status, r.body)
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
	if after.Commits != 2 || after.Additions != 3 || after.Head.SHA == pr.Head.SHA {
		t.Errorf("after the push: %+v", after)
	}
	// Review requests: not the author, not outsiders; teams by slug.
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"bob"}}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("asking the author: %d", r.status)
	}
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"dave"}}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("asking an outsider: %d", r.status)
	}
	if r := send(t, http.MethodPost, pull+"/requested_reviewers", bob, map[string]any{"reviewers": []string{"alice"}, "team_reviewers": []string{"maintainers"}}); r.status != http.StatusCreated {
		t.Errorf("asking alice and the maintainers: %d %s", r.status, r.body)
	}
	var requested struct {
		Users []struct{ Login string }
		Teams []struct{ Slug string }
	}
	getJSON(t, pull+"/requested_reviewers", carol, &requested)
	if len(requested.Users) != 1 || requested.Users[0].Login != "alice" || len(requested.Teams) != 1 {
		t.Errorf("requested = %+v", requested)
	}
	if r := send(t, http.MethodPatch, pull, carol, map[string]any{"title": "x"}); r.status != http.StatusForbidden {
		t.Errorf("carol retitles bob's pull request: %d", r.status)
	}
	if r := send(t, http.MethodPatch, pull, bob, map[string]any{"title": "Add a FAQ page", "state": "closed"}); r.status != http.StatusOK {
		t.Fatalf("retitle and close: %d %s", r.status, r.body)
	}
	getJSON(t, pull, carol, &after)
	if after.Title != "Add a FAQ page" || after.State != "closed" {
		t.Errorf("after the edit: %+v", after)
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
	if tree.SHA != head.Tree.SHA || len(tree.Tree) == 0 {
		t.Fatalf("tree = %+v", tree)
	}
	r := send(t, http.MethodPost, base+"/git/trees", bob, map[string]any{"base_tree": head.Tree.SHA, "tree": []map[string]any{
		{"path": "docs/a.md", "mode": "100644", "type": "blob", "content": "a\n"},
		{"path": "docs/b.md", "mode": "100644", "type": "blob", "content": "b\n"},
		{"path": "CHANGELOG.md", "mode": "100644", "type": "blob", "sha": nil},
	}})
	var created struct{ SHA string }
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &created) != nil {
		t.Fatalf("create tree: %d %s", r.status, r.body)
	}
	r = send(t, http.MethodPost, base+"/git/commits", bob, map[string]any{"message": "Add two pages", "tree": created.SHA, "parents": []string{pull.Head.SHA}})
	var commit struct {
		SHA    string
		Author struct{ Name string }
	}
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &commit) != nil || commit.Author.Name != "Bob Brennan" {
		t.Fatalf("create commit: %d %s", r.status, r.body)
	}
	// A commit that does not descend from the branch's tip is refused
	// unless forced.
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", carol, &main)
	ref := base + "/git/refs/heads/" + pull.Head.Ref
	if r := send(t, http.MethodPatch, ref, bob, map[string]any{"sha": main.Commit.SHA}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("non-fast-forward: %d %s", r.status, r.body)
	}
	if r := send(t, http.MethodPatch, ref, bob, map[string]any{"sha": commit.SHA}); r.status != http.StatusOK {
		t.Fatalf("update ref: %d %s", r.status, r.body)
	}
	var after struct {
		ChangedFiles int `json:"changed_files"`
		Commits      int
		Head         struct{ SHA string }
	}
	getJSON(t, base+"/pulls/146", carol, &after)
	// The pull request now also adds two pages and deletes the changelog.
	if after.Head.SHA != commit.SHA || after.Commits != 3 || after.ChangedFiles != 5 {
		t.Errorf("pull request after the push: %+v", after)
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
	if !fork.Fork || fork.Parent.FullName != "acme/widgets" || fork.Source.FullName != "acme/widgets" {
		t.Errorf("dave/widgets = %+v", fork)
	}
	var parent struct {
		Fork       bool
		ForksCount int `json:"forks_count"`
	}
	getJSON(t, base+"/repos/acme/widgets", emulator.DemoTokenDave, &parent)
	if parent.Fork || parent.ForksCount != 1 {
		t.Errorf("acme/widgets = %+v", parent)
	}
}
