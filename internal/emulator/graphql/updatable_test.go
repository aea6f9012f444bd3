package graphql_test

import (
	"slices"
	"testing"
)

// viewerCanUpdate and viewerCannotUpdateReasons agree with the edits the
// emulator allows: the author may edit, others need the access the edit
// needs, a locked conversation is for writers, an archived repository for
// nobody.
func TestGraphQLViewerCanUpdate(t *testing.T) {
	schemasOrFail(t)
	w := newGQLWorld(t, &fidelityCount{})
	const doc = `query($n: Int!) { repository(owner: "acme", name: "widgets") { issueOrPullRequest(number: $n) {
  ... on Issue { viewerCanUpdate viewerCannotUpdateReasons comments(first: 3) { nodes { author { login } viewerCanUpdate viewerCannotUpdateReasons } } }
  ... on PullRequest { viewerCanUpdate viewerCannotUpdateReasons } } } }`
	type updatable struct {
		ViewerCanUpdate           bool
		ViewerCannotUpdateReasons []string
		Author                    struct{ Login string }
	}
	read := func(token string, n int) (updatable, []updatable) {
		t.Helper()
		var d struct {
			Repository struct {
				IssueOrPullRequest struct {
					updatable
					Comments struct{ Nodes []updatable }
				}
			}
		}
		w.query(token, doc, map[string]any{"n": n}).ok(t, &d)
		return d.Repository.IssueOrPullRequest.updatable, d.Repository.IssueOrPullRequest.Comments.Nodes
	}
	check := func(what string, got updatable, reasons ...string) {
		t.Helper()
		if want := len(reasons) == 0; got.ViewerCanUpdate != want {
			t.Errorf("%s: viewerCanUpdate = %v, want %v", what, got.ViewerCanUpdate, want)
		}
		if !slices.Equal(got.ViewerCannotUpdateReasons, reasons) {
			t.Errorf("%s: viewerCannotUpdateReasons = %v, want %v", what, got.ViewerCannotUpdateReasons, reasons)
		}
	}
	const alice, bob, carol = "emu-alice", "emu-bob", "emu-carol"

	// The bug is alice's; its comments are alice's, bob's and carol's.
	is, comments := read(carol, w.bug)
	check("carol (read) on alice's issue", is, "INSUFFICIENT_ACCESS")
	for _, c := range comments {
		if c.Author.Login == "carol" {
			check("carol on her own comment", c)
		} else {
			check("carol on "+c.Author.Login+"'s comment", c, "INSUFFICIENT_ACCESS")
		}
	}
	is, comments = read(bob, w.bug)
	check("bob (write) on alice's issue", is)
	for _, c := range comments {
		check("bob (write) on "+c.Author.Login+"'s comment", c)
	}
	is, _ = read(carol, w.wontfix)
	check("carol on bob's issue", is, "INSUFFICIENT_ACCESS")
	is, _ = read(bob, w.wontfix)
	check("bob on his own issue", is)

	// The pull request is bob's: carol may not edit it, bob may.
	is, _ = read(carol, w.pull)
	check("carol on bob's pull request", is, "INSUFFICIENT_ACCESS")
	is, _ = read(bob, w.pull)
	check("bob on his own pull request", is)

	// The flame war is carol's, locked: only people with write access edit.
	is, _ = read(carol, w.locked)
	check("carol on her own locked issue", is, "LOCKED")
	is, _ = read(bob, w.locked)
	check("bob (write) on a locked issue", is)

	// Nobody edits in an archived repository, not even its admin.
	st := w.emu.State()
	st.Lock()
	st.Repo("acme", "widgets").Archived = true
	st.Unlock()
	is, _ = read(alice, w.bug)
	check("alice on her issue in an archived repository", is, "ARCHIVED")
	is, _ = read(carol, w.bug)
	check("carol in an archived repository", is, "ARCHIVED", "INSUFFICIENT_ACCESS")
}
