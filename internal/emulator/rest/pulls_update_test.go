package rest_test

import (
	"fmt"
	"net/http"
	"slices"
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
	checkReply(t, "update-branch of an up-to-date head", put(bob, nil),
		http.StatusUnprocessableEntity, "There are no new commits on the base branch.")
	if r := send(t, http.MethodPut, base+"/pulls/146/merge", bob, nil); r.status != http.StatusOK {
		t.Fatalf("merge #146: status %d, want %d: %s", r.status, http.StatusOK, r.body)
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
		checkReply(t, fmt.Sprintf("update-branch %v", c.body), put(c.tok, c.body), c.status, c.msg)
	}
	r := put(bob, map[string]any{"expected_head_sha": before.Head.SHA})
	if r.status != http.StatusAccepted {
		t.Fatalf("update-branch: status %d, want %d: %s", r.status, http.StatusAccepted, r.body)
	}
	for _, want := range []string{`"message":"Updating pull request branch."`, `/repos/acme/widgets/pulls/121"`} {
		if !strings.Contains(string(r.body), want) {
			t.Fatalf("update-branch: body %s, want one with %s", r.body, want)
		}
	}
	var after restPull
	getJSON(t, base+"/pulls/121", carol, &after)
	var merge struct {
		Commit  struct{ Message string }
		Parents []struct{ SHA string }
	}
	getJSON(t, base+"/commits/"+after.Head.SHA, carol, &merge)
	if after.Head.SHA == before.Head.SHA {
		t.Errorf("after the update: head %s, want a new one", after.Head.SHA)
	}
	var parents []string
	for _, p := range merge.Parents {
		parents = append(parents, p.SHA)
	}
	if want := []string{before.Head.SHA, main.Commit.SHA}; !slices.Equal(parents, want) {
		t.Errorf("merge commit parents %v, want the old head and main %v", parents, want)
	}
	if want := "Merge branch 'main' into " + before.Head.Ref; merge.Commit.Message != want {
		t.Errorf("merge commit message %q, want %q", merge.Commit.Message, want)
	}
	// The head holds main now: nothing more to take in.
	checkReply(t, "second update-branch", put(bob, nil),
		http.StatusUnprocessableEntity, "There are no new commits on the base branch.")
}
