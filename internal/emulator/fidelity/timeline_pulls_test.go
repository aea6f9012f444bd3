package fidelity

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/google/go-cmp/cmp"
	gh "github.com/google/go-github/v88/github"
)

// timelineItem is what these tests read of a timeline entry, whatever its
// kind.
type timelineItem struct {
	Event string `json:"event"`
	Actor *struct {
		Login string `json:"login"`
	} `json:"actor"`
	CreatedAt string  `json:"created_at"`
	CommitID  *string `json:"commit_id"`
	CommitURL *string `json:"commit_url"`
	// committed
	SHA     string `json:"sha"`
	Message string `json:"message"`
	Author  *struct {
		Name string `json:"name"`
		Date string `json:"date"`
	} `json:"author"`
	// reviewed
	User *struct {
		Login string `json:"login"`
	} `json:"user"`
	State       string  `json:"state"`
	Body        *string `json:"body"`
	SubmittedAt string  `json:"submitted_at"`
	// review_requested, review_request_removed
	ReviewRequester *struct {
		Login string `json:"login"`
	} `json:"review_requester"`
	RequestedReviewer *struct {
		Login string `json:"login"`
	} `json:"requested_reviewer"`
}

// pullTimeline reads a pull request's timeline through the validating
// harness: each item is checked against the schema its event names.
func pullTimeline(t *testing.T, w *world, n int) []timelineItem {
	t.Helper()
	res := w.do(t, "GET", fmt.Sprintf("/repos/acme/widgets/issues/%d/timeline?per_page=100", n), tokCarol, nil)
	if res.Status != 200 {
		t.Fatalf("timeline of #%d: %d %s", n, res.Status, res.Body)
	}
	var items []timelineItem
	res.JSON(t, &items)
	return items
}

func events(items []timelineItem) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Event)
	}
	return out
}

// gql runs a GraphQL document and fails the test on an error.
func gql(t *testing.T, w *world, token, query string, vars map[string]any, out any) {
	t.Helper()
	res := w.do(t, "POST", "/graphql", token, map[string]any{"query": query, "variables": vars})
	if res.Status != 200 {
		t.Fatalf("graphql %s: status %d, want 200: %s", query, res.Status, res.Body)
	}
	if strings.Contains(string(res.Body), `"errors"`) {
		t.Fatalf("graphql %s: %s, want no errors", query, res.Body)
	}
	if out != nil {
		res.JSON(t, out)
	}
}

// A pull request's timeline carries what happened to it as GitHub's
// timeline API returns it: its commits as committed events (sha, message,
// git author; no actor), reviews as reviewed events (the reviewer as user,
// state in lower case, the head it reviewed), a push after a review placed
// after it, a force push (its dropped commits leaving the timeline), review
// requests, draft changes, the merge with its commit, and the head
// branch's deletion. Each item is validated against the schema its event
// names, and go-github's Timeline type decodes them.
func TestPullRequestTimeline(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const pr = 7
	before := pullTimeline(t, w, pr)
	var shas []string
	for _, it := range before {
		if it.Event == "committed" {
			if it.Actor != nil {
				t.Errorf("committed event %s: actor = %q, want none", it.SHA, it.Actor.Login)
			}
			if it.CreatedAt != "" {
				t.Errorf("committed event %s: created_at = %q, want none", it.SHA, it.CreatedAt)
			}
			if it.SHA == "" {
				t.Errorf("committed event %+v: no sha, want one", it)
			}
			if it.Author == nil || it.Author.Date == "" {
				t.Errorf("committed event %s: author %+v, want a dated author", it.SHA, it.Author)
			}
			shas = append(shas, it.SHA)
		}
	}
	// The branch's first (empty) commit and the two pushes.
	if len(shas) != 3 {
		t.Fatalf("#7 timeline %v: %d committed events, want its three commits", events(before), len(shas))
	}
	// The world's review asking for changes, then the author's reply.
	i := slices.IndexFunc(before, func(it timelineItem) bool { return it.Event == "reviewed" })
	if i < 0 {
		t.Fatalf("#7 timeline %v: no reviewed event, want one", events(before))
	}
	first := before[i]
	if got := loginOf(first.User); got != "alice" {
		t.Errorf("#7's first review: user %s, want alice", got)
	}
	if first.State != "changes_requested" {
		t.Errorf("#7's first review: state %q, want %q", first.State, "changes_requested")
	}
	if first.Body == nil || *first.Body != "One question." {
		t.Errorf("#7's first review: body %s, want %q", strOf(first.Body), "One question.")
	}
	if first.SubmittedAt == "" {
		t.Errorf("#7's first review: no submitted_at, want one")
	}
	if first.CommitID == nil || *first.CommitID != shas[2] {
		t.Errorf("#7's first review: commit_id %s, want the head then %s", strOf(first.CommitID), shas[2])
	}
	reply := before[i+1]
	if reply.Event != "reviewed" {
		t.Errorf("the reply after the first review: event %q, want %q", reply.Event, "reviewed")
	}
	if reply.State != "commented" {
		t.Errorf("the reply's review: state %q, want %q", reply.State, "commented")
	}
	if reply.Body != nil {
		t.Errorf("the reply's review: body %q, want null", *reply.Body)
	}

	// alice approves over GraphQL, then bob pushes.
	var node struct {
		Data struct {
			Repository struct {
				PullRequest struct {
					ID string `json:"id"`
				} `json:"pullRequest"`
			} `json:"repository"`
		} `json:"data"`
	}
	gql(t, w, tokAlice, `{ repository(owner: "acme", name: "widgets") { pullRequest(number: 7) { id } } }`, nil, &node)
	id := node.Data.Repository.PullRequest.ID
	gql(t, w, tokAlice, `mutation($id: ID!) { addPullRequestReview(input: {pullRequestId: $id, event: APPROVE, body: "Ship it."}) { pullRequestReview { id } } }`,
		map[string]any{"id": id}, nil)
	push := w.do(t, "PUT", "/repos/acme/widgets/contents/gears/NOTES.md", tokBob,
		map[string]any{"message": "Note the cap\n\nAfter the approval.", "content": base64.StdEncoding.EncodeToString([]byte("9:1 at most.\n")), "branch": "patch-7"})
	var pushed struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	push.JSON(t, &pushed)
	items := pullTimeline(t, w, pr)
	n := len(items)
	if n < 2 {
		t.Fatalf("after the approval and a push: %d timeline items, want at least 2", n)
	}
	if approval := items[n-2]; approval.Event != "reviewed" {
		t.Errorf("after the approval and a push: next to last event %q, want %q (events %v)", approval.Event, "reviewed", events(items))
	}
	if approval := items[n-2]; approval.State != "approved" {
		t.Errorf("the approval: state %q, want %q", approval.State, "approved")
	}
	if got := loginOf(items[n-2].User); got != "alice" {
		t.Errorf("the approval: user %s, want alice", got)
	}
	if got := items[n-2].CommitID; got == nil || *got != shas[2] {
		t.Errorf("the approval: commit_id %s, want the head then %s", strOf(got), shas[2])
	}
	if last := items[n-1]; last.Event != "committed" {
		t.Errorf("after the approval and a push: last event %q, want %q (events %v)", last.Event, "committed", events(items))
	}
	if last := items[n-1]; last.SHA != pushed.Commit.SHA {
		t.Errorf("the pushed commit: sha %s, want %s", last.SHA, pushed.Commit.SHA)
	}
	if want := "Note the cap\n\nAfter the approval."; items[n-1].Message != want {
		t.Errorf("the pushed commit: message %q, want %q", items[n-1].Message, want)
	}

	// A force push to a commit beside the branch: the event, by its
	// pusher, and the commits it dropped leave the timeline.
	var main struct {
		Commit struct {
			SHA    string `json:"sha"`
			Commit struct {
				Tree struct {
					SHA string `json:"sha"`
				} `json:"tree"`
			} `json:"commit"`
		} `json:"commit"`
	}
	w.do(t, "GET", "/repos/acme/widgets/branches/main", tokCarol, nil).JSON(t, &main)
	var rewritten struct {
		SHA string `json:"sha"`
	}
	w.do(t, "POST", "/repos/acme/widgets/git/commits", tokBob, map[string]any{"message": "Cap the gear ratio, squashed",
		"tree": main.Commit.Commit.Tree.SHA, "parents": []string{main.Commit.SHA}}).JSON(t, &rewritten)
	if res := w.do(t, "PATCH", "/repos/acme/widgets/git/refs/heads%2Fpatch-7", tokBob, map[string]any{"sha": rewritten.SHA, "force": true}); res.Status != 200 {
		t.Fatalf("force push: status %d, want 200: %s", res.Status, res.Body)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	forced := items[n-2]
	if forced.Event != "head_ref_force_pushed" {
		t.Errorf("after a force push: next to last event %q, want %q (events %v)", forced.Event, "head_ref_force_pushed", events(items))
	}
	if got := loginOf(forced.Actor); got != "bob" {
		t.Errorf("the force push: actor %s, want bob", got)
	}
	if forced.CreatedAt == "" {
		t.Errorf("the force push: no created_at, want one")
	}
	if forced.CommitID != nil {
		t.Errorf("the force push: commit_id %q, want null", *forced.CommitID)
	}
	if last := items[n-1]; last.Event != "committed" {
		t.Errorf("after a force push: last event %q, want %q (events %v)", last.Event, "committed", events(items))
	}
	if last := items[n-1]; last.SHA != rewritten.SHA {
		t.Errorf("after a force push: last commit %s, want the new %s", last.SHA, rewritten.SHA)
	}
	for _, it := range items {
		if it.Event == "committed" && it.SHA != rewritten.SHA {
			t.Errorf("commit %s, dropped by the force push, is still on the timeline", it.SHA)
		}
	}

	// Review requests, and a round trip through draft.
	if res := w.do(t, "POST", "/repos/acme/widgets/pulls/7/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"alice"}}); res.Status != 201 {
		t.Fatalf("request a review: status %d, want 201: %s", res.Status, res.Body)
	}
	if res := w.do(t, "DELETE", "/repos/acme/widgets/pulls/7/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"alice", "carol"}}); res.Status != 200 {
		t.Fatalf("withdraw review requests: status %d, want 200: %s", res.Status, res.Body)
	}
	const draft = `mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`
	const ready = `mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`
	for _, q := range []string{draft, ready, ready} { // marking a ready one ready changes nothing
		gql(t, w, tokBob, q, map[string]any{"id": id}, nil)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	tail := items[n-5:]
	if diff := cmp.Diff([]string{"review_requested", "review_request_removed", "review_request_removed", "convert_to_draft", "ready_for_review"}, events(tail)); diff != "" {
		t.Fatalf("requests and drafts: last five events mismatch (-want +got):\n%s", diff)
	}
	// carol was asked first (by the world), so her request goes first.
	for i, who := range []string{"alice", "carol", "alice"} {
		it := tail[i]
		if got := loginOf(it.ReviewRequester); got != "bob" {
			t.Errorf("%s (%d): review_requester %s, want bob", it.Event, i, got)
		}
		if got := loginOf(it.RequestedReviewer); got != who {
			t.Errorf("%s (%d): requested_reviewer %s, want %s", it.Event, i, got, who)
		}
	}

	// The merge, with its commit, then the close it brings; then the
	// head branch's deletion.
	var merged struct {
		SHA string `json:"sha"`
	}
	w.do(t, "PUT", "/repos/acme/widgets/pulls/7/merge", tokAlice, map[string]any{}).JSON(t, &merged)
	if res := w.do(t, "DELETE", "/repos/acme/widgets/git/refs/heads%2Fpatch-7", tokBob, nil); res.Status != 204 {
		t.Fatalf("delete the head branch: status %d, want 204: %s", res.Status, res.Body)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	if got := events(items[n-3:]); !slices.Equal(got, []string{"merged", "closed", "head_ref_deleted"}) {
		t.Fatalf("after the merge and the branch's deletion: last three events %v, want [merged closed head_ref_deleted] (all %v)", got, events(items))
	}
	m := items[n-3]
	if got := loginOf(m.Actor); got != "alice" {
		t.Errorf("merged: actor %s, want alice", got)
	}
	if m.CommitID == nil || *m.CommitID != merged.SHA {
		t.Errorf("merged: commit_id %s, want the merge commit %s", strOf(m.CommitID), merged.SHA)
	}
	if want := "/repos/acme/widgets/commits/" + merged.SHA; m.CommitURL == nil || !strings.HasSuffix(*m.CommitURL, want) {
		t.Errorf("merged: commit_url %s, want one ending %s", strOf(m.CommitURL), want)
	}
	if got := loginOf(items[n-1].Actor); got != "bob" {
		t.Errorf("head_ref_deleted: actor %s, want bob", got)
	}

	// go-github's Timeline type reads every one of them.
	client, err := gh.NewClient(gh.WithHTTPClient(w.srv.Client()), gh.WithAuthToken(tokCarol),
		gh.WithEnterpriseURLs(w.srv.URL+"/api/v3/", w.srv.URL+"/api/uploads/"))
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := client.Issues.ListIssueTimeline(context.Background(), "acme", "widgets", pr, &gh.ListOptions{PerPage: 100})
	if err != nil {
		t.Fatalf("go-github ListIssueTimeline: %v", err)
	}
	if len(list) != len(items) {
		t.Fatalf("go-github: %d events, want %d", len(list), len(items))
	}
	seen := map[string]bool{}
	for _, ev := range list {
		seen[ev.GetEvent()] = true
		switch ev.GetEvent() {
		case "committed":
			if ev.GetSHA() != rewritten.SHA {
				t.Errorf("go-github committed: sha %s, want %s", ev.GetSHA(), rewritten.SHA)
			}
			if want := "Cap the gear ratio, squashed"; ev.GetMessage() != want {
				t.Errorf("go-github committed: message %q, want %q", ev.GetMessage(), want)
			}
			if got := ev.GetAuthor().GetName(); got != "Bob Builder" {
				t.Errorf("go-github committed: author name %q, want %q", got, "Bob Builder")
			}
			if ev.GetCommitter().GetDate().IsZero() {
				t.Errorf("go-github committed: committer date is zero, want a time")
			}
		case "reviewed":
			if ev.GetUser().GetLogin() == "" {
				t.Errorf("go-github reviewed: no user login, want one")
			}
			if ev.GetState() == "" {
				t.Errorf("go-github reviewed by %s: no state, want one", ev.GetUser().GetLogin())
			}
			if ev.GetSubmittedAt().IsZero() {
				t.Errorf("go-github reviewed by %s: submitted_at is zero, want a time", ev.GetUser().GetLogin())
			}
		case "merged":
			if got := ev.GetActor().GetLogin(); got != "alice" {
				t.Errorf("go-github merged: actor %q, want %q", got, "alice")
			}
			if ev.GetCommitID() != merged.SHA {
				t.Errorf("go-github merged: commit_id %q, want %q", ev.GetCommitID(), merged.SHA)
			}
			if ev.GetCreatedAt().IsZero() {
				t.Errorf("go-github merged: created_at is zero, want a time")
			}
		case "review_requested":
			if got := ev.GetRequester().GetLogin(); got != "bob" {
				t.Errorf("go-github review_requested: requester %q, want %q", got, "bob")
			}
			if got := ev.GetReviewer().GetLogin(); got != "alice" {
				t.Errorf("go-github review_requested: reviewer %q, want %q", got, "alice")
			}
		case "head_ref_force_pushed", "head_ref_deleted":
			if got := ev.GetActor().GetLogin(); got != "bob" {
				t.Errorf("go-github %s: actor %q, want %q", ev.GetEvent(), got, "bob")
			}
			if ev.GetCreatedAt().IsZero() {
				t.Errorf("go-github %s: created_at is zero, want a time", ev.GetEvent())
			}
		}
	}
	for _, k := range []string{"committed", "reviewed", "merged", "review_requested", "review_request_removed", "head_ref_force_pushed",
		"head_ref_deleted", "convert_to_draft", "ready_for_review"} {
		if !seen[k] {
			t.Errorf("go-github read no %s event", k)
		}
	}
}

// Deleting the head branch of an open pull request closes it, as GitHub
// does: head_ref_deleted, then closed, by whoever deleted it.
func TestDeletingAHeadBranchClosesItsPullRequest(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	var main struct {
		Commit struct {
			SHA string `json:"sha"`
		} `json:"commit"`
	}
	w.do(t, "GET", "/repos/acme/widgets/branches/main", tokCarol, nil).JSON(t, &main)
	w.do(t, "POST", "/repos/acme/widgets/git/refs", tokBob, map[string]any{"ref": "refs/heads/gone", "sha": main.Commit.SHA})
	w.do(t, "PUT", "/repos/acme/widgets/contents/GONE.md", tokBob, map[string]any{"message": "Add a page", "content": base64.StdEncoding.EncodeToString([]byte("x\n")), "branch": "gone"})
	var pull struct {
		Number int `json:"number"`
	}
	w.do(t, "POST", "/repos/acme/widgets/pulls", tokBob, map[string]any{"title": "A page", "head": "gone", "base": "main"}).JSON(t, &pull)
	if res := w.do(t, "DELETE", "/repos/acme/widgets/git/refs/heads%2Fgone", tokAlice, nil); res.Status != 204 {
		t.Fatalf("delete the head branch: status %d, want 204: %s", res.Status, res.Body)
	}
	var got struct {
		State  string `json:"state"`
		Merged bool   `json:"merged"`
	}
	w.do(t, "GET", fmt.Sprintf("/repos/acme/widgets/pulls/%d", pull.Number), tokCarol, nil).JSON(t, &got)
	items := pullTimeline(t, w, pull.Number)
	if got.State != "closed" {
		t.Errorf("pull request state %q, want %q", got.State, "closed")
	}
	if got.Merged {
		t.Errorf("pull request merged = true, want false")
	}
	if diff := cmp.Diff([]string{"committed", "head_ref_deleted", "closed"}, events(items)); diff != "" {
		t.Fatalf("timeline events mismatch (-want +got):\n%s", diff)
	}
	for _, it := range items[1:] {
		if got := loginOf(it.Actor); got != "alice" {
			t.Errorf("%s: actor %s, want alice", it.Event, got)
		}
	}
}
