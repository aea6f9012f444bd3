package fidelity

import (
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// A user reacts once per content: the first POST creates (201), the same
// again answers the existing reaction (200). The issue's reaction rollup
// and ?content= filtering count what was given.
func TestReactions(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const issue = "/repos/acme/widgets/issues/2"
	var first, again struct {
		ID      int64  `json:"id"`
		Content string `json:"content"`
		User    struct {
			Login string `json:"login"`
		} `json:"user"`
	}
	res := w.do(t, "POST", issue+"/reactions", tokCarol, map[string]any{"content": "heart"})
	res.JSON(t, &first)
	if res.Status != 201 || first.Content != "heart" || first.User.Login != "carol" {
		t.Fatalf("first reaction: %d %+v", res.Status, first)
	}
	res = w.do(t, "POST", issue+"/reactions", tokCarol, map[string]any{"content": "heart"})
	res.JSON(t, &again)
	if res.Status != 200 || again.ID != first.ID {
		t.Errorf("the same reaction again: %d id %d, want 200 id %d", res.Status, again.ID, first.ID)
	}
	w.do(t, "POST", issue+"/reactions", tokBob, map[string]any{"content": "+1"})
	if res := w.do(t, "POST", issue+"/reactions", tokBob, map[string]any{"content": "tada"}); res.Status != 422 {
		t.Errorf("content tada (GraphQL's HOORAY is REST's hooray): %d, want 422", res.Status)
	}

	var got struct {
		Reactions struct {
			TotalCount int `json:"total_count"`
			Heart      int `json:"heart"`
			PlusOne    int `json:"+1"`
		} `json:"reactions"`
	}
	w.do(t, "GET", issue, tokCarol, nil).JSON(t, &got)
	if r := got.Reactions; r.TotalCount != 2 || r.Heart != 1 || r.PlusOne != 1 {
		t.Errorf("rollup = %+v, want 2 in all: one heart, one +1", r)
	}
	var hearts []struct{ Content string }
	w.do(t, "GET", issue+"/reactions?content=heart", tokCarol, nil).JSON(t, &hearts)
	if len(hearts) != 1 || hearts[0].Content != "heart" {
		t.Errorf("?content=heart = %+v", hearts)
	}
}

// Only people who can push see a repository's collaborators; each comes
// with the permissions it holds.
func TestCollaborators(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	const path = "/repos/acme/widgets/collaborators"
	if res := w.do(t, "GET", path, tokCarol, nil); res.Status != 403 {
		t.Errorf("a reader lists collaborators: %d, want 403", res.Status)
	}
	var list []struct {
		Login       string `json:"login"`
		RoleName    string `json:"role_name"`
		Permissions struct {
			Push bool `json:"push"`
		} `json:"permissions"`
	}
	w.do(t, "GET", path+"?permission=push", tokBob, nil).JSON(t, &list)
	var got []string
	for _, c := range list {
		if !c.Permissions.Push {
			t.Errorf("%s without push in ?permission=push", c.Login)
		}
		got = append(got, c.Login+":"+c.RoleName)
	}
	if len(got) != 2 || got[0] != "alice:admin" || got[1] != "bob:write" {
		t.Errorf("collaborators who can push = %v, want alice:admin bob:write", got)
	}
}

// User search matches logins and names; type: narrows to users or
// organizations. Repository search sees only what the caller may read.
func TestSearchAccountsAndRepositories(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	type result struct {
		TotalCount int `json:"total_count"`
		Items      []struct {
			Login    string `json:"login"`
			FullName string `json:"full_name"`
		} `json:"items"`
	}
	for _, tc := range []struct {
		path, token string
		want        []string
	}{
		{"/search/users?q=acme", tokCarol, []string{"acme"}},
		{"/search/users?q=acme+type:user", tokCarol, nil},
		{"/search/users?q=bob+type:user", tokCarol, []string{"bob"}},
		{"/search/repositories?q=org:acme", tokCarol, []string{"acme/widgets"}},
		{"/search/repositories?q=org:acme", tokAlice, []string{"acme/widgets", "acme/vault"}},
	} {
		var r result
		w.do(t, "GET", tc.path, tc.token, nil).JSON(t, &r)
		var got []string
		for _, it := range r.Items {
			got = append(got, it.Login+it.FullName)
		}
		if r.TotalCount != len(tc.want) || len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) {
			t.Errorf("%s: %d %v, want %v", tc.path, r.TotalCount, got, tc.want)
		}
	}
}
