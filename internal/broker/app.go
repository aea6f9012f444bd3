package broker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/bradleyfalzon/ghinstallation/v2"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// appCredentialName is how an App installation appears in audit lines and
// messages: "app:<app_id>/<installation_id>".
func appCredentialName(r Route) string {
	return fmt.Sprintf("app:%d/%d", r.AppID, r.InstallationID)
}

// newAppCredential builds the client of a GitHub App installation. Its
// installation tokens are minted per call by an appMinter, narrowed to
// the route's repositories and the call's permissions, in memory only.
//
// The access layer's client needs a token to send anything; it gets a
// fixed stand-in (which also names the credential in the store, stable
// across tokens), and the transport beneath it replaces the stand-in with
// the call's installation token on requests to GitHub's own hosts only.
// One client serves every scope, as GitHub counts the installation's rate
// budget as one.
func (r *Router) newAppCredential(rt *route, base http.RoundTripper, hc *http.Client) (*credential, error) {
	pemKey, _ := r.secrets.Get(rt.AppKey)
	key, err := parseAppKey(pemKey)
	if err != nil {
		return nil, fmt.Errorf("route %q: secret %q: %w", rt.Owner, rt.AppKey, err)
	}
	secrets := r.opts.Secrets
	if secrets == nil {
		secrets = redact.NewRegistry() // the stand-in below is no secret
	}
	name := appCredentialName(rt.Route)
	// The access layer wraps the transport it is given, so appAuth is in
	// place before the client is built and completed after.
	auth := &appAuth{plain: base}
	hc.Transport = auth
	client, err := github.New(github.Options{BaseURL: r.opts.BaseURL, Token: fmt.Sprintf("ghgate-app-%d-%d", rt.AppID, rt.InstallationID),
		Secrets: secrets, Store: r.opts.Store, HTTPClient: hc, Now: r.opts.Now})
	if err != nil {
		return nil, err
	}
	now := r.opts.Now
	if now == nil {
		now = time.Now
	}
	// Mint at the REST root the access layer resolved from the same base
	// URL (…/api/v3 on GHES and the emulator).
	minter := &appMinter{app: ghinstallation.NewAppsTransportFromPrivateKey(base, rt.AppID, key), restRoot: client.RESTURL(),
		installation: rt.InstallationID, repos: rt.Repositories, now: now, secrets: secrets, tokens: map[string]*appToken{}}
	auth.minter = minter
	if auth.rest, err = url.Parse(client.RESTURL()); err != nil {
		return nil, err
	}
	if auth.graphql, err = url.Parse(client.GraphQLURL()); err != nil {
		return nil, err
	}
	c := &credential{name: name, client: client, app: minter}
	c.token = func(ctx context.Context, mode tooldef.Mode) (string, error) {
		tok, err := minter.token(ctx, scopeOf(ctx, mode))
		if err != nil {
			return "", r.mintError(rt, err)
		}
		return tok, nil
	}
	return c, nil
}

// appAuth puts the call's installation token on requests to GitHub's REST
// and GraphQL hosts and sends anything else (a redirect elsewhere) without
// credentials.
type appAuth struct {
	minter        *appMinter
	plain         http.RoundTripper
	rest, graphql *url.URL
}

func (a *appAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	out := req.Clone(req.Context())
	if !sameOrigin(req.URL, a.rest) && !sameOrigin(req.URL, a.graphql) {
		out.Header.Del("Authorization")
		return a.plain.RoundTrip(out)
	}
	// The call record in the request's context names the tool and mode;
	// the token answers from the cache unless it nears expiry. A request
	// with no record (made outside a call) takes the write set.
	tok, err := a.minter.token(req.Context(), scopeOf(req.Context(), tooldef.Write))
	if err != nil {
		return nil, err
	}
	out.Header.Set("Authorization", "token "+tok)
	return a.plain.RoundTrip(out)
}

func sameOrigin(u, root *url.URL) bool {
	return root != nil && u.Scheme == root.Scheme && strings.EqualFold(u.Host, root.Host)
}

// mintError turns a failed installation-token refresh into the envelope
// the agent sees: the route, the App and installation ids and the key's
// secret name, never a token or the key.
func (r *Router) mintError(rt *route, err error) error {
	var se *mintStatusError
	status := 0
	if errors.As(err, &se) {
		status = se.status
	}
	name := appCredentialName(rt.Route)
	r.log().Warn("broker: installation token not minted", "route", rt.Owner, "credential", name, "status", status)
	var e *contract.Error
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusNotFound:
		e = contract.Errorf(contract.CodeInvalidCredential,
			"route %q: GitHub refused an installation token for %s (HTTP %d); check app_id, installation_id and the key in secret %q",
			rt.Owner, name, status, rt.AppKey)
	case status == http.StatusUnprocessableEntity:
		e = contract.Errorf(contract.CodeInvalidCredential,
			"route %q: GitHub refused to narrow an installation token of %s to the route's repositories %q (HTTP 422); each must be a repository of the installation",
			rt.Owner, name, rt.Repositories)
	case status != 0:
		e = contract.Errorf(contract.CodeUpstreamUnavailable,
			"route %q: GitHub answered HTTP %d when minting an installation token for %s", rt.Owner, status, name)
	default:
		e = contract.Errorf(contract.CodeUpstreamUnavailable,
			"route %q: could not reach GitHub to mint an installation token for %s", rt.Owner, name)
	}
	e.Settlement = contract.NotStarted
	return e
}
