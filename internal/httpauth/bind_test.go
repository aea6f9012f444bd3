package httpauth

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/lestrrat-go/jwx/v3/jwt"
)

// TestVerifyBindsClientsToTheirIssuer: two identity providers on loopback
// both sign tokens whose client_id is "release-agent". Only the provider
// release-agent is bound to gets release-agent; the other's token is
// refused, and a client bound to the second provider is its own client,
// whatever its client id.
func TestVerifyBindsClientsToTheirIssuer(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	idpA, idpB := newIdP(t), newIdP(t)
	ka, kb := rsaKey(t, "a1"), rsaKey(t, "b1")
	idpA.publish(ka)
	idpB.publish(kb)
	cfg := &Config{Issuers: []Issuer{{URL: idpA.srv.URL}, {URL: idpB.srv.URL}}, Clients: []Client{
		{Name: "release-agent", Issuer: idpA.srv.URL, Read: []string{"*"}, Write: []string{"acme"}},
		{Name: "b-triage", Issuer: idpB.srv.URL, ClientID: "triage", Read: []string{"alice"}},
	}}
	a, err := New(ctx, cfg, "https://ghgate.test/mcp", Options{MinRefresh: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	clientID := func(id string) func(*jwt.Builder) { return func(b *jwt.Builder) { b.Claim("client_id", id) } }
	for _, c := range []struct {
		what, token, want string // want "": refused
	}{
		{"A's release-agent", idpA.sign(t, ka, clientID("release-agent")), "release-agent"},
		{"B's release-agent", idpB.sign(t, kb, clientID("release-agent")), ""},
		{"B's triage", idpB.sign(t, kb, clientID("triage")), "b-triage"},
		{"A's triage", idpA.sign(t, ka, clientID("triage")), ""},
		{"B's b-triage (a name, not B's client id)", idpB.sign(t, kb, clientID("b-triage")), ""},
	} {
		ti, err := a.Verify(ctx, c.token, nil)
		got := ""
		if err == nil {
			got = ti.UserID
		}
		if got != c.want {
			t.Errorf("%s: client = %q, want %q (error: %v)", c.what, got, c.want, err)
		}
	}
}

// TestConfigBindsClients: an identity-provider client is bound to one
// configured issuer, by its name or by the only issuer there is, and to
// a client id; every ambiguous binding is refused at start.
func TestConfigBindsClients(t *testing.T) {
	t.Parallel()
	const a, b = "https://a.idp.example", "https://b.idp.example"
	digest := strings.Repeat("ab", 32)
	both := []Issuer{{URL: a}, {URL: b}}
	for _, c := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"several issuers, client names none", Config{Issuers: both, Clients: []Client{{Name: "release-agent", Read: []string{"*"}}}},
			`client "release-agent" names no issuer, and 2 are configured`},
		{"issuer not configured", Config{Issuers: both, Clients: []Client{{Name: "x", Issuer: "https://c.idp.example", Read: []string{"*"}}}},
			`issuer "https://c.idp.example" is not the url of a configured [[issuer]]`},
		{"issuer differs by a slash", Config{Issuers: both, Clients: []Client{{Name: "x", Issuer: a + "/", Read: []string{"*"}}}},
			"is not the url of a configured [[issuer]]"},
		{"static key naming an issuer", Config{Issuers: both, Clients: []Client{{Name: "ci", KeySHA256: digest, Issuer: a, Read: []string{"*"}}}},
			"key_sha256 with issuer or client_id"},
		{"static key with a client id", Config{Issuers: both, Clients: []Client{{Name: "ci", KeySHA256: digest, ClientID: "ci", Read: []string{"*"}}}},
			"key_sha256 with issuer or client_id"},
		{"no issuer at all", Config{Clients: []Client{{Name: "ci", KeySHA256: digest, Read: []string{"*"}}, {Name: "bot", Read: []string{"*"}}}},
			`client "bot" has no key_sha256 and no [[issuer]] is configured`},
		{"one client id twice at one issuer", Config{Issuers: both, Clients: []Client{
			{Name: "release-agent", Issuer: a, Read: []string{"*"}},
			{Name: "other", Issuer: a, ClientID: "release-agent", Read: []string{"*"}}}},
			`clients "release-agent" and "other" are both client_id "release-agent" of issuer ` + a},
		{"one issuer twice", Config{Issuers: []Issuer{{URL: a}, {URL: a}}, Clients: []Client{{Name: "x", Issuer: a, Read: []string{"*"}}}},
			"issuer " + a + " is configured twice"},
	} {
		err := c.cfg.Validate()
		if err == nil {
			t.Errorf("%s: accepted, want an error containing %q", c.name, c.want)
		} else if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %q, want it to contain %q", c.name, err, c.want)
		}
	}

	// One issuer: an unbound client is its, under its own name.
	one := Config{Issuers: []Issuer{{URL: a}}, Clients: []Client{{Name: "triage", Read: []string{"*"}}}}
	if err := one.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := one.Clients[0].Issuer; got != a {
		t.Errorf("the only issuer: client's issuer = %q, want %q", got, a)
	}
	if got := one.Clients[0].ClientID; got != "triage" {
		t.Errorf("no client_id: client id = %q, want its name %q", got, "triage")
	}
	// The same client id at two issuers is two clients, by two names.
	two := Config{Issuers: both, Clients: []Client{
		{Name: "release-agent", Issuer: a, Read: []string{"*"}},
		{Name: "b-release-agent", Issuer: b, ClientID: "release-agent", Read: []string{"acme"}}}}
	if err := two.Validate(); err != nil {
		t.Errorf("one client id at two issuers: %v", err)
	}
}
