package credentials_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/ghgate/ghgate/internal/emulator"
)

// The whole flow against the emulator: a pending poll, a poll sent too
// soon (slow_down, after which the interval is five seconds longer), the
// user's approval, and a token that GET /user accepts as alice with the
// scopes asked for.
func TestDeviceFlowSlowDownThenApproved(t *testing.T) {
	t.Parallel()
	host, clk := startEmulator(t)
	var userCode string
	w := &waits{}
	w.step = func(i int, d time.Duration) {
		switch i {
		case 0: // on time: authorization_pending
			clk.Advance(d)
		case 1: // one second after the last poll: slow_down
			clk.Advance(time.Second)
		case 2: // the user enters the code, and the poll comes on time
			approve(t, host, emulator.DemoTokenAlice, userCode, true)
			clk.Advance(d)
		default:
			clk.Advance(d)
		}
	}
	flow := credentials.DeviceFlow{Host: host, ClientID: emulator.DeviceFlowClientID, Scopes: credentials.DefaultScopes, Wait: w.wait}
	ctx := context.Background()
	da, err := flow.Start(ctx)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	userCode = da.UserCode
	if !userCodeRE.MatchString(da.UserCode) {
		t.Errorf("user code = %q, want GitHub's XXXX-XXXX form", da.UserCode)
	}
	if want := host.Web + "/login/device"; da.VerificationURI != want {
		t.Errorf("verification URI = %q, want %q", da.VerificationURI, want)
	}
	if da.Interval != 5 {
		t.Errorf("interval = %d, want GitHub's 5", da.Interval)
	}
	tok, err := flow.Poll(ctx, da)
	if err != nil {
		t.Fatalf("Poll: %v", err)
	}
	if want := []time.Duration{5 * time.Second, 5 * time.Second, 10 * time.Second}; !slices.Equal(w.asked, want) {
		t.Errorf("waits = %v, want %v (five seconds more after slow_down)", w.asked, want)
	}
	if !strings.HasPrefix(tok.AccessToken, "gho_") {
		t.Errorf("token does not look like an OAuth token (gho_ prefix)")
	}
	if strings.Contains(tok.String(), tok.AccessToken) {
		t.Errorf("Token.String() shows the token")
	}
	who, err := credentials.Identify(ctx, nil, host, tok.AccessToken)
	if err != nil {
		t.Fatalf("GET /user with the new token: %v", err)
	}
	if who.Login != "alice" {
		t.Errorf("login = %q, want alice", who.Login)
	}
	if !slices.Equal(who.Scopes, credentials.DefaultScopes) {
		t.Errorf("X-OAuth-Scopes = %v, want %v", who.Scopes, credentials.DefaultScopes)
	}
	if !who.ScopesReported {
		t.Errorf("ScopesReported = false, want true")
	}
	// The code is spent: a second poll with it gets no second token.
	if _, err := flow.Poll(ctx, da); err == nil || !strings.Contains(err.Error(), "incorrect_device_code") {
		t.Errorf("second poll with a spent code: err = %v, want one saying incorrect_device_code", err)
	}
}

func flowErrorCode(err error) string {
	var fe *credentials.FlowError
	if errors.As(err, &fe) {
		return fe.Code
	}
	return ""
}

// A code nobody enters within its 15 minutes ends in expired_token.
func TestDeviceFlowExpired(t *testing.T) {
	t.Parallel()
	host, clk := startEmulator(t)
	w := &waits{step: func(_ int, d time.Duration) { clk.Advance(d + 15*time.Minute) }}
	flow := credentials.DeviceFlow{Host: host, ClientID: emulator.DeviceFlowClientID, Wait: w.wait}
	da, err := flow.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	_, err = flow.Poll(context.Background(), da)
	if got := flowErrorCode(err); got != "expired_token" {
		t.Fatalf("error code = %q (%v), want expired_token", got, err)
	}
	for _, want := range []string{"expired", "ghgate auth login"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message %q does not say %q, want it to say the code expired and what to run", err, want)
		}
	}
}

// A user who cancels on GitHub ends the flow with access_denied.
func TestDeviceFlowDenied(t *testing.T) {
	t.Parallel()
	host, clk := startEmulator(t)
	var userCode string
	w := &waits{step: func(_ int, d time.Duration) {
		approve(t, host, emulator.DemoTokenBob, userCode, false)
		clk.Advance(d)
	}}
	flow := credentials.DeviceFlow{Host: host, ClientID: emulator.DeviceFlowClientID, Wait: w.wait}
	da, err := flow.Start(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	userCode = da.UserCode
	_, err = flow.Poll(context.Background(), da)
	if got := flowErrorCode(err); got != "access_denied" {
		t.Fatalf("error code = %q (%v), want access_denied", got, err)
	}
	if !strings.Contains(err.Error(), "nothing was stored") {
		t.Errorf("message %q does not say nothing was stored", err)
	}
}

// An unknown client id and an app without the device flow are refused at
// the start, each with what to do.
func TestDeviceFlowRefusedClients(t *testing.T) {
	t.Parallel()
	host, _ := startEmulator(t)
	for _, tc := range []struct{ clientID, code, hint string }{
		{"Ov23liNobodyKnowsMe", "incorrect_client_credentials", "docs/auth.md"},
		{emulator.DeviceFlowDisabledClientID, "device_flow_disabled", "Enable Device Flow"},
	} {
		flow := credentials.DeviceFlow{Host: host, ClientID: tc.clientID}
		_, err := flow.Start(context.Background())
		if got := flowErrorCode(err); got != tc.code {
			t.Errorf("client %s: error code = %q (%v), want %s", tc.clientID, got, err, tc.code)
			continue
		}
		if !strings.Contains(err.Error(), tc.hint) {
			t.Errorf("client %s: message %q does not say %q", tc.clientID, err, tc.hint)
		}
	}
}

func TestParseHost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in   string
		want credentials.Host
	}{
		{"", credentials.Host{Name: "github.com", Web: "https://github.com", API: "https://api.github.com"}},
		{"GitHub.com", credentials.Host{Name: "github.com", Web: "https://github.com", API: "https://api.github.com"}},
		{"ghe.example.com", credentials.Host{Name: "ghe.example.com", Web: "https://ghe.example.com", API: "https://ghe.example.com/api/v3"}},
		{"http://127.0.0.1:8080", credentials.Host{Name: "127.0.0.1:8080", Web: "http://127.0.0.1:8080", API: "http://127.0.0.1:8080/api/v3"}},
	} {
		got, err := credentials.ParseHost(tc.in)
		if err != nil {
			t.Errorf("ParseHost(%q): %v", tc.in, err)
		} else if got != tc.want {
			t.Errorf("ParseHost(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
	for _, bad := range []string{"ftp://x", "https://ghe.example.com/api/v3", "a b"} {
		if _, err := credentials.ParseHost(bad); err == nil {
			t.Errorf("ParseHost(%q): no error", bad)
		}
	}
	for in, want := range map[string]string{"": "github.com", "https://api.github.com": "github.com",
		"https://ghe.example.com/api/v3": "ghe.example.com", "http://127.0.0.1:9/": "127.0.0.1:9"} {
		if got, err := credentials.HostFromAPI(in); err != nil {
			t.Errorf("HostFromAPI(%q): %v", in, err)
		} else if got.Name != want {
			t.Errorf("HostFromAPI(%q).Name = %q, want %q", in, got.Name, want)
		}
	}
}
