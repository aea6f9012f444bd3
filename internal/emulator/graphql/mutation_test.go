package graphql_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func testGraphQLDeleteIssue(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-alice", w.locked)
	const doc = `mutation Delete($input: DeleteIssueInput!) {
  deleteIssue(input: $input) { clientMutationId repository { nameWithOwner } }
}`
	var d struct {
		DeleteIssue struct {
			ClientMutationID string
			Repository       struct{ NameWithOwner string }
		}
	}
	w.query("emu-alice", doc, map[string]any{"input": map[string]any{"issueId": id, "clientMutationId": "abc-1"}}).ok(t, &d)
	if d.DeleteIssue.ClientMutationID != "abc-1" {
		t.Errorf("deleteIssue clientMutationId = %q, want %q", d.DeleteIssue.ClientMutationID, "abc-1")
	}
	if d.DeleteIssue.Repository.NameWithOwner != "acme/widgets" {
		t.Errorf("deleteIssue repository = %q, want %q", d.DeleteIssue.Repository.NameWithOwner, "acme/widgets")
	}

	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/repos/acme/widgets/issues/%d", w.srv.URL, w.locked), nil)
	req.Header.Set("Authorization", "token emu-alice")
	resp, err := w.srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusGone {
		t.Errorf("REST GET of the deleted issue = %d, want 410", resp.StatusCode)
	}

	res := w.query("emu-alice", `query($id: ID!) { node(id: $id) { id } }`, map[string]any{"id": id})
	checkOneError(t, "node of the deleted issue", res.Errors, wantErr{Type: "NOT_FOUND"})
	res = w.query("emu-alice", doc, map[string]any{"input": map[string]any{"issueId": id}})
	checkData(t, "deleting it again", res, `{"deleteIssue":null}`)
	checkOneError(t, "deleting it again", res.Errors, wantErr{Type: "NOT_FOUND"})
}

func testGraphQLDeleteIssueForbidden(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-carol", w.bug)
	for _, who := range []string{"carol", "bob"} { // read, write: neither is admin
		res := w.query("emu-"+who, `mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { clientMutationId } }`,
			map[string]any{"id": id})
		want := []respError{{Type: "FORBIDDEN", Path: []any{"deleteIssue"}, Locations: []respLocation{{Line: 1, Column: 22}},
			Message: who + " does not have the correct permissions to execute `DeleteIssue`"}}
		if res.Status != 200 {
			t.Errorf("%s: status = %d, want 200", who, res.Status)
		}
		checkData(t, who, res, `{"deleteIssue":null}`)
		if diff := cmp.Diff(want, res.Errors); diff != "" {
			t.Errorf("%s: errors mismatch (-want +got):\n%s", who, diff)
		}
	}
	w.emu.State().RLock()
	deleted := w.emu.State().Repo("acme", "widgets").Issue(w.bug).Deleted
	w.emu.State().RUnlock()
	if deleted {
		t.Error("after a refused deleteIssue: deleted = true, want false")
	}
}

func testGraphQLConcurrent(t *testing.T, w *gqlWorld) {
	// Readers and a writer at once: the race detector checks the locking.
	ids := make([]string, 0, 3)
	for _, n := range []int{w.wontfix, w.child1, w.child2} {
		ids = append(ids, w.issueID("emu-alice", n))
	}
	const read = `{ repository(owner: "acme", name: "widgets") { issues(first: 20) { nodes { title comments(first: 5) { totalCount } } } } }`
	requireGitHubValid(t, w.count, read)
	const del = `mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { clientMutationId } }`
	requireGitHubValid(t, w.count, del)
	done := make(chan string, 9)
	for i := range 9 {
		go func() {
			body := map[string]any{"query": read}
			if i%3 == 0 {
				body = map[string]any{"query": del, "variables": map[string]any{"id": ids[i/3]}}
			}
			b, _ := json.Marshal(body)
			req, _ := http.NewRequest(http.MethodPost, w.srv.URL+"/graphql", bytes.NewReader(b))
			req.Header.Set("Authorization", "token emu-alice")
			resp, err := w.srv.Client().Do(req)
			if err != nil {
				done <- err.Error()
				return
			}
			raw, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 200 || bytes.Contains(raw, []byte(`"errors"`)) {
				done <- string(raw)
				return
			}
			done <- ""
		}()
	}
	for range 9 {
		if msg := <-done; msg != "" {
			t.Error(msg)
		}
	}
	var d struct {
		Repository struct{ Issues struct{ TotalCount int } }
	}
	w.query("emu-alice", `{ repository(owner: "acme", name: "widgets") { issues(first: 1) { totalCount } } }`, nil).ok(t, &d)
	if d.Repository.Issues.TotalCount != 3 {
		t.Errorf("after three deletions: %d issues, want 3", d.Repository.Issues.TotalCount)
	}
}

// addComment as GitHub's CLI sends it (`gh issue comment`): the comment
// lands on the issue as a REST POST would leave it, and the edge's cursor
// pages on from it.
func testGraphQLAddComment(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-carol", w.bug)
	const doc = `mutation CommentCreate($input:AddCommentInput!){addComment(input: $input){commentEdge{node{url}}}}`
	var d struct {
		AddComment struct {
			CommentEdge struct{ Node struct{ URL string } }
		}
	}
	w.query("emu-carol", doc, map[string]any{"input": map[string]any{"subjectId": id, "body": "Seen it too."}}).ok(t, &d)
	st := w.emu.State()
	st.RLock()
	is := st.Repo("acme", "widgets").Issue(w.bug)
	last := is.Comments[len(is.Comments)-1]
	st.RUnlock()
	if last.Body != "Seen it too." {
		t.Errorf("last comment body = %q, want %q", last.Body, "Seen it too.")
	}
	if last.User.Login != "carol" {
		t.Errorf("last comment author = %q, want carol", last.User.Login)
	}
	if want := fmt.Sprintf("%s/acme/widgets/issues/%d#issuecomment-%d", w.srv.URL, w.bug, last.ID); d.AddComment.CommentEdge.Node.URL != want {
		t.Errorf("url = %q, want %q", d.AddComment.CommentEdge.Node.URL, want)
	}

	const full = `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "Again.", clientMutationId: "c-1"}) {
  clientMutationId subject { id } commentEdge { cursor node { body author { login } } } } }`
	var f struct {
		AddComment struct {
			ClientMutationID string
			Subject          struct{ ID string }
			CommentEdge      struct {
				Cursor string
				Node   struct {
					Body   string
					Author struct{ Login string }
				}
			}
		}
	}
	w.query("emu-bob", full, map[string]any{"id": id}).ok(t, &f)
	if f.AddComment.ClientMutationID != "c-1" {
		t.Errorf("addComment clientMutationId = %q, want %q", f.AddComment.ClientMutationID, "c-1")
	}
	if f.AddComment.Subject.ID != id {
		t.Errorf("addComment subject id = %q, want %q", f.AddComment.Subject.ID, id)
	}
	if f.AddComment.CommentEdge.Node.Body != "Again." {
		t.Errorf("addComment comment body = %q, want %q", f.AddComment.CommentEdge.Node.Body, "Again.")
	}
	if f.AddComment.CommentEdge.Node.Author.Login != "bob" {
		t.Errorf("addComment comment author = %q, want bob", f.AddComment.CommentEdge.Node.Author.Login)
	}
	var after struct {
		Node struct{ Comments struct{ TotalCount int } }
	}
	w.query("emu-bob", `query($id: ID!, $c: String) { node(id: $id) { ... on Issue { comments(first: 5, after: $c) { totalCount } } } }`,
		map[string]any{"id": id, "c": f.AddComment.CommentEdge.Cursor}).ok(t, &after)
	if after.Node.Comments.TotalCount != 27 {
		t.Errorf("totalCount after two comments = %d, want 27", after.Node.Comments.TotalCount)
	}

	res := w.query("emu-carol", doc, map[string]any{"input": map[string]any{"subjectId": id, "body": "  "}})
	checkData(t, "blank body", res, `{"addComment":null}`)
	checkOneError(t, "blank body", res.Errors, wantErr{Message: "Body can't be blank"})
	// A locked conversation takes comments from writers only.
	locked := w.issueID("emu-carol", w.locked)
	res = w.query("emu-carol", doc, map[string]any{"input": map[string]any{"subjectId": locked, "body": "Me too"}})
	checkOneError(t, "carol on a locked issue", res.Errors, wantErr{Type: "FORBIDDEN"})
	w.query("emu-bob", doc, map[string]any{"input": map[string]any{"subjectId": locked, "body": "Calm down."}}).ok(t, &d)
}

// lockLockable and unlockLockable as GitHub's CLI sends them (`gh issue
// lock --reason off_topic`, `gh issue unlock`).
func testGraphQLLockUnlock(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-bob", w.bug)
	const lock = `mutation LockLockable($input:LockLockableInput!){lockLockable(input: $input){lockedRecord{locked}}}`
	const unlock = `mutation UnlockLockable($input:UnlockLockableInput!){unlockLockable(input: $input){unlockedRecord{locked}}}`
	state := func() (bool, string) {
		st := w.emu.State()
		st.RLock()
		defer st.RUnlock()
		is := st.Repo("acme", "widgets").Issue(w.bug)
		if is.ActiveLockReason == nil {
			return is.Locked, ""
		}
		return is.Locked, *is.ActiveLockReason
	}

	res := w.query("emu-carol", lock, map[string]any{"input": map[string]any{"lockableId": id}})
	checkOneError(t, "carol (read) locking", res.Errors,
		wantErr{Type: "FORBIDDEN", Message: "carol does not have the correct permissions to execute `LockLockable`"})
	var l struct {
		LockLockable struct{ LockedRecord struct{ Locked bool } }
	}
	w.query("emu-bob", lock, map[string]any{"input": map[string]any{"lockableId": id, "lockReason": "OFF_TOPIC"}}).ok(t, &l)
	if !l.LockLockable.LockedRecord.Locked {
		t.Errorf("lockLockable payload locked = false, want true")
	}
	locked, reason := state()
	if !locked {
		t.Errorf("after lockLockable: locked = false, want true")
	}
	if reason != "off-topic" {
		t.Errorf("after lockLockable: reason = %q, want off-topic", reason)
	}
	// Locking again changes nothing, the reason included.
	w.query("emu-bob", lock, map[string]any{"input": map[string]any{"lockableId": id, "lockReason": "SPAM"}}).ok(t, &l)
	if _, reason := state(); reason != "off-topic" {
		t.Errorf("after relocking: reason = %q, want off-topic unchanged", reason)
	}

	const full = `mutation($id: ID!) { unlockLockable(input: {lockableId: $id, clientMutationId: "u-1"}) {
  clientMutationId actor { login } unlockedRecord { __typename locked activeLockReason } } }`
	var u struct {
		UnlockLockable struct {
			ClientMutationID string
			Actor            struct{ Login string }
			UnlockedRecord   struct {
				Typename         string `json:"__typename"`
				Locked           bool
				ActiveLockReason *string
			}
		}
	}
	w.query("emu-bob", full, map[string]any{"id": id}).ok(t, &u)
	rec := u.UnlockLockable.UnlockedRecord
	if u.UnlockLockable.ClientMutationID != "u-1" {
		t.Errorf("unlockLockable clientMutationId = %q, want %q", u.UnlockLockable.ClientMutationID, "u-1")
	}
	if u.UnlockLockable.Actor.Login != "bob" {
		t.Errorf("unlockLockable actor = %q, want bob", u.UnlockLockable.Actor.Login)
	}
	if rec.Typename != "Issue" {
		t.Errorf("unlockedRecord is a %q, want Issue", rec.Typename)
	}
	if rec.Locked {
		t.Errorf("unlockedRecord locked = true, want false")
	}
	if rec.ActiveLockReason != nil {
		t.Errorf("unlockedRecord activeLockReason = %q, want null", *rec.ActiveLockReason)
	}
	if locked, _ := state(); locked {
		t.Error("after unlockLockable: locked = true, want false")
	}
	res = w.query("emu-bob", unlock, map[string]any{"input": map[string]any{"lockableId": "I_nope"}})
	checkData(t, "unlocking an unknown id", res, `{"unlockLockable":null}`)
	checkOneError(t, "unlocking an unknown id", res.Errors, wantErr{Type: "NOT_FOUND"})
}

// closeIssue and reopenIssue as GitHub's CLI sends them (`gh issue close
// --reason "not planned"`, `gh issue reopen`): the issue changes state as a
// REST PATCH with state and state_reason would change it.
func testGraphQLCloseReopen(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-bob", w.bug)
	const closeDoc = `mutation IssueClose($input:CloseIssueInput!){closeIssue(input: $input){issue{id}}}`
	const reopenDoc = `mutation IssueReopen($input:ReopenIssueInput!){reopenIssue(input: $input){issue{id}}}`
	state := func(n int) (string, string, string) {
		st := w.emu.State()
		st.RLock()
		defer st.RUnlock()
		is := st.Repo("acme", "widgets").Issue(n)
		last, reason := is.Events[len(is.Events)-1], ""
		if is.StateReason != nil {
			reason = *is.StateReason
		}
		return is.State, reason, last.Event + " by " + last.Actor.Login
	}

	// carol has read access and did not write the issue.
	res := w.query("emu-carol", closeDoc, map[string]any{"input": map[string]any{"issueId": id}})
	checkData(t, "carol (read) closing", res, `{"closeIssue":null}`)
	checkOneError(t, "carol (read) closing", res.Errors,
		wantErr{Type: "FORBIDDEN", Message: "carol does not have the correct permissions to execute `CloseIssue`"})
	var c struct {
		CloseIssue struct{ Issue struct{ ID string } }
	}
	w.query("emu-bob", closeDoc, map[string]any{"input": map[string]any{"issueId": id, "stateReason": "NOT_PLANNED"}}).ok(t, &c)
	if c.CloseIssue.Issue.ID != id {
		t.Errorf("closeIssue payload issue id = %q, want %q", c.CloseIssue.Issue.ID, id)
	}
	s, reason, ev := state(w.bug)
	if s != "closed" {
		t.Errorf("after closeIssue: state = %s, want closed", s)
	}
	if reason != "not_planned" {
		t.Errorf("after closeIssue: reason = %s, want not_planned", reason)
	}
	if ev != "closed by bob" {
		t.Errorf("after closeIssue: last event = %q, want %q", ev, "closed by bob")
	}
	// Closing a closed issue changes nothing, its reason included.
	w.query("emu-bob", closeDoc, map[string]any{"input": map[string]any{"issueId": id, "stateReason": "COMPLETED"}}).ok(t, &c)
	if _, r, _ := state(w.bug); r != "not_planned" {
		t.Errorf("after closing again: reason = %q, want not_planned unchanged", r)
	}

	const full = `mutation($id: ID!) { reopenIssue(input: {issueId: $id, clientMutationId: "r-1"}) {
  clientMutationId issue { state stateReason closed closedAt } } }`
	var r struct {
		ReopenIssue struct {
			ClientMutationID string
			Issue            struct {
				State, StateReason string
				Closed             bool
				ClosedAt           *string
			}
		}
	}
	w.query("emu-bob", full, map[string]any{"id": id}).ok(t, &r)
	if r.ReopenIssue.ClientMutationID != "r-1" {
		t.Errorf("reopenIssue clientMutationId = %q, want %q", r.ReopenIssue.ClientMutationID, "r-1")
	}
	is := r.ReopenIssue.Issue
	if is.State != "OPEN" {
		t.Errorf("reopened issue state = %q, want OPEN", is.State)
	}
	if is.StateReason != "REOPENED" {
		t.Errorf("reopened issue stateReason = %q, want REOPENED", is.StateReason)
	}
	if is.Closed {
		t.Errorf("reopened issue closed = true, want false")
	}
	if is.ClosedAt != nil {
		t.Errorf("reopened issue closedAt = %q, want null", *is.ClosedAt)
	}
	s, _, ev = state(w.bug)
	if s != "open" {
		t.Errorf("after reopenIssue: state = %s, want open", s)
	}
	if ev != "reopened by bob" {
		t.Errorf("after reopenIssue: last event = %q, want %q", ev, "reopened by bob")
	}

	// An author may close and reopen their own issue with read access; no
	// stateReason closes it as completed.
	locked := w.issueID("emu-carol", w.locked)
	w.query("emu-carol", closeDoc, map[string]any{"input": map[string]any{"issueId": locked}}).ok(t, &c)
	s, reason, _ = state(w.locked)
	if s != "closed" {
		t.Errorf("carol closing her own issue: state = %s, want closed", s)
	}
	if reason != "completed" {
		t.Errorf("carol closing her own issue: reason = %s, want completed", reason)
	}
	w.query("emu-carol", reopenDoc, map[string]any{"input": map[string]any{"issueId": locked}}).ok(t, &c)
	if s, _, _ := state(w.locked); s != "open" {
		t.Errorf("carol reopening her own issue: state %s, want open", s)
	}

	// A duplicate names the issue it duplicates, which must resolve.
	child2 := w.issueID("emu-bob", w.child2)
	res = w.query("emu-bob", closeDoc, map[string]any{"input": map[string]any{"issueId": child2, "stateReason": "DUPLICATE", "duplicateIssueId": "I_nope"}})
	checkData(t, "unknown duplicateIssueId", res, `{"closeIssue":null}`)
	checkOneError(t, "unknown duplicateIssueId", res.Errors, wantErr{Type: "NOT_FOUND"})
	if s, _, _ := state(w.child2); s != "open" {
		t.Errorf("after a refused closeIssue: state %s, want open", s)
	}
	var d struct {
		CloseIssue struct{ Issue struct{ StateReason string } }
	}
	w.query("emu-bob", `mutation($id: ID!, $dup: ID!) { closeIssue(input: {issueId: $id, stateReason: DUPLICATE, duplicateIssueId: $dup}) {
  issue { stateReason(enableDuplicate: true) } } }`, map[string]any{"id": child2, "dup": id}).ok(t, &d)
	if d.CloseIssue.Issue.StateReason != "DUPLICATE" {
		t.Errorf("closing as a duplicate: payload stateReason = %q, want DUPLICATE", d.CloseIssue.Issue.StateReason)
	}
	s, reason, _ = state(w.child2)
	if s != "closed" {
		t.Errorf("closing as a duplicate: state = %s, want closed", s)
	}
	if reason != "duplicate" {
		t.Errorf("closing as a duplicate: reason = %s, want duplicate", reason)
	}
	// The timeline records the duplicate before the close, as GitHub's does.
	req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/repos/acme/widgets/issues/%d/timeline", w.srv.URL, w.child2), nil)
	req.Header.Set("Authorization", "token emu-bob")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var timeline []struct {
		Event string
		Actor struct{ Login string }
	}
	err = json.NewDecoder(resp.Body).Decode(&timeline)
	_ = resp.Body.Close()
	if err != nil {
		t.Fatalf("timeline does not decode: %v", err)
	}
	if len(timeline) < 2 {
		t.Fatalf("timeline has %d items, want at least 2", len(timeline))
	}
	last := timeline[len(timeline)-2:]
	if last[0].Event != "marked_as_duplicate" {
		t.Errorf("timeline's second last event = %s, want marked_as_duplicate", last[0].Event)
	}
	if last[0].Actor.Login != "bob" {
		t.Errorf("timeline's second last actor = %s, want bob", last[0].Actor.Login)
	}
	if last[1].Event != "closed" {
		t.Errorf("timeline's last = %s, want closed", last[1].Event)
	}

	// A pull request's id is not an issue's.
	var p struct {
		Repository struct{ PullRequest struct{ ID string } }
	}
	w.query("emu-bob", `query($n: Int!) { repository(owner: "acme", name: "widgets") { pullRequest(number: $n) { id } } }`,
		map[string]any{"n": w.pull}).ok(t, &p)
	res = w.query("emu-bob", reopenDoc, map[string]any{"input": map[string]any{"issueId": p.Repository.PullRequest.ID}})
	checkOneError(t, "reopening a pull request's id", res.Errors, wantErr{Type: "NOT_FOUND",
		Message: "Could not resolve to Issue node with the global id of '" + p.Repository.PullRequest.ID + "'"})
}

// pinIssue and unpinIssue as GitHub's CLI sends them (`gh issue pin`, `gh
// issue unpin`), read back through Issue.isPinned.
func testGraphQLPinUnpin(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-bob", w.bug)
	const pin = `mutation IssuePin($input:PinIssueInput!){pinIssue(input: $input){issue{id}}}`
	const unpin = `mutation IssueUnpin($input:UnpinIssueInput!){unpinIssue(input: $input){issue{id}}}`
	pinned := func() bool {
		var d struct {
			Repository struct{ Issue struct{ IsPinned bool } }
		}
		w.query("emu-carol", `query($n: Int!) { repository(owner: "acme", name: "widgets") { issue(number: $n) { isPinned } } }`,
			map[string]any{"n": w.bug}).ok(t, &d)
		return d.Repository.Issue.IsPinned
	}

	// carol has read access only.
	res := w.query("emu-carol", pin, map[string]any{"input": map[string]any{"issueId": id}})
	checkData(t, "carol (read) pinning", res, `{"pinIssue":null}`)
	checkOneError(t, "carol (read) pinning", res.Errors,
		wantErr{Type: "FORBIDDEN", Message: "carol does not have the correct permissions to execute `PinIssue`"})
	var p struct {
		PinIssue struct{ Issue struct{ ID string } }
	}
	w.query("emu-bob", pin, map[string]any{"input": map[string]any{"issueId": id}}).ok(t, &p)
	if p.PinIssue.Issue.ID != id {
		t.Errorf("pinIssue payload issue id = %q, want %q", p.PinIssue.Issue.ID, id)
	}
	if !pinned() {
		t.Errorf("after pinIssue: isPinned = false, want true")
	}

	const full = `mutation($id: ID!) { unpinIssue(input: {issueId: $id, clientMutationId: "p-1"}) { clientMutationId issue { isPinned } } }`
	var u struct {
		UnpinIssue struct {
			ClientMutationID string
			Issue            struct{ IsPinned bool }
		}
	}
	w.query("emu-bob", full, map[string]any{"id": id}).ok(t, &u)
	if u.UnpinIssue.ClientMutationID != "p-1" {
		t.Errorf("unpinIssue clientMutationId = %q, want %q", u.UnpinIssue.ClientMutationID, "p-1")
	}
	if u.UnpinIssue.Issue.IsPinned {
		t.Errorf("unpinIssue payload isPinned = true, want false")
	}
	if pinned() {
		t.Errorf("after unpinIssue: isPinned = true, want false")
	}
	st := w.emu.State()
	st.RLock()
	var events []string
	for _, ev := range st.Repo("acme", "widgets").Issue(w.bug).Events {
		if ev.Event == "pinned" || ev.Event == "unpinned" {
			events = append(events, ev.Event+" by "+ev.Actor.Login)
		}
	}
	st.RUnlock()
	if want := []string{"pinned by bob", "unpinned by bob"}; !reflect.DeepEqual(events, want) {
		t.Errorf("events = %q, want %q", events, want)
	}
	res = w.query("emu-bob", unpin, map[string]any{"input": map[string]any{"issueId": "I_nope"}})
	checkData(t, "unpinning an unknown id", res, `{"unpinIssue":null}`)
	checkOneError(t, "unpinning an unknown id", res.Errors, wantErr{Type: "NOT_FOUND"})
}
