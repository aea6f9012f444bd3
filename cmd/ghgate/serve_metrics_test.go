package main

import (
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/lestrrat-go/jwx/v3/jwk"
)

// scrapeAs GETs url with key as its bearer ("" sends none) and returns the
// status and body.
func scrapeAs(t *testing.T, url, key string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// callsAsBothClients makes one call as each of authServe's clients (the
// IdP's signing with k), so the metrics have something to count per
// client.
func callsAsBothClients(t *testing.T, url string, idp *testIdP, k jwk.Key) {
	t.Helper()
	for name, token := range map[string]string{"triage": idp.token(t, k, "triage", url, time.Now().Add(time.Hour)), "reader": staticKey} {
		cs := connectAs(t, url, token)
		if isErr, env := callEnvelope(t, cs, "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1}); isErr {
			t.Fatalf("%s: get_issue refused: %+v", name, env)
		}
	}
}

// TestServeAuthMetricsNeedAKey: with --auth and no metrics key, the MCP
// listener does not serve /metrics to anyone: it would list every
// client's name, its calls and the rate budget.
func TestServeAuthMetricsNeedAKey(t *testing.T) {
	t.Parallel()
	idp, k := newTestIdP(t), newKey(t, "k1")
	idp.publish(k)
	url, _, stderr := authServe(t, idp)
	callsAsBothClients(t, url, idp, k)
	status, body := scrapeAs(t, strings.TrimSuffix(url, mcpPath)+"/metrics", "")
	if status != http.StatusNotFound {
		t.Errorf("/metrics without a key: status = %d, want 404", status)
	}
	for _, name := range []string{"triage", "reader"} {
		if strings.Contains(body, name) {
			t.Errorf("/metrics without a key shows client %q", name)
		}
	}
	if want := "/metrics is not served"; !strings.Contains(stderr.String(), want) {
		t.Errorf("the start-up log does not say %q", want)
	}
}

const metricsKey = "ghgate-metrics-key-0123456789abcdef"

// TestServeAuthMetricsWithKey: with --auth and a metrics key, /metrics
// beside /mcp answers only the key (a client's key is not it), and counts
// calls by tool and outcome without the clients' names.
func TestServeAuthMetricsWithKey(t *testing.T) {
	t.Parallel()
	idp, k := newTestIdP(t), newKey(t, "k1")
	idp.publish(k)
	url, _, stderr := authServe(t, idp, "--metrics-key-sha256", httpauth.KeyDigest(metricsKey))
	callsAsBothClients(t, url, idp, k)
	metrics := strings.TrimSuffix(url, mcpPath) + "/metrics"
	for what, key := range map[string]string{"no key": "", "a client's key": staticKey, "the key changed": metricsKey + "x"} {
		if status, _ := scrapeAs(t, metrics, key); status != http.StatusUnauthorized {
			t.Errorf("/metrics, %s: status = %d, want 401", what, status)
		}
	}
	status, body := scrapeAs(t, metrics, metricsKey)
	if status != http.StatusOK {
		t.Fatalf("/metrics with the key: status = %d, want 200", status)
	}
	if want := `ghgate_tool_calls_total{outcome="ok",tool="github_get_issue"} 2`; !strings.Contains(body, want) {
		t.Errorf("metrics lack %s", want)
	}
	for _, name := range []string{"triage", "reader"} {
		if strings.Contains(body, name) {
			t.Errorf("metrics show client %q without --metrics-client-label", name)
		}
	}
	if strings.Contains(stderr.String(), metricsKey) {
		t.Error("the log shows the metrics key")
	}
}

// TestServeAuthMetricsClientLabel: the operator's opt-in labels each
// client's calls with its configured name.
func TestServeAuthMetricsClientLabel(t *testing.T) {
	t.Parallel()
	idp, k := newTestIdP(t), newKey(t, "k1")
	idp.publish(k)
	url, _, _ := authServe(t, idp, "--metrics-key-sha256", httpauth.KeyDigest(metricsKey), "--metrics-client-label")
	callsAsBothClients(t, url, idp, k)
	status, body := scrapeAs(t, strings.TrimSuffix(url, mcpPath)+"/metrics", metricsKey)
	if status != http.StatusOK {
		t.Fatalf("/metrics with the key: status = %d, want 200", status)
	}
	for _, want := range []string{`ghgate_tool_calls_total{client="triage",outcome="ok",tool="github_get_issue"} 1`,
		`ghgate_tool_calls_total{client="reader",outcome="ok",tool="github_get_issue"} 1`} {
		if !strings.Contains(body, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}

var metricsURL = regexp.MustCompile(`metrics_url=(http://127\.0\.0\.1:\d+/metrics)`)

// TestServeMetricsOwnListener: with --metrics-addr, /metrics moves to a
// loopback listener of its own (no key asked there), is gone from beside
// /mcp, and refuses a host name rebound to loopback.
func TestServeMetricsOwnListener(t *testing.T) {
	t.Parallel()
	idp, k := newTestIdP(t), newKey(t, "k1")
	idp.publish(k)
	url, _, stderr := authServe(t, idp, "--metrics-addr", "127.0.0.1:0")
	callsAsBothClients(t, url, idp, k)
	if status, _ := scrapeAs(t, strings.TrimSuffix(url, mcpPath)+"/metrics", ""); status != http.StatusNotFound {
		t.Errorf("/metrics beside /mcp: status = %d, want 404", status)
	}
	m := metricsURL.FindStringSubmatch(stderr.String())
	if m == nil {
		t.Fatalf("no metrics_url in the log:\n%s", stderr.String())
	}
	status, body := scrapeAs(t, m[1], "")
	if status != http.StatusOK {
		t.Fatalf("%s: status = %d, want 200", m[1], status)
	}
	if want := `ghgate_tool_calls_total{outcome="ok",tool="github_get_issue"} 2`; !strings.Contains(body, want) {
		t.Errorf("metrics lack %s", want)
	}
	req, err := http.NewRequest(http.MethodGet, m[1], nil)
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
		t.Errorf("a rebound host name: status = %d, want 403", resp.StatusCode)
	}
}

// TestServeMetricsSettings: where the metrics go and to whom comes from
// the file or the flags (flags win); a listener anyone could reach
// without a key, a digest that is not one, and a listener without --http
// are refused before anything starts.
func TestServeMetricsSettings(t *testing.T) {
	digest := httpauth.KeyDigest(metricsKey)
	c, err := parseServe(t, []string{"--http", "127.0.0.1:8080"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.Addr != "" {
		t.Errorf("default metrics address = %q, want none", c.Metrics.Addr)
	}
	if c.Metrics.KeySHA256 != nil {
		t.Error("a metrics key digest by default")
	}
	if c.Metrics.ClientLabel {
		t.Error("client names are labels by default")
	}
	file := fmt.Sprintf("metrics_addr = \"127.0.0.1:9464\"\nmetrics_key_sha256 = %q\nmetrics_client_label = true\n", digest)
	c, err = parseServe(t, []string{"--http", "127.0.0.1:8080"}, file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(c.Metrics.KeySHA256); got != digest {
		t.Errorf("key digest from the file = %s, want %s", got, digest)
	}
	if c.Metrics.Addr != "127.0.0.1:9464" {
		t.Errorf("address from the file = %q, want 127.0.0.1:9464", c.Metrics.Addr)
	}
	if !c.Metrics.ClientLabel {
		t.Error("metrics_client_label = true in the file: not set")
	}
	c, err = parseServe(t, []string{"--http", "127.0.0.1:8080", "--metrics-addr", "[::1]:9465", "--metrics-client-label=false"}, file, nil)
	if err != nil {
		t.Fatal(err)
	}
	if c.Metrics.Addr != "[::1]:9465" {
		t.Errorf("address with the flag = %q, want [::1]:9465", c.Metrics.Addr)
	}
	if c.Metrics.ClientLabel {
		t.Error("--metrics-client-label=false did not win over the file")
	}
	if _, err := parseServe(t, []string{"--http", "127.0.0.1:8080", "--metrics-addr", "0.0.0.0:9464", "--metrics-key-sha256", digest}, "", nil); err != nil {
		t.Errorf("a non-loopback metrics address with a key: %v", err)
	}

	for _, c := range []struct {
		what string
		args []string
		want string
	}{
		{"non-loopback, no key", []string{"--http", "127.0.0.1:8080", "--metrics-addr", "0.0.0.0:9464"}, "requires metrics_key_sha256"},
		{"no port", []string{"--http", "127.0.0.1:8080", "--metrics-addr", "metrics.internal"}, "want HOST:PORT"},
		{"no --http", []string{"--metrics-addr", "127.0.0.1:9464"}, "applies to --http"},
		{"the key, not its digest", []string{"--http", "127.0.0.1:8080", "--metrics-key-sha256", metricsKey}, "64 hex digits"},
	} {
		_, err := parseServe(t, c.args, "", nil)
		if err == nil {
			t.Errorf("%s: accepted, want an error containing %q", c.what, c.want)
			continue
		}
		if !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error = %q, want it to contain %q", c.what, err, c.want)
		}
		if strings.Contains(err.Error(), metricsKey) {
			t.Errorf("%s: the error shows the key", c.what)
		}
	}
}
