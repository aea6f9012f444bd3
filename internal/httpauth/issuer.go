package httpauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/lestrrat-go/httprc/v3"
	"github.com/lestrrat-go/jwx/v3/jwk"
	"github.com/lestrrat-go/jwx/v3/jws"
	"github.com/lestrrat-go/jwx/v3/jwt"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// issuer checks the JWTs one identity provider issues. Its keys come from
// the JWKS its metadata names, held in a [jwk.Cache] that refreshes them in
// the background; a token signed by a key the cache does not have yet (the
// provider rotated) makes it fetch anew at once, at most once per
// minRefresh, so forged kids cannot make ghgate hammer the provider.
type issuer struct {
	cfg        Issuer
	audience   string
	jwksURL    string
	cache      *jwk.Cache
	minRefresh time.Duration
	now        func() time.Time

	mu          sync.Mutex
	lastRefresh time.Time
}

// discover reads the issuer's metadata: OpenID Connect's document first,
// then RFC 8414's, and returns the JWKS URL it names. The metadata's
// issuer must be the configured one exactly (RFC 8414 §3.3), so a
// document served for another issuer is not trusted.
func discover(ctx context.Context, hc *http.Client, iss string) (string, error) {
	u, err := url.Parse(iss)
	if err != nil {
		return "", err
	}
	path := strings.TrimSuffix(u.Path, "/")
	candidates := []string{
		strings.TrimSuffix(iss, "/") + "/.well-known/openid-configuration",
		u.Scheme + "://" + u.Host + "/.well-known/oauth-authorization-server" + path,
	}
	var errs []error
	for _, c := range candidates {
		meta, err := fetchMeta(ctx, hc, c)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if meta.Issuer != iss {
			errs = append(errs, fmt.Errorf("%s names issuer %q, not %q", c, meta.Issuer, iss))
			continue
		}
		if meta.JWKSURI == "" {
			errs = append(errs, fmt.Errorf("%s names no jwks_uri", c))
			continue
		}
		if err := checkURL("jwks_uri", meta.JWKSURI); err != nil {
			return "", err
		}
		return meta.JWKSURI, nil
	}
	return "", fmt.Errorf("issuer %s: no usable metadata: %w", iss, errors.Join(errs...))
}

func fetchMeta(ctx context.Context, hc *http.Client, u string) (*oauthex.AuthServerMeta, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d", u, resp.StatusCode)
	}
	var meta oauthex.AuthServerMeta
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&meta); err != nil {
		return nil, fmt.Errorf("%s: %w", u, err)
	}
	return &meta, nil
}

// newIssuer discovers the issuer's JWKS and registers it in cache; the
// first fetch happens here, so a provider that cannot be reached fails the
// start rather than every call.
func newIssuer(ctx context.Context, cfg Issuer, audience string, cache *jwk.Cache, hc *http.Client, o Options) (*issuer, error) {
	jwksURL, err := discover(ctx, hc, cfg.URL)
	if err != nil {
		return nil, err
	}
	if err := cache.Register(ctx, jwksURL, jwk.WithHTTPClient(hc),
		jwk.WithMinInterval(o.minRefresh()), jwk.WithMaxInterval(o.maxRefresh())); err != nil {
		return nil, fmt.Errorf("issuer %s: JWKS %s: %w", cfg.URL, jwksURL, err)
	}
	return &issuer{cfg: cfg, audience: audience, jwksURL: jwksURL, cache: cache, minRefresh: o.minRefresh(), now: o.now()}, nil
}

// newJWKSCache starts the cache's background refresher; it stops with ctx.
func newJWKSCache(ctx context.Context) (*jwk.Cache, error) {
	return jwk.NewCache(ctx, httprc.NewClient())
}

// verify checks tok's signature, issuer, expiry and audience, and returns
// the client id its client claim carries: a name in this issuer's
// namespace, not yet a client of ghgate's.
func (is *issuer) verify(ctx context.Context, tok []byte) (clientID string, exp time.Time, err error) {
	set, err := is.cache.Lookup(ctx, is.jwksURL)
	if err != nil {
		return "", time.Time{}, fmt.Errorf("issuer's keys are unavailable: %w", err)
	}
	t, err := is.parse(tok, set)
	if err != nil && kidUnknown(tok, set) {
		// A key the cache does not hold: the provider may have rotated.
		if fresh, ok := is.refresh(ctx); ok {
			t, err = is.parse(tok, fresh)
		}
	}
	if err != nil {
		return "", time.Time{}, err
	}
	aud, _ := t.Audience()
	if !oauthex.MatchesResource(aud, is.audience) {
		return "", time.Time{}, errors.New("token is for another audience")
	}
	exp, ok := t.Expiration()
	if !ok {
		return "", time.Time{}, errors.New("token has no expiry")
	}
	var name string
	if err := t.Get(is.cfg.ClientClaim, &name); err != nil || name == "" {
		return "", time.Time{}, fmt.Errorf("token has no %s claim naming the client", is.cfg.ClientClaim)
	}
	return name, exp, nil
}

func (is *issuer) parse(tok []byte, set jwk.Set) (jwt.Token, error) {
	return jwt.Parse(tok,
		jwt.WithKeySet(set, jws.WithInferAlgorithmFromKey(true)),
		jwt.WithValidate(true),
		jwt.WithIssuer(is.cfg.URL),
		jwt.WithRequiredClaim("exp"),
		jwt.WithClock(jwt.ClockFunc(is.now)),
		jwt.WithAcceptableSkew(30*time.Second),
	)
}

// kidUnknown reports whether tok names a signing key set does not hold.
func kidUnknown(tok []byte, set jwk.Set) bool {
	msg, err := jws.Parse(tok)
	if err != nil || len(msg.Signatures()) != 1 {
		return false
	}
	kid, ok := msg.Signatures()[0].ProtectedHeaders().KeyID()
	if !ok || kid == "" {
		return false
	}
	_, found := set.LookupKeyID(kid)
	return !found
}

// refresh fetches the JWKS anew unless that was done less than minRefresh
// ago.
func (is *issuer) refresh(ctx context.Context) (jwk.Set, bool) {
	is.mu.Lock()
	if now := is.now(); now.Sub(is.lastRefresh) >= is.minRefresh {
		is.lastRefresh = now
	} else {
		is.mu.Unlock()
		return nil, false
	}
	is.mu.Unlock()
	set, err := is.cache.Refresh(ctx, is.jwksURL)
	return set, err == nil
}
