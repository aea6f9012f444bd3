package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/ghgate/ghgate/internal/testutil"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tooldef"
)

var listenURL = regexp.MustCompile(`url=(http://127\.0\.0\.1:\d+/mcp)`)

// startHTTPUpstream runs `ghgate serve --http 127.0.0.1:0` against the
// emulator with its own token, and returns its MCP URL.
func startHTTPUpstream(t *testing.T, w *world) string {
	t.Helper()
	cmd := exec.Command(ghgateBinary(t), "serve", "--github-url", w.emu.URL, "--state", filepath.Join(t.TempDir(), "state.db"),
		"--http", "127.0.0.1:0")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir(), "GITHUB_TOKEN=" + emulator.DemoTokenAlice}
	stderr := &testutil.SyncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
	})
	for range 200 { // up to 10 s for the listener
		if m := listenURL.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case <-done:
			t.Fatalf("ghgate serve exited:\n%s", stderr.String())
		case <-time.After(50 * time.Millisecond):
		}
	}
	t.Fatalf("ghgate serve did not report its URL:\n%s", stderr.String())
	return ""
}

// seenRequest is one request the recording proxy saw.
type seenRequest struct {
	Auth, Method, Tool string
}

// recorder sits between the broker and the HTTP upstream: it records each
// request's Authorization header and JSON-RPC method, then forwards the
// request without the header.
type recorder struct {
	mu   sync.Mutex
	seen []seenRequest
}

func (rc *recorder) handler(target string) http.Handler {
	u, _ := url.Parse(target)
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var msg struct {
			Method string `json:"method"`
			Params struct {
				Name string `json:"name"`
			} `json:"params"`
		}
		_ = json.Unmarshal(body, &msg)
		rc.mu.Lock()
		rc.seen = append(rc.seen, seenRequest{Auth: r.Header.Get("Authorization"), Method: msg.Method, Tool: msg.Params.Name})
		rc.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.Header.Del("Authorization")
		r.URL.Path = u.Path
		proxy.ServeHTTP(w, r)
	})
}

func (rc *recorder) requests() []seenRequest {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]seenRequest(nil), rc.seen...)
}

func TestHTTPProxy(t *testing.T) {
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	upstreamURL := startHTTPUpstream(t, w)
	rec := &recorder{}
	front := httptest.NewServer(rec.handler(upstreamURL))
	t.Cleanup(front.Close)

	cfg := Config{Name: "remote", URL: front.URL + "/mcp", Allow: []Allowed{
		{Tool: "github_get_issue", Mode: tooldef.Read},
		{Tool: "github_create_issue", Mode: tooldef.Write},
	}}
	p := connect(t, cfg, newFakeTokens(w.readTok, w.writeTok), tr, Options{Log: log})
	cs := serve(t, p)
	if n := len(p.Tools()); n != 2 {
		t.Fatalf("%d tools, want 2", n)
	}
	if isErr, out := call(t, tr, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}); isErr {
		t.Fatalf("get_issue: %v", out)
	}
	if isErr, out := call(t, tr, cs, "github_create_issue", map[string]any{"owner": "acme", "repo": "widgets", "title": "over http"}); isErr {
		t.Fatalf("create_issue: %v", out)
	}

	// Every request carried a routed token; each call carried its mode's.
	want := map[string]string{"github_get_issue": "Bearer " + w.readTok, "github_create_issue": "Bearer " + w.writeTok}
	calls := 0
	for _, r := range rec.requests() {
		if r.Auth != "Bearer "+w.readTok && r.Auth != "Bearer "+w.writeTok {
			t.Errorf("a %q request carried an unexpected Authorization", r.Method)
		}
		if r.Method == "tools/call" {
			calls++
			if r.Auth != want[r.Tool] {
				t.Errorf("tools/call %s did not carry its mode's token", r.Tool)
			}
		}
	}
	if calls != 2 {
		t.Fatalf("the upstream saw %d tools/call requests, want 2", calls)
	}
}

func TestHTTPNoRedirect(t *testing.T) {
	w := newWorld(t)
	tr, log := newTranscript(t, w.readTok, w.writeTok)
	var elsewhere sync.Map
	other := httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		elsewhere.Store(r.Header.Get("Authorization"), true)
		http.NotFound(rw, r)
	}))
	t.Cleanup(other.Close)
	redirect := httptest.NewServer(http.RedirectHandler(other.URL+"/mcp", http.StatusTemporaryRedirect))
	t.Cleanup(redirect.Close)

	cfg := Config{Name: "moved", URL: redirect.URL + "/mcp", Allow: []Allowed{{Tool: "github_get_issue", Mode: tooldef.Read}}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := Connect(ctx, cfg, Options{Tokens: newFakeTokens(w.readTok, w.writeTok), Log: log})
	tr.add(err)
	if err == nil {
		t.Fatal("Connect through a redirect succeeded")
	}
	elsewhere.Range(func(k, _ any) bool {
		t.Errorf("the redirect target was reached (Authorization %q)", k)
		return true
	})
}

func TestConfigCheck(t *testing.T) {
	ok := []Allowed{{Tool: "x", Mode: tooldef.Read}}
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Name: "a", Allow: ok}, "exactly one of command or url"},
		{Config{Name: "a", Command: []string{"x"}, URL: "https://h/mcp", TokenEnv: "T", Allow: ok}, "exactly one"},
		{Config{Name: "a", Command: []string{"x"}, Allow: ok}, "token_env is required"},
		{Config{Name: "a", Command: []string{"x"}, TokenEnv: "PATH", Allow: ok}, "would replace"},
		{Config{Name: "a", Command: []string{"x"}, TokenEnv: "A-B", Allow: ok}, "not an environment variable"},
		{Config{Name: "a", URL: "http://example.com/mcp", Allow: ok}, "plain http"},
		{Config{Name: "a", URL: "https://u:p@example.com/mcp", Allow: ok}, "credentials in the URL"},
		{Config{Name: "a", URL: "https://example.com/mcp"}, "allow is empty"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "admin"}}}, "mode must be read or write"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: append(ok, ok...)}, "allowed twice"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", OwnerArgs: []string{"target..login"}}}}, "not an argument name"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", RepoArgs: []string{""}}}}, "not an argument name"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", OwnerArgs: []string{"a b"}}}}, "not an argument name"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", OwnerArgs: []string{"slug"}, RepoArgs: []string{"Slug"}}}}, "both owner_args and repo_args"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", RepoArgs: []string{"slug"}, TextArgs: []string{"SLUG"}}}}, "both repo_args and text_args"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", TextArgs: []string{"filter.owner"}}}}, "cannot be text"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", TextArgs: []string{"source_repo"}}}}, "cannot be text"},
		{Config{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", TextArgs: []string{"q"}}}}, "cannot be text"},
	} {
		err := c.cfg.check()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: got %v, want %q", c.cfg, err, c.want)
		}
	}
	for _, good := range []Config{
		{Name: "a", URL: "http://127.0.0.1:8080/mcp", Allow: ok},
		{Name: "a", URL: "https://example.com/mcp", Allow: ok},
		{Name: "a", Command: []string{"x"}, TokenEnv: "GITHUB_PERSONAL_ACCESS_TOKEN", Allow: ok},
		{Name: "a", URL: "https://example.com/mcp", Allow: []Allowed{{Tool: "x", Mode: "read", OwnerArgs: []string{"account", "target.login"}, RepoArgs: []string{"slug"}}}},
	} {
		if err := good.check(); err != nil {
			t.Errorf("%+v: %v", good, err)
		}
	}
}
