package credentials

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"golang.org/x/oauth2"
)

// DefaultScopes are the classic OAuth scopes ghgate's tools need: repo
// (issues, pull requests, contents and alerts of private repositories,
// and every write), read:org (organization membership and teams, which
// the lockdown and the assignee checks read) and project (Projects v2
// boards, read and written). internal/permissions lists per tool which
// of them a call needs.
var DefaultScopes = []string{"repo", "read:org", "project"}

// DeviceFlow signs in through GitHub's OAuth device flow: the user enters
// a short code on GitHub while ghgate polls for the token.
type DeviceFlow struct {
	Host     Host
	ClientID string
	Scopes   []string
	// HTTP makes the requests; nil is http.DefaultClient.
	HTTP *http.Client
	// Wait pauses between polls: d, or until ctx ends. Nil waits on the
	// wall clock; tests pass one that does not.
	Wait func(ctx context.Context, d time.Duration) error
}

// deviceGrantType is the device flow's grant (RFC 8628).
const deviceGrantType = "urn:ietf:params:oauth:grant-type:device_code"

// minInterval is GitHub's least polling interval, used when an answer
// names none.
const minInterval = 5 * time.Second

// FlowError is GitHub's refusal of a device flow step, with the code
// GitHub documents (expired_token, access_denied, ...).
type FlowError struct {
	Code        string
	Description string
	ClientID    string
}

func (e *FlowError) Error() string {
	switch e.Code {
	case "expired_token":
		return "the code expired before it was entered on GitHub (a device code lasts 15 minutes): run `ghgate auth login` again"
	case "access_denied":
		return "the sign-in was cancelled on GitHub (access denied): nothing was stored"
	case "incorrect_client_credentials":
		return fmt.Sprintf("GitHub knows no OAuth app with client id %q: check --client-id, GHGATE_OAUTH_CLIENT_ID or oauth_client_id (docs/auth.md says how to register one)", e.ClientID)
	case "device_flow_disabled":
		return fmt.Sprintf("the OAuth app with client id %q does not have the device flow enabled: tick \"Enable Device Flow\" in the app's settings on GitHub (docs/auth.md)", e.ClientID)
	}
	msg := "GitHub refused the sign-in: " + e.Code
	if e.Description != "" {
		msg += " (" + e.Description + ")"
	}
	return msg
}

// Token is what the flow yields: the access token and the scopes GitHub
// granted. Its String never shows the token.
type Token struct {
	AccessToken string
	Scopes      []string
}

func (t Token) String() string { return "token with scopes " + strings.Join(t.Scopes, ",") }

func (f DeviceFlow) config() *oauth2.Config {
	return &oauth2.Config{ClientID: f.ClientID, Scopes: f.Scopes, Endpoint: oauth2.Endpoint{
		DeviceAuthURL: f.Host.Web + "/login/device/code",
		TokenURL:      f.Host.Web + "/login/oauth/access_token",
	}}
}

func (f DeviceFlow) client() *http.Client {
	if f.HTTP != nil {
		return f.HTTP
	}
	return http.DefaultClient
}

// Start asks GitHub for a device code and the user code to show.
func (f DeviceFlow) Start(ctx context.Context) (*oauth2.DeviceAuthResponse, error) {
	ctx = context.WithValue(ctx, oauth2.HTTPClient, f.client())
	da, err := f.config().DeviceAuth(ctx)
	if err != nil {
		var re *oauth2.RetrieveError
		if errors.As(err, &re) && re.ErrorCode != "" {
			return nil, &FlowError{Code: re.ErrorCode, Description: re.ErrorDescription, ClientID: f.ClientID}
		}
		if errors.As(err, &re) {
			return nil, fmt.Errorf("GitHub answered the device code request with %s (client id %q; on GitHub Enterprise Server, is --hostname right?)", re.Response.Status, f.ClientID)
		}
		return nil, fmt.Errorf("requesting a device code from %s: %w", f.Host.Web, err)
	}
	if da.Interval <= 0 {
		da.Interval = int64(minInterval / time.Second)
	}
	return da, nil
}

// Poll waits for the user to enter the code, at the interval GitHub set,
// five seconds slower after each slow_down, as GitHub asks. It stops at
// the code's expiry, a refusal, or ctx's end.
//
// Each poll is one form POST of its own rather than oauth2's
// DeviceAccessToken, whose wall-clock ticker a test cannot drive and
// which reports an expired code as a context deadline.
func (f DeviceFlow) Poll(ctx context.Context, da *oauth2.DeviceAuthResponse) (Token, error) {
	interval := time.Duration(da.Interval) * time.Second
	if interval <= 0 {
		interval = minInterval
	}
	wait := f.Wait
	if wait == nil {
		wait = sleep
	}
	for {
		if !da.Expiry.IsZero() && time.Now().After(da.Expiry) {
			return Token{}, &FlowError{Code: "expired_token", ClientID: f.ClientID}
		}
		if err := wait(ctx, interval); err != nil {
			return Token{}, err
		}
		ans, err := f.exchange(ctx, da.DeviceCode)
		if err != nil {
			return Token{}, err
		}
		switch ans.Error {
		case "":
			if ans.AccessToken == "" {
				return Token{}, errors.New("GitHub's answer held neither a token nor an error")
			}
			return Token{AccessToken: ans.AccessToken, Scopes: splitScopes(ans.Scope)}, nil
		case "authorization_pending":
		case "slow_down":
			interval += 5 * time.Second
			if given := time.Duration(ans.Interval) * time.Second; given > interval {
				interval = given
			}
		default:
			return Token{}, &FlowError{Code: ans.Error, Description: ans.ErrorDescription, ClientID: f.ClientID}
		}
	}
}

// tokenAnswer is the access token endpoint's JSON: a token, or an error
// (GitHub sends those with status 200).
type tokenAnswer struct {
	AccessToken      string `json:"access_token"`
	Scope            string `json:"scope"`
	Error            string `json:"error"`
	ErrorDescription string `json:"error_description"`
	Interval         int64  `json:"interval"`
}

func (f DeviceFlow) exchange(ctx context.Context, deviceCode string) (tokenAnswer, error) {
	form := url.Values{"client_id": {f.ClientID}, "device_code": {deviceCode}, "grant_type": {deviceGrantType}}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.config().Endpoint.TokenURL, strings.NewReader(form.Encode()))
	if err != nil {
		return tokenAnswer{}, err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept", "application/json")
	resp, err := f.client().Do(req)
	if err != nil {
		return tokenAnswer{}, fmt.Errorf("polling %s: %w", f.Host.Web, err)
	}
	defer resp.Body.Close()
	var ans tokenAnswer
	if err := json.NewDecoder(io.LimitReader(resp.Body, 1<<20)).Decode(&ans); err != nil || (resp.StatusCode != http.StatusOK && ans.Error == "") {
		return tokenAnswer{}, fmt.Errorf("polling %s: unexpected answer (%s)", f.Host.Web, resp.Status)
	}
	return ans, nil
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// splitScopes reads a scope list as GitHub writes it: "repo,read:org" in
// the token answer, "repo, read:org" in X-OAuth-Scopes.
func splitScopes(s string) []string {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		out = append(out, f)
	}
	return out
}
