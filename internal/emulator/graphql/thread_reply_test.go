package graphql_test

import (
	"net/http/httptest"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
)

// An automated reviewer's thread on a fleet pull request, answered,
// resolved and unresolved: a reply published at once is a review of its
// own; one made inside a pending review appears when it is submitted.
func TestGraphQLReviewThreadReply(t *testing.T) {
	schemasOrFail(t)
	emu, err := emulator.New(emulator.Options{Now: seed.DemoNow, FleetRepos: 4})
	if err != nil {
		t.Fatal(err)
	}
	w := &gqlWorld{t: t, emu: emu, count: &fidelityCount{}}
	w.srv = httptest.NewServer(emu)
	t.Cleanup(w.srv.Close)

	type thread struct {
		ID         string
		Path       string
		Line       *int
		IsResolved bool
		IsOutdated bool
		Comments   struct {
			TotalCount int
			Nodes      []struct {
				Body   string
				Author struct{ Login string }
			}
		}
	}
	threads := func(tok string) (prID string, out []thread) {
		var d struct {
			Repository struct {
				PullRequests struct {
					Nodes []struct {
						ID            string
						ReviewThreads struct{ Nodes []thread }
					}
				}
			}
		}
		w.query(tok, `query($name: String!) { repository(owner: "fleet", name: $name) { pullRequests(first: 20) { nodes { id
			reviewThreads(first: 10) { nodes { id path line isResolved isOutdated comments(first: 10) { totalCount nodes { body author { login } } } } } } } } }`,
			map[string]any{"name": seed.Fleet(0).Name}).ok(t, &d)
		for _, p := range d.Repository.PullRequests.Nodes {
			if len(p.ReviewThreads.Nodes) > 0 {
				return p.ID, p.ReviewThreads.Nodes
			}
		}
		return "", nil
	}
	prID, ts := threads(seed.DemoTokenBob)
	if len(ts) != 1 || ts[0].Comments.Nodes[0].Author.Login != "copilot-pull-request-reviewer" || ts[0].IsResolved || ts[0].Line == nil {
		t.Fatalf("the bot's thread: %+v", ts)
	}
	id := ts[0].ID

	var reply struct {
		AddPullRequestReviewThreadReply struct {
			Comment struct {
				Body    string
				Author  struct{ Login string }
				ReplyTo struct{ Author struct{ Login string } }
			}
		}
	}
	const replyDoc = `mutation($id: ID!, $body: String!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, body: $body}) {
		comment { body author { login } replyTo { author { login } } } } }`
	w.query(seed.DemoTokenBob, replyDoc, map[string]any{"id": id, "body": "Good catch: the drain now has a deadline."}).ok(t, &reply)
	if c := reply.AddPullRequestReviewThreadReply.Comment; c.Author.Login != "bob" || c.ReplyTo.Author.Login != "copilot-pull-request-reviewer" {
		t.Fatalf("reply = %+v", c)
	}
	if res := w.query(seed.DemoTokenBob, replyDoc, map[string]any{"id": id, "body": "  "}); len(res.Errors) == 0 || res.Errors[0].Type != "UNPROCESSABLE" {
		t.Errorf("a blank reply: %+v", res.Errors)
	}
	if res := w.query(seed.DemoTokenBob, replyDoc, map[string]any{"id": "PRRT_nope", "body": "x"}); len(res.Errors) == 0 || res.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("an unknown thread: %+v", res.Errors)
	}

	// carol (read access) replies inside a pending review: bob sees it
	// only once she submits.
	var started struct {
		AddPullRequestReview struct{ PullRequestReview struct{ ID string } }
	}
	w.query(seed.DemoTokenCarol, `mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id}) { pullRequestReview { id } } }`,
		map[string]any{"id": prID}).ok(t, &started)
	rv := started.AddPullRequestReview.PullRequestReview.ID
	w.query(seed.DemoTokenCarol, `mutation($id: ID!, $rv: ID!) { addPullRequestReviewThreadReply(input: {pullRequestReviewThreadId: $id, pullRequestReviewId: $rv, body: "Agreed."}) { comment { body } } }`,
		map[string]any{"id": id, "rv": rv}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenBob); ts[0].Comments.TotalCount != 2 {
		t.Errorf("before submitting, bob sees %d comments, want 2", ts[0].Comments.TotalCount)
	}
	w.query(seed.DemoTokenCarol, `mutation($rv: ID!) { submitPullRequestReview(input: {pullRequestReviewId: $rv, event: COMMENT}) { pullRequestReview { state } } }`,
		map[string]any{"rv": rv}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenBob); ts[0].Comments.TotalCount != 3 || ts[0].Comments.Nodes[2].Author.Login != "carol" {
		t.Errorf("after submitting, bob sees %+v", ts[0].Comments)
	}

	const resolve = `mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`
	const unresolve = `mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`
	w.query(seed.DemoTokenBob, resolve, map[string]any{"id": id}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenCarol); !ts[0].IsResolved {
		t.Errorf("thread not resolved")
	}
	if res := w.query(seed.DemoTokenCarol, unresolve, map[string]any{"id": id}); len(res.Errors) == 0 || res.Errors[0].Type != "FORBIDDEN" {
		t.Errorf("carol (read) unresolving: %+v", res.Errors)
	}
	w.query(seed.DemoTokenBob, unresolve, map[string]any{"id": id}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenCarol); ts[0].IsResolved {
		t.Errorf("thread still resolved")
	}

	// A thread is a Node: its id resolves through node(), to a reader.
	var n struct {
		Node struct {
			Typename    string `json:"__typename"`
			Path        string
			PullRequest struct{ Number int }
		}
	}
	w.query(seed.DemoTokenCarol, `query($id: ID!) { node(id: $id) { __typename ... on PullRequestReviewThread { path pullRequest { number } } } }`,
		map[string]any{"id": id}).ok(t, &n)
	if n.Node.Typename != "PullRequestReviewThread" || n.Node.Path != ts[0].Path || n.Node.PullRequest.Number == 0 {
		t.Errorf("node(thread id) = %+v", n.Node)
	}
}
