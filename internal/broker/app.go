package broker

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/bradleyfalzon/ghinstallation/v2"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/redact"
)

// appCredentialName is how an App installation appears in audit lines and
// messages: "app:<app_id>/<installation_id>".
func appCredentialName(r Route) string {
	return fmt.Sprintf("app:%d/%d", r.AppID, r.InstallationID)
}

// newAppCredential builds the client of a GitHub App installation. Its
// installation tokens are minted by ghinstallation on first use and again
// shortly before each expires, in memory only.
//
// The access layer's client needs a token to send anything; it gets a
// fixed stand-in (which also names the credential in the store, stable
// across token refreshes), and the transport beneath it replaces the
// stand-in with the current installation token on requests to GitHub's
// own hosts only.
func (r *Router) newAppCredential(rt *route, base http.RoundTripper, hc *http.Client) (*credential, error) {
	pemKey, _ := r.secrets.Get(rt.AppKey)
	key, err := parseAppKey(pemKey)
	if err != nil {
		return nil, fmt.Errorf("route %q: secret %q: %w", rt.Owner, rt.AppKey, err)
	}
	atr := ghinstallation.NewAppsTransportFromPrivateKey(base, rt.AppID, key)
	itr := ghinstallation.NewFromAppsTransport(atr, rt.InstallationID)
	secrets := r.opts.Secrets
	if secrets == nil {
		secrets = redact.NewRegistry() // the stand-in below is no secret
	}
	auth := &appAuth{installation: itr, plain: base, secrets: secrets}
	hc.Transport = auth
	name := appCredentialName(rt.Route)
	client, err := github.New(github.Options{BaseURL: r.opts.BaseURL, Token: fmt.Sprintf("ghgate-app-%d-%d", rt.AppID, rt.InstallationID),
		Secrets: secrets, Store: r.opts.Store, HTTPClient: hc, Now: r.opts.Now})
	if err != nil {
		return nil, err
	}
	// Mint at the REST root the access layer resolved from the same base
	// URL (…/api/v3 on GHES and the emulator), before any request is made.
	itr.BaseURL = strings.TrimSuffix(client.RESTURL(), "/")
	if auth.rest, err = url.Parse(client.RESTURL()); err != nil {
		return nil, err
	}
	if auth.graphql, err = url.Parse(client.GraphQLURL()); err != nil {
		return nil, err
	}
	c := &credential{name: name, client: client, app: itr}
	c.token = func(ctx context.Context) (string, error) {
		tok, err := itr.Token(ctx)
		if err != nil {
			return "", r.mintError(rt, err)
		}
		secrets.AddMinted(tok)
		return tok, nil
	}
	return c, nil
}

// appAuth puts the installation token on requests to GitHub's REST and
// GraphQL hosts and sends anything else (a redirect elsewhere) without
// credentials. Each token it sends is registered for redaction first:
// one refreshed in the middle of a call is minted here.
type appAuth struct {
	installation  *ghinstallation.Transport
	plain         http.RoundTripper
	rest, graphql *url.URL
	secrets       *redact.Registry
}

func (a *appAuth) RoundTrip(req *http.Request) (*http.Response, error) {
	if sameOrigin(req.URL, a.rest) || sameOrigin(req.URL, a.graphql) {
		// Token answers from its cache until the token nears expiry; the
		// RoundTrip below then sends the same one.
		if tok, err := a.installation.Token(req.Context()); err == nil {
			a.secrets.AddMinted(tok)
		}
		return a.installation.RoundTrip(req)
	}
	out := req.Clone(req.Context())
	out.Header.Del("Authorization")
	return a.plain.RoundTrip(out)
}

func sameOrigin(u, root *url.URL) bool {
	return root != nil && u.Scheme == root.Scheme && strings.EqualFold(u.Host, root.Host)
}

// mintError turns a failed installation-token refresh into the envelope
// the agent sees: the route, the App and installation ids and the key's
// secret name, never a token or the key.
func (r *Router) mintError(rt *route, err error) error {
	var he *ghinstallation.HTTPError
	status := 0
	if errors.As(err, &he) && he.Response != nil {
		status = he.Response.StatusCode
		// ghinstallation leaves a non-2xx body open for the caller.
		_ = he.Response.Body.Close()
	}
	name := appCredentialName(rt.Route)
	r.log().Warn("broker: installation token not minted", "route", rt.Owner, "credential", name, "status", status)
	var e *contract.Error
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden || status == http.StatusNotFound:
		e = contract.Errorf(contract.CodeInvalidCredential,
			"route %q: GitHub refused an installation token for %s (HTTP %d); check app_id, installation_id and the key in secret %q",
			rt.Owner, name, status, rt.AppKey)
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
