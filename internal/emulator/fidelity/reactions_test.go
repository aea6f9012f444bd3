package fidelity

import (
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

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
	if res.Status != 201 {
		t.Fatalf("first reaction: status %d, want 201", res.Status)
	}
	if first.Content != "heart" {
		t.Fatalf("first reaction: content %q, want %q", first.Content, "heart")
	}
	if first.User.Login != "carol" {
		t.Fatalf("first reaction: user %q, want %q", first.User.Login, "carol")
	}
	res = w.do(t, "POST", issue+"/reactions", tokCarol, map[string]any{"content": "heart"})
	res.JSON(t, &again)
	if res.Status != 200 {
		t.Errorf("the same reaction again: status %d, want 200", res.Status)
	}
	if again.ID != first.ID {
		t.Errorf("the same reaction again: id %d, want the first's %d", again.ID, first.ID)
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
	if r := got.Reactions; r.TotalCount != 2 {
		t.Errorf("rollup total_count %d, want 2", r.TotalCount)
	}
	if r := got.Reactions; r.Heart != 1 {
		t.Errorf("rollup heart %d, want 1", r.Heart)
	}
	if r := got.Reactions; r.PlusOne != 1 {
		t.Errorf("rollup +1 %d, want 1", r.PlusOne)
	}
	var hearts []struct{ Content string }
	w.do(t, "GET", issue+"/reactions?content=heart", tokCarol, nil).JSON(t, &hearts)
	if diff := cmp.Diff([]struct{ Content string }{{"heart"}}, hearts); diff != "" {
		t.Errorf("?content=heart mismatch (-want +got):\n%s", diff)
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
	if want := []string{"alice:admin", "bob:write"}; !slices.Equal(got, want) {
		t.Errorf("collaborators who can push = %v, want %v", got, want)
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
		if r.TotalCount != len(tc.want) {
			t.Errorf("%s: total_count %d, want %d", tc.path, r.TotalCount, len(tc.want))
		}
		if len(got) != len(tc.want) {
			t.Errorf("%s: %d items %v, want %d: %v", tc.path, len(got), got, len(tc.want), tc.want)
		} else if len(got) > 0 && got[0] != tc.want[0] {
			t.Errorf("%s: first item %q, want %q (all %v)", tc.path, got[0], tc.want[0], got)
		}
	}
}
