package rest_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator"
)

// TestRESTReadme reads acme/widgets' README as gh repo view does (JSON,
// base64) and raw, at a ref, in a directory, and where there is none.
func TestRESTReadme(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	tok := emulator.DemoTokenDave
	var readme struct {
		Name, Path, Encoding, Content string
		HTMLURL                       string `json:"html_url"`
	}
	getJSON(t, base+"/readme", tok, &readme)
	text, err := base64.StdEncoding.DecodeString(strings.ReplaceAll(readme.Content, "\n", ""))
	if err != nil {
		t.Fatalf("readme content: %v", err)
	}
	if readme.Name != "README.md" {
		t.Fatalf("readme name = %q, want %q", readme.Name, "README.md")
	}
	if readme.Path != "README.md" {
		t.Fatalf("readme path = %q, want %q", readme.Path, "README.md")
	}
	if readme.Encoding != "base64" {
		t.Fatalf("readme encoding = %q, want %q", readme.Encoding, "base64")
	}
	if !strings.HasPrefix(string(text), "# widgets\n") {
		t.Fatalf("readme text = %q, want one starting %q", text, "# widgets\n")
	}
	status, h, raw := getAs(t, base+"/readme", "application/vnd.github.raw")
	if status != http.StatusOK {
		t.Errorf("raw readme: status %d, want %d", status, http.StatusOK)
	}
	if raw != string(text) {
		t.Errorf("raw readme = %q, want the decoded content %q", raw, text)
	}
	if ct := h.Get("Content-Type"); !strings.HasPrefix(ct, "application/vnd.github.raw") {
		t.Errorf("raw readme: Content-Type = %q, want application/vnd.github.raw", ct)
	}
	// GitHub's documented spelling, raw+json, is the raw text too.
	status, _, got := getAs(t, base+"/readme", "application/vnd.github.raw+json")
	if status != http.StatusOK {
		t.Errorf("raw+json readme: status %d, want %d", status, http.StatusOK)
	}
	if got != string(text) {
		t.Errorf("raw+json readme = %q, want the raw text %q", got, text)
	}
	if status, _, body := getAs(t, base+"/readme", "application/vnd.github.html"); status != http.StatusUnsupportedMediaType {
		t.Errorf("html readme: status %d, want %d: %s", status, http.StatusUnsupportedMediaType, body)
	}
	checkReply(t, "readme at an unknown ref", get(t, base+"/readme?ref=no-such-ref", tok),
		http.StatusNotFound, "No commit found for the ref no-such-ref")
	checkReply(t, "readme of a directory without one", get(t, base+"/readme/docs", tok),
		http.StatusNotFound, `"message":"Not Found"`)
	// A README under .github is preferred to the root's.
	if r := send(t, "PUT", base+"/contents/.github/readme.rst", emulator.DemoTokenBob, map[string]any{
		"message": "Profile README", "content": base64.StdEncoding.EncodeToString([]byte("Widgets\n=======\n"))}); r.status != http.StatusCreated {
		t.Fatalf("commit .github/readme.rst: status %d, want %d: %s", r.status, http.StatusCreated, r.body)
	}
	getJSON(t, base+"/readme", tok, &readme)
	if readme.Path != ".github/readme.rst" {
		t.Errorf("preferred readme = %s, want .github/readme.rst", readme.Path)
	}
	getJSON(t, base+"/readme/", tok, &readme)
	if r := get(t, base+"/readme/.github", tok); r.status != http.StatusOK {
		t.Errorf("readme of .github: status %d, want %d", r.status, http.StatusOK)
	}
}

// TestRESTStars stars and unstars acme/widgets and reads the effect from
// every side: the star check, the user's starred list (both media types),
// the stargazers and the repository's stargazers_count.
func TestRESTStars(t *testing.T) {
	srv := serveDemo(t)
	repo := srv + "/repos/acme/widgets"
	count := func() int {
		var r struct {
			StargazersCount int `json:"stargazers_count"`
			WatchersCount   int `json:"watchers_count"`
		}
		getJSON(t, repo, emulator.DemoTokenDave, &r)
		if r.WatchersCount != r.StargazersCount {
			t.Errorf("watchers_count = %d, want stargazers_count %d", r.WatchersCount, r.StargazersCount)
		}
		return r.StargazersCount
	}
	before := count()
	if r := get(t, srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol); r.status != http.StatusNotFound {
		t.Fatalf("unstarred check: status %d, want %d", r.status, http.StatusNotFound)
	}
	for _, tok := range []string{emulator.DemoTokenCarol, emulator.DemoTokenDave, emulator.DemoTokenDave} {
		if r := send(t, "PUT", srv+"/user/starred/acme/widgets", tok, nil); r.status != http.StatusNoContent {
			t.Fatalf("star: status %d, want %d: %s", r.status, http.StatusNoContent, r.body)
		}
	}
	send(t, "PUT", srv+"/user/starred/acme/gadgets", emulator.DemoTokenCarol, nil)
	if got := count(); got != before+2 {
		t.Errorf("stargazers_count = %d, want %d", got, before+2)
	}
	if r := get(t, srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol); r.status != http.StatusNoContent {
		t.Errorf("starred check: status %d, want %d", r.status, http.StatusNoContent)
	}
	// dave cannot see acme/gadgets: starring it is a 404.
	if r := send(t, "PUT", srv+"/user/starred/acme/gadgets", emulator.DemoTokenDave, nil); r.status != http.StatusNotFound {
		t.Errorf("star an invisible repository: status %d, want %d", r.status, http.StatusNotFound)
	}
	var starred []struct {
		FullName string `json:"full_name"`
	}
	first := getJSON(t, srv+"/user/starred?per_page=1", emulator.DemoTokenCarol, &starred)
	if got := fullNames(starred); !slices.Equal(got, []string{"acme/gadgets"}) {
		t.Errorf("carol's starred, newest first, page 1 = %v, want [acme/gadgets]", got)
	}
	if link := first.header.Get("Link"); !nextLink.MatchString(link) {
		t.Errorf("carol's starred, page 1: Link = %q, want a rel=\"next\"", link)
	}
	// Another reader sees only what their token may: dave not gadgets.
	getJSON(t, srv+"/users/carol/starred", emulator.DemoTokenDave, &starred)
	if got := fullNames(starred); !slices.Equal(got, []string{"acme/widgets"}) {
		t.Errorf("carol's starred as dave sees them = %v, want [acme/widgets]", got)
	}
	var withTimes []struct {
		StarredAt string `json:"starred_at"`
		Repo      struct {
			FullName string `json:"full_name"`
		}
	}
	_, _, body := getAs(t, srv+"/user/starred?direction=asc", "application/vnd.github.star+json")
	if err := json.Unmarshal([]byte(body), &withTimes); err != nil {
		t.Errorf("starred with times: decode %s: %v", body, err)
	} else if len(withTimes) != 2 {
		t.Errorf("starred with times: %d repositories, want 2: %s", len(withTimes), body)
	} else {
		if got := withTimes[0].Repo.FullName; got != "acme/widgets" {
			t.Errorf("starred with times, oldest first: %s, want acme/widgets", got)
		}
		if withTimes[0].StarredAt == "" {
			t.Errorf("starred with times: no starred_at on %s, want one", withTimes[0].Repo.FullName)
		}
	}
	// GraphQL sees the same stars: the count, the viewer's star, and
	// repositories ordered by stars (gadgets has one, widgets two).
	var gql struct {
		Data struct {
			Repository struct {
				StargazerCount   int  `json:"stargazerCount"`
				ViewerHasStarred bool `json:"viewerHasStarred"`
			}
			RepositoryOwner struct {
				Repositories struct{ Nodes []struct{ Name string } }
			} `json:"repositoryOwner"`
		}
	}
	q := `{ repository(owner: "acme", name: "widgets") { stargazerCount viewerHasStarred }
		repositoryOwner(login: "acme") { repositories(first: 10, orderBy: {field: STARGAZERS, direction: ASC}) { nodes { name } } } }`
	g := send(t, "POST", srv+"/graphql", emulator.DemoTokenCarol, map[string]any{"query": q})
	var names []string
	if err := json.Unmarshal(g.body, &gql); err == nil {
		for _, n := range gql.Data.RepositoryOwner.Repositories.Nodes {
			names = append(names, n.Name)
		}
	}
	if got := gql.Data.Repository.StargazerCount; got != before+2 {
		t.Errorf("graphql stargazerCount = %d, want %d (%s)", got, before+2, g.body)
	}
	if !gql.Data.Repository.ViewerHasStarred {
		t.Errorf("graphql viewerHasStarred = false, want true (%s)", g.body)
	}
	if want := []string{"gadgets", "widgets"}; !slices.Equal(names, want) {
		t.Errorf("graphql repositories by stars = %v, want %v (%s)", names, want, g.body)
	}
	var gazers []struct{ Login string }
	getJSON(t, repo+"/stargazers", emulator.DemoTokenDave, &gazers)
	if diff := cmp.Diff([]struct{ Login string }{{"carol"}, {"dave"}}, gazers); diff != "" {
		t.Errorf("stargazers mismatch (-want +got):\n%s", diff)
	}
	send(t, "DELETE", srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol, nil)
	if got := count(); got != before+1 {
		t.Errorf("after unstarring, stargazers_count = %d, want %d", got, before+1)
	}
	if r := get(t, srv+"/repos/acme/gadgets/stargazers", emulator.DemoTokenDave); r.status != http.StatusNotFound {
		t.Errorf("stargazers of an invisible repository: status %d, want %d", r.status, http.StatusNotFound)
	}
}

// TestRESTReviewCommentReply replies in a review thread of pull request
// 146, as GitHub's MCP server's add_reply_to_pull_request_comment does, and
// reads the reply back over REST and in GraphQL's reviewThreads.
func TestRESTReviewCommentReply(t *testing.T) {
	srv := serveDemo(t)
	pull := srv + "/repos/acme/widgets/pulls/146"
	type comment struct {
		ID          int64
		Body        string
		InReplyToID *int64 `json:"in_reply_to_id"`
		User        struct{ Login string }
	}
	var comments []comment
	getJSON(t, pull+"/comments?per_page=100", emulator.DemoTokenCarol, &comments)
	if len(comments) == 0 {
		t.Fatal("pull request 146 has no review comments")
	}
	root := comments[0]
	r := send(t, "POST", fmt.Sprintf("%s/comments/%d/replies", pull, root.ID), emulator.DemoTokenCarol, map[string]any{"body": "Same here: it rattles at 9:1."})
	var made comment
	decode(t, r, http.StatusCreated, &made)
	if made.InReplyToID == nil || *made.InReplyToID != root.ID {
		t.Fatalf("reply: in_reply_to_id = %s, want %d", fmtInt64Ptr(made.InReplyToID), root.ID)
	}
	if made.User.Login != "carol" {
		t.Fatalf("reply: user %q, want %q", made.User.Login, "carol")
	}
	getJSON(t, pull+"/comments?per_page=100", emulator.DemoTokenCarol, &comments)
	if last := comments[len(comments)-1]; last.ID != made.ID {
		t.Errorf("last listed comment id = %d, want the reply's %d", last.ID, made.ID)
	}
	var gql struct {
		Data struct {
			Repository struct {
				PullRequest struct {
					ReviewThreads struct {
						Nodes []struct {
							Comments struct {
								Nodes []struct {
									DatabaseID int64 `json:"databaseId"`
									Body       string
								}
							}
						}
					}
				}
			}
		}
	}
	q := `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 146) { reviewThreads(first: 50) { nodes { comments(first: 50) { nodes { databaseId body } } } } } } }`
	g := send(t, "POST", srv+"/graphql", emulator.DemoTokenCarol, map[string]any{"query": q})
	if err := json.Unmarshal(g.body, &gql); err != nil {
		t.Fatalf("graphql: %s", g.body)
	}
	found := false
	for _, th := range gql.Data.Repository.PullRequest.ReviewThreads.Nodes {
		cs := th.Comments.Nodes
		if len(cs) > 1 && cs[0].DatabaseID == root.ID && cs[len(cs)-1].DatabaseID == made.ID {
			found = true
		}
	}
	if !found {
		t.Errorf("reviewThreads: no thread from comment %d ending with the reply %d: %s", root.ID, made.ID, g.body)
	}

	// Refusals: an unknown comment, a comment of another pull request, a
	// blank body.
	if r := send(t, "POST", pull+"/comments/999999999/replies", emulator.DemoTokenCarol, map[string]any{"body": "x"}); r.status != http.StatusNotFound {
		t.Errorf("reply to an unknown comment: status %d, want %d: %s", r.status, http.StatusNotFound, r.body)
	}
	if r := send(t, "POST", fmt.Sprintf("%s/repos/acme/widgets/pulls/%d/comments/%d/replies", srv, emulator.DemoFirstPull, root.ID), emulator.DemoTokenCarol, map[string]any{"body": "x"}); r.status != http.StatusNotFound {
		t.Errorf("reply through another pull request: status %d, want %d: %s", r.status, http.StatusNotFound, r.body)
	}
	checkReply(t, "blank reply", send(t, "POST", fmt.Sprintf("%s/comments/%d/replies", pull, root.ID), emulator.DemoTokenCarol, map[string]any{"body": " "}),
		http.StatusUnprocessableEntity, `"code":"missing_field"`)
}

// TestRESTReviewComments starts a review thread on a line of pull request
// 146's diff and replies in it with in_reply_to, as GitHub's MCP server
// does, and checks the refusals.
func TestRESTReviewComments(t *testing.T) {
	srv := serveDemo(t)
	pull := srv + "/repos/acme/widgets/pulls/146"
	var pr struct {
		Head struct{ SHA string }
	}
	getJSON(t, pull, emulator.DemoTokenCarol, &pr)
	var files []struct{ Filename, Patch string }
	getJSON(t, pull+"/files", emulator.DemoTokenCarol, &files)
	var path string
	var line int
	for _, f := range files {
		// The first line of a hunk's new side: "@@ -a,b +c,d @@".
		if i := strings.Index(f.Patch, " +"); strings.HasPrefix(f.Patch, "@@") && i > 0 {
			if _, err := fmt.Sscanf(f.Patch[i+2:], "%d", &line); err == nil {
				path = f.Filename
				break
			}
		}
	}
	if path == "" {
		t.Fatalf("no hunk in %+v", files)
	}
	type comment struct {
		ID          int64
		Path        string
		Line        *int
		InReplyToID *int64 `json:"in_reply_to_id"`
	}
	var made, reply comment
	r := send(t, "POST", pull+"/comments", emulator.DemoTokenCarol, map[string]any{"body": "Name this constant.", "commit_id": pr.Head.SHA, "path": path, "line": line})
	decode(t, r, http.StatusCreated, &made)
	if made.Path != path {
		t.Fatalf("new thread: path %q, want %q", made.Path, path)
	}
	if made.Line == nil || *made.Line != line {
		t.Fatalf("new thread: line %s, want %d", fmtIntPtr(made.Line), line)
	}
	if made.InReplyToID != nil {
		t.Fatalf("new thread: in_reply_to_id %d, want null", *made.InReplyToID)
	}
	r = send(t, "POST", pull+"/comments", emulator.DemoTokenBob, map[string]any{"body": "Done.", "in_reply_to": made.ID, "path": "ignored.go"})
	decode(t, r, http.StatusCreated, &reply)
	if reply.InReplyToID == nil || *reply.InReplyToID != made.ID {
		t.Fatalf("reply with in_reply_to: in_reply_to_id %s, want %d", fmtInt64Ptr(reply.InReplyToID), made.ID)
	}
	if reply.Path != path {
		t.Fatalf("reply with in_reply_to: path %q, want the thread's %q", reply.Path, path)
	}
	for _, c := range []struct {
		name string
		body map[string]any
		want string
	}{
		{"no body", map[string]any{"commit_id": pr.Head.SHA, "path": path, "line": line}, `"field":"body"`},
		{"no path", map[string]any{"body": "x", "commit_id": pr.Head.SHA, "line": line}, `"field":"path"`},
		{"an older commit", map[string]any{"body": "x", "commit_id": strings.Repeat("0", 40), "path": path, "line": line}, `"field":"commit_id"`},
		{"a line outside the diff", map[string]any{"body": "x", "commit_id": pr.Head.SHA, "path": path, "line": 99999}, "must be part of the diff"},
		{"the deprecated position", map[string]any{"body": "x", "commit_id": pr.Head.SHA, "path": path, "position": 1}, `"field":"line"`},
	} {
		checkReply(t, c.name, send(t, "POST", pull+"/comments", emulator.DemoTokenCarol, c.body), http.StatusUnprocessableEntity, c.want)
	}
	if r := send(t, "POST", pull+"/comments", emulator.DemoTokenCarol, map[string]any{"body": "x", "in_reply_to": 999999999}); r.status != http.StatusNotFound {
		t.Errorf("reply to an unknown comment: status %d, want %d: %s", r.status, http.StatusNotFound, r.body)
	}

	// Reactions to a review comment, as add_reply_to_pull_request_comment's
	// reaction sends them.
	reactions := fmt.Sprintf("%s/repos/acme/widgets/pulls/comments/%d/reactions", srv, made.ID)
	for i, want := range []int{http.StatusCreated, http.StatusOK} {
		if r := send(t, "POST", reactions, emulator.DemoTokenBob, map[string]any{"content": "heart"}); r.status != want {
			t.Errorf("reaction %d: status %d, want %d: %s", i, r.status, want, r.body)
		}
	}
	if r := send(t, "POST", reactions, emulator.DemoTokenBob, map[string]any{"content": "clap"}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("an unknown reaction: status %d, want %d: %s", r.status, http.StatusUnprocessableEntity, r.body)
	}
	var listed []struct{ Content string }
	getJSON(t, reactions, emulator.DemoTokenCarol, &listed)
	type reacted struct {
		ID        int64
		Reactions struct{ Heart int }
	}
	var comments []reacted
	getJSON(t, pull+"/comments?per_page=100", emulator.DemoTokenCarol, &comments)
	i := slices.IndexFunc(comments, func(c reacted) bool { return c.ID == made.ID })
	if diff := cmp.Diff([]struct{ Content string }{{"heart"}}, listed); diff != "" {
		t.Errorf("reactions mismatch (-want +got):\n%s", diff)
	}
	if i < 0 {
		t.Errorf("comment %d not listed among %d comments", made.ID, len(comments))
	} else if got := comments[i].Reactions.Heart; got != 1 {
		t.Errorf("comment %d reactions.heart = %d, want 1", made.ID, got)
	}
	if r := get(t, srv+"/repos/acme/widgets/pulls/comments/999999999/reactions", emulator.DemoTokenCarol); r.status != http.StatusNotFound {
		t.Errorf("reactions of an unknown comment: status %d, want %d", r.status, http.StatusNotFound)
	}
}
