package broker

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/github"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// defaultCallTimeout bounds one call to GitHub (retries included) when the
// options bring no HTTP client, as the access layer's own default does.
const defaultCallTimeout = 60 * time.Second

// RouterOptions configure a Router.
type RouterOptions struct {
	// BaseURL selects GitHub.com (""), a GHES host or an emulator.
	BaseURL string
	// Store keeps ETags and names credentials for idempotency scoping.
	Store github.Store
	// HTTPClient supplies the transport and timeout; nil: the default
	// transport and a 60-second timeout.
	HTTPClient *http.Client
	Now        func() time.Time
	Log        *slog.Logger
	// Secrets are the process's credentials, redacted by every client
	// from job logs and error messages; the App tokens minted are added.
	Secrets *redact.Registry
}

// Router chooses a call's credential by its target owner and the tool's
// mode, and keeps one GitHub client per credential (each tracks its own
// rate budget). It implements tools.Clients.
type Router struct {
	opts     RouterOptions
	secrets  *SecretStore
	byOwner  map[string]*route // lower-case owner
	fallback *route            // the "*" route, if any
	base     http.RoundTripper
	timeout  time.Duration

	mu    sync.Mutex
	creds map[string]*credential // by credential name
}

// route is a configured [[route]].
type route struct{ Route }

// credential is one credential's GitHub client, built on first use.
type credential struct {
	name   string
	client *github.Client
	// token returns the credential's value for a call in mode, for the
	// upstream proxy; an App's is the call's installation token, minted
	// or refreshed as needed.
	token func(ctx context.Context, mode tooldef.Mode) (string, error)
	app   *appMinter
}

// NewRouter checks that every route's secrets are in the store (and that
// App keys are RSA keys) and builds the router. It makes no request.
func NewRouter(cfg *Config, secrets *SecretStore, opts RouterOptions) (*Router, error) {
	r := &Router{opts: opts, secrets: secrets, byOwner: map[string]*route{}, creds: map[string]*credential{},
		base: http.DefaultTransport, timeout: defaultCallTimeout}
	if opts.HTTPClient != nil {
		if opts.HTTPClient.Transport != nil {
			r.base = opts.HTTPClient.Transport
		}
		r.timeout = opts.HTTPClient.Timeout
	}
	var errs []error
	for _, cr := range cfg.Routes {
		rt := &route{cr}
		names := []string{cr.Read, cr.Write, cr.AppKey}
		for _, name := range names {
			if name == "" {
				continue
			}
			if _, ok := secrets.Get(name); !ok {
				errs = append(errs, fmt.Errorf("route %q: secret %q is not loaded", cr.Owner, name))
			}
		}
		if cr.IsApp() {
			if key, ok := secrets.Get(cr.AppKey); ok {
				if _, err := parseAppKey(key); err != nil {
					errs = append(errs, fmt.Errorf("route %q: secret %q: %w", cr.Owner, cr.AppKey, err))
				}
			}
		}
		if cr.Owner == "*" {
			r.fallback = rt
		} else {
			r.byOwner[strings.ToLower(cr.Owner)] = rt
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return r, nil
}

// For implements tools.Clients: the client of the credential routed for
// owner and mode. It records the route and credential name in the call's
// record. A refusal (no route, or a write with only a read credential) is
// made before any request.
func (r *Router) For(ctx context.Context, owner string, mode tooldef.Mode) (*github.Client, error) {
	c, err := r.resolve(ctx, owner, mode)
	if err != nil {
		return nil, err
	}
	if c.app != nil {
		// Mint (or refresh) now, so a refused App fails with its own
		// envelope rather than as a failed GitHub call.
		if _, err := c.token(ctx, mode); err != nil {
			return nil, err
		}
	}
	return c.client, nil
}

// Token returns the routed credential's value and name, for injecting into
// an upstream MCP server broker-side. The value must go nowhere else.
func (r *Router) Token(ctx context.Context, owner string, mode tooldef.Mode) (token string, credential string, err error) {
	c, err := r.resolve(ctx, owner, mode)
	if err != nil {
		return "", "", err
	}
	tok, err := c.token(ctx, mode)
	if err != nil {
		return "", c.name, err
	}
	return tok, c.name, nil
}

// Credential names the credential a write for owner would use (the read
// one where only a read credential is routed), as the store's digest: a
// stable, non-secret scope for idempotency keys. "" when nothing is routed.
func (r *Router) Credential(ctx context.Context, owner string) string {
	rt := r.route(owner)
	if rt == nil {
		return ""
	}
	name := r.credentialName(rt, tooldef.Write)
	if name == "" {
		name = r.credentialName(rt, tooldef.Read)
	}
	c, err := r.credential(rt, name)
	if err != nil {
		return ""
	}
	return string(c.client.CredentialKey())
}

// resolve picks the route and credential, notes them in the call's record
// and returns the credential's client, building it on first use.
func (r *Router) resolve(ctx context.Context, owner string, mode tooldef.Mode) (*credential, error) {
	if rec := RecordFrom(ctx); rec != nil && rec.ownerNamed && !strings.EqualFold(owner, rec.Owner) {
		// Never reached by a tool that acts on the owner it was given; a
		// credential for any other owner than the one the call named (and
		// the audit line records) is not handed out.
		r.log().Error("broker: a call asked for another owner's credential than it named", "named", rec.Owner, "asked", owner)
		e := contract.Errorf(contract.CodeInternal, "the call named owner %q but asked for another owner's credential; nothing was sent", rec.Owner)
		e.Settlement = contract.NotStarted
		return nil, e
	}
	rt := r.route(owner)
	if rt == nil {
		return nil, r.noRoute(owner)
	}
	name := r.credentialName(rt, mode)
	if rec := RecordFrom(ctx); rec != nil {
		rec.Owner, rec.Route, rec.Credential = owner, rt.Owner, name
		if rec.Mode == "" {
			// An App's token is chosen by the call's mode when its
			// requests go out; a record made without one takes this.
			rec.Mode = string(mode)
		}
	}
	if name == "" {
		return nil, r.readOnlyRoute(rt)
	}
	c, err := r.credential(rt, name)
	if err != nil {
		r.log().Error("broker: credential unusable", "route", rt.Owner, "credential", name, "error", err.Error())
		e := contract.Errorf(contract.CodeInternal, "route %q: credential %q could not be set up; see the broker's log", rt.Owner, name)
		e.Settlement = contract.NotStarted
		return nil, e
	}
	return c, nil
}

// route finds owner's route: an exact, case-insensitive match, else "*".
func (r *Router) route(owner string) *route {
	if rt, ok := r.byOwner[strings.ToLower(owner)]; ok && owner != "" {
		return rt
	}
	return r.fallback
}

// credentialName is the credential a route gives for mode: an App serves
// both; a read takes the read secret, or the write one when no read is
// configured; a write takes the write secret only ("" when there is none).
func (r *Router) credentialName(rt *route, mode tooldef.Mode) string {
	switch {
	case rt.IsApp():
		return appCredentialName(rt.Route)
	case mode == tooldef.Read && rt.Read != "":
		return rt.Read
	default:
		return rt.Write
	}
}

// credential returns the named credential's client, building it once.
func (r *Router) credential(rt *route, name string) (*credential, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if c, ok := r.creds[name]; ok {
		return c, nil
	}
	base := &countingTransport{base: r.base}
	hc := &http.Client{Transport: base, Timeout: r.timeout}
	var c *credential
	var err error
	if rt.IsApp() {
		c, err = r.newAppCredential(rt, base, hc)
	} else {
		c, err = r.newTokenCredential(name, hc)
	}
	if err != nil {
		return nil, err
	}
	r.creds[name] = c
	r.log().Debug("broker: credential ready", "route", rt.Owner, "credential", name)
	return c, nil
}

func (r *Router) newTokenCredential(name string, hc *http.Client) (*credential, error) {
	tok, ok := r.secrets.Get(name)
	if !ok {
		return nil, fmt.Errorf("secret %q is not loaded", name)
	}
	client, err := github.New(github.Options{BaseURL: r.opts.BaseURL, Token: tok, Secrets: r.opts.Secrets, Store: r.opts.Store, HTTPClient: hc, Now: r.opts.Now})
	if err != nil {
		return nil, err
	}
	return &credential{name: name, client: client,
		token: func(context.Context, tooldef.Mode) (string, error) { return tok, nil }}, nil
}

// noRoute is the refusal for an owner nothing is routed for.
func (r *Router) noRoute(owner string) error {
	var e *contract.Error
	if owner == "" {
		e = contract.Errorf(contract.CodeMissingCredential,
			"no owner was given and the broker has no \"*\" route; name an owner the broker routes")
	} else {
		e = contract.Errorf(contract.CodeMissingCredential,
			"the broker routes no credential for owner %q and has no \"*\" route", owner)
	}
	e.Settlement = contract.NotStarted
	return e
}

// readOnlyRoute is the refusal of a write where the route has only a read
// credential.
func (r *Router) readOnlyRoute(rt *route) error {
	e := contract.Errorf(contract.CodeInsufficientScope,
		"route %q gives only the read credential %q; this tool writes and the route has no write credential", rt.Owner, rt.Read)
	e.Details = &contract.Details{RequiredScopes: []string{"write"}}
	e.Settlement = contract.NotStarted
	return e
}

func (r *Router) log() *slog.Logger {
	if r.opts.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return r.opts.Log
}

// countingTransport counts every request sent to GitHub (installation
// token mints included) against the call whose context it carries.
type countingTransport struct{ base http.RoundTripper }

func (t *countingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if rec := RecordFrom(req.Context()); rec != nil {
		rec.Upstream.Add(1)
	}
	return t.base.RoundTrip(req)
}
