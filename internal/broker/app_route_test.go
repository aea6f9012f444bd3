package broker_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// appBrokerConfig is a broker whose one route is a GitHub App installed
// on initech's tps (public) and secret (private), named by repositories.
const appBrokerConfig = `
[listen]
socket = %q
[github]
url = %q
[secrets]
file = %q
[[route]]
owner = "initech"
app_id = 12345
installation_id = 678
app_key = "app-key"
%s
[tools]
toolsets = ["issues", "admin"]
[audit]
file = %q
`

// TestBrokerAppRouteMintsPerCall drives tools through the broker's socket
// over an App route naming repositories = ["tps"]: each call's token was
// asked for exactly tps and its tool's permissions in its mode, and the
// private repository the route does not name is out of reach.
func TestBrokerAppRouteMintsPerCall(t *testing.T) {
	emu := emulatortest.Start(t, emulator.Options{})
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	st := emu.Emu.State()
	st.Lock()
	initech := st.AddAccount("initech", "Initech", true, st.Now())
	tps := st.AddRepo(initech, "tps", "TPS reports", false, st.Now())
	secret := st.AddRepo(initech, "secret", "Layoffs", true, st.Now())
	st.AddIssue(tps, initech, "Cover sheets", nil, false, st.Now())
	st.AddIssue(secret, initech, "Relocate to the basement", nil, false, st.Now())
	inst := st.AddApp(12345, &key.PublicKey).AddInstallation(678, "initech",
		map[string]emulator.Permission{"initech/tps": emulator.PermWrite, "initech/secret": emulator.PermWrite})
	inst.Permissions = emulator.AppPermissions{"metadata": "read", "issues": "write", "contents": "read"}
	st.Unlock()

	dir := t.TempDir()
	secrets := filepath.Join(dir, "secrets.toml")
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(key)})
	if err := os.WriteFile(secrets, []byte("app-key = '''\n"+string(keyPEM)+"'''\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	audit := filepath.Join(dir, "audit.jsonl")
	conf := filepath.Join(dir, "broker.toml")
	text := fmt.Sprintf(appBrokerConfig, filepath.Join(dir, "b.sock"), emu.URL, secrets, `repositories = ["tps"]`, audit)
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv(broker.CredentialsDirEnv, "")
	cfg, err := broker.LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	logBuf := &brokertest.SyncBuffer{}
	hc := emu.Client()
	spy := &mintSpy{next: hc.Transport}
	hc.Transport = spy
	b, err := broker.New(cfg, broker.Options{Log: slog.New(slog.NewTextHandler(logBuf, nil)), HTTPClient: hc})
	if err != nil {
		t.Fatalf("broker.New: %v", err)
	}
	sock, err := broker.OpenSocket(cfg.Listen)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- b.Serve(ctx, sock) }()
	// The session's frames are scanned for a canary no one holds; the
	// installation tokens GitHub handed the broker are scanned for in
	// everything the test saw once the broker has stopped.
	canary := brokertest.NewCanary(t)
	var seen strings.Builder
	t.Cleanup(func() {
		cancel()
		if err := <-served; err != nil {
			t.Errorf("serve: %v", err)
		}
		if err := b.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
		tokens := spy.minted()
		if len(tokens) == 0 {
			t.Error("no installation token was seen minted")
		}
		for _, c := range append([]*brokertest.Canary{canary}, tokens...) {
			c.Scan("broker log", []byte(logBuf.String()))
			c.Scan("tool results", []byte(seen.String()))
			brokertest.ScanAuditFiles(t, c, dir)
			c.Check(t)
		}
	})
	cs := brokertest.Connect(t, canary, sock.Path())

	res := brokertest.MustCall(t, canary, cs, "github_get_issue", map[string]any{"owner": "initech", "repo": "tps", "issue_number": 1})
	seen.WriteString(brokertest.ResultText(res))
	res = brokertest.MustCall(t, canary, cs, "github_add_comment", map[string]any{"owner": "initech", "repo": "tps", "issue_number": 1,
		"body": "Did you get the memo about the new cover sheets?"})
	seen.WriteString(brokertest.ResultText(res))
	res, err = brokertest.Call(ctx, canary, cs, "github_get_issue", map[string]any{"owner": "initech", "repo": "secret", "issue_number": 1})
	if err != nil {
		t.Fatal(err)
	}
	seen.WriteString(brokertest.ResultText(res))
	if text := brokertest.ResultText(res); !res.IsError || !strings.Contains(text, `"code":"repo_not_found"`) {
		t.Errorf("initech/secret through a route naming tps: %s, want repo_not_found", text)
	}

	st.Lock()
	got := slices.Clone(inst.Requests)
	author := tps.Issue(1).Comments[0].User.Login
	st.Unlock()
	tpsOnly := []string{"tps"}
	want := []emulator.TokenRequest{
		{Repositories: tpsOnly, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "read"}},
		{Repositories: tpsOnly, Permissions: emulator.AppPermissions{"metadata": "read", "issues": "write"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("token requests:\n got %+v\nwant %+v", got, want)
	}
	if author != "app-12345[bot]" {
		t.Errorf("the comment was made as %s, want the App's bot", author)
	}
	for _, line := range brokertest.AuditLines(t, audit) {
		if line.Credential != "app:12345/678" {
			t.Errorf("audit line for %s names credential %q, want app:12345/678", line.Tool, line.Credential)
		}
	}
}

// mintSpy passes requests on and keeps the installation tokens GitHub
// answers token requests with, as canaries.
type mintSpy struct {
	next   http.RoundTripper
	mu     sync.Mutex
	tokens []*brokertest.Canary
}

func (s *mintSpy) RoundTrip(req *http.Request) (*http.Response, error) {
	res, err := s.next.RoundTrip(req)
	if err != nil || req.Method != http.MethodPost || !strings.HasSuffix(req.URL.Path, "/access_tokens") || res.StatusCode != http.StatusCreated {
		return res, err
	}
	body, err := io.ReadAll(res.Body)
	_ = res.Body.Close()
	if err != nil {
		return nil, err
	}
	res.Body = io.NopCloser(bytes.NewReader(body))
	var tok struct {
		Token string `json:"token"`
	}
	if json.Unmarshal(body, &tok) == nil && tok.Token != "" {
		s.mu.Lock()
		s.tokens = append(s.tokens, brokertest.CanaryOf(tok.Token))
		s.mu.Unlock()
	}
	return res, nil
}

func (s *mintSpy) minted() []*brokertest.Canary {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.tokens)
}

// An App route's repositories are names of the installation's
// repositories; a token route cannot narrow its secret, so it may not
// name any.
func TestBrokerConfigAppRepositories(t *testing.T) {
	dir := t.TempDir()
	conf := filepath.Join(dir, "broker.toml")
	for _, c := range []struct {
		name, route, want string
	}{
		{"owner-qualified", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"initech/tps\"]", "without its owner"},
		{"twice", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"tps\", \"TPS\"]", "twice"},
		{"empty", `app_id = 1` + "\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"\"]", "without its owner"},
		{"a token route", `read = "r"` + "\nrepositories = [\"tps\"]", "cannot narrow"},
	} {
		text := fmt.Sprintf("[listen]\nsocket = %q\n[[route]]\nowner = \"initech\"\n%s\n", filepath.Join(dir, "s"), c.route)
		if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := broker.LoadConfig(conf); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
	text := fmt.Sprintf("[listen]\nsocket = %q\n[[route]]\nowner = \"initech\"\napp_id = 1\ninstallation_id = 2\napp_key = \"k\"\nrepositories = [\"tps\", \"secret\"]\n", filepath.Join(dir, "s"))
	if err := os.WriteFile(conf, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := broker.LoadConfig(conf)
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Routes[0].Repositories; !slices.Equal(got, []string{"tps", "secret"}) {
		t.Errorf("repositories %v", got)
	}
}
