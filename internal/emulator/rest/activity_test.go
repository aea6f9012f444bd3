package rest_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

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
	if err != nil || readme.Name != "README.md" || readme.Path != "README.md" || readme.Encoding != "base64" || !strings.HasPrefix(string(text), "# widgets\n") {
		t.Fatalf("readme = %+v (%v)", readme, err)
	}
	status, h, raw := getAs(t, base+"/readme", "application/vnd.github.raw")
	if status != http.StatusOK || raw != string(text) || !strings.HasPrefix(h.Get("Content-Type"), "application/vnd.github.raw") {
		t.Errorf("raw readme: %d %q %q", status, h.Get("Content-Type"), raw)
	}
	// GitHub's documented spelling, raw+json, is the raw text too.
	if status, _, got := getAs(t, base+"/readme", "application/vnd.github.raw+json"); status != http.StatusOK || got != string(text) {
		t.Errorf("raw+json readme: %d %q, want the raw text", status, got)
	}
	if status, _, body := getAs(t, base+"/readme", "application/vnd.github.html"); status != http.StatusUnsupportedMediaType {
		t.Errorf("html readme: %d %s", status, body)
	}
	if r := get(t, base+"/readme?ref=no-such-ref", tok); r.status != http.StatusNotFound || !strings.Contains(string(r.body), "No commit found for the ref no-such-ref") {
		t.Errorf("readme at an unknown ref: %d %s", r.status, r.body)
	}
	if r := get(t, base+"/readme/docs", tok); r.status != http.StatusNotFound || !strings.Contains(string(r.body), `"message":"Not Found"`) {
		t.Errorf("readme of a directory without one: %d %s", r.status, r.body)
	}
	// A README under .github is preferred to the root's.
	if r := send(t, "PUT", base+"/contents/.github/readme.rst", emulator.DemoTokenBob, map[string]any{
		"message": "Profile README", "content": base64.StdEncoding.EncodeToString([]byte("Widgets\n=======\n"))}); r.status != http.StatusCreated {
		t.Fatalf("commit .github/readme.rst: %d %s", r.status, r.body)
	}
	getJSON(t, base+"/readme", tok, &readme)
	if readme.Path != ".github/readme.rst" {
		t.Errorf("preferred readme = %s, want .github/readme.rst", readme.Path)
	}
	getJSON(t, base+"/readme/", tok, &readme)
	if r := get(t, base+"/readme/.github", tok); r.status != http.StatusOK {
		t.Errorf("readme of .github: %d", r.status)
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
			t.Errorf("watchers_count %d, stargazers_count %d", r.WatchersCount, r.StargazersCount)
		}
		return r.StargazersCount
	}
	before := count()
	if r := get(t, srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol); r.status != http.StatusNotFound {
		t.Fatalf("unstarred check: %d", r.status)
	}
	for _, tok := range []string{emulator.DemoTokenCarol, emulator.DemoTokenDave, emulator.DemoTokenDave} {
		if r := send(t, "PUT", srv+"/user/starred/acme/widgets", tok, nil); r.status != http.StatusNoContent {
			t.Fatalf("star: %d %s", r.status, r.body)
		}
	}
	send(t, "PUT", srv+"/user/starred/acme/gadgets", emulator.DemoTokenCarol, nil)
	if got := count(); got != before+2 {
		t.Errorf("stargazers_count = %d, want %d", got, before+2)
	}
	if r := get(t, srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol); r.status != http.StatusNoContent {
		t.Errorf("starred check: %d", r.status)
	}
	// dave cannot see acme/gadgets: starring it is a 404.
	if r := send(t, "PUT", srv+"/user/starred/acme/gadgets", emulator.DemoTokenDave, nil); r.status != http.StatusNotFound {
		t.Errorf("star an invisible repository: %d", r.status)
	}
	var starred []struct {
		FullName string `json:"full_name"`
	}
	first := getJSON(t, srv+"/user/starred?per_page=1", emulator.DemoTokenCarol, &starred)
	if len(starred) != 1 || starred[0].FullName != "acme/gadgets" || !nextLink.Match([]byte(first.header.Get("Link"))) {
		t.Errorf("carol's starred, newest first, page 1: %+v Link %q", starred, first.header.Get("Link"))
	}
	// Another reader sees only what their token may: dave not gadgets.
	getJSON(t, srv+"/users/carol/starred", emulator.DemoTokenDave, &starred)
	if len(starred) != 1 || starred[0].FullName != "acme/widgets" {
		t.Errorf("carol's starred as dave sees them: %+v", starred)
	}
	var withTimes []struct {
		StarredAt string `json:"starred_at"`
		Repo      struct {
			FullName string `json:"full_name"`
		}
	}
	_, _, body := getAs(t, srv+"/user/starred?direction=asc", "application/vnd.github.star+json")
	if err := json.Unmarshal([]byte(body), &withTimes); err != nil || len(withTimes) != 2 || withTimes[0].Repo.FullName != "acme/widgets" || withTimes[0].StarredAt == "" {
		t.Errorf("starred with times: %s (%v)", body, err)
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
	if gql.Data.Repository.StargazerCount != before+2 || !gql.Data.Repository.ViewerHasStarred || !slices.Equal(names, []string{"gadgets", "widgets"}) {
		t.Errorf("graphql stars: %s", g.body)
	}
	var gazers []struct{ Login string }
	getJSON(t, repo+"/stargazers", emulator.DemoTokenDave, &gazers)
	if len(gazers) != 2 || gazers[0].Login != "carol" || gazers[1].Login != "dave" {
		t.Errorf("stargazers = %+v", gazers)
	}
	send(t, "DELETE", srv+"/user/starred/acme/widgets", emulator.DemoTokenCarol, nil)
	if got := count(); got != before+1 {
		t.Errorf("after unstarring, stargazers_count = %d, want %d", got, before+1)
	}
	if r := get(t, srv+"/repos/acme/gadgets/stargazers", emulator.DemoTokenDave); r.status != http.StatusNotFound {
		t.Errorf("stargazers of an invisible repository: %d", r.status)
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
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &made) != nil || made.InReplyToID == nil || *made.InReplyToID != root.ID || made.User.Login != "carol" {
		t.Fatalf("reply: %d %s", r.status, r.body)
	}
	getJSON(t, pull+"/comments?per_page=100", emulator.DemoTokenCarol, &comments)
	if last := comments[len(comments)-1]; last.ID != made.ID {
		t.Errorf("the reply is not listed last: %+v", last)
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
		t.Errorf("the reply is not the last comment of the thread in reviewThreads: %s", g.body)
	}

	// Refusals: an unknown comment, a comment of another pull request, a
	// blank body.
	if r := send(t, "POST", pull+"/comments/999999999/replies", emulator.DemoTokenCarol, map[string]any{"body": "x"}); r.status != http.StatusNotFound {
		t.Errorf("reply to an unknown comment: %d %s", r.status, r.body)
	}
	if r := send(t, "POST", fmt.Sprintf("%s/repos/acme/widgets/pulls/%d/comments/%d/replies", srv, emulator.DemoFirstPull, root.ID), emulator.DemoTokenCarol, map[string]any{"body": "x"}); r.status != http.StatusNotFound {
		t.Errorf("reply through another pull request: %d %s", r.status, r.body)
	}
	if r := send(t, "POST", fmt.Sprintf("%s/comments/%d/replies", pull, root.ID), emulator.DemoTokenCarol, map[string]any{"body": " "}); r.status != http.StatusUnprocessableEntity ||
		!strings.Contains(string(r.body), `"code":"missing_field"`) {
		t.Errorf("blank reply: %d %s", r.status, r.body)
	}
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
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &made) != nil || made.Path != path || made.Line == nil || *made.Line != line || made.InReplyToID != nil {
		t.Fatalf("new thread: %d %s", r.status, r.body)
	}
	r = send(t, "POST", pull+"/comments", emulator.DemoTokenBob, map[string]any{"body": "Done.", "in_reply_to": made.ID, "path": "ignored.go"})
	if r.status != http.StatusCreated || json.Unmarshal(r.body, &reply) != nil || reply.InReplyToID == nil || *reply.InReplyToID != made.ID || reply.Path != path {
		t.Fatalf("reply with in_reply_to: %d %s", r.status, r.body)
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
		if r := send(t, "POST", pull+"/comments", emulator.DemoTokenCarol, c.body); r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), c.want) {
			t.Errorf("%s: %d %s", c.name, r.status, r.body)
		}
	}
	if r := send(t, "POST", pull+"/comments", emulator.DemoTokenCarol, map[string]any{"body": "x", "in_reply_to": 999999999}); r.status != http.StatusNotFound {
		t.Errorf("reply to an unknown comment: %d %s", r.status, r.body)
	}

	// Reactions to a review comment, as add_reply_to_pull_request_comment's
	// reaction sends them.
	reactions := fmt.Sprintf("%s/repos/acme/widgets/pulls/comments/%d/reactions", srv, made.ID)
	for i, want := range []int{http.StatusCreated, http.StatusOK} {
		if r := send(t, "POST", reactions, emulator.DemoTokenBob, map[string]any{"content": "heart"}); r.status != want {
			t.Errorf("reaction %d: %d %s", i, r.status, r.body)
		}
	}
	if r := send(t, "POST", reactions, emulator.DemoTokenBob, map[string]any{"content": "clap"}); r.status != http.StatusUnprocessableEntity {
		t.Errorf("an unknown reaction: %d %s", r.status, r.body)
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
	if len(listed) != 1 || listed[0].Content != "heart" || i < 0 || comments[i].Reactions.Heart != 1 {
		t.Errorf("reactions %+v, comment %+v", listed, comments)
	}
	if r := get(t, srv+"/repos/acme/widgets/pulls/comments/999999999/reactions", emulator.DemoTokenCarol); r.status != http.StatusNotFound {
		t.Errorf("reactions of an unknown comment: %d", r.status)
	}
}
