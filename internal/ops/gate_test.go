package ops

import (
	"context"
	"crypto/sha256"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countCall sends one tools/call of tool "t" through m's middleware, as
// the bearer check admitted client ("" without --auth).
func countCall(t *testing.T, m *Metrics, client string) {
	t.Helper()
	h := m.Middleware(func(string) bool { return true })(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		return &mcp.CallToolResult{StructuredContent: map[string]any{}}, nil
	})
	req := &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: "t"}}
	if client != "" {
		req.Extra = &mcp.RequestExtra{TokenInfo: &auth.TokenInfo{UserID: client}}
	}
	if _, err := h(context.Background(), "tools/call", req); err != nil {
		t.Fatal(err)
	}
}

// Client names are no label unless the operator opts in: calls are
// counted by tool and outcome, all clients together.
func TestClientNamesOnlyWhenOptedIn(t *testing.T) {
	t.Parallel()
	plain := NewMetrics(MetricsOptions{})
	countCall(t, plain, "release-agent")
	countCall(t, plain, "triage")
	body := scrape(t, plain)
	wantLine(t, body, `ghgate_tool_calls_total{outcome="ok",tool="t"} 2`)
	for _, name := range []string{"release-agent", "triage"} {
		if strings.Contains(body, name) {
			t.Errorf("metrics show client %q without the opt-in", name)
		}
	}

	named := NewMetrics(MetricsOptions{ClientLabel: true})
	countCall(t, named, "release-agent")
	countCall(t, named, "triage")
	body = scrape(t, named)
	wantLine(t, body, `ghgate_tool_calls_total{client="release-agent",outcome="ok",tool="t"} 1`)
	wantLine(t, body, `ghgate_tool_calls_total{client="triage",outcome="ok",tool="t"} 1`)
}

// The gate on a real loopback listener: the key is asked for, a wrong
// one refused, and a host name rebound to 127.0.0.1 is refused even with
// the key.
func TestGateAsksTheKeyAndLoopbackNames(t *testing.T) {
	t.Parallel()
	const key = "metrics-key-0123456789abcdef"
	sum := sha256.Sum256([]byte(key))
	mux := http.NewServeMux()
	Mount(mux, Options{Metrics: NewMetrics(MetricsOptions{}), MetricsGate: Gate{KeySHA256: sum[:]}})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(host, authz string) (int, string) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, srv.URL+"/metrics", nil)
		if err != nil {
			t.Fatal(err)
		}
		if host != "" {
			req.Host = host
		}
		if authz != "" {
			req.Header.Set("Authorization", authz)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
	}
	for _, c := range []struct {
		what, host, authz string
		want              int
	}{
		{"no key", "", "", http.StatusUnauthorized},
		{"another key", "", "Bearer " + key + "x", http.StatusUnauthorized},
		{"the key as Basic", "", "Basic " + key, http.StatusUnauthorized},
		{"the key", "", "Bearer " + key, http.StatusOK},
		{"the key, lower-case scheme", "", "bearer " + key, http.StatusOK},
		{"the key, localhost", "localhost", "Bearer " + key, http.StatusOK},
		{"the key, a rebound name", "attacker.example:80", "Bearer " + key, http.StatusForbidden},
		{"no key, a rebound name", "attacker.example", "", http.StatusForbidden},
	} {
		if got, _ := get(c.host, c.authz); got != c.want {
			t.Errorf("%s: status = %d, want %d", c.what, got, c.want)
		}
	}
	if _, h := get("", ""); h != `Bearer realm="ghgate metrics"` {
		t.Errorf("401's WWW-Authenticate = %q, want %q", h, `Bearer realm="ghgate metrics"`)
	}

	// Without a key the gate still keeps rebound names out.
	open := http.NewServeMux()
	Mount(open, Options{Metrics: NewMetrics(MetricsOptions{})})
	osrv := httptest.NewServer(open)
	defer osrv.Close()
	req, err := http.NewRequest(http.MethodGet, osrv.URL+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Host = "attacker.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("keyless gate, a rebound name: status = %d, want 403", resp.StatusCode)
	}
}
