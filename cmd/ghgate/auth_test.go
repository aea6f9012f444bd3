package main

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/credentials"
	"github.com/ghgate/ghgate/internal/emulator"
)

// emuClock is the emulator's clock, moved by the login's wait hook
// instead of by sleeping.
type emuClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *emuClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }

func (c *emuClock) Advance(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

func startAuthEmulator(t *testing.T) (*httptest.Server, *emuClock) {
	t.Helper()
	clk := &emuClock{t: time.Date(2026, time.March, 2, 9, 0, 0, 0, time.UTC)}
	emu, err := emulator.New(emulator.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	return srv, clk
}

// runAuth runs `ghgate auth ARGS...` in process and returns what it
// printed (stdout and stderr together).
func runAuth(t *testing.T, env authEnv, out *bytes.Buffer, args ...string) error {
	t.Helper()
	cmd := newAuthCommandWith(env)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetOut(out)
	cmd.SetErr(out)
	cmd.SetArgs(args)
	return cmd.ExecuteContext(context.Background())
}

var shownCode = regexp.MustCompile(`one-time code: ([A-Z]{4}-[A-Z]{4})`)

// failingKeyring is a machine without a reachable keyring.
type failingKeyring struct{}

func (failingKeyring) Get(string, string) (string, error) { return "", errors.New("no keyring") }
func (failingKeyring) Set(string, string, string) error   { return errors.New("no keyring") }
func (failingKeyring) Delete(string, string) error        { return errors.New("no keyring") }

// Sign-in end to end against the emulator: login shows the code, the
// user (alice) enters it, the token lands in the keyring (go-keyring's
// mock) or, with none, in the 0600 file; it works for GET /user; status
// names the place, alice and the scopes; logout removes it. No output
// ever holds the token.
func TestAuthLoginStatusLogout(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		keyring credentials.Keyring
		where   string
	}{
		{"keyring", credentials.System, "OS keyring entry (service ghgate:"},
		{"file", failingKeyring{}, "credentials file "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv, clk := startAuthEmulator(t)
			home := t.TempDir()
			vars := map[string]string{"HOME": home, "GH_CONFIG_DIR": filepath.Join(home, "no-gh")}
			var out bytes.Buffer
			polls := 0
			env := authEnv{getenv: func(k string) string { return vars[k] }, keyring: tc.keyring,
				wait: func(_ context.Context, d time.Duration) error {
					polls++
					if polls == 2 { // the first poll found it pending; now alice enters the code
						m := shownCode.FindStringSubmatch(out.String())
						if m == nil {
							t.Fatalf("login printed no one-time code before polling:\n%s", out.String())
						}
						approveAs(t, srv.URL, emulator.DemoTokenAlice, m[1])
					}
					clk.Advance(d)
					return nil
				}}
			err := runAuth(t, env, &out, "login", "--hostname", srv.URL, "--client-id", emulator.DeviceFlowClientID)
			if err != nil {
				t.Fatalf("login: %v\n%s", err, out.String())
			}
			host, _ := credentials.ParseHost(srv.URL)
			store := credentials.Store{Keyring: tc.keyring, File: credentials.DefaultFile(env.getenv)}
			tok, loc, err := store.Load(host.Name)
			if err != nil {
				t.Fatalf("no token stored after login: %v", err)
			}
			for _, want := range []string{"Signed in to " + host.Name + " as alice", "repo, read:org, project", tc.where, srv.URL + "/login/device"} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("login output lacks %q:\n%s", want, out.String())
				}
			}
			if tc.name == "file" {
				fi, err := os.Stat(loc.Where)
				if err != nil {
					t.Errorf("credentials file %s: %v", loc.Where, err)
				} else if fi.Mode().Perm() != 0o600 {
					t.Errorf("credentials file %s: mode = %v, want 0600", loc.Where, fi.Mode().Perm())
				}
			}
			who, err := credentials.Identify(context.Background(), nil, host, tok)
			if err != nil {
				t.Errorf("GET /user with the stored token: %v", err)
			} else if who.Login != "alice" {
				t.Errorf("GET /user with the stored token: login = %q, want alice", who.Login)
			}

			var status bytes.Buffer
			if err := runAuth(t, env, &status, "status", "--hostname", srv.URL); err != nil {
				t.Fatalf("status: %v\n%s", err, status.String())
			}
			for _, want := range []string{tc.where, "[serve uses this one]", "signed in as alice", "scopes: repo, read:org, project"} {
				if !strings.Contains(status.String(), want) {
					t.Errorf("status output lacks %q:\n%s", want, status.String())
				}
			}

			var logout bytes.Buffer
			if err := runAuth(t, env, &logout, "logout", "--hostname", srv.URL); err != nil {
				t.Errorf("logout: %v", err)
			}
			if !strings.Contains(logout.String(), "Removed ") {
				t.Errorf("logout output = %q, want one saying %q", logout.String(), "Removed ")
			}
			if _, _, err := store.Load(host.Name); !errors.Is(err, credentials.ErrNotFound) {
				t.Errorf("token still stored after logout: %v", err)
			}
			var after bytes.Buffer
			if err := runAuth(t, env, &after, "status", "--hostname", srv.URL); err == nil {
				t.Errorf("status after logout: error = nil, want one")
			}
			if !strings.Contains(after.String(), "not signed in") {
				t.Errorf("status after logout: output = %q, want one saying %q", after.String(), "not signed in")
			}
			for name, o := range map[string]string{"login": out.String(), "status": status.String(), "logout": logout.String(), "status after logout": after.String()} {
				if strings.Contains(o, tok) {
					t.Errorf("%s output holds the token", name)
				}
			}
		})
	}
}

func approveAs(t *testing.T, base, token, userCode string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, base+"/login/device", strings.NewReader(url.Values{"user_code": {userCode}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Authorization", "token "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("approving %s: status %d, want 200", userCode, resp.StatusCode)
	}
}

// Without a client id, login says how to get one, and where it is set;
// the client id is taken from the flag, then GHGATE_OAUTH_CLIENT_ID, then
// the config file.
func TestAuthLoginClientID(t *testing.T) {
	t.Parallel()
	env := authEnv{getenv: func(string) string { return "" }, keyring: failingKeyring{}}
	var out bytes.Buffer
	err := runAuth(t, env, &out, "login", "--hostname", "ghe.example.com")
	if err == nil {
		t.Fatal("login without a client id: no error")
	}
	for _, want := range []string{"--client-id", "GHGATE_OAUTH_CLIENT_ID", "oauth_client_id", "Enable Device Flow", "docs/auth.md", "https://ghe.example.com"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	// The config's client id reaches GitHub (here the emulator, which
	// refuses one it does not know by name).
	srv, _ := startAuthEmulator(t)
	cfg := filepath.Join(t.TempDir(), "ghgate.toml")
	if err := os.WriteFile(cfg, []byte(`github_url = "`+srv.URL+`"`+"\noauth_client_id = \"Ov23liFromTheConfig\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = runAuth(t, env, &out, "login", "--config", cfg)
	wantErrorSaying(t, "login with the config's client id (GitHub's refusal)", err, `"Ov23liFromTheConfig"`)
	env.getenv = func(k string) string {
		if k == "GHGATE_OAUTH_CLIENT_ID" {
			return "Ov23liFromTheEnv"
		}
		return ""
	}
	err = runAuth(t, env, &out, "login", "--config", cfg)
	wantErrorSaying(t, "login with GHGATE_OAUTH_CLIENT_ID over the config", err, `"Ov23liFromTheEnv"`)
}
