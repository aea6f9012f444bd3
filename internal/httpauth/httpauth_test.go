package httpauth

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/lestrrat-go/jwx/v3/jwa"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

func TestConfigValidate(t *testing.T) {
	digest := strings.Repeat("ab", 32)
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"no clients", Config{Issuers: []Issuer{{URL: "https://idp.example"}}}, "no [[client]]"},
		{"no way to authenticate", Config{Clients: []Client{{Name: "a", Read: []string{"*"}}}}, "no [[issuer]]"},
		{"bad digest", Config{Clients: []Client{{Name: "a", KeySHA256: "abc", Read: []string{"*"}}}}, "64 hex digits"},
		{"twice named", Config{Clients: []Client{{Name: "a", KeySHA256: digest, Read: []string{"*"}}, {Name: "a", KeySHA256: strings.Repeat("cd", 32), Read: []string{"*"}}}}, "named twice"},
		{"shared digest", Config{Clients: []Client{{Name: "a", KeySHA256: digest, Read: []string{"*"}}, {Name: "b", KeySHA256: strings.ToUpper(digest), Read: []string{"*"}}}}, "another client's"},
		{"reaches nothing", Config{Clients: []Client{{Name: "a", KeySHA256: digest}}}, "neither read nor write"},
		{"bad pattern", Config{Clients: []Client{{Name: "a", KeySHA256: digest, Read: []string{"acme/../x"}}}}, "want *, OWNER or OWNER/REPO"},
		{"bad issuer", Config{Issuers: []Issuer{{URL: "idp.example"}}, Clients: []Client{{Name: "a", Read: []string{"*"}}}}, "issuer 1 url"},
		{"bad resource", Config{Resource: "ghgate/mcp", Clients: []Client{{Name: "a", KeySHA256: digest, Read: []string{"*"}}}}, "resource"},
	} {
		err := c.cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", c.name, err, c.want)
		}
	}
	ok := Config{Issuers: []Issuer{{URL: "https://idp.example"}}, Clients: []Client{{Name: "a", Read: []string{"acme", "acme/widgets", "*"}}}}
	if err := ok.Validate(); err != nil {
		t.Fatalf("valid config: %v", err)
	}
	if got := ok.Issuers[0].ClientClaim; got != "client_id" {
		t.Fatalf("valid config: ClientClaim = %q, want the default client_id", got)
	}
}

func TestLoadRefusesUnknownKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "auth.toml")
	body := "[[client]]\nname = \"a\"\nkey_sha256 = \"" + strings.Repeat("ab", 32) + "\"\nread = [\"*\"]\n[client.tools]\nreadonly = true\n"
	if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "client.tools.readonly") {
		t.Fatalf("misspelt read_only: error = %v, want one naming %q", err, "client.tools.readonly")
	}
}

// TestDocsAuthConfigsLoad: the two --auth examples of docs/http.md are
// valid.
func TestDocsAuthConfigsLoad(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "..", "docs", "http.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```toml\n(.*?)```").FindAllStringSubmatch(string(raw), -1)
	n := 0
	for _, b := range blocks {
		if !strings.Contains(b[1], "[[client]]") {
			continue
		}
		n++
		path := filepath.Join(t.TempDir(), "auth.toml")
		if err := os.WriteFile(path, []byte(b[1]), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err != nil {
			t.Errorf("docs/http.md example %d: %v", n, err)
		}
	}
	if n != 2 {
		t.Fatalf("docs/http.md has %d --auth examples, want 2 (an identity provider and static keys)", n)
	}
}

func TestPolicy(t *testing.T) {
	p := newPolicy(Client{Read: []string{"acme"}, Write: []string{"acme/widgets"},
		Tools: broker.Tools{Toolsets: []string{"issues"}, Deny: []string{"github_link_issues"}}})
	read := ToolInfo{Mode: tooldef.Read, Toolset: "issues"}
	write := ToolInfo{Mode: tooldef.Write, Toolset: "issues"}
	for _, c := range []struct {
		name string
		info ToolInfo
		want string
	}{
		{"github_get_issue", read, ""},
		{"github_create_issue", write, ""},
		{"github_list_projects", ToolInfo{Mode: tooldef.Read, Toolset: "projects"}, "toolset:projects"},
		{"github_link_issues", write, "tool:github_link_issues"},
	} {
		if got := p.toolScope(c.name, c.info); got != c.want {
			t.Errorf("toolScope(%s) = %q, want %q", c.name, got, c.want)
		}
	}
	ro := newPolicy(Client{Read: []string{"*"}, Write: []string{"*"}, Tools: broker.Tools{ReadOnly: true, Allow: []string{"github_get_issue", "github_create_issue"}}})
	if got := ro.toolScope("github_create_issue", write); got != "write" {
		t.Errorf("read_only: toolScope(github_create_issue) = %q, want write", got)
	}
	// A tool that writes local files (the mirror) is a write to a
	// read-only client, though it reads GitHub with a read grant.
	syncInfo := ToolInfo{Mode: tooldef.Read, Toolset: "sync", Writes: true}
	if got := newPolicy(Client{Read: []string{"*"}, Tools: broker.Tools{ReadOnly: true}}).toolScope("github_sync_issues", syncInfo); got != "write" {
		t.Errorf("read_only, local writes: toolScope(github_sync_issues) = %q, want write", got)
	}
	if got := newPolicy(Client{Read: []string{"*"}}).toolScope("github_sync_issues", syncInfo); got != "" {
		t.Errorf("local writes with a read grant: toolScope(github_sync_issues) = %q, want none", got)
	}
	if got := ro.toolScope("github_search_issues", read); got != "tool:github_search_issues" {
		t.Errorf("allow list: toolScope(github_search_issues) = %q, want tool:github_search_issues", got)
	}
	if got := newPolicy(Client{Read: []string{"*"}}).toolScope("github_create_issue", write); got != "write" {
		t.Errorf("no write grant: toolScope(github_create_issue) = %q, want write", got)
	}

	args := func(raw string) callargs.Args {
		a, e := callargs.Read(json.RawMessage(raw), nil)
		if e != nil {
			t.Fatalf("%s: %v", raw, e)
		}
		return a
	}
	for _, c := range []struct {
		mode tooldef.Mode
		args string
		want []string
	}{
		{tooldef.Read, `{"owner":"acme","repo":"gadgets"}`, nil},
		{tooldef.Read, `{"owner":"ACME"}`, nil},
		{tooldef.Read, `{"owner":"alice","repo":"notes"}`, []string{"read:alice/notes"}},
		{tooldef.Write, `{"owner":"acme","repo":"widgets"}`, nil},
		{tooldef.Write, `{"owner":"acme","repo":"gadgets"}`, []string{"write:acme/gadgets"}},
		{tooldef.Write, `{"owner":"acme"}`, []string{"write:acme"}},
		{tooldef.Read, `{"query":"bug"}`, []string{"read:*"}},
		{tooldef.Read, `{"query":"repo:acme/widgets bug"}`, nil},
		{tooldef.Read, `{"query":"repo:acme/widgets OR repo:alice/notes"}`, []string{"read:alice/notes"}},
		{tooldef.Read, `{"query":"user:@me is:open"}`, []string{"read:*"}},
		{tooldef.Read, `{"query":"-repo:alice/notes org:acme"}`, nil},
		// The other issue of a link, and the original of a duplicate, are
		// reached too: a grant on the named repository alone is not enough.
		{tooldef.Write, `{"owner":"acme","repo":"widgets","target_issue_number":1,"target_repo":"gadgets"}`, []string{"write:acme/gadgets"}},
		{tooldef.Write, `{"owner":"acme","repo":"widgets","target_owner":"alice","target_repo":"notes"}`, []string{"write:alice/notes"}},
		{tooldef.Write, `{"owner":"acme","repo":"widgets","target_owner":"acme"}`, nil},
		{tooldef.Write, `{"owner":"acme","repo":"widgets","duplicate_of":2,"duplicate_of_repo":"acme/gadgets"}`, []string{"write:acme/gadgets"}},
		{tooldef.Write, `{"owner":"acme","repo":"widgets","duplicate_of":2,"duplicate_of_repo":"acme/widgets"}`, nil},
	} {
		if got := p.missingScopes(c.mode, args(c.args)); !slices.Equal(got, c.want) {
			t.Errorf("%s %s: missing %v, want %v", c.mode, c.args, got, c.want)
		}
	}
	// A report's repos are each read as if named by repo: a grant on the
	// one named is not enough for the others listed.
	narrow := newPolicy(Client{Read: []string{"acme/widgets"}})
	for _, c := range []struct {
		args string
		want []string
	}{
		{`{"owner":"acme","repo":"widgets","repos":["widgets"]}`, nil},
		{`{"owner":"acme","repo":"widgets","repos":["gadgets","payroll"]}`, []string{"read:acme/gadgets", "read:acme/payroll"}},
		{`{"owner":"acme","repos":["widgets"]}`, []string{"read:acme"}},
	} {
		if got := narrow.missingScopes(tooldef.Read, args(c.args)); !slices.Equal(got, c.want) {
			t.Errorf("%s: missing %v, want %v", c.args, got, c.want)
		}
	}
	for _, bad := range []string{`{"owner":"acme","repos":"gadgets"}`, `{"owner":"acme","repos":["../x"]}`, `{"owner":"acme","repos":["alice/notes"]}`, `{"repos":["gadgets"]}`} {
		if _, e := callargs.Read(json.RawMessage(bad), nil); e == nil {
			t.Errorf("%s: accepted, want %s", bad, contract.CodeInvalidField)
		} else if e.Code != contract.CodeInvalidField {
			t.Errorf("%s: code = %s, want %s (%v)", bad, e.Code, contract.CodeInvalidField, e)
		}
	}
}

// idp serves OpenID metadata and a JWKS on loopback.
type idp struct {
	srv  *httptest.Server
	mu   sync.Mutex
	keys []jwk.Key
	hits atomic.Int64
}

func newIdP(t *testing.T) *idp {
	i := &idp{}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		_ = json.NewEncoder(w).Encode(map[string]string{"issuer": i.srv.URL, "jwks_uri": i.srv.URL + "/keys"})
	})
	mux.HandleFunc("GET /keys", func(w http.ResponseWriter, r *http.Request) {
		i.hits.Add(1)
		i.mu.Lock()
		defer i.mu.Unlock()
		set := jwk.NewSet()
		for _, k := range i.keys {
			pub, _ := k.PublicKey()
			_ = set.AddKey(pub)
		}
		_ = json.NewEncoder(w).Encode(set)
	})
	i.srv = httptest.NewServer(mux)
	t.Cleanup(i.srv.Close)
	return i
}

func (i *idp) publish(keys ...jwk.Key) { i.mu.Lock(); i.keys = keys; i.mu.Unlock() }

func rsaKey(t *testing.T, kid string) jwk.Key {
	raw, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	k, err := jwk.Import(raw)
	if err != nil {
		t.Fatal(err)
	}
	_ = k.Set(jwk.KeyIDKey, kid)
	return k
}

func (i *idp) sign(t *testing.T, k jwk.Key, mod func(*jwt.Builder)) string {
	b := jwt.NewBuilder().Issuer(i.srv.URL).Audience([]string{"https://ghgate.test/mcp"}).
		Expiration(time.Now().Add(time.Hour)).Claim("client_id", "bot")
	if mod != nil {
		mod(b)
	}
	tok, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := jwt.Sign(tok, jwt.WithKey(jwa.RS256(), k))
	if err != nil {
		t.Fatal(err)
	}
	return string(s)
}

func TestVerify(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	i := newIdP(t)
	k1 := rsaKey(t, "k1")
	i.publish(k1)
	const key = "static-key-0123456789"
	cfg := &Config{Issuers: []Issuer{{URL: i.srv.URL}}, Clients: []Client{
		{Name: "bot", Read: []string{"*"}},
		{Name: "ci", KeySHA256: KeyDigest(key), Read: []string{"*"}},
	}}
	a, err := New(ctx, cfg, "https://ghgate.test/mcp", Options{MinRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	name := func(tok string) (string, error) {
		ti, err := a.Verify(ctx, tok, nil)
		if err != nil {
			if !errors.Is(err, auth.ErrInvalidToken) {
				t.Errorf("a refusal that is not ErrInvalidToken (so not 401): %v", err)
			}
			return "", err
		}
		return ti.UserID, nil
	}
	if n, err := name(key); err != nil {
		t.Errorf("static key: %v", err)
	} else if n != "ci" {
		t.Errorf("static key names %q, want ci", n)
	}
	if n, err := name(i.sign(t, k1, nil)); err != nil {
		t.Errorf("IdP token: %v", err)
	} else if n != "bot" {
		t.Errorf("IdP token names %q, want bot", n)
	}
	for what, tok := range map[string]string{
		"static key, last byte changed": key[:len(key)-1] + "8",
		"static key, one byte short":    key[:len(key)-1],
		"expired":                       i.sign(t, k1, func(b *jwt.Builder) { b.Expiration(time.Now().Add(-time.Hour)) }),
		"another audience":              i.sign(t, k1, func(b *jwt.Builder) { b.Audience([]string{"https://other.test/mcp"}) }),
		"no client claim":               i.sign(t, k1, func(b *jwt.Builder) { b.Claim("client_id", "") }),
		"unknown client":                i.sign(t, k1, func(b *jwt.Builder) { b.Claim("client_id", "ci") }),
		"another issuer":                i.sign(t, k1, func(b *jwt.Builder) { b.Issuer("https://evil.test") }),
		"no expiry":                     noExpiry(t, i, k1),
	} {
		if n, err := name(tok); err == nil {
			t.Errorf("%s: accepted as %q", what, n)
		}
	}

	// An unknown key id forces one fetch; a second within MinRefresh does not.
	hits := i.hits.Load()
	rogue := rsaKey(t, "rogue")
	for range 3 {
		if _, err := name(i.sign(t, rogue, nil)); err == nil {
			t.Fatal("a token signed by an unpublished key was accepted")
		}
	}
	if got := i.hits.Load() - hits; got != 1 {
		t.Errorf("three unknown-key tokens fetched the JWKS %d times, want 1", got)
	}
}

func noExpiry(t *testing.T, i *idp, k jwk.Key) string {
	tok, err := jwt.NewBuilder().Issuer(i.srv.URL).Audience([]string{"https://ghgate.test/mcp"}).Claim("client_id", "bot").Build()
	if err != nil {
		t.Fatal(err)
	}
	s, err := jwt.Sign(tok, jwt.WithKey(jwa.RS256(), k))
	if err != nil {
		t.Fatal(err)
	}
	return string(s)
}

func TestVerifyPicksUpRotation(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	i := newIdP(t)
	k1, k2 := rsaKey(t, "k1"), rsaKey(t, "k2")
	i.publish(k1)
	cfg := &Config{Issuers: []Issuer{{URL: i.srv.URL}}, Clients: []Client{{Name: "bot", Read: []string{"*"}}}}
	a, err := New(ctx, cfg, "https://ghgate.test/mcp", Options{MinRefresh: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Verify(ctx, i.sign(t, k1, nil), nil); err != nil {
		t.Fatalf("k1 before rotation: %v", err)
	}
	i.publish(k2)
	time.Sleep(5 * time.Millisecond)
	if _, err := a.Verify(ctx, i.sign(t, k2, nil), nil); err != nil {
		t.Fatalf("k2 after rotation: %v", err)
	}
	if _, err := a.Verify(ctx, i.sign(t, k1, nil), nil); err == nil {
		t.Fatal("k1, retired, still accepted after the keys were fetched anew")
	}
}

// TestVerifyRefusesAlgorithmConfusion: a token MACed with HS256 using the
// provider's public key as the secret is not accepted as the provider's.
func TestVerifyRefusesAlgorithmConfusion(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	i := newIdP(t)
	k := rsaKey(t, "k1")
	i.publish(k)
	a, err := New(ctx, &Config{Issuers: []Issuer{{URL: i.srv.URL}}, Clients: []Client{{Name: "bot", Read: []string{"*"}}}},
		"https://ghgate.test/mcp", Options{MinRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	pub, err := k.PublicKey()
	if err != nil {
		t.Fatal(err)
	}
	secret, err := json.Marshal(pub)
	if err != nil {
		t.Fatal(err)
	}
	hk, err := jwk.Import(secret)
	if err != nil {
		t.Fatal(err)
	}
	_ = hk.Set(jwk.KeyIDKey, "k1")
	tok, err := jwt.NewBuilder().Issuer(i.srv.URL).Audience([]string{"https://ghgate.test/mcp"}).
		Expiration(time.Now().Add(time.Hour)).Claim("client_id", "bot").Build()
	if err != nil {
		t.Fatal(err)
	}
	signed, err := jwt.Sign(tok, jwt.WithKey(jwa.HS256(), hk))
	if err != nil {
		t.Fatal(err)
	}
	if ti, err := a.Verify(ctx, string(signed), nil); err == nil {
		t.Fatalf("an HS256 token keyed with the public key was accepted as %q", ti.UserID)
	}
	// The same claims signed by the real key pass: the refusal is the algorithm's.
	if _, err := a.Verify(ctx, i.sign(t, k, nil), nil); err != nil {
		t.Fatalf("RS256: %v", err)
	}
}
