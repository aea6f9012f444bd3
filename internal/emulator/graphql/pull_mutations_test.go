package graphql_test

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator/seed"
)

func TestGraphQLPullMutations(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	id := func(n int) string {
		var d struct {
			Repository struct{ PullRequest struct{ ID string } }
		}
		w.query(seed.DemoTokenCarol, `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { id } } }`,
			map[string]any{"n": n}).ok(t, &d)
		return d.Repository.PullRequest.ID
	}
	const review = `mutation($input: AddPullRequestReviewInput!) { addPullRequestReview(input: $input) {
		pullRequestReview { state body author { login } comments(first: 5) { nodes { path line body } } } } }`
	errOf := func(tok, doc string, input map[string]any) string {
		t.Helper()
		res := w.query(tok, doc, map[string]any{"input": input})
		if len(res.Errors) == 0 {
			t.Fatalf("no errors, want one\n%s", res.raw)
		}
		return res.Errors[0].Message
	}
	// #146 is alice's: she cannot approve it; bob can, with a comment on a
	// line the diff adds.
	if msg := errOf(seed.DemoTokenAlice, review, map[string]any{"pullRequestId": id(146), "event": "APPROVE"}); msg != "Can not approve your own pull request" {
		t.Errorf("self-approval: error %q, want %q", msg, "Can not approve your own pull request")
	}
	if msg := errOf(seed.DemoTokenBob, review, map[string]any{"pullRequestId": id(146), "event": "REQUEST_CHANGES"}); !strings.Contains(msg, "blank") {
		t.Errorf("change request without a body: error %q, want one saying blank", msg)
	}
	if msg := errOf(seed.DemoTokenBob, review, map[string]any{"pullRequestId": id(146), "event": "COMMENT",
		"threads": []map[string]any{{"path": "web/src/widgets/ChartWidget.tsx", "line": 1, "body": "?"}}}); !strings.Contains(msg, "Line could not be resolved") {
		t.Errorf("comment outside the diff: error %q, want one saying %q", msg, "Line could not be resolved")
	}
	var added struct {
		AddPullRequestReview struct {
			PullRequestReview struct {
				State    string
				Author   struct{ Login string }
				Comments struct {
					Nodes []struct {
						Path string
						Line int
					}
				}
			}
		}
	}
	w.query(seed.DemoTokenBob, review, map[string]any{"input": map[string]any{"pullRequestId": id(146), "event": "APPROVE", "body": "Ship it",
		"threads": []map[string]any{{"path": "web/src/widgets/ChartWidget.tsx", "line": 11, "body": "Nice guard."}}}}).ok(t, &added)
	rv := added.AddPullRequestReview.PullRequestReview
	if rv.State != "APPROVED" {
		t.Errorf("review state = %s, want APPROVED", rv.State)
	}
	if rv.Author.Login != "bob" {
		t.Errorf("review author = %s, want bob", rv.Author.Login)
	}
	if len(rv.Comments.Nodes) != 1 {
		t.Errorf("review comments = %+v, want 1", rv.Comments.Nodes)
	} else if got := rv.Comments.Nodes[0].Line; got != 11 {
		t.Errorf("review comment line = %d, want 11", got)
	}

	// Draft, ready, close, reopen.
	const ready = `mutation($input: MarkPullRequestReadyForReviewInput!) { markPullRequestReadyForReview(input: $input) { pullRequest { isDraft } } }`
	const draft = `mutation($input: ConvertPullRequestToDraftInput!) { convertPullRequestToDraft(input: $input) { pullRequest { isDraft } } }`
	const closePR = `mutation($input: ClosePullRequestInput!) { closePullRequest(input: $input) { pullRequest { state closed } } }`
	const reopen = `mutation($input: ReopenPullRequestInput!) { reopenPullRequest(input: $input) { pullRequest { state } } }`
	if msg := errOf(seed.DemoTokenCarol, ready, map[string]any{"pullRequestId": id(155)}); !strings.Contains(msg, "does not have the correct permissions") {
		t.Errorf("carol marks ready: error %q, want one saying %q", msg, "does not have the correct permissions")
	}
	var st struct {
		MarkPullRequestReadyForReview, ConvertPullRequestToDraft struct{ PullRequest struct{ IsDraft bool } }
		ClosePullRequest, ReopenPullRequest                      struct{ PullRequest struct{ State string } }
	}
	w.query(seed.DemoTokenBob, ready, map[string]any{"input": map[string]any{"pullRequestId": id(155)}}).ok(t, &st)
	w.query(seed.DemoTokenBob, draft, map[string]any{"input": map[string]any{"pullRequestId": id(133)}}).ok(t, &st)
	w.query(seed.DemoTokenBob, closePR, map[string]any{"input": map[string]any{"pullRequestId": id(121)}}).ok(t, &st)
	if st.MarkPullRequestReadyForReview.PullRequest.IsDraft {
		t.Errorf("markPullRequestReadyForReview: isDraft = true, want false")
	}
	if !st.ConvertPullRequestToDraft.PullRequest.IsDraft {
		t.Errorf("convertPullRequestToDraft: isDraft = false, want true")
	}
	if got := st.ClosePullRequest.PullRequest.State; got != "CLOSED" {
		t.Errorf("closePullRequest: state = %s, want CLOSED", got)
	}
	w.query(seed.DemoTokenBob, reopen, map[string]any{"input": map[string]any{"pullRequestId": id(121)}}).ok(t, &st)
	if got := st.ReopenPullRequest.PullRequest.State; got != "OPEN" {
		t.Errorf("reopenPullRequest: state = %s, want OPEN", got)
	}
	if msg := errOf(seed.DemoTokenBob, reopen, map[string]any{"pullRequestId": id(96)}); !strings.Contains(msg, "merged") {
		t.Errorf("reopening a merged pull request: error %q, want one saying merged", msg)
	}

	// Merging: #133 is a draft now; #146 is approved and green.
	const merge = `mutation($input: MergePullRequestInput!) { mergePullRequest(input: $input) { actor { login } pullRequest { state merged mergeCommit { messageHeadline } } } }`
	if msg := errOf(seed.DemoTokenBob, merge, map[string]any{"pullRequestId": id(133)}); msg != "Pull Request is still a draft" {
		t.Errorf("merging a draft: error %q, want %q", msg, "Pull Request is still a draft")
	}
	if msg := errOf(seed.DemoTokenBob, merge, map[string]any{"pullRequestId": id(146), "expectedHeadOid": strings.Repeat("0", 40)}); !strings.Contains(msg, "Head branch was modified") {
		t.Errorf("merging a stale head: error %q, want one saying %q", msg, "Head branch was modified")
	}
	var merged struct {
		MergePullRequest struct {
			Actor       struct{ Login string }
			PullRequest struct {
				State       string
				Merged      bool
				MergeCommit struct{ MessageHeadline string }
			}
		}
	}
	w.query(seed.DemoTokenBob, merge, map[string]any{"input": map[string]any{"pullRequestId": id(146), "mergeMethod": "REBASE"}}).ok(t, &merged)
	m := merged.MergePullRequest
	if m.Actor.Login != "bob" {
		t.Errorf("mergePullRequest actor = %s, want bob", m.Actor.Login)
	}
	if m.PullRequest.State != "MERGED" {
		t.Errorf("merged pull request state = %s, want MERGED", m.PullRequest.State)
	}
	if !m.PullRequest.Merged {
		t.Errorf("merged pull request merged = false, want true")
	}
	if got, want := m.PullRequest.MergeCommit.MessageHeadline, "Add a regression test for #145"; got != want {
		t.Errorf("merge commit headline = %q, want %q", got, want)
	}
}

// A pending review: started, given a thread, seen only by its author,
// then submitted; and a thread resolved and unresolved.
func TestGraphQLPendingReview(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	var pr struct {
		Repository struct {
			PullRequest struct {
				ID            string
				ReviewThreads struct{ Nodes []struct{ ID string } }
			}
		}
	}
	w.query(seed.DemoTokenCarol, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 146) { id reviewThreads(first: 5) { nodes { id } } } } }`, nil).ok(t, &pr)
	prID := pr.Repository.PullRequest.ID
	var started struct {
		AddPullRequestReview struct{ PullRequestReview struct{ ID, State string } }
	}
	w.query(seed.DemoTokenCarol, `mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id}) { pullRequestReview { id state } } }`,
		map[string]any{"id": prID}).ok(t, &started)
	rv := started.AddPullRequestReview.PullRequestReview
	if rv.State != "PENDING" {
		t.Fatalf("started review state = %s, want PENDING", rv.State)
	}
	var thread struct {
		AddPullRequestReviewThread struct{ Thread struct{ Path string } }
	}
	w.query(seed.DemoTokenCarol, `mutation($id: ID!) { addPullRequestReviewThread(input: {pullRequestReviewId: $id, path: "web/src/widgets/ChartWidget.tsx", line: 10, body: "Why undefined and not null?"}) { thread { path } } }`,
		map[string]any{"id": rv.ID}).ok(t, &thread)
	count := func(tok string) (reviews, threads int) {
		var d struct {
			Repository struct {
				PullRequest struct {
					Reviews, ReviewThreads struct{ TotalCount int }
				}
			}
		}
		w.query(tok, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 146) { reviews { totalCount } reviewThreads { totalCount } } } }`, nil).ok(t, &d)
		return d.Repository.PullRequest.Reviews.TotalCount, d.Repository.PullRequest.ReviewThreads.TotalCount
	}
	r, th := count(seed.DemoTokenCarol)
	if r != 2 {
		t.Errorf("carol sees %d reviews, want 2 with her pending one", r)
	}
	if th != 1 {
		t.Errorf("carol sees %d threads, want 1: a pending review's thread is no thread yet", th)
	}
	if r, _ := count(seed.DemoTokenBob); r != 1 {
		t.Errorf("bob sees %d reviews, want carol's pending one hidden", r)
	}
	var submitted struct {
		SubmitPullRequestReview struct{ PullRequestReview struct{ State string } }
	}
	w.query(seed.DemoTokenCarol, `mutation($id: ID!) { submitPullRequestReview(input: {pullRequestReviewId: $id, event: COMMENT}) { pullRequestReview { state } } }`,
		map[string]any{"id": rv.ID}).ok(t, &submitted)
	if submitted.SubmitPullRequestReview.PullRequestReview.State != "COMMENTED" {
		t.Errorf("submitted review state = %s, want COMMENTED", submitted.SubmitPullRequestReview.PullRequestReview.State)
	}
	r, th = count(seed.DemoTokenBob)
	if r != 2 {
		t.Errorf("after submitting, bob sees %d reviews, want 2", r)
	}
	if th != 2 {
		t.Errorf("after submitting, bob sees %d threads, want 2", th)
	}
	// Resolving needs write access or authorship of the pull request.
	const resolve = `mutation($id: ID!) { resolveReviewThread(input: {threadId: $id}) { thread { isResolved resolvedBy { login } } } }`
	threadID := pr.Repository.PullRequest.ReviewThreads.Nodes[0].ID
	res := w.query(seed.DemoTokenCarol, resolve, map[string]any{"id": threadID})
	checkFirstError(t, "carol resolves", res.Errors, "FORBIDDEN")
	var unresolved struct {
		UnresolveReviewThread struct{ Thread struct{ IsResolved bool } }
	}
	w.query(seed.DemoTokenBob, `mutation($id: ID!) { unresolveReviewThread(input: {threadId: $id}) { thread { isResolved } } }`,
		map[string]any{"id": threadID}).ok(t, &unresolved)
	if unresolved.UnresolveReviewThread.Thread.IsResolved {
		t.Error("unresolveReviewThread: isResolved = true, want false")
	}
	// A pending review can be deleted; a submitted one cannot.
	const del = `mutation($id: ID!) { deletePullRequestReview(input: {pullRequestReviewId: $id}) { pullRequestReview { id } } }`
	if res = w.query(seed.DemoTokenCarol, del, map[string]any{"id": rv.ID}); len(res.Errors) == 0 {
		t.Errorf("deleting a submitted review: no errors, want one\n%s", res.raw)
	}
}
