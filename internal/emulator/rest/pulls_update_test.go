package rest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

func TestRESTUpdatePullBranch(t *testing.T) {
	base := serveDemo(t) + "/repos/acme/widgets"
	bob, carol := emulator.DemoTokenBob, emulator.DemoTokenCarol
	put := func(tok string, body map[string]any) reply {
		t.Helper()
		return send(t, http.MethodPut, base+"/pulls/121/update-branch", tok, body)
	}
	// #121's branch holds main's tip until #146 lands on main.
	if r := put(bob, nil); r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "There are no new commits on the base branch.") {
		t.Errorf("update-branch of an up-to-date head: %d %s", r.status, r.body)
	}
	if r := send(t, http.MethodPut, base+"/pulls/146/merge", bob, nil); r.status != http.StatusOK {
		t.Fatalf("merge #146: %d %s", r.status, r.body)
	}
	var before restPull
	getJSON(t, base+"/pulls/121", carol, &before)
	var main struct{ Commit struct{ SHA string } }
	getJSON(t, base+"/branches/main", carol, &main)

	for _, c := range []struct {
		tok    string
		body   map[string]any
		status int
		msg    string
	}{
		{carol, nil, http.StatusForbidden, ""},
		{bob, map[string]any{"expected_head_sha": strings.Repeat("a", 40)}, http.StatusUnprocessableEntity, "expected head sha didn’t match current head ref."},
	} {
		if r := put(c.tok, c.body); r.status != c.status || !strings.Contains(string(r.body), c.msg) {
			t.Errorf("update-branch %v: %d %s, want %d %q", c.body, r.status, r.body, c.status, c.msg)
		}
	}
	r := put(bob, map[string]any{"expected_head_sha": before.Head.SHA})
	if r.status != http.StatusAccepted || !strings.Contains(string(r.body), `"message":"Updating pull request branch."`) ||
		!strings.Contains(string(r.body), `/repos/acme/widgets/pulls/121"`) {
		t.Fatalf("update-branch: %d %s", r.status, r.body)
	}
	var after restPull
	getJSON(t, base+"/pulls/121", carol, &after)
	var merge struct {
		Commit  struct{ Message string }
		Parents []struct{ SHA string }
	}
	getJSON(t, base+"/commits/"+after.Head.SHA, carol, &merge)
	if after.Head.SHA == before.Head.SHA || len(merge.Parents) != 2 || merge.Parents[0].SHA != before.Head.SHA ||
		merge.Parents[1].SHA != main.Commit.SHA || merge.Commit.Message != "Merge branch 'main' into "+before.Head.Ref {
		t.Errorf("after the update: head %s (was %s), commit %+v, main %s", after.Head.SHA, before.Head.SHA, merge, main.Commit.SHA)
	}
	// The head holds main now: nothing more to take in.
	if r := put(bob, nil); r.status != http.StatusUnprocessableEntity || !strings.Contains(string(r.body), "There are no new commits on the base branch.") {
		t.Errorf("second update-branch: %d %s", r.status, r.body)
	}
}
