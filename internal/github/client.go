// Package github is ghgate's access to GitHub: REST through go-github and
// GraphQL through a small client of its own, over one transport that spends
// as little of the user's rate budget as it can (conditional requests
// answered from the store), retries reads within a bound, never retries
// writes, and reports for every write whether it happened (Settlement) and
// for every failure a stable code (Error).
//
// Every endpoint ghgate calls is a typed method here, in a file per API
// area, its comment naming its route; callers never build paths or reach
// go-github. Owner and repository names pass one check (refRepo) before
// any path is built.
package github

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	gh "github.com/google/go-github/v88/github"

	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/version"
)

// Options configure a Client. Only Token is needed for GitHub.com.
type Options struct {
	// BaseURL selects the GitHub: "" or https://api.github.com for
	// GitHub.com, https://HOST for GitHub Enterprise Server (or the ghgate
	// emulator). See resolveEndpoints for the rules.
	BaseURL string
	// Token is the credential, sent as a bearer token to BaseURL's host
	// only. Empty makes every call fail with missing_credential.
	Token string
	// Secrets are the credentials of the process, redacted from job logs
	// and from the messages of GitHub's errors. Nil: a registry holding
	// Token alone. A caller that passes one registers Token itself (an
	// App's client holds a stand-in, no secret).
	Secrets *redact.Registry
	// Store keeps ETags and bodies for conditional requests (and the rate
	// picture, with ShareRate). Nil disables them: every read then costs
	// budget.
	Store Store
	// UserAgent defaults to "ghgate/VERSION".
	UserAgent string
	// HTTPClient supplies the underlying transport and timeout; nil means
	// http.DefaultTransport and a 60-second timeout per call (retries
	// included).
	HTTPClient *http.Client
	// MaxReadRetries is how many times a read is retried after its first
	// attempt: 0 means the default (2), a negative value none.
	MaxReadRetries int
	// RetryBaseDelay and RetryMaxDelay shape the back-off between read
	// attempts (defaults 250 ms and 4 s); MaxRetryWait bounds the total
	// waited across one call's retries (default 15 s). A secondary limit's
	// retry-after longer than what is left is not waited out: the call fails
	// with rate_limited and the wait in Error.RetryAfter.
	RetryBaseDelay, RetryMaxDelay, MaxRetryWait time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// RateFloor is how many requests of a resource's budget are kept back:
	// requests stop when the remaining count reaches it (0: when it is
	// spent). Replicas sharing a credential set it to at least the calls
	// they may have in flight together.
	RateFloor int
	// Observer, when set, is told of every request sent to GitHub (for
	// metrics).
	Observer Observer
	// Log receives the warnings of a store that stopped answering (reads
	// then go on without the cache); nil discards them.
	Log *slog.Logger
	// ShareRate reads and writes the rate picture in Store, so every
	// process using the store with this credential stops together. The
	// server sets it when the store is shared (Redis).
	ShareRate bool
}

// Client is one credential's access to one GitHub. It is safe for
// concurrent use; keep one per credential so the rate budget it tracks is
// that credential's.
type Client struct {
	rest      *gh.Client
	http      *http.Client
	ep        endpoints
	token     string
	secrets   *redact.Registry
	cred      store.CredentialKey
	store     Store
	budget    *budgets
	shareRate bool
	observer  Observer
	log       *slog.Logger
	// storeDownSince is when the store's last failure was logged (unix
	// nanoseconds), 0 while it answers: one line per outage, not per call.
	storeDownSince atomic.Int64
	retry          retryPolicy
	userAgent      string
	now            func() time.Time
	sleep          func(context.Context, time.Duration) error
}

// New builds a Client. It makes no request.
func New(o Options) (*Client, error) {
	ep, err := resolveEndpoints(o.BaseURL)
	if err != nil {
		return nil, err
	}
	if strings.ContainsAny(o.Token, " \t\r\n") {
		return nil, errors.New("github: the token contains whitespace; check how it was read")
	}
	c := &Client{ep: ep, token: o.Token, secrets: o.Secrets, store: o.Store, budget: newBudgets(), shareRate: o.ShareRate,
		retry: newRetryPolicy(o), userAgent: o.UserAgent, now: o.Now, sleep: sleepCtx}
	c.budget.floor = max(o.RateFloor, 0)
	c.log = o.Log
	c.observer = o.Observer
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if c.secrets == nil {
		c.secrets = redact.NewRegistry(o.Token)
	}
	if c.userAgent == "" {
		c.userAgent = "ghgate/" + version.Current()
	}
	if c.now == nil {
		c.now = time.Now
	}
	c.cred = credentialKey(o.Store, o.Token)

	hc := &http.Client{Timeout: 60 * time.Second}
	if o.HTTPClient != nil {
		copied := *o.HTTPClient
		hc = &copied
	}
	base := hc.Transport
	if base == nil {
		base = http.DefaultTransport
	}
	hc.Transport = &transport{c: c, base: base}
	c.http = hc

	restURL, uploadURL := ep.rest.String(), ep.upload.String()
	c.rest, err = gh.NewClient(
		gh.WithHTTPClient(hc),
		gh.WithURLs(&restURL, &uploadURL),
		gh.WithUserAgent(c.userAgent),
		// The transport tracks budgets per resource and refuses requests
		// itself; go-github's own check would refuse with a fake response
		// that hides whether anything was sent.
		gh.WithDisableRateLimitCheck(),
	)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// credentialKey names the token for the store, or, without a store, under a
// random per-process salt (nothing is persisted then).
func credentialKey(s Store, token string) store.CredentialKey {
	if s != nil {
		return s.CredentialKey(token)
	}
	salt := make([]byte, 32)
	_, _ = rand.Read(salt)
	m := hmac.New(sha256.New, salt)
	m.Write([]byte(token))
	return store.CredentialKey(hex.EncodeToString(m.Sum(nil)))
}

// CredentialKey is the store's name for this client's credential, for
// scoping idempotency keys.
func (c *Client) CredentialKey() store.CredentialKey { return c.cred }

// RateBudget is the latest budget GitHub reported for resource ("core",
// "search", "graphql").
func (c *Client) RateBudget(resource string) RateBudget { return c.budget.get(resource) }

// RESTURL and GraphQLURL are the resolved API roots.
func (c *Client) RESTURL() string    { return c.ep.rest.String() }
func (c *Client) GraphQLURL() string { return c.ep.graphql.String() }

// storeResult notes whether a cache or rate-picture operation reached the
// store: the first failure of an outage is logged (the call goes on
// without the cache), and so is the recovery.
func (c *Client) storeResult(err error) {
	if err == nil {
		if since := c.storeDownSince.Swap(0); since != 0 {
			c.log.Info("state store answers again; conditional-request cache back in use",
				"outage", time.Since(time.Unix(0, since)).Round(time.Millisecond).String())
		}
		return
	}
	if !errors.Is(err, store.ErrUnavailable) {
		return
	}
	if c.storeDownSince.CompareAndSwap(0, time.Now().UnixNano()) {
		c.log.Warn("state store unavailable: reads go on without the conditional-request cache and the shared rate picture", "err", err)
	}
}

// Observer is told of each request the client sent to GitHub: the wire
// status (0 when no response came, 304 for a cache hit), the time it took
// with its retries, and the rate budget GitHub reported with it.
type Observer interface {
	Upstream(method, path string, status int, d time.Duration, cacheHit bool)
	RateBudget(resource string, remaining int)
}

// Ping asks GitHub for the credential's rate budget, which costs no
// budget: readiness checks use it to learn that GitHub answers and accepts
// the token.
//
// GET /rate_limit
func (c *Client) Ping(ctx context.Context) error {
	ctx, _ = withCall(ctx, true)
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.ep.rest.JoinPath("rate_limit").String(), nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/vnd.github+json")
	resp, err := c.http.Do(req)
	if err != nil {
		return errors.New("github: " + c.secrets.String(err.Error()))
	}
	defer drain(resp)
	if resp.StatusCode != http.StatusOK {
		return errors.New("github: GET /rate_limit answered " + resp.Status)
	}
	return nil
}
