package broker

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/testutil"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// The App of the routing tests, installed on the initech organization.
const (
	rtAppID          = 12345
	rtInstallationID = 678
)

// rtEnv is a router over a demo emulator with these routes:
//
//	acme:    read = acme-read (carol, read on acme/*), write = acme-write (bob)
//	initech: the App, installation 678 (write on initech/tps, public, and
//	         initech/secret, private; each has issue #1)
//	*:       read = fallback-read (alice) only
//
// Every secret's value is a canary: no error, log line or envelope the
// tests see may contain any 8-character piece of one.
type rtEnv struct {
	emu    *emulatortest.Server
	cfg    *Config
	router *Router
	log    *testutil.SyncBuffer
	inst   *emulator.Installation
	secret map[string]string // name -> value

	mu    sync.Mutex
	extra []string // credentials seen later (minted installation tokens)
}

type rtOptions struct {
	// noFallback leaves the "*" route out.
	noFallback bool
	// tokenTTL, when set, makes the emulator's installation tokens that
	// short-lived.
	tokenTTL time.Duration
	// installationID overrides the routed installation (0: the real one).
	installationID int64
	// repositories is the App route's repositories setting.
	repositories []string
	// permissions, when set, are what the installation was granted.
	permissions emulator.AppPermissions
	// now is the router's clock (nil: time.Now).
	now func() time.Time
}

// startRouterEnv clears CredentialsDirEnv with t.Setenv, so the tests that
// call it run serially.
func startRouterEnv(t *testing.T, o rtOptions) *rtEnv {
	t.Helper()
	env := &rtEnv{emu: emulatortest.Start(t, emulator.Options{}), log: &testutil.SyncBuffer{}, secret: map[string]string{}}
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	keyPEM := string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)}))
	env.secret["acme-read"] = rtCanaryValue(t)
	env.secret["acme-write"] = rtCanaryValue(t)
	env.secret["fallback-read"] = rtCanaryValue(t)
	env.secret["app-key"] = keyPEM

	st := env.emu.Emu.State()
	st.Lock()
	st.AddToken(&emulator.Token{Value: env.secret["acme-read"], Login: "carol",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermRead, "acme/gadgets": emulator.PermRead}})
	st.AddToken(&emulator.Token{Value: env.secret["acme-write"], Login: "bob",
		Perms: map[string]emulator.Permission{"acme/widgets": emulator.PermWrite, "acme/gadgets": emulator.PermWrite}})
	st.AddToken(&emulator.Token{Value: env.secret["fallback-read"], Login: "alice"})
	initech := st.AddAccount("initech", "Initech", true, st.Now())
	tps := st.AddRepo(initech, "tps", "TPS reports", false, st.Now())
	secret := st.AddRepo(initech, "secret", "Layoffs", true, st.Now())
	st.AddIssue(tps, initech, "Cover sheets", nil, false, st.Now())
	st.AddIssue(secret, initech, "Relocate to the basement", nil, false, st.Now())
	app := st.AddApp(rtAppID, &key.PublicKey)
	env.inst = app.AddInstallation(rtInstallationID, "initech",
		map[string]emulator.Permission{"initech/tps": emulator.PermWrite, "initech/secret": emulator.PermWrite})
	if o.permissions != nil {
		env.inst.Permissions = o.permissions
	}
	app.TokenTTL = o.tokenTTL
	st.Unlock()

	dir := t.TempDir()
	secretsFile := filepath.Join(dir, "secrets.toml")
	var sb strings.Builder
	for _, name := range []string{"acme-read", "acme-write", "fallback-read"} {
		fmt.Fprintf(&sb, "%s = %q\n", name, env.secret[name])
	}
	fmt.Fprintf(&sb, "app-key = '''\n%s'''\n", keyPEM)
	if err := os.WriteFile(secretsFile, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	inst := o.installationID
	if inst == 0 {
		inst = rtInstallationID
	}
	conf := fmt.Sprintf(`
[listen]
socket = %q
[github]
url = %q
[secrets]
file = %q
[[route]]
owner = "acme"
read = "acme-read"
write = "acme-write"
[[route]]
owner = "initech"
app_id = %d
installation_id = %d
app_key = "app-key"
`, filepath.Join(dir, "ghgate.sock"), env.emu.URL, secretsFile, rtAppID, inst)
	if len(o.repositories) > 0 {
		quoted := make([]string, len(o.repositories))
		for i, r := range o.repositories {
			quoted[i] = strconv.Quote(r)
		}
		conf += "repositories = [" + strings.Join(quoted, ", ") + "]\n"
	}
	if !o.noFallback {
		conf += "[[route]]\nowner = \"*\"\nread = \"fallback-read\"\n"
	}
	confFile := filepath.Join(dir, "broker.toml")
	if err := os.WriteFile(confFile, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(CredentialsDirEnv, "")
	env.cfg, err = LoadConfig(confFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(env.cfg); err != nil {
		t.Fatalf("Check: %v", err)
	}
	secrets, err := LoadSecrets(env.cfg)
	if err != nil {
		t.Fatal(err)
	}
	env.router, err = NewRouter(env.cfg, secrets, RouterOptions{BaseURL: env.emu.URL, HTTPClient: env.emu.Client(), Now: o.now,
		Log: slog.New(slog.NewTextHandler(env.log, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { env.scan(t, "router log", env.log.String()) })
	return env
}

// canaries lists every credential value of the environment: the route
// secrets, the App key's base64 lines and installation tokens seen.
func (e *rtEnv) canaries() []string {
	var out []string
	for name, v := range e.secret {
		if name != "app-key" {
			out = append(out, v)
			continue
		}
		for _, line := range strings.Split(v, "\n") {
			if !strings.HasPrefix(line, "-----") && len(line) >= 8 {
				out = append(out, line)
			}
		}
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return append(out, e.extra...)
}

// sawCredential adds a credential learned during the test to the canaries.
func (e *rtEnv) sawCredential(v string) {
	e.mu.Lock()
	e.extra = append(e.extra, v)
	e.mu.Unlock()
}

// scan fails the test when text holds any 8-character piece of a canary.
func (e *rtEnv) scan(t testing.TB, where, text string) {
	t.Helper()
	for _, c := range e.canaries() {
		for i := 0; i+8 <= len(c); i++ {
			if strings.Contains(text, c[i:i+8]) {
				t.Errorf("%s holds a piece of a credential (at %d of a %d-character value)", where, i, len(c))
				return
			}
		}
	}
}

// envelope asserts err is a contract envelope with code, scanned for
// canaries, and returns it.
func (e *rtEnv) envelope(t *testing.T, err error, code contract.Code) *contract.Error {
	t.Helper()
	if err == nil {
		t.Fatalf("want %s, got no error", code)
	}
	e.scan(t, "error", err.Error())
	ce, ok := err.(*contract.Error)
	if !ok {
		t.Fatalf("want a *contract.Error %s, got %T: %v", code, err, err)
	}
	if ce.Code != code {
		t.Fatalf("code %s, want %s: %s", ce.Code, code, ce.Message)
	}
	return ce
}

// rtCall is one call's context, as the broker hands it to the router: a
// record to fill in, and the write path's admission (rtAdmitted).
func rtCall() (context.Context, *CallRecord) {
	rec := &CallRecord{}
	return WithRecord(rtAdmitted(), rec), rec
}

// rtAdmitted is a context carrying the write path's admission of an issue
// opened in the repositories these tests write to (the GitHub client sends
// no write without one).
func rtAdmitted() context.Context {
	var writes []policy.Write
	for _, r := range [][2]string{{"acme", "widgets"}, {"initech", "tps"}} {
		writes = append(writes, policy.Write{Kind: policy.KindIssueCreate, Target: policy.Target{Owner: r[0], Repo: r[1]}})
	}
	ctx, _, e := (&policy.Path{}).Admit(context.Background(), policy.Call{Tool: "test", Writes: writes})
	if e != nil {
		panic(e)
	}
	return ctx
}

func rtCanaryValue(t testing.TB) string {
	t.Helper()
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	raw := make([]byte, 36)
	if _, err := rand.Read(raw); err != nil {
		t.Fatal(err)
	}
	for i, b := range raw {
		raw[i] = alphabet[int(b)%len(alphabet)]
	}
	return "ghp_" + string(raw)
}

// wantRoute reports a failure for each of the record's route and
// credential that is not the one given.
func wantRoute(t *testing.T, what string, rec *CallRecord, route, credential string) {
	t.Helper()
	if rec.Route != route {
		t.Errorf("%s: record route = %q, want %q", what, rec.Route, route)
	}
	if rec.Credential != credential {
		t.Errorf("%s: record credential = %q, want %q", what, rec.Credential, credential)
	}
}
