package httpauth

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	writepolicy "github.com/ghgate/ghgate/internal/policy"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// Options adjust an Authenticator beyond its config.
type Options struct {
	// HTTPClient fetches issuer metadata and keys; nil uses a client with
	// a 10-second timeout.
	HTTPClient *http.Client
	// MinRefresh is the shortest time between two fetches of an issuer's
	// keys (background or forced by an unknown key); 0 means a minute.
	MinRefresh time.Duration
	// MaxRefresh is the longest time keys are kept without a fetch; 0
	// means an hour.
	MaxRefresh time.Duration
	Now        func() time.Time
	Log        *slog.Logger
}

func (o Options) minRefresh() time.Duration {
	if o.MinRefresh > 0 {
		return o.MinRefresh
	}
	return time.Minute
}

func (o Options) maxRefresh() time.Duration {
	if o.MaxRefresh > 0 {
		return max(o.MaxRefresh, o.minRefresh())
	}
	return max(time.Hour, o.minRefresh())
}

func (o Options) now() func() time.Time {
	if o.Now != nil {
		return o.Now
	}
	return time.Now
}

// Authenticator checks bearer tokens and knows each client's policy.
type Authenticator struct {
	resource string
	issuers  []*issuer
	// static holds the clients with a key, by digest.
	static []staticKey
	// bound holds the clients that come with an issuer's JWT, by issuer
	// and client id: never by client id alone, which each issuer assigns
	// as it likes.
	bound  map[boundID]*clientEntry
	scopes []string
	log    *slog.Logger
}

type staticKey struct {
	digest []byte
	client *clientEntry
}

type clientEntry struct {
	name   string
	policy *policy
	// rules is the client's write policy; nil takes the server's.
	rules *writepolicy.Rules
	// tools are the client's [client.tools]; its lockdown is read from
	// them (see LockdownOf).
	tools broker.Tools
}

// New discovers each issuer's keys and readies the clients. resource is
// the endpoint's public URL: the audience an issuer's tokens must carry
// when the issuer names none of its own. The key cache runs until ctx
// ends.
func New(ctx context.Context, cfg *Config, resource string, o Options) (*Authenticator, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	a := &Authenticator{resource: resource, bound: map[boundID]*clientEntry{}, scopes: cfg.Scopes, log: o.Log}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	for _, c := range cfg.Clients {
		e := &clientEntry{name: c.Name, policy: newPolicy(c), rules: c.Policy, tools: c.Tools}
		if c.KeySHA256 == "" {
			a.bound[boundID{c.Issuer, c.ClientID}] = e
			continue
		}
		d, _ := hex.DecodeString(c.KeySHA256)
		a.static = append(a.static, staticKey{digest: d, client: e})
	}
	if len(cfg.Issuers) == 0 {
		return a, nil
	}
	hc := o.HTTPClient
	if hc == nil {
		hc = &http.Client{Timeout: 10 * time.Second}
	}
	cache, err := newJWKSCache(ctx)
	if err != nil {
		return nil, err
	}
	for _, ic := range cfg.Issuers {
		aud := ic.Audience
		if aud == "" {
			aud = resource
		}
		is, err := newIssuer(ctx, ic, aud, cache, hc, o)
		if err != nil {
			return nil, err
		}
		a.issuers = append(a.issuers, is)
	}
	return a, nil
}

// Resource is the endpoint's resource URL.
func (a *Authenticator) Resource() string { return a.resource }

// clientKey keys the client's entry in TokenInfo.Extra.
const clientKey = "ghgate_client"

// Verify is the [auth.TokenVerifier]: a static key is matched by digest,
// anything else is read as an issuer's JWT. Every failure is
// [auth.ErrInvalidToken] (401); its text says why, never echoing the token.
func (a *Authenticator) Verify(ctx context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	if e := a.matchStatic(token); e != nil {
		// A static key does not expire; RequireBearerToken is told to
		// allow that, and Verify demands an expiry of every JWT itself.
		return &auth.TokenInfo{UserID: e.name, Extra: map[string]any{clientKey: e}}, nil
	}
	if len(a.issuers) == 0 || strings.Count(token, ".") != 2 {
		return nil, fmt.Errorf("%w: not a known client key", auth.ErrInvalidToken)
	}
	// The issuer claim only picks which issuer's keys check the signature;
	// it is trusted once that check and jwt's issuer validation pass.
	unverified, err := jwt.ParseInsecure([]byte(token))
	if err != nil {
		return nil, fmt.Errorf("%w: not a JWT", auth.ErrInvalidToken)
	}
	iss, _ := unverified.Issuer()
	for _, is := range a.issuers {
		if is.cfg.URL != iss {
			continue
		}
		id, exp, err := is.verify(ctx, []byte(token))
		if err != nil {
			a.log.Info("bearer token refused", "issuer", iss, "reason", err.Error())
			return nil, fmt.Errorf("%w: %s", auth.ErrInvalidToken, reason(err))
		}
		e, ok := a.bound[boundID{is.cfg.URL, id}]
		if !ok {
			a.log.Info("bearer token refused: no client of its issuer has its client id", "issuer", iss, "client_id", id)
			return nil, fmt.Errorf("%w: the token's client is not configured here", auth.ErrInvalidToken)
		}
		return &auth.TokenInfo{UserID: e.name, Expiration: exp, Extra: map[string]any{clientKey: e}}, nil
	}
	return nil, fmt.Errorf("%w: token from an issuer not configured here", auth.ErrInvalidToken)
}

// reason is a short, token-free account of a refusal for the 401 body.
func reason(err error) string {
	switch {
	case errors.Is(err, jwt.TokenExpiredError()):
		return "token expired"
	case errors.Is(err, jwt.InvalidIssuerError()):
		return "token from another issuer"
	case errors.Is(err, jwt.TokenNotYetValidError()):
		return "token not valid yet"
	}
	msg := err.Error()
	if strings.Contains(msg, "another audience") || strings.Contains(msg, "claim naming") || strings.Contains(msg, "no expiry") {
		return msg
	}
	return "signature or claims do not verify"
}

// matchStatic returns the client whose key digest is token's. Every
// digest is compared, in constant time, whether or not one matched before.
func (a *Authenticator) matchStatic(token string) *clientEntry {
	if len(a.static) == 0 {
		return nil
	}
	sum := sha256.Sum256([]byte(token))
	var found *clientEntry
	for _, k := range a.static {
		if subtle.ConstantTimeCompare(sum[:], k.digest) == 1 {
			found = k.client
		}
	}
	return found
}

// clientFrom returns the client a verified request's token named.
func clientFrom(ti *auth.TokenInfo) *clientEntry {
	if ti == nil {
		return nil
	}
	e, _ := ti.Extra[clientKey].(*clientEntry)
	return e
}

// KeyDigest is what key_sha256 holds for key: its SHA-256 in hex.
func KeyDigest(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}
