package emulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"testing"
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
	if d.DeleteIssue.ClientMutationID != "abc-1" || d.DeleteIssue.Repository.NameWithOwner != "acme/widgets" {
		t.Errorf("payload = %+v", d.DeleteIssue)
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
	if len(res.Errors) != 1 || res.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("node of the deleted issue = %s", res.raw)
	}
	res = w.query("emu-alice", doc, map[string]any{"input": map[string]any{"issueId": id}})
	if string(res.Data) != `{"deleteIssue":null}` || len(res.Errors) != 1 || res.Errors[0].Type != "NOT_FOUND" {
		t.Errorf("deleting it again = %s", res.raw)
	}
}

func testGraphQLDeleteIssueForbidden(t *testing.T, w *gqlWorld) {
	id := w.issueID("emu-carol", w.bug)
	for _, who := range []string{"carol", "bob"} { // read, write: neither is admin
		res := w.query("emu-"+who, `mutation($id: ID!) { deleteIssue(input: {issueId: $id}) { clientMutationId } }`,
			map[string]any{"id": id})
		want := []gqlErrorJSON{{Type: "FORBIDDEN", Path: []any{"deleteIssue"}, Locations: []gqlLocation{{Line: 1, Column: 22}},
			Message: who + " does not have the correct permissions to execute `DeleteIssue`"}}
		if res.Status != 200 || string(res.Data) != `{"deleteIssue":null}` || !reflect.DeepEqual(res.Errors, want) {
			t.Errorf("%s: %s", who, res.raw)
		}
	}
	w.emu.State().mu.RLock()
	deleted := w.emu.State().Repo("acme", "widgets").Issue(w.bug).Deleted
	w.emu.State().mu.RUnlock()
	if deleted {
		t.Error("a refused deleteIssue deleted the issue")
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
