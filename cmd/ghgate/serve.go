package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/ghgate/ghgate/internal/demo"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/httpauth"
	"github.com/ghgate/ghgate/internal/ops"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The test-only build (go build -tags conformance) sets these: a hidden
// serve flag that adds the MCP conformance suites' fixture tools, prompts
// and resources (see conformance_fixtures.go). In ghgate as released they
// are nil: the fixtures are not compiled in at all.
var (
	fixtureFlags func(*pflag.FlagSet)
	fixtureStack func(*server.StackOptions)
)

// mcpPath is where the streamable HTTP endpoint answers.
const mcpPath = "/mcp"

// healthPath answers GET with 200 while the HTTP server is up: what a
// container's health check and a load balancer probe (`ghgate healthcheck`).
const healthPath = "/healthz"

func newServeCommand() *cobra.Command {
	var (
		f       serveFlags
		verbose bool
		logJSON bool
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve the MCP server over stdio (default) or streamable HTTP",
		Long: `Serve ghgate's MCP server. Over stdio by default: stdout carries only the
protocol, logs go to stderr. With --http ADDR, streamable HTTP (stateless,
as MCP 2026-07-28 requires) at http://ADDR/mcp.

The token is the first found of: GITHUB_TOKEN or GH_TOKEN in the
environment, the config file's token key, the one ` + "`ghgate auth login`" + ` stored
for github_url's host (OS keyring, else its credentials file), and the one
GitHub's CLI stored for that host (gh auth login). The start log names the
source. Without a token the server still starts and every tool call fails
with missing_credential. Flags override the config file.

  ghgate serve --demo                      # in-process emulator, acting as alice
  ghgate serve --http 127.0.0.1:8080       # streamable HTTP on loopback
  ghgate serve --config ~/.config/ghgate/config.toml --toolsets all`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			level := slog.LevelInfo
			if verbose {
				level = slog.LevelDebug
			}
			var handler slog.Handler = slog.NewTextHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level})
			if logJSON {
				// One JSON object per line, for a log collector behind many
				// replicas; a failed call's line carries the request_id its
				// envelope gave the agent.
				handler = slog.NewJSONHandler(cmd.ErrOrStderr(), &slog.HandlerOptions{Level: level})
			}
			log := slog.New(handler)
			cfg, err := f.resolve(cmd.Flags(), os.Getenv)
			if err != nil {
				return err
			}
			return runServe(cmd.Context(), cfg, log)
		},
	}
	f.register(cmd.Flags())
	if fixtureFlags != nil {
		fixtureFlags(cmd.Flags())
	}
	cmd.Flags().BoolVarP(&verbose, "verbose", "v", false, "log at debug level")
	cmd.Flags().BoolVar(&logJSON, "log-json", false, "log JSON lines (one object per line) instead of text")
	return cmd
}

// runServe assembles ghgate from cfg and serves it until ctx ends (SIGINT,
// SIGTERM) or, over stdio, until the client closes stdin.
func runServe(ctx context.Context, cfg serveConfig, log *slog.Logger) error {
	opts := server.StackOptions{BaseURL: cfg.GitHubURL, Token: cfg.Token, StorePath: cfg.State, CursorKey: cfg.CursorKey, RateFloor: cfg.RateFloor,
		Toolsets: cfg.Toolsets, ReadOnly: cfg.ReadOnly, AllowedIssueCreator: cfg.AllowedIssueCreator, SyncRoot: cfg.SyncRoot, Releases: cfg.Releases, Tiers: cfg.Tiers, Log: log,
		Tasks: tasks.Limits{MaxTasks: cfg.MaxTasks, MaxTasksPerClient: cfg.MaxTasksPerClient}, FanoutPerCredential: cfg.MaxFanoutPerCredential,
		Policy: cfg.Policy, PolicyShared: cfg.HTTP != "",
		Lockdown: server.LockdownOptions{Rule: cfg.Lockdown, AllowInclude: cfg.Lockdown.AllowInclude}}
	// The guard applies each HTTP client's policy; it needs the served
	// tools, known once the stack is built, and wraps every call in it.
	var guard *httpauth.Guard
	if cfg.Auth != nil {
		// A task belongs to the client that started it (caller.ID, set by
		// the guard's middleware): another client's tasks/get finds nothing.
		opts.Wrap = func(ctx context.Context, call tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
			return guard.Wrap(ctx, call, next)
		}
		// Each client's [client.tools] may set its own lockdown: the
		// server lists include_untrusted where any may use it, and the
		// guard leaves it out for the others.
		opts.Lockdown.Varies = cfg.Auth.LockdownVaries(cfg.Lockdown)
		opts.Lockdown.AllowInclude = opts.Lockdown.AllowInclude || cfg.Auth.AllowsInclude(cfg.Lockdown)
		opts.LockdownFor = func(ctx context.Context, _ string) toolkit.Lockdown { return httpauth.LockdownOf(ctx, cfg.Lockdown) }
	}
	if cfg.Demo {
		emu, err := demo.StartEmulator(emulator.Options{Seed: "demo", FleetRepos: emulator.DemoFleetRepos, Logger: log.With("component", "emulator")})
		if err != nil {
			return err
		}
		defer emu.Close()
		url := emu.URL
		// The demo never sends the user's own token anywhere, and keeps its
		// state in memory: the emulator's world ends with the process too.
		opts.BaseURL, opts.Token, opts.StorePath = url, emulator.DemoTokenAlice, ""
		log.Info("demo: serving against an in-process GitHub emulator as alice", "emulator", url)
	} else {
		logTokenSource(log, cfg)
	}
	if fixtureStack != nil {
		fixtureStack(&opts)
	}
	var metrics *ops.Metrics
	if cfg.HTTP != "" && (cfg.Metrics.Addr != "" || cfg.Metrics.onMCPListener(cfg.Auth != nil)) {
		metrics = ops.NewMetrics(ops.MetricsOptions{ClientLabel: cfg.Metrics.ClientLabel})
		opts.Observer = metrics
	} else if cfg.HTTP != "" {
		log.Info("/metrics is not served: with --auth it needs metrics_key_sha256 (a key scrapers present) or metrics_addr (a listener of its own)")
	}
	st, err := server.NewStack(ctx, opts)
	if err != nil {
		return err
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the store", "error", err)
		}
	}()
	if cfg.Auth != nil {
		guard = httpauth.NewGuard(st.Server.Tools, st.Server.Fingerprint, log.With("component", "audit"))
		guard.Lockdown = cfg.Lockdown
		st.Server.MCP.AddReceivingMiddleware(guard.Middleware)
	}
	// A burst of sessions (or a report's fan-out over stdio) leaves its
	// garbage resident until the next collection, which an idle server
	// never starts: the reclaimer collects once calls stop (and, first,
	// what building the server left), and the runtime returns the memory.
	reclaim := server.Reclaimer{Log: log, Busy: func() bool { return st.Server.TasksRunning() > 0 }}
	st.Server.MCP.AddReceivingMiddleware(reclaim.Middleware)
	reclaim.Settle()
	log.Info("ghgate serving", "tools", len(st.Server.Tools()), "read_only", cfg.ReadOnly, "fingerprint", st.Server.Fingerprint())
	// Tasks still running when serving ends are recorded as failed, so
	// their clients learn it now (the store is closed after this).
	defer func() {
		tctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		st.Server.StopTasks(tctx)
	}()
	if cfg.HTTP == "" {
		return serveStdio(ctx, st.Server.MCP, log)
	}
	if metrics != nil {
		st.Server.MCP.AddReceivingMiddleware(metrics.Middleware(st.Server.Serves))
		st.Policy.Observe = metrics.WritePolicy
	}
	return serveHTTP(ctx, cfg, st.Server.MCP, log, opsOptions(st, metrics, cfg.Metrics, cfg.Auth != nil), metrics)
}

// opsOptions is what the HTTP listener serves beside MCP: readiness (the
// state store and, with a token, GitHub answer) and, unless they have a
// listener of their own or nothing would guard them, the metrics.
func opsOptions(st *server.Stack, metrics *ops.Metrics, mc metricsConfig, auth bool) ops.Options {
	o := ops.Options{Probes: []ops.Probe{{Name: "state", Check: st.Store.Ping}}}
	if metrics != nil && mc.onMCPListener(auth) {
		o.Metrics, o.MetricsGate = metrics, ops.Gate{KeySHA256: mc.KeySHA256}
	}
	if st.GitHub != nil {
		o.Probes = append(o.Probes, ops.Probe{Name: "github", Check: st.GitHub.Ping})
	}
	return o
}

// metricsWriteTimeout bounds a scrape's answer: the registry is written
// from memory, so a scraper still reading after this is stuck.
const metricsWriteTimeout = 30 * time.Second

// serveMetrics serves /metrics alone on addr, behind gate, until the
// returned server is closed; the URL is logged for the scraper's
// configuration.
func serveMetrics(addr string, metrics *ops.Metrics, gate ops.Gate, lim httpLimits, log *slog.Logger) (*http.Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", gate.Wrap(metrics.Handler()))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: lim.ReadHeaderTimeout, ReadTimeout: lim.ReadTimeout,
		WriteTimeout: metricsWriteTimeout, IdleTimeout: lim.IdleTimeout, MaxHeaderBytes: lim.MaxHeaderBytes}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("metrics listener stopped", "error", err)
		}
	}()
	log.Info("serving metrics", "metrics_url", "http://"+ln.Addr().String()+"/metrics", "key_required", gate.KeySHA256 != nil)
	return srv, nil
}

// serveStdio speaks MCP on stdin/stdout until the client hangs up or ctx
// ends; either is a clean exit.
func serveStdio(ctx context.Context, m *mcp.Server, log *slog.Logger) error {
	log.Info("serving MCP over stdio")
	err := m.Run(ctx, server.StdioTransport(log))
	if err == nil || ctx.Err() != nil || errors.Is(err, mcp.ErrConnectionClosed) {
		log.Info("stdio session ended")
		return nil
	}
	return err
}

// serveHTTP serves streamable HTTP, stateless: every request gets a
// temporary session, so any replica can answer it. cfg.HTTPLimits bound
// what each client can make the server hold; with cfg.Metrics.Addr the
// metrics get a listener of their own, opened first and closed last.
func serveHTTP(ctx context.Context, cfg serveConfig, m *mcp.Server, log *slog.Logger, opsOpts ops.Options, metrics *ops.Metrics) error {
	addr, lim, ac := cfg.HTTP, cfg.HTTPLimits, cfg.Auth
	if cfg.Metrics.Addr != "" && metrics != nil {
		msrv, err := serveMetrics(cfg.Metrics.Addr, metrics, ops.Gate{KeySHA256: cfg.Metrics.KeySHA256}, lim, log)
		if err != nil {
			return err
		}
		defer msrv.Close()
	}
	// A browser page must not drive the server with the operator's token:
	// a request whose Origin (or Sec-Fetch-Site) shows another site is
	// refused with 403, as MCP's transport requires; clients that send no
	// Origin, as non-browser ones do, are unaffected.
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return m },
		&mcp.StreamableHTTPOptions{Stateless: true, Logger: server.SDKLogger(log), MaxRequestBodyBytes: lim.MaxBodyBytes})
	// The SDK checks Mcp-Name against the body for tools, prompts and
	// resources; the tasks extension's methods are checked here.
	h = tasks.CheckNameHeader(h)
	mux := http.NewServeMux()
	// /healthz and /readyz are answered without a credential: a load
	// balancer or a container runtime probes them, and they carry nothing
	// about GitHub, the token or the clients. /metrics, when served here,
	// is behind its gate (the metrics key; a loopback host name). MCP
	// itself is behind the drain guard (and, with --auth, the bearer check).
	op := ops.Mount(mux, opsOpts)
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	guarded := func(h http.Handler) http.Handler {
		return op.Guard(limitBody(lim.MaxBodyBytes, http.NewCrossOriginProtection().Handler(h)))
	}
	if ac == nil {
		log.Warn("serving HTTP without --auth: any local user who can reach this loopback port acts on GitHub with this "+
			"server's token, no credential asked; pass --auth FILE to require one", "addr", ln.Addr().String())
		mux.Handle(mcpPath, guarded(h))
	} else {
		resource := ac.Resource
		if resource == "" {
			resource = "http://" + ln.Addr().String() + mcpPath
		}
		a, err := httpauth.New(ctx, ac, resource, httpauth.Options{Log: log.With("component", "auth")})
		if err != nil {
			_ = ln.Close()
			return err
		}
		a.Mount(mux, mcpPath, h, guarded)
		log.Info("HTTP clients must present a bearer token", "resource", resource, "clients", len(ac.Clients), "issuers", len(ac.Issuers))
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: lim.ReadHeaderTimeout,
		ReadTimeout:       lim.ReadTimeout,
		WriteTimeout:      lim.WriteTimeout, // 0 by default: see httpLimits
		IdleTimeout:       lim.IdleTimeout,
		MaxHeaderBytes:    lim.MaxHeaderBytes,
	}
	log.Info("serving MCP over streamable HTTP", "url", "http://"+ln.Addr().String()+mcpPath)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Graceful: new calls are refused with 503 and Retry-After (a balancer
	// sends them to another replica) while the calls in flight finish,
	// within drainGrace; then the listener closes.
	log.Info("shutting down: draining calls in flight")
	drainCtx, cancelDrain := context.WithTimeout(context.Background(), drainGrace)
	if !op.Drain(drainCtx) {
		log.Warn("calls still in flight after the drain grace period")
	}
	cancelDrain()
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err = srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		// A client still holding a stream (a standing GET, say) after the
		// grace period is cut off: the server's own work is done.
		log.Warn("closing connections still open after the shutdown grace period")
		err = srv.Close()
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// drainGrace bounds how long a shutdown waits for calls in flight: a
// GitHub request is bounded by a minute, and a tool call's writes by less.
const drainGrace = 30 * time.Second

// limitBody caps a request body at max bytes: a body declared longer is
// answered 413 before any of it is read, and reading past max from one
// sent without a length fails with [*http.MaxBytesError], which the SDK's
// handler answers 413 too.
func limitBody(max int64, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			http.Error(w, fmt.Sprintf("request body exceeds %d bytes", max), http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// checkListen accepts loopback addresses; any other needs auth, since
// whoever reaches the endpoint acts on GitHub with ghgate's token, and with
// an explicit resource URL, since the listen address (0.0.0.0, say) is not
// the one clients reach and tokens are issued for.
func checkListen(addr string, auth *httpauth.Config) error {
	if isLoopback(addr) {
		return nil
	} else if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("--http %q: want HOST:PORT, e.g. 127.0.0.1:8080: %w", addr, err)
	}
	if auth == nil {
		return fmt.Errorf("--http %q is not a loopback address: anyone who could reach it would act on GitHub with this "+
			"server's token, so it requires --auth FILE (clients from an identity provider or static keys, each with a "+
			"policy; see docs/http.md); or listen on 127.0.0.1", addr)
	}
	if auth.Resource == "" {
		return fmt.Errorf("--http %q is not a loopback address: the --auth file must set resource, the endpoint's "+
			"public URL (e.g. https://ghgate.example.com/mcp), which tokens are issued for", addr)
	}
	return nil
}

// isLoopback reports whether addr (HOST:PORT) listens on loopback only.
func isLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
