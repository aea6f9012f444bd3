package broker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/broker/augment"
	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/broker/upstream"
	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/ghgate/ghgate/internal/version"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options adjust a Broker beyond its config file.
type Options struct {
	Log *slog.Logger
	// HTTPClient carries the requests to GitHub (tests pass the emulator's
	// validating client); nil uses the access layer's default.
	HTTPClient *http.Client
	Now        func() time.Time
	// AuditFallback receives the audit lines when the config names no
	// audit file; nil means stderr.
	AuditFallback io.Writer
	// ShutdownGrace bounds how long a shutdown waits for calls in flight
	// before closing the sessions; 0 means 10 seconds.
	ShutdownGrace time.Duration
}

// Broker is a running credential broker: the credentials, the router that
// picks one per call, the MCP server every client session shares, and the
// audit log.
type Broker struct {
	cfg    *Config
	log    *slog.Logger
	store  store.Backend
	router *Router
	// secrets are every credential the broker holds (route secrets, App
	// keys, minted installation tokens), redacted from what it returns.
	secrets *redact.Registry
	server  *server.Server
	audit   *AuditLog
	now     func() time.Time
	grace   time.Duration

	// draining refuses new tool calls once the shutdown began; pending
	// counts the requests not yet answered, which the shutdown waits for.
	draining atomic.Bool
	pending  pending
	mu       sync.Mutex
	sessions map[*net.UnixConn]*mcp.ServerSession
	// slots bound the open client connections; tasks count each uid's
	// running tasks against its max_in_flight.
	slots *connSlots
	tasks *uidTasks
	// proxies are the upstream MCP servers fronted, closed with the broker.
	proxies []*upstream.Proxy
	// upstreamArgs says how each upstream tool's arguments are read
	// (callargs.ReadUpstream): its declared names, a call naming any other
	// refused before it is routed, and the operator's names for owner
	// arguments. ghgate's own tools check their arguments themselves.
	upstreamArgs map[string]callargs.Upstream
}

// New assembles a broker from cfg: it refuses an unsafe config (Check),
// opens the state store, loads the secrets into memory, and builds the
// router and the MCP server. Nothing listens yet (see Run).
func New(cfg *Config, opts Options) (*Broker, error) {
	ctx := context.Background()
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	if err := cfg.Limits.withDefaults(); err != nil {
		return nil, err
	}
	if err := Check(cfg); err != nil {
		return nil, err
	}
	st, err := store.OpenBackend(ctx, cfg.State)
	if err != nil {
		return nil, err
	}
	b := &Broker{cfg: cfg, log: log, store: st, now: now, grace: opts.ShutdownGrace, secrets: redact.NewRegistry(),
		sessions: map[*net.UnixConn]*mcp.ServerSession{}, upstreamArgs: map[string]callargs.Upstream{}, slots: newConnSlots(cfg.Limits),
		tasks: newUIDTasks(cfg.Limits)}
	if b.grace <= 0 {
		b.grace = 10 * time.Second
	}
	fail := func(err error) (*Broker, error) { return nil, errors.Join(err, b.Close()) }

	secrets, err := LoadSecrets(cfg)
	if err != nil {
		return fail(err)
	}
	secrets.Register(b.secrets)
	b.router, err = NewRouter(cfg, secrets, RouterOptions{BaseURL: cfg.GitHub.URL, Store: st,
		HTTPClient: opts.HTTPClient, Now: opts.Now, Log: log, Secrets: b.secrets})
	if err != nil {
		return fail(err)
	}
	key, err := st.Secret(ctx, "cursor-key", 32)
	if err != nil {
		return fail(err)
	}
	cursors, err := contract.NewCursors(key, opts.Now)
	if err != nil {
		return fail(fmt.Errorf("cursor key: %w", err))
	}
	svc := &toolkit.Service{Clients: b.router, Store: st, Cursors: cursors, Log: log, Now: opts.Now,
		Credential: b.router.Credential, SyncRoot: cfg.Tools.SyncRoot, Releases: cfg.Tools.Releases(),
		Tiers: cfg.Tools.Reports.Classify, FanoutPerCredential: cfg.Limits.MaxFanoutPerCredential, Lockdown: b.lockdown}
	extra, err := b.connectUpstreams(ctx, svc)
	if err != nil {
		return fail(err)
	}
	// Tasks belong to the peer's uid (caller.ID, set per session) and
	// count against its requests in flight.
	path, err := server.NewPolicyPath(svc, st, server.PolicyOptions{Rules: cfg.Policy, Shared: true, Key: key, Log: log, Now: opts.Now})
	if err != nil {
		return fail(err)
	}
	b.server, err = server.New(svc, server.Options{Policy: path, Toolsets: cfg.Tools.Toolsets, ReadOnly: cfg.Tools.ReadOnly,
		Allow: cfg.Tools.Allow, Deny: cfg.Tools.Deny, Wrap: b.wrap, Log: log, Extra: extra, Secrets: b.secrets, Lockdown: lockdownOptions(cfg),
		Credentials: credentialsLine(cfg),
		TaskStore:   st,
		Tasks:       tasks.Limits{MaxTasks: cfg.Limits.MaxTasks, MaxTasksPerClient: cfg.Limits.MaxTasksPerClient, Admit: b.tasks.hold}})
	if err != nil {
		return fail(err)
	}
	b.server.MCP.AddReceivingMiddleware(b.auditMethods)
	if b.audit, err = OpenAuditLog(cfg.Audit.File, opts.AuditFallback); err != nil {
		return fail(err)
	}
	return b, nil
}

// gitHubHosts are the hosts whose URLs an upstream's arguments name
// owners by beside GitHub's own: the configured server's (a GitHub
// Enterprise server's name need not say "github").
func gitHubHosts(apiURL string) []string {
	u, err := url.Parse(apiURL)
	if apiURL == "" || err != nil || u.Hostname() == "" {
		return nil
	}
	host := strings.ToLower(u.Hostname())
	// api.HOST serves the API of a server whose web host is HOST.
	return []string{strings.TrimPrefix(host, "api.")}
}

// connectUpstreams starts every [[upstream]] and returns its allowlisted
// tools for the server to serve beside ghgate's own (name clashes are
// refused there). The routed credential reaches each upstream from the
// broker's side only.
func (b *Broker) connectUpstreams(ctx context.Context, svc *toolkit.Service) ([]server.Extra, error) {
	var extra []server.Extra
	// What an augmented tool's post-processors read, they read as the
	// broker's own tools do: with the call's routed read credential,
	// counted in the call's audit line.
	deps := augment.Deps{CI: (&reports.Tools{Service: svc}).CommitCI, Refuse: b.refusal, Redact: b.secrets.String}
	for _, u := range b.cfg.Upstreams {
		ucfg := upstream.Config{Name: u.Name, Command: u.Command, URL: u.URL, TokenEnv: u.TokenEnv, Owner: u.Owner, User: u.User, WriteUser: u.WriteUser, SecretsFile: b.cfg.Secrets.File,
			GitHubHosts: gitHubHosts(b.cfg.GitHub.URL)}
		for _, a := range u.Allow {
			ucfg.Allow = append(ucfg.Allow, upstream.Allowed{Tool: a.Tool, Mode: tooldef.Mode(a.Mode), OwnerArgs: a.OwnerArgs, RepoArgs: a.RepoArgs, TextArgs: a.TextArgs})
		}
		p, err := upstream.Connect(ctx, ucfg, upstream.Options{Tokens: b.router, Log: b.log.With("upstream", u.Name),
			Forwarded: func(ctx context.Context) {
				if r := RecordFrom(ctx); r != nil {
					r.Upstream.Add(1)
				}
			},
			Fingerprint: b.fingerprint, Version: version.Current(), Secrets: b.secrets})
		if err != nil {
			return nil, fmt.Errorf("upstream %q: %w", u.Name, err)
		}
		b.proxies = append(b.proxies, p)
		writes := map[string]server.ExtraWrites{}
		allowed := map[string]UpstreamTool{}
		for _, a := range u.Allow {
			writes[a.Tool] = server.ExtraWrites{Kind: policy.Kind(a.Kind), Text: a.Text}
			allowed[a.Tool] = a
		}
		for _, t := range p.Tools() {
			a := allowed[t.Def.Name]
			if t, err = augment.Apply(t, a.Augment, a.Note, deps); err != nil {
				return nil, fmt.Errorf("upstream %q: %w", u.Name, err)
			}
			extra = append(extra, server.Extra{Def: t.Def, Handler: t.Handler, Mode: t.Mode, Writes: writes[t.Def.Name]})
			b.upstreamArgs[t.Def.Name] = t.Args
		}
	}
	if err := upstream.CheckNames(nil, b.proxies...); err != nil {
		return nil, err
	}
	return extra, nil
}

// fingerprint is the served surface's, once the server is built.
func (b *Broker) fingerprint() string {
	if b.server == nil {
		return ""
	}
	return b.server.Fingerprint()
}

// MCP is the server every session is connected to.
func (b *Broker) MCP() *mcp.Server { return b.server.MCP }

// Router is the credential router.
func (b *Broker) Router() *Router { return b.router }

// AddTool serves a tool that is not ghgate's own (an upstream MCP server's)
// in every session, through the same audit wrapper: it gets a [CallRecord] in
// its context and one audit line per call. mode says which credential
// the tool acts with. Connected clients are told the tool list changed.
func (b *Broker) AddTool(def *mcp.Tool, h mcp.ToolHandler, mode tooldef.Mode) error {
	return b.server.AddExtra(server.Extra{Def: def, Handler: h, Mode: mode})
}

// ReopenAudit reopens the audit file (after a log rotation renamed it).
func (b *Broker) ReopenAudit() error {
	if err := b.audit.Reopen(); err != nil {
		return err
	}
	b.log.Info("audit log reopened", "file", b.audit.Path())
	return nil
}

// Close releases the audit log and the store. Sessions are ended by Serve.
func (b *Broker) Close() error {
	var errs []error
	for _, p := range b.proxies {
		errs = append(errs, p.Close())
	}
	if b.audit != nil {
		errs = append(errs, b.audit.Close())
	}
	if b.store != nil {
		errs = append(errs, b.store.Close())
	}
	return errors.Join(errs...)
}

// resultEnvelope is the part of an error result the audit line keeps.
type resultEnvelope struct {
	Code       string `json:"code"`
	Settlement string `json:"settlement"`
}

// wrap runs around every tool call: it reads the arguments once (refusing
// any whose owner could be read two ways, or that name two owners), pins
// the owner they name, carries a [CallRecord] for the router to fill in,
// and writes the call's audit line when it ends.
func (b *Broker) wrap(ctx context.Context, call tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	start := b.now()
	if outer := RecordFrom(ctx); outer != nil {
		// A resource read answered by a tool: this call's line covers it.
		outer.covered.Store(true)
	}
	rec := &CallRecord{Tool: call.Tool, Mode: string(call.Mode)}
	args, refused := b.readArgs(call, rec)

	var (
		res   *mcp.CallToolResult
		err   error
		reach *caller.Reach // what the tool tells of the repositories it reached
	)
	switch {
	case call.Unknown:
		// Answered by the protocol's error; only the audit line is added.
		res, err = next(ctx)
	case b.draining.Load():
		res = b.refusal(contract.Errorf(contract.CodeUpstreamUnavailable,
			"the broker is shutting down; reconnect and call again"), call.Mode)
	case refused != nil:
		res = b.refusal(refused, call.Mode)
	default:
		var rctx context.Context
		rctx, reach = caller.WithReach(WithRecord(callargs.With(ctx, args), rec))
		// Quotas count per agent uid, and the data-flow guard remembers
		// reads per uid too: an agent opens as many connections as it
		// likes, so what one read must guard what another writes.
		scope := policy.Scope{Subject: "broker", Shared: true}
		if p, ok := PeerFrom(ctx); ok {
			scope.Subject = fmt.Sprintf("uid:%d", p.UID)
		}
		scope.Session = scope.Subject
		rctx = policy.WithScope(rctx, scope)
		res, err = next(rctx)
	}
	line := b.lineFor(ctx, rec, start)
	line.addReach(reach)
	switch {
	case call.Unknown:
		line.Outcome, line.Code = "error", "unknown_tool"
	case err != nil:
		// A Go error becomes a JSON-RPC error; its text is not copied here,
		// the audit line keeps codes only.
		line.Outcome, line.Code = "error", string(contract.CodeInternal)
	case res != nil && res.IsError:
		line.Outcome = "error"
		env := envelopeOf(res)
		line.Code, line.Settlement = env.Code, env.Settlement
	}
	b.writeAudit(line)
	return res, err
}

// readArgs reads a call's arguments once and notes in rec what they name.
// A link or duplicate naming another owner's issue than "owner" would act
// there with the named owner's credential, so it is refused. ghgate's own
// tools name their owner by "owner"; an upstream tool's arguments are
// read through ([callargs.ReadUpstream]), and the one owner they name,
// wherever they name it, is pinned: the router hands out no other owner's
// credential for the call. A call naming no owner is not pinned; the
// upstream routes it by its configured owner.
func (b *Broker) readArgs(call tooldef.Call, rec *CallRecord) (callargs.Args, *contract.Error) {
	rules, upstream := b.upstreamArgs[call.Tool]
	var (
		args callargs.Args
		e    *contract.Error
	)
	if upstream {
		args, e = callargs.ReadUpstream(call.Arguments, rules)
	} else {
		args, e = callargs.Read(call.Arguments, nil)
	}
	if e != nil {
		return args, e
	}
	rec.Owner, rec.Repo = args.Target.Owner, args.Target.Repo
	rec.Owners, rec.Repos = args.Owners(), args.Repos()
	owner := args.Target.Owner
	e = args.OtherOwner()
	if e == nil && upstream {
		owner, e = args.NamedOwner()
	}
	if e != nil {
		return args, e
	}
	rec.Owner, rec.ownerNamed = owner, owner != ""
	return args, nil
}

// lineFor starts the audit line of a call that began at start.
func (b *Broker) lineFor(ctx context.Context, rec *CallRecord, start time.Time) AuditLine {
	line := AuditLine{Time: start.UTC().Format(time.RFC3339Nano), Tool: rec.Tool, Owner: rec.Owner, Repo: rec.Repo,
		Owners: rec.Owners, Repos: rec.Repos, Mode: rec.Mode, Credential: rec.Credential, Route: rec.Route, Upstream: rec.Upstream.Load(),
		DurationMS: b.now().Sub(start).Milliseconds(), Outcome: "ok"}
	if p, ok := PeerFrom(ctx); ok {
		uid := p.UID
		line.Client, line.ClientPID = &uid, p.PID
	}
	return line
}

func (b *Broker) writeAudit(line AuditLine) {
	if werr := b.audit.Write(line); werr != nil {
		b.log.Error("writing the audit line", "tool", line.Tool, "error", werr)
	}
}

// envelopeOf reads the code and settlement of an error result.
func envelopeOf(res *mcp.CallToolResult) resultEnvelope {
	var env resultEnvelope
	var raw []byte
	switch sc := res.StructuredContent.(type) {
	case nil:
	case json.RawMessage:
		raw = sc
	case []byte:
		raw = sc
	default:
		raw, _ = json.Marshal(sc)
	}
	if len(raw) > 0 {
		_ = json.Unmarshal(raw, &env)
	}
	return env
}

// refusal is the error result for a call the broker does not start,
// rendered as every tool's error result is.
func (b *Broker) refusal(e *contract.Error, mode tooldef.Mode) *mcp.CallToolResult {
	if mode == tooldef.Write {
		e.Settlement = contract.NotStarted
	}
	return tooldef.ErrorResult(&tooldef.Env{Fingerprint: b.fingerprint, Redact: b.secrets.String}, mode, tooldef.NewRequestID(), e)
}
