package fidelity

import (
	"context"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
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
	if res.Status != 200 || strings.Contains(string(res.Body), `"errors"`) {
		t.Fatalf("graphql %s: %d %s", query, res.Status, res.Body)
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
			if it.Actor != nil || it.CreatedAt != "" || it.SHA == "" || it.Author == nil || it.Author.Date == "" {
				t.Errorf("committed event: %+v, want a sha and a dated author, no actor or created_at", it)
			}
			shas = append(shas, it.SHA)
		}
	}
	// The branch's first (empty) commit and the two pushes.
	if len(shas) != 3 {
		t.Fatalf("#7 timeline %v: want its three commits as committed events", events(before))
	}
	// The world's review asking for changes, then the author's reply.
	i := slices.IndexFunc(before, func(it timelineItem) bool { return it.Event == "reviewed" })
	if i < 0 || before[i].User == nil || before[i].User.Login != "alice" || before[i].State != "changes_requested" ||
		before[i].Body == nil || *before[i].Body != "One question." || before[i].SubmittedAt == "" || before[i].CommitID == nil || *before[i].CommitID != shas[2] {
		t.Fatalf("#7's first review: %+v in %v", before[i], events(before))
	}
	if reply := before[i+1]; reply.Event != "reviewed" || reply.State != "commented" || reply.Body != nil {
		t.Errorf("the reply's review: %+v, want commented with a null body", reply)
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
	if n < 2 || items[n-2].Event != "reviewed" || items[n-2].State != "approved" || items[n-2].User.Login != "alice" || *items[n-2].CommitID != shas[2] ||
		items[n-1].Event != "committed" || items[n-1].SHA != pushed.Commit.SHA || items[n-1].Message != "Note the cap\n\nAfter the approval." {
		t.Fatalf("after the approval and a push: %v, want reviewed (approved) then the pushed commit: %+v", events(items), items[max(0, n-2):])
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
		t.Fatalf("force push: %d %s", res.Status, res.Body)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	forced := items[n-2]
	if forced.Event != "head_ref_force_pushed" || forced.Actor == nil || forced.Actor.Login != "bob" || forced.CreatedAt == "" || forced.CommitID != nil ||
		items[n-1].Event != "committed" || items[n-1].SHA != rewritten.SHA {
		t.Fatalf("after a force push: %v, want head_ref_force_pushed by bob then the new commit: %+v", events(items), items[n-2:])
	}
	for _, it := range items {
		if it.Event == "committed" && it.SHA != rewritten.SHA {
			t.Errorf("commit %s, dropped by the force push, is still on the timeline", it.SHA)
		}
	}

	// Review requests, and a round trip through draft.
	if res := w.do(t, "POST", "/repos/acme/widgets/pulls/7/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"alice"}}); res.Status != 201 {
		t.Fatalf("request a review: %d %s", res.Status, res.Body)
	}
	if res := w.do(t, "DELETE", "/repos/acme/widgets/pulls/7/requested_reviewers", tokBob, map[string]any{"reviewers": []string{"alice", "carol"}}); res.Status != 200 {
		t.Fatalf("withdraw review requests: %d %s", res.Status, res.Body)
	}
	const draft = `mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`
	const ready = `mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { pullRequest { isDraft } } }`
	for _, q := range []string{draft, ready, ready} { // marking a ready one ready changes nothing
		gql(t, w, tokBob, q, map[string]any{"id": id}, nil)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	tail := items[n-5:]
	if got := events(tail); !slices.Equal(got, []string{"review_requested", "review_request_removed", "review_request_removed", "convert_to_draft", "ready_for_review"}) {
		t.Fatalf("requests and drafts: %v", got)
	}
	// carol was asked first (by the world), so her request goes first.
	for i, who := range []string{"alice", "carol", "alice"} {
		if it := tail[i]; it.ReviewRequester == nil || it.ReviewRequester.Login != "bob" || it.RequestedReviewer == nil || it.RequestedReviewer.Login != who {
			t.Errorf("%s: requester %+v reviewer %+v, want bob asking %s", it.Event, it.ReviewRequester, it.RequestedReviewer, who)
		}
	}

	// The merge, with its commit, then the close it brings; then the
	// head branch's deletion.
	var merged struct {
		SHA string `json:"sha"`
	}
	w.do(t, "PUT", "/repos/acme/widgets/pulls/7/merge", tokAlice, map[string]any{}).JSON(t, &merged)
	if res := w.do(t, "DELETE", "/repos/acme/widgets/git/refs/heads%2Fpatch-7", tokBob, nil); res.Status != 204 {
		t.Fatalf("delete the head branch: %d %s", res.Status, res.Body)
	}
	items = pullTimeline(t, w, pr)
	n = len(items)
	if got := events(items[n-3:]); !slices.Equal(got, []string{"merged", "closed", "head_ref_deleted"}) {
		t.Fatalf("after the merge and the branch's deletion: %v", events(items))
	}
	m := items[n-3]
	if m.Actor == nil || m.Actor.Login != "alice" || m.CommitID == nil || *m.CommitID != merged.SHA || m.CommitURL == nil ||
		!strings.HasSuffix(*m.CommitURL, "/repos/acme/widgets/commits/"+merged.SHA) {
		t.Errorf("merged: %+v, want alice and the merge commit %s", m, merged.SHA)
	}
	if d := items[n-1]; d.Actor == nil || d.Actor.Login != "bob" {
		t.Errorf("head_ref_deleted: %+v, want bob", d)
	}

	// go-github's Timeline type reads every one of them.
	client, err := gh.NewClient(gh.WithHTTPClient(w.srv.Client()), gh.WithAuthToken(tokCarol),
		gh.WithEnterpriseURLs(w.srv.URL+"/api/v3/", w.srv.URL+"/api/uploads/"))
	if err != nil {
		t.Fatal(err)
	}
	list, _, err := client.Issues.ListIssueTimeline(context.Background(), "acme", "widgets", pr, &gh.ListOptions{PerPage: 100})
	if err != nil || len(list) != len(items) {
		t.Fatalf("go-github: %d events, %v; want %d", len(list), err, len(items))
	}
	seen := map[string]bool{}
	for _, ev := range list {
		seen[ev.GetEvent()] = true
		switch ev.GetEvent() {
		case "committed":
			if ev.GetSHA() != rewritten.SHA || ev.GetMessage() != "Cap the gear ratio, squashed" || ev.GetAuthor().GetName() != "Bob Builder" || ev.GetCommitter().GetDate().IsZero() {
				t.Errorf("go-github committed: sha %s message %q author %+v", ev.GetSHA(), ev.GetMessage(), ev.GetAuthor())
			}
		case "reviewed":
			if ev.GetUser().GetLogin() == "" || ev.GetState() == "" || ev.GetSubmittedAt().IsZero() {
				t.Errorf("go-github reviewed: user %q state %q submitted %v", ev.GetUser().GetLogin(), ev.GetState(), ev.GetSubmittedAt())
			}
		case "merged":
			if ev.GetActor().GetLogin() != "alice" || ev.GetCommitID() != merged.SHA || ev.GetCreatedAt().IsZero() {
				t.Errorf("go-github merged: actor %q commit %q", ev.GetActor().GetLogin(), ev.GetCommitID())
			}
		case "review_requested":
			if ev.GetRequester().GetLogin() != "bob" || ev.GetReviewer().GetLogin() != "alice" {
				t.Errorf("go-github review_requested: requester %q reviewer %q", ev.GetRequester().GetLogin(), ev.GetReviewer().GetLogin())
			}
		case "head_ref_force_pushed", "head_ref_deleted":
			if ev.GetActor().GetLogin() != "bob" || ev.GetCreatedAt().IsZero() {
				t.Errorf("go-github %s: actor %q", ev.GetEvent(), ev.GetActor().GetLogin())
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
		t.Fatalf("delete: %d %s", res.Status, res.Body)
	}
	var got struct {
		State  string `json:"state"`
		Merged bool   `json:"merged"`
	}
	w.do(t, "GET", fmt.Sprintf("/repos/acme/widgets/pulls/%d", pull.Number), tokCarol, nil).JSON(t, &got)
	items := pullTimeline(t, w, pull.Number)
	if got.State != "closed" || got.Merged || !slices.Equal(events(items), []string{"committed", "head_ref_deleted", "closed"}) ||
		items[1].Actor.Login != "alice" || items[2].Actor.Login != "alice" {
		t.Fatalf("pull request %+v, timeline %v", got, events(items))
	}
}
