package ops

import (
	"context"
	"errors"
	"github.com/ghgate/ghgate/internal/policy"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func scrape(t *testing.T, m *Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("/metrics = %d, want 200", rec.Code)
	}
	return rec.Body.String()
}

func wantLine(t *testing.T, body, line string) {
	t.Helper()
	for _, l := range strings.Split(body, "\n") {
		if l == line {
			return
		}
	}
	t.Errorf("metrics lack %q", line)
}

func TestMiddlewareCountsToolCallsByOutcome(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	results := map[string]*mcp.CallToolResult{
		"ok":       {StructuredContent: map[string]any{"issue": map[string]any{"number": 1}}},
		"replayed": {StructuredContent: map[string]any{"replayed": true}},
		"limited":  {IsError: true, StructuredContent: map[string]any{"code": "rate_limited", "message": "x"}},
		"bare":     {IsError: true},
	}
	served := func(name string) bool { return name != "junk" }
	h := m.Middleware(served)(func(_ context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return &mcp.ListToolsResult{}, nil
		}
		return results[req.GetParams().(*mcp.CallToolParamsRaw).Name], nil
	})
	results["junk"] = results["ok"]
	for _, name := range []string{"ok", "ok", "replayed", "limited", "bare", "junk"} {
		if _, err := h(context.Background(), "tools/call", &mcp.ServerRequest[*mcp.CallToolParamsRaw]{Params: &mcp.CallToolParamsRaw{Name: name}}); err != nil {
			t.Fatal(err)
		}
	}
	// Other methods pass through uncounted.
	_, _ = h(context.Background(), "tools/list", &mcp.ServerRequest[*mcp.ListToolsParams]{Params: &mcp.ListToolsParams{}})
	body := scrape(t, m)
	wantLine(t, body, `ghgate_tool_calls_total{outcome="ok",tool="ok"} 2`)
	wantLine(t, body, `ghgate_tool_calls_total{outcome="ok",tool="replayed"} 1`)
	wantLine(t, body, `ghgate_idempotent_replays_total{tool="replayed"} 1`)
	wantLine(t, body, `ghgate_tool_calls_total{outcome="rate_limited",tool="limited"} 1`)
	wantLine(t, body, `ghgate_tool_calls_total{outcome="error",tool="bare"} 1`)
	wantLine(t, body, `ghgate_tool_call_duration_seconds_count{tool="ok"} 2`)
	// A name no tool has is counted, under "unknown", never as sent.
	wantLine(t, body, `ghgate_tool_calls_total{outcome="ok",tool="unknown"} 1`)
	if strings.Contains(body, `tool="junk"`) {
		t.Error("a tool name that is not served became a label")
	}
	if strings.Contains(body, `tool="tools/list"`) {
		t.Error("a non-tool method was counted")
	}
}

func TestUpstreamMetricsAndRouteClasses(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	m.Upstream("GET", "/api/v3/repos/acme/widgets/issues/7", 200, 20*time.Millisecond, false)
	m.Upstream("GET", "/repos/other/repo/issues/8", 304, time.Millisecond, true)
	m.Upstream("DELETE", "/repos/acme/widgets/issues/7/labels/needs triage", 0, time.Second, false)
	m.RateBudget("core", 4321)
	body := scrape(t, m)
	wantLine(t, body, `ghgate_upstream_requests_total{route="GET /repos/{x}/{x}/issues/{x}",status="200"} 1`)
	wantLine(t, body, `ghgate_upstream_requests_total{route="GET /repos/{x}/{x}/issues/{x}",status="304"} 1`)
	wantLine(t, body, `ghgate_upstream_requests_total{route="DELETE /repos/{x}/{x}/issues/{x}/labels/{x}",status="0"} 1`)
	wantLine(t, body, `ghgate_cache_hits_total 1`)
	wantLine(t, body, `ghgate_rate_budget_remaining{resource="core"} 4321`)
	wantLine(t, body, `ghgate_upstream_request_duration_seconds_count{route="GET /repos/{x}/{x}/issues/{x}"} 2`)
	if got := RouteClass("POST", "/graphql"); got != "POST /graphql" {
		t.Errorf("RouteClass(graphql) = %q, want %q", got, "POST /graphql")
	}
}

func TestReadinessAndHealth(t *testing.T) {
	storeErr := errors.New("connection refused")
	failing := true
	mux := http.NewServeMux()
	op := Mount(mux, Options{ProbeCache: time.Nanosecond, Probes: []Probe{
		{Name: "state", Check: func(context.Context) error {
			if failing {
				return storeErr
			}
			return nil
		}},
		{Name: "github", Check: func(context.Context) error { return nil }},
	}, Metrics: NewMetrics(MetricsOptions{})})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	get := func(path string) (int, string, http.Header) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, _, _ := get("/healthz"); code != 200 {
		t.Fatalf("/healthz = %d, want 200", code)
	}
	code, body, _ := get("/readyz")
	if code != 503 {
		t.Fatalf("/readyz with the store down = %d, want 503: %s", code, body)
	}
	if !strings.Contains(body, `"state":"connection refused"`) {
		t.Fatalf("/readyz with the store down = %s, want the store's state %q", body, `"state":"connection refused"`)
	}
	if strings.Contains(body, "github") {
		t.Fatalf("/readyz with the store down = %s, want no mention of github", body)
	}
	failing = false
	time.Sleep(time.Millisecond)
	if code, body, _ := get("/readyz"); code != 200 {
		t.Fatalf("/readyz recovered = %d, want 200: %s", code, body)
	}
	code, body, _ = get("/metrics")
	if code != 200 {
		t.Fatalf("/metrics = %d, want 200", code)
	}
	if !strings.Contains(body, "go_goroutines") {
		t.Fatalf("/metrics lacks go_goroutines, want the Go collector's metrics")
	}
	op.Drain(context.Background())
	code, _, h := get("/readyz")
	if code != 503 {
		t.Fatalf("/readyz while draining = %d, want 503", code)
	}
	if h.Get("Retry-After") == "" {
		t.Fatalf("/readyz while draining has no Retry-After, want one")
	}
	if code, _, _ := get("/healthz"); code != 200 {
		t.Fatalf("/healthz while draining = %d, want 200", code)
	}
}

func TestDrainFinishesInFlightAndRefusesNew(t *testing.T) {
	mux := http.NewServeMux()
	op := Mount(mux, Options{})
	started, release := make(chan struct{}), make(chan struct{})
	mux.Handle("/mcp", op.Guard(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("slow") != "" {
			close(started)
			<-release
		}
		_, _ = io.WriteString(w, "done")
	})))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	inflight := make(chan string, 1)
	go func() {
		resp, err := http.Get(srv.URL + "/mcp?slow=1")
		if err != nil {
			inflight <- err.Error()
			return
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		inflight <- resp.Status + " " + string(b)
	}()
	<-started
	drained := make(chan bool, 1)
	go func() { drained <- op.Drain(context.Background()) }()
	for !op.Draining() {
		time.Sleep(time.Millisecond)
	}
	resp, err := http.Get(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("new request while draining = %d, want 503", resp.StatusCode)
	}
	if got := resp.Header.Get("Retry-After"); got != "1" {
		t.Fatalf("new request while draining: Retry-After = %q, want 1", got)
	}
	select {
	case <-drained:
		t.Fatal("Drain returned with a call in flight")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	if got := <-inflight; got != "200 OK done" {
		t.Fatalf("in-flight call = %q, want %q", got, "200 OK done")
	}
	if !<-drained {
		t.Fatal("Drain reported calls left")
	}
	// A drain with a deadline gives up while a call is stuck.
	op2 := Mount(http.NewServeMux(), Options{})
	if !op2.enter() {
		t.Fatal("enter refused before draining")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if op2.Drain(ctx) {
		t.Fatal("Drain reported done with a call stuck")
	}
}

// The write path's decisions are counted by event and rule.
func TestWritePolicyEventsAreCounted(t *testing.T) {
	m := NewMetrics(MetricsOptions{})
	p := &policy.Path{Observe: m.WritePolicy, Rules: policy.Rules{Deny: []policy.Kind{policy.KindDelete}}}
	del := policy.Call{Tool: "github_delete_issue", Writes: []policy.Write{{Kind: policy.KindDelete, Target: policy.Target{Owner: "o", Repo: "r", Number: 1}}}}
	for range 2 {
		if _, _, e := p.Admit(context.Background(), del); e == nil {
			t.Fatal("a denied kind was admitted")
		}
	}
	body := "a token ghp_" + strings.Repeat("x1Y2", 9)
	if _, _, e := p.Admit(context.Background(), policy.Call{Tool: "github_add_comment", Writes: []policy.Write{{Kind: policy.KindComment,
		Target: policy.Target{Owner: "o", Repo: "r", Number: 1}, Text: policy.Str("body", &body)}}}); e == nil {
		t.Fatal("a token was admitted")
	}
	scraped := scrape(t, m)
	wantLine(t, scraped, `ghgate_write_policy_events_total{event="refused",rule="deny"} 2`)
	wantLine(t, scraped, `ghgate_write_policy_events_total{event="refused",rule="outbound.secret_scan"} 1`)
}
