package fidelity

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// repoWriteSteps drive the repository write routes as GitHub's CLI and
// GitHub's MCP server do: topics, settings, creation for a user and an
// organization, a fork, a rename and a delete.
func repoWriteSteps(t *testing.T, w *world, succeeded map[string]bool) {
	t.Helper()
	const repo = "/repos/acme/widgets"
	for _, s := range []step{
		{"GET", repo + "/topics", tokCarol, nil, 200},
		{"PUT", repo + "/topics", tokAlice, map[string]any{"names": []string{"Gears", "tools"}}, 200},
		{"PATCH", repo, tokAlice, map[string]any{"description": "Gears and tools", "homepage": "https://widgets.example", "has_wiki": false}, 200},
		{"POST", "/user/repos", tokCarol, map[string]any{"name": "scratch", "private": true, "description": "Scratch space"}, 201},
		{"POST", "/orgs/acme/repos", tokBob, map[string]any{"name": "gears", "visibility": "public"}, 201},
		{"POST", repo + "/forks", tokCarol, map[string]any{}, 202},
		{"PATCH", "/repos/carol/scratch", tokCarol, map[string]any{"name": "scratchpad"}, 200},
		// alice's token lacks the delete_repo scope (reports_world_test.go).
		{"DELETE", "/repos/carol/scratchpad", tokCarol, nil, 204},
	} {
		res := w.do(t, s.method, s.path, s.token, s.body)
		if res.Status != s.want {
			t.Errorf("%s %s: status %d, want %d: %s", s.method, s.path, res.Status, s.want, res.Body)
			continue
		}
		if res.Operation == "" {
			t.Errorf("%s %s: no operation matched, want one in GitHub's description", s.method, s.path)
			continue
		}
		succeeded[res.Operation] = true
	}
}

// The repository writes' effects and refusals, each as GitHub answers it.
func TestRepoWrites(t *testing.T) {
	w := newWorld(t, emulator.Options{})
	st := w.srv.Emu.State()
	st.Lock()
	st.AddAccount("dave", "Dave", false, epoch)
	st.AddToken(&emulator.Token{Value: "t-dave", Login: "dave", Perms: map[string]emulator.Permission{}})
	st.AddToken(&emulator.Token{Value: "t-alice-scoped", Login: "alice", Scopes: []string{"repo", "read:org"},
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermAdmin}})
	st.Unlock()
	const repo = "/repos/acme/widgets"
	type want struct {
		status int
		has    string // a substring of the answer
	}
	for _, c := range []struct {
		name                string
		method, path, token string
		body                any
		want
	}{
		{"read refused settings", "PATCH", repo, tokCarol, map[string]any{"description": "x"}, want{403, "Must have admin rights to Repository."}},
		{"write refused settings", "PATCH", repo, tokBob, map[string]any{"description": "x"}, want{403, "Must have admin rights to Repository."}},
		{"hidden repository", "PATCH", "/repos/acme/vault", tokCarol, map[string]any{"description": "x"}, want{404, "Not Found"}},
		{"bad visibility", "PATCH", repo, tokAlice, map[string]any{"visibility": "secret"}, want{422, "visibility"}},
		{"settings", "PATCH", repo, tokAlice, map[string]any{"description": "Gears", "homepage": "https://g.example", "has_issues": false, "has_wiki": false},
			want{200, `"homepage":"https://g.example"`}},
		{"settings read back", "GET", repo, tokCarol, nil, want{200, `"has_wiki":false`}},
		{"topics refused", "PUT", repo + "/topics", tokBob, map[string]any{"names": []string{"a"}}, want{403, "Must have admin rights"}},
		{"topic invalid", "PUT", repo + "/topics", tokAlice, map[string]any{"names": []string{"-bad"}}, want{422, "topics"}},
		{"topics", "PUT", repo + "/topics", tokAlice, map[string]any{"names": []string{"Charts", "charts", "dashboards"}}, want{200, `{"names":["charts","dashboards"]}`}},
		{"topics read back", "GET", repo, tokCarol, nil, want{200, `"topics":["charts","dashboards"]`}},
		{"archive", "PATCH", repo, tokAlice, map[string]any{"archived": true}, want{200, `"archived":true`}},
		{"archived refuses writes", "PATCH", repo, tokAlice, map[string]any{"description": "y"}, want{403, "archived"}},
		{"unarchive", "PATCH", repo, tokAlice, map[string]any{"archived": false}, want{200, `"archived":false`}},
		{"create", "POST", "/user/repos", tokCarol, map[string]any{"name": "kit", "description": "Kit"}, want{201, `"full_name":"carol/kit"`}},
		{"create taken", "POST", "/user/repos", tokCarol, map[string]any{"name": "kit"}, want{422, "name already exists on this account"}},
		{"create bad name", "POST", "/user/repos", tokCarol, map[string]any{"name": "a b"}, want{422, "name"}},
		{"create in org, not a member", "POST", "/orgs/acme/repos", "t-dave", map[string]any{"name": "dave-kit"}, want{403, "You need admin access to the organization"}},
		{"create in org", "POST", "/orgs/acme/repos", tokCarol, map[string]any{"name": "carol-kit", "visibility": "private"}, want{201, `"private":true`}},
		{"creator administers", "PATCH", "/repos/acme/carol-kit", tokCarol, map[string]any{"description": "Mine"}, want{200, `"description":"Mine"`}},
		{"fork", "POST", repo + "/forks", "t-dave", map[string]any{}, want{202, `"full_name":"dave/widgets"`}},
		{"fork has its parent", "GET", "/repos/dave/widgets", "t-dave", nil, want{200, `"parent":{`}},
		{"fork again", "POST", repo + "/forks", "t-dave", map[string]any{}, want{202, `"full_name":"dave/widgets"`}},
		{"fork named, name taken", "POST", "/repos/carol/kit/forks", "t-dave", map[string]any{"name": "widgets"}, want{202, `"full_name":"dave/widgets-1"`}},
		{"rename", "PATCH", "/repos/carol/kit", tokCarol, map[string]any{"name": "toolkit"}, want{200, `"full_name":"carol/toolkit"`}},
		{"old name redirects", "GET", "/repos/carol/kit/issues?state=all", tokCarol, nil, want{301, "/repos/carol/toolkit/issues?state=all"}},
		{"delete without the scope", "DELETE", "/repos/acme/widgets", "t-alice-scoped", nil, want{403, "Must have admin rights to Repository."}},
		{"delete refused", "DELETE", "/repos/carol/toolkit", "t-dave", nil, want{403, "Must have admin rights"}},
		{"delete", "DELETE", "/repos/carol/toolkit", tokCarol, nil, want{204, ""}},
		{"deleted", "GET", "/repos/carol/toolkit", tokCarol, nil, want{404, "Not Found"}},
		{"old name gone too", "GET", "/repos/carol/kit", tokCarol, nil, want{404, "Not Found"}},
	} {
		res := w.do(t, c.method, c.path, c.token, c.body)
		checkResponse(t, fmt.Sprintf("%s: %s %s", c.name, c.method, c.path), res, c.status, c.has)
		if c.name == "delete without the scope" && res.Header.Get("X-Accepted-OAuth-Scopes") != "delete_repo" {
			t.Errorf("%s: X-Accepted-OAuth-Scopes %q, want delete_repo", c.name, res.Header.Get("X-Accepted-OAuth-Scopes"))
		}
		if c.status == 301 && !strings.HasSuffix(res.Header.Get("Location"), c.has) {
			t.Errorf("%s: Location %q", c.name, res.Header.Get("Location"))
		}
	}
}
