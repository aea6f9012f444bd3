package graphql_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/ghgate/ghgate/internal/emulator/state"
)

// An App's bot is a Bot wherever the schema names an interface (an issue's
// or a comment's author, node): known by its App's slug, without the
// "[bot]" its REST login carries, with the App's page as its URL. viewer,
// typed User, serves the bot's token as a User with the REST login.
func testGraphQLBotActor(t *testing.T, w *gqlWorld) {
	st := w.emu.State()
	st.Lock()
	bot := st.AddApp(77, nil).Bot
	st.AddToken(&state.Token{Value: "emu-bot", Login: bot.Login, Perms: map[string]state.Permission{"acme/widgets": state.PermWrite}})
	repo := st.Repo("acme", "widgets")
	is := st.AddIssue(repo, bot, "Filed by the App", nil, false, st.Now())
	st.AddComment(is, bot, "And commented on", st.Now())
	st.Unlock()

	type actor struct {
		Typename     string `json:"__typename"`
		Login        string
		URL          string
		ResourcePath string
		ID           string
		DatabaseID   int64
	}
	var d struct {
		Repository struct {
			Issue struct {
				Author   actor
				Comments struct{ Nodes []struct{ Author actor } }
			}
		}
	}
	const sel = `__typename login url resourcePath ... on Bot { id databaseId }`
	w.query("emu-carol", fmt.Sprintf(`{ repository(owner: "acme", name: "widgets") { issue(number: %d) {
  author { %s } comments(first: 1) { nodes { author { %s } } } } } }`, is.Number, sel, sel), nil).ok(t, &d)
	want := actor{Typename: "Bot", Login: "app-77", URL: w.srv.URL + "/apps/app-77", ResourcePath: "/apps/app-77",
		ID: bot.NodeID, DatabaseID: bot.ID}
	if got := d.Repository.Issue.Author; got != want {
		t.Errorf("issue author = %+v, want %+v", got, want)
	}
	if c := d.Repository.Issue.Comments.Nodes; len(c) != 1 {
		t.Errorf("comments = %+v, want 1", c)
	} else if diff := cmp.Diff(want, c[0].Author); diff != "" {
		t.Errorf("comment author mismatch (-want +got):\n%s", diff)
	}

	var n struct {
		Node struct {
			Typename string `json:"__typename"`
			Login    string
		}
	}
	w.query("emu-carol", `query($id: ID!) { node(id: $id) { __typename ... on Actor { login } } }`,
		map[string]any{"id": bot.NodeID}).ok(t, &n)
	if n.Node.Typename != "Bot" {
		t.Errorf("node(bot) is a %s, want Bot", n.Node.Typename)
	}
	if n.Node.Login != "app-77" {
		t.Errorf("node(bot) login = %q, want app-77", n.Node.Login)
	}

	var v struct {
		Viewer struct {
			Typename string `json:"__typename"`
			Login    string
		}
	}
	w.query("emu-bot", `{ viewer { __typename login } }`, nil).ok(t, &v)
	if v.Viewer.Typename != "User" {
		t.Errorf("viewer with the bot's token is a %s, want User", v.Viewer.Typename)
	}
	if v.Viewer.Login != "app-77[bot]" {
		t.Errorf("viewer with the bot's token: login %q, want app-77[bot]", v.Viewer.Login)
	}

	// People stay Users.
	var u struct {
		Repository struct{ Issue struct{ Author actor } }
	}
	w.query("emu-carol", fmt.Sprintf(`{ repository(owner: "acme", name: "widgets") { issue(number: %d) { author { %s } } } }`,
		w.bug, sel), nil).ok(t, &u)
	a := u.Repository.Issue.Author
	type person struct{ Typename, Login, URL string }
	if diff := cmp.Diff(person{"User", "alice", w.srv.URL + "/alice"}, person{a.Typename, a.Login, a.URL}); diff != "" {
		t.Errorf("a person's author mismatch (-want +got):\n%s", diff)
	}
}
