package emulatortest

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// smallWorld is one user with one repository and one issue.
func smallWorld(t *testing.T) *Server {
	t.Helper()
	s := Start(t, emulator.Options{Seed: "empty"})
	st := s.Emu.State()
	st.Lock()
	defer st.Unlock()
	created := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	alice := st.AddAccount("alice", "Alice Liddell", false, created)
	st.AddToken(&emulator.Token{Value: "t-alice", Login: "alice"})
	repo := st.AddRepo(alice, "notes", "Alice's notes", false, created)
	body := "The index page lists notes out of order."
	is := st.AddIssue(repo, alice, "Notes list out of order", &body, false, created)
	st.AddLabels(is, alice, st.AddLabel(repo, "bug", "d73a4a", nil))
	return s
}

// mutate decodes a JSON object, lets f change it and encodes it again.
func mutate(t *testing.T, body []byte, f func(map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	f(m)
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A response that breaks GitHub's description fails the same validator the
// harness runs on every response; the unbroken one passes.
func TestBrokenResponsesFailValidation(t *testing.T) {
	s := smallWorld(t)
	const uri = "/repos/alice/notes/issues/1"
	good := s.Do(t, "GET", uri, "t-alice", nil)
	if good.Status != http.StatusOK {
		t.Fatalf("GET issue: status %d, want %d: %s", good.Status, http.StatusOK, good.Body)
	}
	if want := "GET /repos/{owner}/{repo}/issues/{issue_number}"; good.Operation != want {
		t.Fatalf("GET issue: validated as %q, want %q", good.Operation, want)
	}
	before := Validated()
	if _, err := ValidateResponse("GET", uri, http.StatusOK, good.Header, good.Body); err != nil {
		t.Fatalf("the emulator's own issue does not validate: %v", err)
	}
	if Validated() != before+1 {
		t.Fatalf("Validated() went from %d to %d after one good response", before, Validated())
	}

	cases := []struct {
		name   string
		status int
		header http.Header
		body   []byte
		want   string // in the error
	}{
		{"number as a string", 200, good.Header,
			mutate(t, good.Body, func(m map[string]any) { m["number"] = "1" }), "number"},
		{"title missing", 200, good.Header,
			mutate(t, good.Body, func(m map[string]any) { delete(m, "title") }), "title"},
		{"html_url not a URI", 200, good.Header,
			mutate(t, good.Body, func(m map[string]any) { m["html_url"] = "not a uri" }), "html_url"},
		{"created_at not a date-time", 200, good.Header,
			mutate(t, good.Body, func(m map[string]any) { m["created_at"] = "March 1st" }), "created_at"},
		{"label color a number", 200, good.Header,
			mutate(t, good.Body, func(m map[string]any) {
				m["labels"].([]any)[0].(map[string]any)["id"] = "one"
			}), "labels"},
		{"status GitHub does not list", http.StatusCreated, good.Header, good.Body, "status 201"},
		{"403 on a read that is no rate limit", http.StatusForbidden, good.Header,
			[]byte(`{"message":"Forbidden"}`), "status 403"},
		{"304 with a body", http.StatusNotModified, good.Header, good.Body, "304"},
		{"body that is not JSON", 200, good.Header, []byte(`{"id": 1,`), "decode"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n := Validated()
			_, err := ValidateResponse("GET", uri, c.status, c.header, c.body)
			if err == nil {
				t.Fatalf("a broken response validated")
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("error %q does not mention %q", err, c.want)
			}
			if Validated() != n {
				t.Fatalf("a failed response was counted as validated")
			}
			t.Logf("rejected as expected: %v", err)
		})
	}
}

// A 403 that is a rate limit is documented for every operation; the same
// status without the rate-limit headers is not (see unlistedStatus).
func TestUnlistedStatusPolicy(t *testing.T) {
	s := smallWorld(t)
	h := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "X-Ratelimit-Remaining": {"0"}}
	body := []byte(`{"message":"API rate limit exceeded","documentation_url":"https://docs.github.com/rest"}`)
	if _, err := ValidateResponse("GET", "/repos/alice/notes/issues/1", http.StatusForbidden, h, body); err != nil {
		t.Fatalf("a rate-limited 403 was refused: %v", err)
	}
	// 422 is documented for operations with a request body only.
	res := s.Do(t, "GET", "/repos/alice/notes/issues?state=sideways", "t-alice", nil)
	if res.Status != http.StatusUnprocessableEntity {
		t.Fatalf("list with a bad state: status %d, want %d", res.Status, http.StatusUnprocessableEntity)
	}
	if _, err := ValidateResponse("GET", "/repos/alice/notes/labels", http.StatusUnprocessableEntity, res.Header, res.Body); err == nil {
		t.Fatal("a 422 on GET labels, which takes no body and lists no 422, validated")
	}
	// 400 on an operation without a request body is documented only for a
	// request naming an unsupported API version.
	bad := s.Do(t, "GET", "/repos/alice/notes/labels", "t-alice", nil, http.Header{"X-GitHub-Api-Version": {"2020-02-02"}})
	if bad.Status != http.StatusBadRequest {
		t.Fatalf("GET labels naming an unsupported version: status %d, want %d", bad.Status, http.StatusBadRequest)
	}
	if _, err := ValidateResponse("GET", "/repos/alice/notes/labels", http.StatusBadRequest, bad.Header, bad.Body); err == nil {
		t.Fatal("a 400 on GET labels, with no unsupported version in the request, validated")
	}
}

// A timeline item is checked against the branch its event names, not just
// against the loose anyOf of every event schema.
func TestTimelineItemsCheckedAgainstTheirBranch(t *testing.T) {
	s := smallWorld(t)
	const uri = "/repos/alice/notes/issues/1/timeline"
	good := s.Do(t, "GET", uri, "t-alice", nil)
	var items []map[string]any
	good.JSON(t, &items)
	if len(items) != 1 {
		t.Fatalf("timeline holds %d items, want one labeled event: %s", len(items), good.Body)
	}
	if ev := items[0]["event"]; ev != "labeled" {
		t.Fatalf("timeline event %v, want \"labeled\"", ev)
	}
	delete(items[0], "label")
	broken, _ := json.Marshal(items)
	_, err := ValidateResponse("GET", uri, http.StatusOK, good.Header, broken)
	if err == nil || !strings.Contains(err.Error(), "labeled-issue-event") {
		t.Fatalf("a labeled event without its label: err = %v, want a labeled-issue-event mismatch", err)
	}
	items[0]["event"] = "teleported"
	broken, _ = json.Marshal(items)
	if _, err := ValidateResponse("GET", uri, http.StatusOK, good.Header, broken); err == nil {
		t.Fatal("an event GitHub does not describe validated")
	}
}

// The GHES prefix routes to the same operation; GraphQL and the admin
// endpoints are not REST operations and are left alone; a path GitHub does
// not serve may only answer a JSON 404.
func TestRoutingEdges(t *testing.T) {
	s := smallWorld(t)
	res := s.Do(t, "GET", "/api/v3/repos/alice/notes/issues/1", "t-alice", nil)
	if res.Status != 200 {
		t.Fatalf("GHES issue: status %d, want 200", res.Status)
	}
	if want := "GET /repos/{owner}/{repo}/issues/{issue_number}"; res.Operation != want {
		t.Fatalf("GHES issue: validated as %q, want %q", res.Operation, want)
	}
	r, err := ValidateResponse("POST", "/graphql", 200, http.Header{}, []byte(`{"data":{}}`))
	if err != nil {
		t.Fatalf("GraphQL: err = %v, want none", err)
	}
	if r.Checked {
		t.Fatalf("GraphQL: checked = true, want unchecked")
	}
	nf := s.Do(t, "GET", "/repos/alice/notes/wikis", "t-alice", nil)
	if nf.Status != http.StatusNotFound {
		t.Fatalf("unknown path: status %d, want %d", nf.Status, http.StatusNotFound)
	}
	if _, err := ValidateResponse("GET", "/repos/alice/notes/wikis", 200, nf.Header, []byte(`{}`)); err == nil {
		t.Fatal("a 200 for a path GitHub does not describe validated")
	}
	// A file path with slashes is one {path} of the contents operation.
	if _, err := ValidateResponse("GET", "/repos/alice/notes/contents/docs/a/b.md", 404, nf.Header, nf.Body); err != nil {
		t.Fatalf("contents with a nested path: %v", err)
	}
}
