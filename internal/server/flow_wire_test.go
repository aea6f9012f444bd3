package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/testutil/redisserver"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The toxic flow, scripted: a session reads a private repository, then
// an injected instruction has it comment in a public one.
func TestPrivateToPublicWriteNeedsAPerson(t *testing.T) {
	readPrivate := func(t *testing.T, env *servertest.Env) {
		t.Helper()
		r := env.Call(t, "github_search_issues", map[string]any{"owner": "alice", "repo": "notes", "state": "all"})
		if r.IsError {
			t.Fatalf("reading alice/notes (private): error %s, want success", r.JSON)
		}
		if !strings.Contains(string(r.JSON), `"number"`) {
			t.Fatalf("reading alice/notes (private): %s, want issues listed", r.JSON)
		}
	}
	leak := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "body": "From the private notes: the launch date is March 3."}

	t.Run("refused", func(t *testing.T) {
		env := servertest.Start(t, servertest.Options{})
		// Before any private read, the same comment goes through.
		if r := env.Call(t, "github_add_comment", leak); r.IsError {
			t.Fatalf("a comment before any private read: error %s, want success", r.JSON)
		}
		readPrivate(t, env)
		env.Upstream()
		r := env.Call(t, "github_add_comment", leak)
		if !checkRefused(t, "comment after a private read", r, "cross_visibility_write", "flow", "") {
			t.FailNow()
		}
		for _, repo := range []string{"alice/notes", "acme/widgets"} {
			if !strings.Contains(string(r.JSON), repo) {
				t.Fatalf("comment after a private read: %s, want the refusal to name %s", r.JSON, repo)
			}
		}
		if sent := writesSent(env.Upstream()); len(sent) != 0 {
			t.Fatalf("the refused comment sent %v", sent)
		}
		// A write without text, and a write to the private repository, pass.
		if r := env.Call(t, "github_update_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "labels": map[string]any{"add": []string{"bug"}}}); r.IsError {
			t.Fatalf("a label edit carries no text: error %s, want success", r.JSON)
		}
		if r := env.Call(t, "github_add_comment", map[string]any{"owner": "alice", "repo": "notes", "issue_number": 1, "body": "noted"}); r.IsError {
			t.Fatalf("a comment in the private repository: error %s, want success", r.JSON)
		}
	})

	// A board's items carry their issues' titles: listing a board that
	// holds private issues is a read of their repository, though the
	// request names only the board's owner.
	t.Run("board items", func(t *testing.T) {
		env := servertest.Start(t, servertest.Options{Toolsets: []string{"issues", "projects"}})
		r := env.Call(t, "github_list_project_items", map[string]any{"owner": "alice", "project_number": 1})
		if r.IsError {
			t.Fatalf("alice's board: error %s, want success", r.JSON)
		}
		if !strings.Contains(string(r.JSON), "alice/notes") {
			t.Fatalf("alice's board: %s, want its alice/notes items", r.JSON)
		}
		r = env.Call(t, "github_add_comment", leak)
		if !r.IsError {
			t.Fatalf("comment after listing a board of private issues: %s, want cross_visibility_write", r.JSON)
		}
		if got := decode(t, r).Code; got != "cross_visibility_write" {
			t.Fatalf("comment after listing a board of private issues: code = %q, want cross_visibility_write", got)
		}
	})

	t.Run("allowed pair", func(t *testing.T) {
		env := servertest.Start(t, servertest.Options{Policy: policy.Rules{Flow: policy.Flow{Allow: []string{"alice/* -> acme/widgets"}}}})
		readPrivate(t, env)
		if r := env.Call(t, "github_add_comment", leak); r.IsError {
			t.Fatalf("an allowed pair: error %s, want success", r.JSON)
		}
	})

	t.Run("guard off", func(t *testing.T) {
		off := false
		env := servertest.Start(t, servertest.Options{Policy: policy.Rules{Flow: policy.Flow{Guard: &off}}})
		readPrivate(t, env)
		if r := env.Call(t, "github_add_comment", leak); r.IsError {
			t.Fatalf("with the guard off: error %s, want success", r.JSON)
		}
	})

	for _, answer := range []string{"accept", "decline"} {
		t.Run("person says "+answer, func(t *testing.T) {
			env := servertest.Start(t, servertest.Options{})
			asked := ""
			cs := connectEliciting(t, env, func(r *mcp.ElicitRequest) *mcp.ElicitResult {
				asked = r.Params.Message
				return &mcp.ElicitResult{Action: answer, Content: map[string]any{"confirm": answer == "accept"}}
			})
			servertest.CallOn(t, cs, "github_search_issues", map[string]any{"owner": "alice", "repo": "notes", "state": "all"})
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "github_add_comment", Arguments: leak})
			if err != nil {
				t.Fatal(err)
			}
			servertest.Answer(t, cs, "github_add_comment", leak, res)
			b, _ := json.Marshal(res.StructuredContent)
			for _, repo := range []string{"alice/notes", "acme/widgets"} {
				if !strings.Contains(asked, repo) {
					t.Errorf("the person was asked %q, want it to name %s", asked, repo)
				}
			}
			if answer == "accept" && res.IsError {
				t.Fatalf("confirmed: error %s, want success", b)
			}
			if answer == "decline" && !res.IsError {
				t.Fatalf("declined: %s, want an error", b)
			}
			if answer == "decline" && !strings.Contains(string(b), "confirmation_declined") {
				t.Fatalf("declined: %s, want confirmation_declined", b)
			}
			sent := writesSent(env.Upstream())
			if (answer == "accept") != (len(sent) == 1) {
				t.Fatalf("%s: sent %v", answer, sent)
			}
		})
	}
}

// connectEliciting opens a second session to env's server from a client
// that asks its user through answer.
func connectEliciting(t *testing.T, env *servertest.Env, answer func(*mcp.ElicitRequest) *mcp.ElicitResult) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := env.Stack.Server.MCP.Connect(ctx, sTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := mcp.NewClient(&mcp.Implementation{Name: "eliciting", Version: "0"}, &mcp.ClientOptions{
		ElicitationHandler: func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return answer(r), nil }})
	cs, err := c.Connect(ctx, cTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return cs
}

// An HTTP client's calls may land on any replica: what one replica read
// for it guards the writes another makes (its reads are kept in the
// shared store, as the HTTP guard's scope asks).
func TestPrivateReadOnOneReplicaGuardsAnother(t *testing.T) {
	url := redisserver.Start(t).URL("flow")
	asClient := func(ctx context.Context, _ tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		return next(policy.WithScope(ctx, policy.Scope{Subject: "client:bot", Session: "client:bot", ReadsShared: true, Shared: true}))
	}
	a := servertest.Start(t, servertest.Options{StorePath: url, Wrap: asClient})
	b := servertest.Start(t, servertest.Options{StorePath: url, Wrap: asClient, Emu: a.Emu})
	leak := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "body": "From the private notes: the launch date is March 3."}
	if r := b.Call(t, "github_add_comment", leak); r.IsError {
		t.Fatalf("before any private read: error %s, want success", r.JSON)
	}
	if r := a.Call(t, "github_search_issues", map[string]any{"owner": "alice", "repo": "notes", "state": "all"}); r.IsError {
		t.Fatalf("reading alice/notes on replica a: error %s, want success", r.JSON)
	}
	b.Upstream()
	r := b.Call(t, "github_add_comment", leak)
	e := decode(t, r)
	if !r.IsError {
		t.Fatalf("replica b after replica a read alice/notes: %s, want cross_visibility_write", r.JSON)
	}
	if e.Code != "cross_visibility_write" {
		t.Fatalf("replica b after replica a read alice/notes: code = %q, want cross_visibility_write", e.Code)
	}
	if !strings.Contains(string(r.JSON), "alice/notes") {
		t.Fatalf("replica b after replica a read alice/notes: %s, want the refusal to name alice/notes", r.JSON)
	}
	if sent := writesSent(b.Upstream()); len(sent) != 0 {
		t.Fatalf("the refused comment sent %v", sent)
	}
}

// With confirm.unavailable = "hide", a client that cannot ask its user is
// not shown the tools a person must confirm (and a call to one is still
// refused); a client that can is shown them.
func TestUnconfirmableToolsHiddenWhereAsked(t *testing.T) {
	listed := func(t *testing.T, cs *mcp.ClientSession) bool {
		t.Helper()
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range list.Tools {
			if tool.Name == "github_add_comment" {
				return true
			}
		}
		return false
	}
	for _, unavailable := range []string{"refuse", "hide"} {
		env := servertest.Start(t, servertest.Options{Policy: policy.Rules{Confirm: policy.Confirm{
			Tools: []string{"github_add_comment"}, Unavailable: unavailable}}})
		if got, want := listed(t, env.Session), unavailable == "refuse"; got != want {
			t.Errorf("%s: listed to a client that cannot elicit: %v, want %v", unavailable, got, want)
		}
		eliciting := connectEliciting(t, env, func(*mcp.ElicitRequest) *mcp.ElicitResult { return &mcp.ElicitResult{Action: "decline"} })
		if !listed(t, eliciting) {
			t.Errorf("%s: not listed to a client that can elicit", unavailable)
		}
		r := env.Call(t, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "body": "x"})
		if e := decode(t, r); !r.IsError {
			t.Errorf("%s: a call from a client that cannot elicit: %s, want confirmation_unavailable", unavailable, r.JSON)
		} else if e.Code != "confirmation_unavailable" {
			t.Errorf("%s: a call from a client that cannot elicit: code = %q, want confirmation_unavailable", unavailable, e.Code)
		}
	}
}
