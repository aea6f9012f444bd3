package fidelity

import (
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
)

// appScope is an App installed on acme's widgets and vault with a few
// permissions, and a way to mint its tokens.
type appScope struct {
	w    *world
	in   *emulator.Installation
	jwt  func() http.Header // the App's Authorization, freshly signed
	mint func(body any) *tokenAnswer
}

type tokenAnswer struct {
	status              int
	body                string
	Token               string            `json:"token"`
	Permissions         map[string]string `json:"permissions"`
	RepositorySelection string            `json:"repository_selection"`
	Repositories        []struct {
		FullName string `json:"full_name"`
	} `json:"repositories"`
}

func newAppScope(t *testing.T) *appScope {
	t.Helper()
	w := newWorld(t, emulator.Options{})
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	st := w.srv.Emu.State()
	st.Lock()
	in := st.AddApp(42, &key.PublicKey).AddInstallation(7, "acme",
		map[string]emulator.Permission{"acme/widgets": emulator.PermWrite, "acme/vault": emulator.PermWrite})
	in.Permissions = emulator.AppPermissions{"issues": "write", "pull_requests": "read", "contents": "read", "metadata": "read"}
	st.Unlock()
	a := &appScope{w: w, in: in}
	a.jwt = func() http.Header {
		now := time.Now()
		jwt, err := emulator.SignAppJWT(42, key, now.Add(-30*time.Second), now.Add(5*time.Minute))
		if err != nil {
			t.Fatal(err)
		}
		return http.Header{"Authorization": {"Bearer " + jwt}}
	}
	a.mint = func(body any) *tokenAnswer {
		t.Helper()
		res := w.srv.Do(t, "POST", "/app/installations/7/access_tokens", "", body, a.jwt())
		out := &tokenAnswer{status: res.Status, body: string(res.Body)}
		if res.Status == http.StatusCreated {
			res.JSON(t, out)
		}
		return out
	}
	return a
}

// TestAppTokenNarrowing: a token request names repositories and
// permissions; the answer carries them, the installation records them,
// and what the installation lacks is refused with GitHub's 422.
func TestAppTokenNarrowing(t *testing.T) {
	a := newAppScope(t)
	tok := a.mint(map[string]any{"repositories": []string{"widgets"}, "permissions": map[string]string{"issues": "read"}})
	if tok.status != http.StatusCreated {
		t.Fatalf("narrowed mint: status %d, want %d: %s", tok.status, http.StatusCreated, tok.body)
	}
	if want := map[string]string{"issues": "read", "metadata": "read"}; !reflect.DeepEqual(tok.Permissions, want) {
		t.Errorf("permissions %v, want %v", tok.Permissions, want)
	}
	if tok.RepositorySelection != "selected" {
		t.Errorf("repository_selection %q, want %q", tok.RepositorySelection, "selected")
	}
	var repos []string
	for _, r := range tok.Repositories {
		repos = append(repos, r.FullName)
	}
	if !slices.Equal(repos, []string{"acme/widgets"}) {
		t.Errorf("repositories %q, want [\"acme/widgets\"]", repos)
	}
	st := a.w.srv.Emu.State()
	st.Lock()
	got := a.in.Requests
	st.Unlock()
	want := []emulator.TokenRequest{{Repositories: []string{"widgets"}, Permissions: emulator.AppPermissions{"issues": "read"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("requests recorded %+v, want %+v", got, want)
	}

	full := a.mint(nil)
	if full.status != http.StatusCreated {
		t.Errorf("unnarrowed mint: status %d, want %d: %s", full.status, http.StatusCreated, full.body)
	}
	if !reflect.DeepEqual(full.Permissions, map[string]string(a.in.Permissions)) {
		t.Errorf("unnarrowed mint: permissions %v, want the installation's %v", full.Permissions, a.in.Permissions)
	}
	if full.Repositories != nil {
		t.Errorf("unnarrowed mint: repositories %+v, want none", full.Repositories)
	}

	for name, body := range map[string]any{
		"a permission not granted":  map[string]any{"permissions": map[string]string{"administration": "write"}},
		"a level above the grant":   map[string]any{"permissions": map[string]string{"pull_requests": "write"}},
		"a permission GitHub lacks": map[string]any{"permissions": map[string]string{"telepathy": "read"}},
	} {
		res := a.mint(body)
		checkAnswer(t, name, res.status, res.body, http.StatusUnprocessableEntity, "not granted to this installation")
	}
	res := a.mint(map[string]any{"repositories": []string{"notes"}})
	checkAnswer(t, "a repository outside the installation", res.status, res.body,
		http.StatusUnprocessableEntity, "not accessible to the parent installation")

	var inst struct {
		ID          int64             `json:"id"`
		TargetType  string            `json:"target_type"`
		Permissions map[string]string `json:"permissions"`
	}
	instRes := a.w.srv.Do(t, "GET", "/app/installations/7", "", nil, a.jwt())
	instRes.JSON(t, &inst)
	if instRes.Status != http.StatusOK {
		t.Errorf("GET installation: status %d, want %d", instRes.Status, http.StatusOK)
	}
	if inst.ID != 7 {
		t.Errorf("GET installation: id %d, want 7", inst.ID)
	}
	if inst.TargetType != "Organization" {
		t.Errorf("GET installation: target_type %q, want %q", inst.TargetType, "Organization")
	}
	if !reflect.DeepEqual(inst.Permissions, map[string]string(a.in.Permissions)) {
		t.Errorf("GET installation: permissions %v, want %v", inst.Permissions, a.in.Permissions)
	}
	if res := a.w.srv.Do(t, "GET", "/app/installations/7", tok.Token, nil); res.Status != http.StatusUnauthorized {
		t.Errorf("an installation token read its installation: %d, want 401 (the endpoint takes the App's JWT)", res.Status)
	}
	st.Lock()
	n := a.in.Minted
	st.Unlock()
	if n != 2 {
		t.Errorf("%d tokens minted, want 2 (refusals mint none)", n)
	}
}

// TestAppTokenEnforced: every request made with an installation token is
// held to its repositories and permissions, over REST and GraphQL.
func TestAppTokenEnforced(t *testing.T) {
	a := newAppScope(t)
	read := a.mint(map[string]any{"repositories": []string{"widgets"}, "permissions": map[string]string{"issues": "read"}}).Token
	write := a.mint(map[string]any{"repositories": []string{"widgets"}, "permissions": map[string]string{"issues": "write"}}).Token
	const widgets = "/repos/acme/widgets"
	comment := map[string]any{"body": "From the App"}
	for _, c := range []struct {
		name, method, path, token string
		body                      any
		status                    int
		accepted                  string // X-Accepted-GitHub-Permissions on a 403
	}{
		{"read with a read token", "GET", widgets + "/issues/1", read, nil, 200, ""},
		{"write with a read token", "POST", widgets + "/issues/1/comments", read, comment, 403, "issues=write; pull_requests=write"},
		{"a permission the token lacks", "GET", widgets + "/contents/README.md", read, nil, 403, "contents=read"},
		{"a private repository outside the token", "GET", "/repos/acme/vault/issues/1", read, nil, 404, ""},
		{"the same with a write token", "POST", "/repos/acme/vault/issues/1/comments", write, comment, 404, ""},
		{"a public repository outside the installation, read", "GET", "/repos/alice/notes/issues/1", write, nil, 200, ""},
		{"a public repository outside the installation, write", "POST", "/repos/alice/notes/issues/1/comments", write, comment, 403, "issues=write; pull_requests=write"},
		{"an endpoint acting for a user", "GET", "/user", write, nil, 403, ""},
		{"write with a write token", "POST", widgets + "/issues/1/comments", write, comment, 201, ""},
	} {
		res := a.w.srv.Do(t, c.method, c.path, c.token, c.body)
		if res.Status != c.status {
			t.Errorf("%s: %d %s, want %d", c.name, res.Status, res.Body, c.status)
			continue
		}
		if c.status == 403 && !strings.Contains(string(res.Body), "Resource not accessible by integration") {
			t.Errorf("%s: body %s, want GitHub's integration message", c.name, res.Body)
		}
		if got := res.Header.Get("X-Accepted-GitHub-Permissions"); got != c.accepted {
			t.Errorf("%s: X-Accepted-GitHub-Permissions %q, want %q", c.name, got, c.accepted)
		}
	}

	var node struct {
		Data struct {
			Repository struct {
				Issue struct {
					ID string `json:"id"`
				} `json:"issue"`
			} `json:"repository"`
		} `json:"data"`
	}
	a.w.srv.Do(t, "POST", "/graphql", read, map[string]any{"query": `{ repository(owner: "acme", name: "widgets") { issue(number: 1) { id } } }`}).JSON(t, &node)
	id := node.Data.Repository.Issue.ID
	if id == "" {
		t.Fatal("a read token could not read the issue's node id")
	}
	mutation := map[string]any{"query": `mutation($id: ID!) { addComment(input: {subjectId: $id, body: "Over GraphQL"}) { commentEdge { node { id } } } }`,
		"variables": map[string]any{"id": id}}
	var refused struct {
		Data   map[string]any `json:"data"`
		Errors []struct {
			Type    string `json:"type"`
			Path    []any  `json:"path"`
			Message string `json:"message"`
		} `json:"errors"`
	}
	a.w.srv.Do(t, "POST", "/graphql", read, mutation).JSON(t, &refused)
	if len(refused.Errors) != 1 {
		t.Errorf("addComment with a read token: %d errors %+v, want one FORBIDDEN", len(refused.Errors), refused.Errors)
	} else if e := refused.Errors[0]; e.Type != "FORBIDDEN" {
		t.Errorf("addComment with a read token: error type %q, want %q", e.Type, "FORBIDDEN")
	} else if want := "Resource not accessible by integration"; e.Message != want {
		t.Errorf("addComment with a read token: error message %q, want %q", e.Message, want)
	} else if refused.Data["addComment"] != nil {
		t.Errorf("addComment with a read token answered %v, want data.addComment null", refused.Data)
	}
	var done struct {
		Errors []any `json:"errors"`
	}
	a.w.srv.Do(t, "POST", "/graphql", write, mutation).JSON(t, &done)
	if len(done.Errors) != 0 {
		t.Errorf("addComment with a write token: errors %v, want none", done.Errors)
	}
	var hidden struct {
		Data struct {
			Repository *struct{} `json:"repository"`
		} `json:"data"`
	}
	a.w.srv.Do(t, "POST", "/graphql", write, map[string]any{"query": `{ repository(owner: "acme", name: "vault") { id } }`}).JSON(t, &hidden)
	if hidden.Data.Repository != nil {
		t.Error("GraphQL showed a private repository outside the token")
	}
}
