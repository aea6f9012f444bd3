package fidelity

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// TestRelatedIssuesOnGHES: a GitHub Enterprise Server version (3.20 here)
// does not know API version 2026-03-10 and answers 400 naming the versions
// it knows; without the version the path is one it does not serve (404).
// Nothing is written either way.
func TestRelatedIssuesOnGHES(t *testing.T) {
	w := newWorld(t, emulator.Options{GHESVersion: "3.20"})
	const repo = "/api/v3/repos/acme/widgets"
	v2026 := http.Header{"X-GitHub-Api-Version": {"2026-03-10"}}
	res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokAlice, map[string]any{"issue_id": w.ids[22]}, v2026)
	checkResponse(t, "POST related in 2026-03-10 on GHES", res, 400, `\"2022-11-28\" (most recent).`)
	if res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokAlice, map[string]any{"issue_id": w.ids[22]}); res.Status != 404 {
		t.Errorf("POST related in the default version on GHES: %d, want 404", res.Status)
	}
	if res := w.srv.Do(t, "GET", repo+"/issues/2", tokAlice, nil); res.Status != 200 {
		t.Errorf("GHES serves its other endpoints: status %d, want %d", res.Status, 200)
	}
	st := w.srv.Emu.State()
	st.Lock()
	defer st.Unlock()
	if n := len(st.Repo("acme", "widgets").Issue(2).Related); n != 0 {
		t.Errorf("a refused request wrote %d links", n)
	}
}

// TestRelatedIssues checks the related-issue endpoints of API version
// 2026-03-10: the link shows on both issues, a repeat is refused 422, an
// absent link answers 404 to its removal, and a request in the default
// version gets the 404 of a path GitHub does not serve, with nothing
// written. Every answer is validated by the
// harness (emulatortest/versioned.go).
func TestRelatedIssues(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const repo = "/repos/acme/widgets"
	v2026 := http.Header{"X-GitHub-Api-Version": {"2026-03-10"}}
	numbers := func(path string) []int {
		t.Helper()
		res := w.srv.Do(t, "GET", path, tokCarol, nil, v2026)
		if res.Status != 200 {
			t.Fatalf("GET %s: %d %s", path, res.Status, res.Body)
		}
		var list []struct{ Number int }
		res.JSON(t, &list)
		var out []int
		for _, is := range list {
			out = append(out, is.Number)
		}
		return out
	}
	for _, h := range []http.Header{nil, {"X-GitHub-Api-Version": {"2022-11-28"}}} {
		if res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokAlice, map[string]any{"issue_id": w.ids[22]}, h); res.Status != 404 {
			t.Errorf("POST related in version %v: %d, want 404", h, res.Status)
		}
	}
	if res := w.srv.Do(t, "GET", "/api/v3"+repo+"/issues/2/related", tokCarol, nil, v2026); res.Status != 200 {
		t.Errorf("GET related through /api/v3 of GitHub.com's layout: %d, want 200", res.Status)
	}
	if got := numbers(repo + "/issues/2/related"); len(got) != 0 {
		t.Fatalf("a refused request wrote a link: %v, want none", got)
	}

	if res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokAlice, map[string]any{"issue_id": w.ids[22]}, v2026); res.Status != 201 {
		t.Fatalf("add: status %d, want %d: %s", res.Status, 201, res.Body)
	}
	if a, b := numbers(repo+"/issues/2/related"), numbers(repo+"/issues/22/related"); fmt.Sprint(a, b) != "[22] [2]" {
		t.Errorf("related lists %v and %v, want [22] and [2]: the link is symmetric", a, b)
	}
	if res := w.srv.Do(t, "POST", repo+"/issues/22/related", tokAlice, map[string]any{"issue_id": w.ids[2]}, v2026); res.Status != 422 {
		t.Errorf("repeat from the other side: %d, want 422", res.Status)
	}
	if res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokAlice, map[string]any{"issue_id": w.ids[2]}, v2026); res.Status != 422 {
		t.Errorf("self link: %d, want 422", res.Status)
	}
	if res := w.srv.Do(t, "POST", repo+"/issues/2/related", tokCarol, map[string]any{"issue_id": w.ids[22]}, v2026); res.Status != 403 {
		t.Errorf("a reader's add: %d, want 403", res.Status)
	}
	if res := w.srv.Do(t, "DELETE", repo+fmt.Sprintf("/issues/22/related/%d", w.ids[2]), tokAlice, nil, v2026); res.Status != 200 {
		t.Fatalf("remove from the other side: status %d, want %d: %s", res.Status, 200, res.Body)
	}
	if a, b := numbers(repo+"/issues/2/related"), numbers(repo+"/issues/22/related"); len(a)+len(b) != 0 {
		t.Errorf("after removal: %v and %v, want none on either side", a, b)
	}
	if res := w.srv.Do(t, "DELETE", repo+fmt.Sprintf("/issues/22/related/%d", w.ids[2]), tokAlice, nil, v2026); res.Status != 404 {
		t.Errorf("remove an absent link: %d, want 404", res.Status)
	}
}
