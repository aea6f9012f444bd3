package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/ghgate/ghgate/internal/testutil"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testIdP is an identity provider served by the test on loopback: OpenID
// metadata naming a JWKS, and the JWKS of whichever keys it publishes now.
type testIdP struct {
	srv       *httptest.Server
	mu        sync.Mutex
	published []jwk.Key // private keys; the JWKS serves their public halves
	jwksHits  atomic.Int64
}

func newTestIdP(t *testing.T) *testIdP {
	t.Helper()
	idp := &testIdP{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"issuer": idp.srv.URL, "jwks_uri": idp.srv.URL + "/jwks",
			"authorization_endpoint": idp.srv.URL + "/authorize", "token_endpoint": idp.srv.URL + "/token",
			"response_types_supported": []string{"code"}, "code_challenge_methods_supported": []string{"S256"},
		})
	})
	mux.HandleFunc("GET /jwks", func(w http.ResponseWriter, r *http.Request) {
		idp.jwksHits.Add(1)
		idp.mu.Lock()
		set := jwk.NewSet()
		for _, k := range idp.published {
			pub, err := k.PublicKey()
			if err != nil {
				t.Error(err)
			}
			_ = set.AddKey(pub)
		}
		idp.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(set)
	})
	idp.srv = httptest.NewServer(mux)
	t.Cleanup(idp.srv.Close)
	return idp
}

// newKey makes a real RSA signing key with kid.
func newKey(t *testing.T, kid string) jwk.Key {
	t.Helper()
	raw, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	k, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	if err := k.Set(jwk.KeyIDKey, kid); err != nil {
		t.Fatal(err)
	}
	if err := k.Set(jwk.AlgorithmKey, jwa.RS256()); err != nil {
		t.Fatal(err)
	}
	return k
}

func (idp *testIdP) publish(keys ...jwk.Key) {
	idp.mu.Lock()
	defer idp.mu.Unlock()
	idp.published = keys
}

// token signs an access token for client with key.
func (idp *testIdP) token(t *testing.T, key jwk.Key, client, audience string, exp time.Time) string {
	t.Helper()
	tok, err := jwt.NewBuilder().Issuer(idp.srv.URL).Audience([]string{audience}).Subject("svc-"+client).
		IssuedAt(time.Now().Add(-time.Minute)).Expiration(exp).Claim("client_id", client).Build()
	if err != nil {
		t.Fatal(err)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.RS256(), key))
	if err != nil {
		t.Fatal(err)
	}
	return string(signed)
}

// countingEmulator serves the demo world and counts the requests that
// reach it: a refused call must add none.
func countingEmulator(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	emu, err := emulator.New(emulator.Options{Seed: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	var n atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		emu.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, &n
}

const (
	staticKey = "ghgate-static-key-for-the-reader-client-0123456789"
)

// authServe starts the built binary with --auth: an IdP client "triage"
// limited to acme/widgets and the issues toolset, and a static-key client
// "reader" that may read all of acme, read-only. extra are further serve
// arguments.
func authServe(t *testing.T, idp *testIdP, extra ...string) (url string, upstream *atomic.Int64, stderr interface{ String() string }) {
	t.Helper()
	emu, n := countingEmulator(t)
	clients := fmt.Sprintf(`
scopes_supported = ["read", "write"]

[[issuer]]
url = %q

[[client]]
name = "triage"
read = ["acme/widgets"]
write = ["acme/widgets"]
[client.tools]
toolsets = ["issues"]
deny = ["github_link_issues"]

[[client]]
name = "reader"
key_sha256 = %q
read = ["acme"]
[client.tools]
read_only = true
`, idp.srv.URL, httpauth.KeyDigest(staticKey))
	u, buf := serveWithAuth(t, emu.URL, "toolsets = [\"all\"]\n", clients, extra...)
	return u, n, buf
}

// serveWithAuth starts the built binary against githubURL as alice, with
// the config lines given, an --auth file whose body is clients, and
// further serve arguments.
func serveWithAuth(t *testing.T, githubURL, config, clients string, extra ...string) (url string, stderr *testutil.SyncBuffer) {
	t.Helper()
	dir := t.TempDir()
	cfg := filepath.Join(dir, "ghgate.toml")
	if err := os.WriteFile(cfg, []byte(fmt.Sprintf("token = %q\ngithub_url = %q\n%s", emulator.DemoTokenAlice, githubURL, config)), 0o600); err != nil {
		t.Fatal(err)
	}
	authFile := filepath.Join(dir, "auth.toml")
	if err := os.WriteFile(authFile, []byte(clients), 0o600); err != nil {
		t.Fatal(err)
	}
	u, _, buf, _ := startHTTPServe(t, append([]string{"--config", cfg, "--auth", authFile}, extra...)...)
	return u, buf
}

// rawCall posts a tools/call with an optional Authorization header and
// returns the status and the WWW-Authenticate header.
func rawCall(t *testing.T, url, authz string) (int, string) {
	t.Helper()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"github_get_issue","arguments":{"owner":"acme","repo":"widgets","issue_number":1}}}`
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	if authz != "" {
		req.Header.Set("Authorization", authz)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectAs(t *testing.T, url, token string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "auth-test", Version: "0"}, nil).Connect(context.Background(),
		&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token}}}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestServeAuthRefusals sends each kind of bad credential over the wire:
// every one is answered 401 with a WWW-Authenticate naming the resource
// metadata, and none reaches GitHub.
func TestServeAuthRefusals(t *testing.T) {
	idp := newTestIdP(t)
	k1 := newKey(t, "k1")
	idp.publish(k1)
	url, upstream, stderr := authServe(t, idp)
	metaURL := strings.TrimSuffix(url, "/mcp") + httpauth.MetadataPath
	wantHeader := `Bearer resource_metadata="` + metaURL + `"`

	tamperedKey := []byte(staticKey)
	tamperedKey[7] ^= 0x01
	rogue := newKey(t, "rogue")
	cases := []struct {
		name, authz string
	}{
		{"no token", ""},
		{"not bearer", "Basic " + staticKey},
		{"expired token", "Bearer " + idp.token(t, k1, "triage", url, time.Now().Add(-2*time.Minute))},
		{"other audience", "Bearer " + idp.token(t, k1, "triage", "https://other.example/mcp", time.Now().Add(time.Hour))},
		{"unconfigured client", "Bearer " + idp.token(t, k1, "stranger", url, time.Now().Add(time.Hour))},
		{"static key with one byte changed", "Bearer " + string(tamperedKey)},
	}
	for _, c := range cases {
		before := upstream.Load()
		status, header := rawCall(t, url, c.authz)
		wantUnauthorized(t, c.name, status, header, wantHeader)
		if n := upstream.Load() - before; n != 0 {
			t.Errorf("%s: %d requests reached GitHub", c.name, n)
		}
		t.Logf("%s: %d, WWW-Authenticate: %s", c.name, status, header)
	}
	// The good credentials pass, so the refusals above are the checks'.
	for name, authz := range map[string]string{
		"static key": "Bearer " + staticKey,
		"IdP token":  "Bearer " + idp.token(t, k1, "triage", url, time.Now().Add(time.Hour)),
	} {
		before := upstream.Load()
		if status, _ := rawCall(t, url, authz); status != http.StatusOK {
			t.Errorf("%s: got %d, want 200\n%s", name, status, stderr.String())
		}
		if upstream.Load() == before {
			t.Errorf("%s: the call reached no GitHub", name)
		}
	}

	// The metadata the header names says who issues tokens for what.
	resp, err := http.Get(metaURL)
	if err != nil {
		t.Fatal(err)
	}
	var meta struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		Scopes               []string `json:"scopes_supported"`
	}
	err = json.NewDecoder(resp.Body).Decode(&meta)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("decode metadata: %v", err)
	}
	if meta.Resource != url {
		t.Fatalf("metadata resource = %q, want %q", meta.Resource, url)
	}
	if !slices.Equal(meta.AuthorizationServers, []string{idp.srv.URL}) {
		t.Fatalf("metadata authorization_servers = %q, want [%s]", meta.AuthorizationServers, idp.srv.URL)
	}
	if !slices.Equal(meta.Scopes, []string{"read", "write"}) {
		t.Fatalf("metadata scopes_supported = %q, want [read write]", meta.Scopes)
	}

	// Key rotation mid-run: the IdP replaces k1 with k2. A token signed
	// with k2 is accepted at once (the unknown kid makes ghgate fetch the
	// keys anew); one signed with the retired k1 is then refused.
	k2 := newKey(t, "k2")
	idp.publish(k2)
	hits := idp.jwksHits.Load()
	before := upstream.Load()
	if status, header := rawCall(t, url, "Bearer "+idp.token(t, k2, "triage", url, time.Now().Add(time.Hour))); status != http.StatusOK {
		t.Fatalf("token signed with the rotated-in key: %d %q\n%s", status, header, stderr.String())
	}
	if n := idp.jwksHits.Load() - hits; n == 0 {
		t.Fatalf("rotation: JWKS fetched %d more times, want at least 1", n)
	}
	if n := upstream.Load() - before; n == 0 {
		t.Fatalf("rotation: %d GitHub requests, want at least 1", n)
	}
	before = upstream.Load()
	if status, header := rawCall(t, url, "Bearer "+idp.token(t, k1, "triage", url, time.Now().Add(time.Hour))); wantUnauthorized(t, "token signed with the retired key", status, header, wantHeader) {
		t.Logf("retired key after rotation: %d, WWW-Authenticate: %s", status, header)
	}
	if upstream.Load() != before {
		t.Error("a retired key's call reached GitHub")
	}
	// A key the IdP never published is refused even after the keys are
	// fetched anew. (It runs after the rotation: an unknown key forces a
	// fetch at most once a minute, so it would delay seeing the rotation.)
	before = upstream.Load()
	if status, header := rawCall(t, url, "Bearer "+idp.token(t, rogue, "triage", url, time.Now().Add(time.Hour))); wantUnauthorized(t, "unknown signing key", status, header, wantHeader) {
		t.Logf("unknown signing key: %d, WWW-Authenticate: %s", status, header)
	}
	if upstream.Load() != before {
		t.Error("an unknown key's call reached GitHub")
	}
	for name, key := range map[string]string{"the static key": staticKey, "the tampered key": string(tamperedKey)} {
		if strings.Contains(stderr.String(), key) {
			t.Errorf("the log shows %s, want no client key", name)
		}
	}
}

// envelope is the error envelope a refused tool call carries.
type envelope struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Details struct {
		RequiredScopes []string `json:"required_scopes"`
		Rule           string   `json:"rule"`
	} `json:"details"`
	Settlement string `json:"settlement"`
}

func callEnvelope(t *testing.T, cs *mcp.ClientSession, tool string, args any) (bool, envelope) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var env envelope
	if res.IsError {
		raw, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(raw, &env); err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
	}
	return res.IsError, env
}

// TestServeAuthTwoClientsTwoPolicies: one server, two clients, each doing
// exactly what its policy says, through tools, resource templates and
// completions; every refusal is insufficient_scope naming the missing
// scope, before any GitHub request.
func TestServeAuthTwoClientsTwoPolicies(t *testing.T) {
	idp := newTestIdP(t)
	k := newKey(t, "k1")
	idp.publish(k)
	url, upstream, stderr := authServe(t, idp)
	triage := connectAs(t, url, idp.token(t, k, "triage", url, time.Now().Add(time.Hour)))
	reader := connectAs(t, url, staticKey)
	ctx := context.Background()

	refused := func(who string, cs *mcp.ClientSession, tool string, args map[string]any, scope string) {
		t.Helper()
		before := upstream.Load()
		isErr, env := callEnvelope(t, cs, tool, args)
		if !isErr {
			t.Errorf("%s %s %v: isError = false, want a refusal; got %+v", who, tool, args, env)
		}
		if env.Code != "insufficient_scope" {
			t.Errorf("%s %s %v: code = %q, want insufficient_scope", who, tool, args, env.Code)
		}
		if !slices.Equal(env.Details.RequiredScopes, []string{scope}) {
			t.Errorf("%s %s %v: required_scopes = %q, want [%s]", who, tool, args, env.Details.RequiredScopes, scope)
		}
		if upstream.Load() != before {
			t.Errorf("%s %s: a refused call reached GitHub", who, tool)
		}
	}
	allowed := func(who string, cs *mcp.ClientSession, tool string, args map[string]any) {
		t.Helper()
		if isErr, env := callEnvelope(t, cs, tool, args); isErr {
			t.Errorf("%s %s %v: refused: %+v", who, tool, args, env)
		}
	}

	// tools/list shows each client its own surface.
	names := func(cs *mcp.ClientSession) []string {
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, tl := range res.Tools {
			out = append(out, tl.Name)
		}
		return out
	}
	tn, rn := names(triage), names(reader)
	if !slices.Contains(tn, "github_create_issue") {
		t.Errorf("triage (may write) lists %v, want github_create_issue among them", tn)
	}
	if slices.Contains(tn, "github_link_issues") {
		t.Errorf("triage (github_link_issues denied) lists %v, want no github_link_issues", tn)
	}
	for _, write := range []string{"github_create_issue", "github_update_issue"} {
		if slices.Contains(rn, write) {
			t.Errorf("reader (read-only) lists %v, want no %s", rn, write)
		}
	}
	if !slices.Contains(rn, "github_get_issue") {
		t.Errorf("reader (read-only) lists %v, want github_get_issue among them", rn)
	}

	widgets := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}
	gadgets := map[string]any{"owner": "acme", "repo": "gadgets", "issue_number": 1}
	notes := map[string]any{"owner": "alice", "repo": "notes", "issue_number": 1}
	allowed("triage", triage, "github_get_issue", widgets)
	allowed("triage", triage, "github_add_comment", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1, "body": "seen"})
	refused("triage", triage, "github_get_issue", gadgets, "read:acme/gadgets")
	refused("triage", triage, "github_add_comment", map[string]any{"owner": "acme", "repo": "gadgets", "issue_number": 1, "body": "x"}, "write:acme/gadgets")
	refused("triage", triage, "github_search_issues", map[string]any{"query": "repo:acme/gadgets bug"}, "read:acme/gadgets")
	refused("triage", triage, "github_search_issues", map[string]any{"query": "bug"}, "read:*")
	refused("triage", triage, "github_link_issues", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}, "tool:github_link_issues")

	// An owner given twice under case folding could be read as either: refused, before GitHub.
	before0 := upstream.Load()
	isErr, env := callEnvelope(t, triage, "github_get_issue", map[string]any{"owner": "acme", "Owner": "alice", "repo": "widgets", "issue_number": 1})
	if !isErr {
		t.Errorf("owner twice: isError = false, want a refusal; got %+v", env)
	}
	if env.Code != "invalid_field" {
		t.Errorf("owner twice: code = %q, want invalid_field", env.Code)
	}
	if upstream.Load() != before0 {
		t.Error("owner twice: the call reached GitHub")
	}

	// A query reaching past the owner and repository the call names is refused too.
	isErr, env = callEnvelope(t, triage, "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "query": "repo:alice/notes"})
	if !isErr {
		t.Errorf("query past the named repo: isError = false, want a refusal; got %+v", env)
	}
	if env.Code != "invalid_field" {
		t.Errorf("query past the named repo: code = %q, want invalid_field", env.Code)
	}
	if upstream.Load() != before0 {
		t.Error("a query past the named repo reached GitHub")
	}

	allowed("reader", reader, "github_get_issue", gadgets)
	allowed("reader", reader, "github_search_issues", map[string]any{"owner": "acme", "query": "widget"})
	refused("reader", reader, "github_get_issue", notes, "read:alice/notes")
	refused("reader", reader, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "x"}, "write")

	// Resource templates: a read inside the policy works, one outside is
	// refused with the envelope in the error's data.
	if _, err := triage.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/1"}); err != nil {
		t.Errorf("triage reads acme/widgets#1: %v", err)
	}
	before := upstream.Load()
	_, err := triage.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/gadgets/issues/1"})
	wantErrorSaying(t, "triage reads acme/gadgets#1", err, "insufficient_scope", "read:acme/gadgets")
	_, err = reader.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://alice/notes/issues"})
	wantErrorSaying(t, "reader reads alice/notes' issues", err, "insufficient_scope")
	if upstream.Load() != before {
		t.Error("a refused resource read reached GitHub")
	}
	if _, err := reader.ReadResource(ctx, &mcp.ReadResourceParams{URI: "github://acme/gadgets/issues"}); err != nil {
		t.Errorf("reader reads acme/gadgets' issues: %v", err)
	}

	// Completions: owners and repositories offered are the policy's; a
	// label inside a repository outside it is refused before GitHub.
	complete := func(cs *mcp.ClientSession, arg, value string, known map[string]string) ([]string, error) {
		res, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}"},
			Argument: mcp.CompleteParamsArgument{Name: arg, Value: value}, Context: &mcp.CompleteContext{Arguments: known}})
		if err != nil {
			return nil, err
		}
		return res.Completion.Values, nil
	}
	if v, err := complete(triage, "repo", "", map[string]string{"owner": "acme"}); err != nil {
		t.Errorf("triage completes acme's repos: %v", err)
	} else if !slices.Equal(v, []string{"widgets"}) {
		t.Errorf("triage completes acme's repos = %q, want [widgets]", v)
	}
	if v, err := complete(reader, "repo", "", map[string]string{"owner": "acme"}); err != nil {
		t.Errorf("reader completes acme's repos: %v", err)
	} else {
		for _, want := range []string{"gadgets", "widgets"} {
			if !slices.Contains(v, want) {
				t.Errorf("reader completes acme's repos = %q, want %s among them", v, want)
			}
		}
	}
	if v, err := complete(reader, "owner", "", nil); err != nil {
		t.Errorf("reader completes owners: %v", err)
	} else if slices.ContainsFunc(v, func(s string) bool { return !strings.EqualFold(s, "acme") }) {
		t.Errorf("reader completes owners = %q, want acme only", v)
	}
	before = upstream.Load()
	_, err = complete(triage, "labels", "", map[string]string{"owner": "acme", "repo": "gadgets"})
	wantErrorSaying(t, "triage completes gadgets' labels", err, "insufficient_scope")
	_, err = complete(reader, "repo", "", map[string]string{"owner": "alice"})
	wantErrorSaying(t, "reader completes alice's repos", err, "read:alice")
	if upstream.Load() != before {
		t.Error("a refused completion reached GitHub")
	}
	if v, err := complete(triage, "labels", "", map[string]string{"owner": "acme", "repo": "widgets"}); err != nil {
		t.Errorf("triage completes widgets' labels: %v", err)
	} else if len(v) == 0 {
		t.Errorf("triage completes widgets' labels: none, want some")
	}

	// The audit lines name the client.
	log := stderr.String()
	for _, want := range []string{"client=triage tool=github_get_issue", "client=reader tool=github_get_issue", "code=insufficient_scope"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}

}

// TestServeHTTPWithoutAuthWarns: loopback without --auth keeps serving
// anyone who reaches the port, and says so at start.
func TestServeHTTPWithoutAuthWarns(t *testing.T) {
	url, _, stderr, _ := startHTTPServe(t, "--demo")
	for _, want := range []string{"level=WARN", "without --auth"} {
		if !strings.Contains(stderr.String(), want) {
			t.Fatalf("start-up log lacks %q, want a warning naming the missing --auth:\n%s", want, stderr.String())
		}
	}
	if status, _ := rawCall(t, url, ""); status != http.StatusOK {
		t.Fatalf("loopback without --auth: a call without a token got %d", status)
	}
}
