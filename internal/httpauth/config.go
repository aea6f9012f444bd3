// Package httpauth makes ghgate's streamable HTTP endpoint an OAuth 2.1
// resource server, as MCP's authorization specification describes: every
// request carries a bearer token, checked here and never passed on to
// GitHub; the token names a client (a static key by its digest, an
// identity provider's JWT by its issuer and client id, never by the client
// id alone), and the client's policy (the broker's vocabulary: owners and
// repositories it may read or write, toolsets, allow and deny lists,
// read_only) bounds every call before any GitHub request is made.
package httpauth

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	writepolicy "github.com/ghgate/ghgate/internal/policy"
	"net/url"
	"os"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/github"
)

// Config is the --auth file: who may call the HTTP endpoint and what each
// caller may do.
type Config struct {
	// Resource is the endpoint's public URL (RFC 8707 resource indicator,
	// e.g. https://ghgate.example.com/mcp): the audience IdP tokens must
	// carry and the resource the protected resource metadata names. Empty
	// on loopback means http://ADDR/mcp.
	Resource string `toml:"resource"`
	// Issuers are the identity providers whose JWTs are accepted.
	Issuers []Issuer `toml:"issuer"`
	// Clients are the callers, each with its policy. A client's name is
	// its identity here (task owner, audit lines, metrics); one that comes
	// with an identity provider's token is found by its issuer and the
	// client id that issuer gives it.
	Clients []Client `toml:"client"`
	// Scopes lists the scopes advertised in the protected resource
	// metadata; empty advertises none.
	Scopes []string `toml:"scopes_supported"`
}

// Issuer is an identity provider whose access tokens (JWTs) name clients.
type Issuer struct {
	// URL is the issuer identifier; the JWKS is found from its metadata
	// (/.well-known/openid-configuration, else RFC 8414's
	// /.well-known/oauth-authorization-server).
	URL string `toml:"url"`
	// Audience the tokens must carry; empty means the config's Resource.
	Audience string `toml:"audience"`
	// ClientClaim is the claim naming the client; default "client_id"
	// (RFC 9068's access-token claim).
	ClientClaim string `toml:"client_claim"`
}

// Client is one caller and its policy.
type Client struct {
	Name string `toml:"name"`
	// KeySHA256 is the hex SHA-256 digest of the client's static key; the
	// key itself is never stored. Empty for clients that come with an
	// issuer's JWT; a client with a key names no issuer.
	KeySHA256 string `toml:"key_sha256"`
	// Issuer is the URL of the [[issuer]] whose tokens name this client;
	// it may be left out when exactly one issuer is configured. A client
	// is known to an issuer only: another provider's token carrying the
	// same client id is not this client's.
	Issuer string `toml:"issuer"`
	// ClientID is what the issuer's client claim carries for this client;
	// default Name.
	ClientID string `toml:"client_id"`
	// Read and Write list what the client may reach: "owner",
	// "owner/repo", or "*" for anything the server's token reaches. Write
	// implies read.
	Read  []string `toml:"read"`
	Write []string `toml:"write"`
	// Tools narrows the served surface for this client, as the broker's
	// [tools] table does for the whole broker.
	Tools broker.Tools `toml:"tools"`
	// Policy, when set, is this client's write policy in place of the
	// server's [policy]; quotas count per client.
	Policy *writepolicy.Rules `toml:"policy"`
}

// Load reads an --auth file strictly: an unknown key is an error, since a
// misspelt read_only silently ignored would widen what a client can do.
func Load(path string) (*Config, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("auth: %w", err)
	}
	var c Config
	md, err := toml.NewDecoder(bytes.NewReader(raw)).Decode(&c)
	if err != nil {
		// The parser's message can quote the file; the digests are not
		// secret, but the file may hold other things: say where only.
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, fmt.Errorf("auth %s: invalid TOML at line %d", path, pe.Position.Line)
		}
		return nil, fmt.Errorf("auth %s: invalid TOML", path)
	}
	if und := md.Undecoded(); len(und) > 0 {
		keys := make([]string, len(und))
		for i, k := range und {
			keys[i] = k.String()
		}
		return nil, fmt.Errorf("auth %s: unknown key %s", path, strings.Join(keys, ", "))
	}
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("auth %s: %w", path, err)
	}
	return &c, nil
}

// Validate refuses a config that cannot work or would be ambiguous, and
// fills in the defaults: each issuer's client claim, and each
// identity-provider client's issuer (when only one is configured) and
// client id (its name).
func (c *Config) Validate() error {
	if c.Resource != "" {
		if err := checkURL("resource", c.Resource); err != nil {
			return err
		}
	}
	if len(c.Clients) == 0 {
		return errors.New("no [[client]]: nobody could call")
	}
	if len(c.Issuers) == 0 && !c.hasStaticKeys() {
		return errors.New("no [[issuer]] and no client with key_sha256: no token could be accepted")
	}
	if err := c.validateIssuers(); err != nil {
		return err
	}
	names := map[string]bool{}
	digests := map[string]bool{}
	bound := map[boundID]string{}
	for i := range c.Clients {
		cl := &c.Clients[i]
		if cl.Policy != nil {
			if err := cl.Policy.Validate(); err != nil {
				return fmt.Errorf("client %q: %w", cl.Name, err)
			}
		}
		if strings.TrimSpace(cl.Name) == "" {
			return fmt.Errorf("client %d: name is empty", i+1)
		}
		if names[cl.Name] {
			return fmt.Errorf("client %q is named twice", cl.Name)
		}
		names[cl.Name] = true
		var err error
		if cl.KeySHA256 != "" {
			err = checkStatic(cl, digests)
		} else {
			err = c.bind(cl, bound)
		}
		if err != nil {
			return err
		}
		for _, list := range [][]string{cl.Read, cl.Write} {
			for _, p := range list {
				if err := checkPattern(p); err != nil {
					return fmt.Errorf("client %q: %w", cl.Name, err)
				}
			}
		}
		if len(cl.Read) == 0 && len(cl.Write) == 0 {
			return fmt.Errorf("client %q: neither read nor write lists anything it may reach", cl.Name)
		}
	}
	return nil
}

// validateIssuers checks each issuer's URL, refuses one listed twice
// (a client naming it could not say which entry it meant) and defaults
// the client claim.
func (c *Config) validateIssuers() error {
	seen := map[string]bool{}
	for i := range c.Issuers {
		is := &c.Issuers[i]
		if err := checkURL(fmt.Sprintf("issuer %d url", i+1), is.URL); err != nil {
			return err
		}
		if seen[is.URL] {
			return fmt.Errorf("issuer %s is configured twice", is.URL)
		}
		seen[is.URL] = true
		if is.ClientClaim == "" {
			is.ClientClaim = "client_id"
		}
	}
	return nil
}

// boundID is what names an identity-provider client: its issuer and the
// client id that issuer's tokens carry for it.
type boundID struct{ issuer, clientID string }

// checkStatic checks a static-key client: a well-formed digest no other
// client has, and no issuer or client id, which would leave open which
// of two credentials is this client's.
func checkStatic(cl *Client, digests map[string]bool) error {
	if cl.Issuer != "" || cl.ClientID != "" {
		return fmt.Errorf("client %q: key_sha256 with issuer or client_id: a client comes either with its static key "+
			"or with an identity provider's token; give one or the other", cl.Name)
	}
	d, err := hex.DecodeString(cl.KeySHA256)
	if err != nil || len(d) != sha256.Size {
		return fmt.Errorf("client %q: key_sha256 must be 64 hex digits (sha256sum of the key)", cl.Name)
	}
	cl.KeySHA256 = strings.ToLower(cl.KeySHA256)
	if digests[cl.KeySHA256] {
		return fmt.Errorf("client %q: key_sha256 is another client's too", cl.Name)
	}
	digests[cl.KeySHA256] = true
	return nil
}

// bind ties an identity-provider client to its issuer and client id. A
// client id means something only to the provider that issued it: two
// providers may each have a "release-agent", and one's is not the
// other's. With several issuers the client must say which is its own.
func (c *Config) bind(cl *Client, bound map[boundID]string) error {
	switch {
	case cl.Issuer != "":
		if !slices.ContainsFunc(c.Issuers, func(is Issuer) bool { return is.URL == cl.Issuer }) {
			return fmt.Errorf("client %q: issuer %q is not the url of a configured [[issuer]] (%s)", cl.Name, cl.Issuer, c.issuerURLs())
		}
	case len(c.Issuers) == 1:
		cl.Issuer = c.Issuers[0].URL
	case len(c.Issuers) == 0:
		return fmt.Errorf("client %q has no key_sha256 and no [[issuer]] is configured: no token could name it", cl.Name)
	default:
		return fmt.Errorf("client %q names no issuer, and %d are configured (%s): set issuer to the url of the one whose "+
			"tokens name it, since each identity provider names its own clients", cl.Name, len(c.Issuers), c.issuerURLs())
	}
	if cl.ClientID == "" {
		cl.ClientID = cl.Name
	}
	id := boundID{cl.Issuer, cl.ClientID}
	if other, ok := bound[id]; ok {
		return fmt.Errorf("clients %q and %q are both client_id %q of issuer %s", other, cl.Name, cl.ClientID, cl.Issuer)
	}
	bound[id] = cl.Name
	return nil
}

func (c *Config) issuerURLs() string {
	urls := make([]string, len(c.Issuers))
	for i, is := range c.Issuers {
		urls[i] = is.URL
	}
	return strings.Join(urls, ", ")
}

func (c *Config) hasStaticKeys() bool {
	for _, cl := range c.Clients {
		if cl.KeySHA256 != "" {
			return true
		}
	}
	return false
}

func checkURL(what, s string) error {
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || (u.Scheme != "https" && u.Scheme != "http") || u.Fragment != "" {
		return fmt.Errorf("%s: want an absolute http(s) URL without a fragment", what)
	}
	return nil
}

// checkPattern accepts "*", "owner" or "owner/repo" in GitHub's name shapes.
func checkPattern(p string) error {
	if p == "*" {
		return nil
	}
	owner, repo, hasRepo := strings.Cut(p, "/")
	if err := github.CheckOwner(owner); err != nil {
		return fmt.Errorf("%q: want *, OWNER or OWNER/REPO", p)
	}
	if hasRepo {
		if err := github.CheckRepo(owner, repo); err != nil {
			return fmt.Errorf("%q: want *, OWNER or OWNER/REPO", p)
		}
	}
	return nil
}
