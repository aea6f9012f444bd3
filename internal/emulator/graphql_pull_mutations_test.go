package emulator

import (
	"strings"
	"testing"
)

func TestGraphQLPullMutations(t *testing.T) {
	schemasOrFail(t)
	w := demoGQLWorld(t)
	id := func(n int) string {
		var d struct {
			Repository struct{ PullRequest struct{ ID string } }
		}
		w.query(DemoTokenCarol, `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { id } } }`,
			map[string]any{"n": n}).ok(t, &d)
		return d.Repository.PullRequest.ID
	}
	const review = `mutation($input: AddPullRequestReviewInput!) { addPullRequestReview(input: $input) {
		pullRequestReview { state body author { login } comments(first: 5) { nodes { path line body } } } } }`
	errOf := func(tok, doc string, input map[string]any) string {
		t.Helper()
		res := w.query(tok, doc, map[string]any{"input": input})
		if len(res.Errors) == 0 {
			t.Fatalf("no error: %s", res.raw)
		}
		return res.Errors[0].Message
	}
	// #146 is alice's: she cannot approve it; bob can, with a comment on a
	// line the diff adds.
	if msg := errOf(DemoTokenAlice, review, map[string]any{"pullRequestId": id(146), "event": "APPROVE"}); msg != "Can not approve your own pull request" {
		t.Errorf("self-approval: %s", msg)
	}
	if msg := errOf(DemoTokenBob, review, map[string]any{"pullRequestId": id(146), "event": "REQUEST_CHANGES"}); !strings.Contains(msg, "blank") {
		t.Errorf("change request without a body: %s", msg)
	}
	if msg := errOf(DemoTokenBob, review, map[string]any{"pullRequestId": id(146), "event": "COMMENT",
		"threads": []map[string]any{{"path": "web/src/widgets/ChartWidget.tsx", "line": 1, "body": "?"}}}); !strings.Contains(msg, "Line could not be resolved") {
		t.Errorf("comment outside the diff: %s", msg)
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
	w.query(DemoTokenBob, review, map[string]any{"input": map[string]any{"pullRequestId": id(146), "event": "APPROVE", "body": "Ship it",
		"threads": []map[string]any{{"path": "web/src/widgets/ChartWidget.tsx", "line": 11, "body": "Nice guard."}}}}).ok(t, &added)
	rv := added.AddPullRequestReview.PullRequestReview
	if rv.State != "APPROVED" || rv.Author.Login != "bob" || len(rv.Comments.Nodes) != 1 || rv.Comments.Nodes[0].Line != 11 {
		t.Errorf("review = %+v", rv)
	}

	// Draft, ready, close, reopen.
	const ready = `mutation($input: MarkPullRequestReadyForReviewInput!) { markPullRequestReadyForReview(input: $input) { pullRequest { isDraft } } }`
	const draft = `mutation($input: ConvertPullRequestToDraftInput!) { convertPullRequestToDraft(input: $input) { pullRequest { isDraft } } }`
	const closePR = `mutation($input: ClosePullRequestInput!) { closePullRequest(input: $input) { pullRequest { state closed } } }`
	const reopen = `mutation($input: ReopenPullRequestInput!) { reopenPullRequest(input: $input) { pullRequest { state } } }`
	if msg := errOf(DemoTokenCarol, ready, map[string]any{"pullRequestId": id(155)}); !strings.Contains(msg, "does not have the correct permissions") {
		t.Errorf("carol marks ready: %s", msg)
	}
	var st struct {
		MarkPullRequestReadyForReview, ConvertPullRequestToDraft struct{ PullRequest struct{ IsDraft bool } }
		ClosePullRequest, ReopenPullRequest                      struct{ PullRequest struct{ State string } }
	}
	w.query(DemoTokenBob, ready, map[string]any{"input": map[string]any{"pullRequestId": id(155)}}).ok(t, &st)
	w.query(DemoTokenBob, draft, map[string]any{"input": map[string]any{"pullRequestId": id(133)}}).ok(t, &st)
	w.query(DemoTokenBob, closePR, map[string]any{"input": map[string]any{"pullRequestId": id(121)}}).ok(t, &st)
	if st.MarkPullRequestReadyForReview.PullRequest.IsDraft || !st.ConvertPullRequestToDraft.PullRequest.IsDraft || st.ClosePullRequest.PullRequest.State != "CLOSED" {
		t.Errorf("state mutations = %+v", st)
	}
	w.query(DemoTokenBob, reopen, map[string]any{"input": map[string]any{"pullRequestId": id(121)}}).ok(t, &st)
	if st.ReopenPullRequest.PullRequest.State != "OPEN" {
		t.Errorf("reopened = %+v", st.ReopenPullRequest)
	}
	if msg := errOf(DemoTokenBob, reopen, map[string]any{"pullRequestId": id(96)}); !strings.Contains(msg, "merged") {
		t.Errorf("reopening a merged pull request: %s", msg)
	}

	// Merging: #133 is a draft now; #146 is approved and green.
	const merge = `mutation($input: MergePullRequestInput!) { mergePullRequest(input: $input) { actor { login } pullRequest { state merged mergeCommit { messageHeadline } } } }`
	if msg := errOf(DemoTokenBob, merge, map[string]any{"pullRequestId": id(133)}); msg != "Pull Request is still a draft" {
		t.Errorf("merging a draft: %s", msg)
	}
	if msg := errOf(DemoTokenBob, merge, map[string]any{"pullRequestId": id(146), "expectedHeadOid": strings.Repeat("0", 40)}); !strings.Contains(msg, "Head branch was modified") {
		t.Errorf("merging a stale head: %s", msg)
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
	w.query(DemoTokenBob, merge, map[string]any{"input": map[string]any{"pullRequestId": id(146), "mergeMethod": "REBASE"}}).ok(t, &merged)
	m := merged.MergePullRequest
	if m.Actor.Login != "bob" || m.PullRequest.State != "MERGED" || !m.PullRequest.Merged || m.PullRequest.MergeCommit.MessageHeadline != "Add a regression test for #145" {
		t.Errorf("merge = %+v", m)
	}
}
