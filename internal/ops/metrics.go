// Package ops is what an operator runs ghgate with beside the MCP endpoint
// on the HTTP listener: /healthz (the process is up), /readyz (the state
// store and GitHub answer, and the server is not draining), Prometheus
// metrics at /metrics, and the drain that lets in-flight calls finish while
// new ones are refused with a retry hint. serve mounts it with one call
// (Mount); nothing here knows the tools.
package ops

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics are ghgate's Prometheus series, in a registry of their own (no
// package-level state): tool calls by tool and outcome, upstream requests
// by route class and status, conditional-request cache hits, the rate
// budget GitHub last reported, idempotent replays, and latency histograms
// for tool calls and upstream requests.
type Metrics struct {
	clientLabel     bool
	reg             *prometheus.Registry
	toolCalls       *prometheus.CounterVec
	toolSeconds     *prometheus.HistogramVec
	upstream        *prometheus.CounterVec
	upstreamSeconds *prometheus.HistogramVec
	cacheHits       prometheus.Counter
	rateRemaining   *prometheus.GaugeVec
	replays         *prometheus.CounterVec
	writePolicy     *prometheus.CounterVec
}

// MetricsOptions shape the series.
type MetricsOptions struct {
	// ClientLabel labels tool calls with the HTTP client's configured
	// name. Off by default: the names are the deployment's map of who
	// calls, and whoever scrapes the metrics would read them.
	ClientLabel bool
}

// NewMetrics registers the series (and the Go runtime and process
// collectors, for CPU and memory).
func NewMetrics(o MetricsOptions) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), clientLabel: o.ClientLabel}
	calls := prometheus.CounterOpts{Name: "ghgate_tool_calls_total", Help: "Tool calls by tool and outcome (ok, or the error envelope's code)."}
	labels := []string{"tool", "outcome"}
	if o.ClientLabel {
		calls.Help = "Tool calls by tool, outcome (ok, or the error envelope's code) and HTTP client (its configured name; empty without --auth)."
		labels = append(labels, "client")
	}
	m.toolCalls = prometheus.NewCounterVec(calls, labels)
	m.toolSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ghgate_tool_call_duration_seconds",
		Help: "Tool call latency.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 12)}, []string{"tool"})
	m.upstream = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ghgate_upstream_requests_total",
		Help: "Requests to GitHub by route class and HTTP status (0: no response)."}, []string{"route", "status"})
	m.upstreamSeconds = prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "ghgate_upstream_request_duration_seconds",
		Help: "GitHub request latency, retries included.", Buckets: prometheus.ExponentialBuckets(0.005, 2, 12)}, []string{"route"})
	m.cacheHits = prometheus.NewCounter(prometheus.CounterOpts{Name: "ghgate_cache_hits_total",
		Help: "Reads answered 304 by GitHub and served from the conditional-request cache (no budget spent)."})
	m.rateRemaining = prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "ghgate_rate_budget_remaining",
		Help: "Requests left in the rate budget GitHub last reported, by resource."}, []string{"resource"})
	m.replays = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ghgate_idempotent_replays_total",
		Help: "Keyed writes answered with an earlier call's result instead of writing."}, []string{"tool"})
	m.writePolicy = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "ghgate_write_policy_events_total",
		Help: "The write policy's decisions: refused, neutralized, dry_run, flow_guard and the confirmation_* events, by the rule that made them."},
		[]string{"event", "rule"})
	m.reg.MustRegister(m.toolCalls, m.toolSeconds, m.upstream, m.upstreamSeconds, m.cacheHits, m.rateRemaining, m.replays, m.writePolicy,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the registry in Prometheus' exposition format, to
// anyone: serve it through Gate.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Upstream records one request to GitHub; it is the access layer's
// observer (github.Options.Observer).
func (m *Metrics) Upstream(method, path string, status int, d time.Duration, cacheHit bool) {
	route := RouteClass(method, path)
	m.upstream.WithLabelValues(route, strconv.Itoa(status)).Inc()
	m.upstreamSeconds.WithLabelValues(route).Observe(d.Seconds())
	if cacheHit {
		m.cacheHits.Inc()
	}
}

// WritePolicy counts one decision of the write path (policy.Path.Observe);
// events and rules are ghgate's own words, so the series stay bounded.
func (m *Metrics) WritePolicy(event, _, rule string) {
	m.writePolicy.WithLabelValues(event, rule).Inc()
}

// RateBudget records the remaining budget GitHub reported for resource.
func (m *Metrics) RateBudget(resource string, remaining int) {
	m.rateRemaining.WithLabelValues(resource).Set(float64(remaining))
}

// Middleware counts and times tools/call requests by tool and outcome. An
// error result's outcome is its envelope's code; a success whose output
// says "replayed" also counts as an idempotent replay.
func (m *Metrics) Middleware(served func(name string) bool) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			// The label is a served tool's name or "unknown": a name taken
			// from the request as sent would let any caller add series
			// without bound.
			tool := "unknown"
			if p, ok := req.GetParams().(*mcp.CallToolParamsRaw); ok && p != nil && served != nil && served(p.Name) {
				tool = p.Name
			}
			start := time.Now()
			res, err := next(ctx, method, req)
			m.toolSeconds.WithLabelValues(tool).Observe(time.Since(start).Seconds())
			outcome := "ok"
			switch r, _ := res.(*mcp.CallToolResult); {
			case err != nil || r == nil:
				outcome = "protocol_error"
			case r.IsError:
				outcome = errorCode(r.StructuredContent)
			case replayed(r.StructuredContent):
				m.replays.WithLabelValues(tool).Inc()
			}
			labels := []string{tool, outcome}
			if m.clientLabel {
				labels = append(labels, clientName(req))
			}
			m.toolCalls.WithLabelValues(labels...).Inc()
			return res, err
		}
	}
}

// clientName is the name of the HTTP client the bearer check admitted (its
// configured name, so the label stays bounded by the configuration), or
// "" when the server runs without client authentication.
func clientName(req mcp.Request) string {
	if x := req.GetExtra(); x != nil && x.TokenInfo != nil {
		return x.TokenInfo.UserID
	}
	return ""
}

// errorCode is the envelope's code, or "error" when there is none. Codes
// are a closed, snake_case set, so the label stays bounded.
func errorCode(sc any) string {
	var e struct {
		Code string `json:"code"`
	}
	if b, err := json.Marshal(sc); err == nil && json.Unmarshal(b, &e) == nil && e.Code != "" && len(e.Code) <= 40 {
		return e.Code
	}
	return "error"
}

func replayed(sc any) bool {
	var out struct {
		Replayed bool `json:"replayed"`
	}
	b, err := json.Marshal(sc)
	return err == nil && json.Unmarshal(b, &out) == nil && out.Replayed
}

// collections are the path words a route class keeps; every other segment
// (owners, repositories, numbers, label names, refs) becomes "{x}", so the
// label's values stay few.
var collections = map[string]bool{
	"repos": true, "issues": true, "comments": true, "labels": true, "milestones": true, "assignees": true,
	"sub_issues": true, "sub_issue": true, "dependencies": true, "blocked_by": true, "blocking": true,
	"timeline": true, "events": true, "pulls": true, "reactions": true, "lock": true, "search": true,
	"user": true, "users": true, "orgs": true, "graphql": true, "rate_limit": true, "contents": true,
	"commits": true, "actions": true, "runs": true, "check-runs": true, "dependabot": true,
	"code-scanning": true, "secret-scanning": true, "alerts": true, "projects": true, "items": true,
	"reviews": true, "issue-types": true, "collaborators": true, "branches": true, "git": true, "refs": true,
	"priority": true, "reprioritize": true,
}

// RouteClass names a GitHub request by method and path shape, e.g.
// "GET /repos/{x}/{x}/issues/{x}".
func RouteClass(method, path string) string {
	path = strings.TrimPrefix(strings.TrimPrefix(path, "/api/v3"), "/api")
	parts := strings.Split(strings.Trim(path, "/"), "/")
	for i, p := range parts {
		if !collections[p] {
			parts[i] = "{x}"
		}
	}
	return method + " /" + strings.Join(parts, "/")
}
