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
	if len(ts) != 1 {
		t.Fatalf("review threads = %+v, want the bot's one", ts)
	}
	if got := ts[0].Comments.Nodes[0].Author.Login; got != "copilot-pull-request-reviewer" {
		t.Fatalf("the thread's first comment is by %s, want copilot-pull-request-reviewer", got)
	}
	if ts[0].IsResolved {
		t.Fatalf("the bot's thread: isResolved = true, want false")
	}
	if ts[0].Line == nil {
		t.Fatalf("the bot's thread: line = null, want one")
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
	c := reply.AddPullRequestReviewThreadReply.Comment
	if c.Author.Login != "bob" {
		t.Fatalf("reply author = %s, want bob", c.Author.Login)
	}
	if c.ReplyTo.Author.Login != "copilot-pull-request-reviewer" {
		t.Fatalf("reply's replyTo author = %s, want copilot-pull-request-reviewer", c.ReplyTo.Author.Login)
	}
	res := w.query(seed.DemoTokenBob, replyDoc, map[string]any{"id": id, "body": "  "})
	checkFirstError(t, "a blank reply", res.Errors, "UNPROCESSABLE")
	res = w.query(seed.DemoTokenBob, replyDoc, map[string]any{"id": "PRRT_nope", "body": "x"})
	checkFirstError(t, "an unknown thread", res.Errors, "NOT_FOUND")

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
	if _, ts := threads(seed.DemoTokenBob); ts[0].Comments.TotalCount != 3 {
		t.Errorf("after submitting, bob sees %d comments, want 3", ts[0].Comments.TotalCount)
	} else if got := ts[0].Comments.Nodes[2].Author.Login; got != "carol" {
		t.Errorf("after submitting, the third comment is by %s, want carol", got)
	}

	const resolve = `mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`
	const unresolve = `mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`
	w.query(seed.DemoTokenBob, resolve, map[string]any{"id": id}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenCarol); !ts[0].IsResolved {
		t.Errorf("after resolveReviewThread: isResolved = false, want true")
	}
	res = w.query(seed.DemoTokenCarol, unresolve, map[string]any{"id": id})
	checkFirstError(t, "carol (read) unresolving", res.Errors, "FORBIDDEN")
	w.query(seed.DemoTokenBob, unresolve, map[string]any{"id": id}).ok(t, &struct{}{})
	if _, ts := threads(seed.DemoTokenCarol); ts[0].IsResolved {
		t.Errorf("after unresolveReviewThread: isResolved = true, want false")
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
	if n.Node.Typename != "PullRequestReviewThread" {
		t.Errorf("node(thread id) is a %q, want PullRequestReviewThread", n.Node.Typename)
	}
	if n.Node.Path != ts[0].Path {
		t.Errorf("node(thread id) path = %q, want %q", n.Node.Path, ts[0].Path)
	}
	if n.Node.PullRequest.Number == 0 {
		t.Errorf("node(thread id) pullRequest number = 0, want the pull request's")
	}
}
