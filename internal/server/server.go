// Package server assembles ghgate's MCP server: the selected toolsets, the
// capability summary, resources, completions and the surface fingerprint.
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"sync"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tasks"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/ghgate/ghgate/internal/version"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options select what the server offers.
type Options struct {
	// Policy is the write path every write tool's call passes (see
	// NewPolicyPath); nil applies the defaults.
	Policy *policy.Path
	// Toolsets by name; empty means DefaultToolsets, "all" every toolset.
	Toolsets []string
	// ReadOnly leaves every write tool out: not listed, not callable.
	ReadOnly bool
	Log      *slog.Logger
	// Wrap runs around every tool call (the broker routes and audits here).
	Wrap tooldef.Wrapper
	// Allow, when not empty, keeps only the tools named; Deny drops the
	// tools named. Unknown names are an error, so a typo cannot silently
	// widen or narrow the surface.
	Allow, Deny []string
	// Extra are tools served beside ghgate's own (an upstream MCP server's,
	// proxied by the broker). They go through Wrap, count in the surface
	// fingerprint and the capability summary, and may not reuse a name.
	Extra []Extra
	// TaskOwner names the client a request comes from, to whom the tasks
	// it starts belong (see internal/tasks); nil: the caller's identity
	// (caller.ID).
	TaskOwner func(context.Context) string
	// Tasks bound the tasks running at once, per client and in all (zero
	// fields: the defaults).
	Tasks tasks.Limits
	// TaskStore keeps the tasks' records (the state store, shared by the
	// replicas that share it); nil takes the service's state store when
	// it keeps tasks too, as every store backend does.
	TaskStore tasks.Store
	// Secrets are the credentials the process holds, redacted from every
	// error envelope; nil still redacts credential-shaped text.
	Secrets *redact.Registry
	// Lockdown is what the server lists and says of strangers' text.
	Lockdown LockdownOptions
	// Credentials, when set, is the line, in the capability summary and
	// the instructions, on the GitHub credential a call holds (the broker's App routes say how
	// their tokens are narrowed), so an agent knows why GitHub may refuse
	// it what the tool allows.
	Credentials string
	// Register adds prompts and resources beside ghgate's own: the
	// conformance fixtures do (a test-only build, see
	// internal/conformance); ghgate itself sets none.
	Register func(*mcp.Server)
	// CheckOutputs validates every tool result against its output schema
	// before it is sent (tooldef.Env.CheckOutputs): tests set it, a
	// production server does not.
	CheckOutputs bool
}

// Extra is a tool that is not ghgate's own.
type Extra struct {
	Def     *mcp.Tool
	Handler mcp.ToolHandler
	Mode    tooldef.Mode
	// Task lets a call run as an MCP task, as for ghgate's own tools.
	Task tooldef.TaskSupport
	// Writes says what a write tool's call writes, for the write path
	// (see admitExtra); the zero value is an upstream write whose body
	// and title are its text.
	Writes ExtraWrites
}

// Server is an assembled MCP server and what it was built from. What it
// serves can grow while sessions run (EnableToolsets, AddExtra); the SDK
// tells listening clients (notifications/tools/list_changed and
// notifications/resources/list_changed), and the fingerprint and the
// capability summary follow.
type Server struct {
	MCP *mcp.Server

	svc      *toolkit.Service
	registry func(*toolkit.Service) []tooldef.Spec
	opts     Options
	env      *tooldef.Env
	res      *resources
	unserved *unservedTools

	tasks *tasks.Manager

	mu        sync.RWMutex
	taskTools map[string]tooldef.TaskSupport // served tools that may run as tasks
	specs     []tooldef.Spec
	// schemasDoc is ghgate://schemas for specs, built on its first read
	// and dropped when specs change: building it encodes every served
	// tool's schemas, the same bytes for every reader.
	schemasDoc  []byte
	defs        []*mcp.Tool // every served tool's definition, in listing order
	extraNames  []string
	summary     string // the capability summary, its fingerprint line included
	brief       string // the instructions, their fingerprint line included
	fingerprint string
	// prompts are the names of the prompts offered, in the order added.
	prompts []string
	// servedOwn are ghgate's own tools served (after read-only, allow
	// and deny), by name; a field another tool gates on one of them
	// (tooldef.Tool's Gated) is served with it. Tools served beside
	// ghgate's own do not count: a gated field runs ghgate's code.
	servedOwn map[string]bool
}

// servesGate is what a Gated field is served with: a tool of ghgate's
// own, or include_untrusted where some caller may use it.
func (s *Server) servesGate(name string) bool {
	if name == toolkit.IncludeUntrustedGate {
		return s.opts.Lockdown.AllowInclude
	}
	return s.servesOwnTool(name)
}

func (s *Server) servesOwnTool(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.servedOwn[name]
}

// New builds the MCP server over svc.
func New(svc *toolkit.Service, opts Options) (*Server, error) {
	return newServer(svc, opts, tools.All)
}

// newServer builds the server over the tools registry returns ([tools.All];
// tests give other toolsets).
func newServer(svc *toolkit.Service, opts Options, registry func(*toolkit.Service) []tooldef.Spec) (*Server, error) {
	all := registry(svc)
	specs, err := selectTools(all, opts.Toolsets, opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	if specs, err = filterTools(all, specs, opts.Extra, opts.Allow, opts.Deny); err != nil {
		return nil, err
	}
	// Another server's tools obey the same rules as ghgate's own: read-only
	// serves only the reads, and allow and deny name them too.
	served, unservedExtra := selectExtra(all, opts.Extra, opts.ReadOnly, opts.Allow, opts.Deny)
	opts.Extra = served
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	names := map[string]bool{}
	for _, sp := range specs {
		names[sp.ToolName()] = true
	}
	for _, x := range opts.Extra {
		if names[x.Def.Name] {
			return nil, fmt.Errorf("tool %s is served twice (deny ghgate's own to serve another's)", x.Def.Name)
		}
		names[x.Def.Name] = true
	}
	srv := &Server{svc: svc, registry: registry, opts: opts, res: newResources(svc)}
	srv.servedOwn = map[string]bool{}
	for _, sp := range specs {
		srv.servedOwn[sp.ToolName()] = true
	}
	srv.env = &tooldef.Env{Log: log, MapError: toolkit.MapError, Wrap: opts.Wrap, Fingerprint: srv.Fingerprint, Serves: srv.servesGate,
		Redact: opts.Secrets.String, Policy: opts.Policy, Before: issueBefore(svc), CheckOutputs: opts.CheckOutputs}
	srv.res.summary, srv.res.schemas = srv.Summary, srv.schemas
	srv.res.build(srv.env)

	defs, err := srv.buildAll(specs)
	if err != nil {
		return nil, err
	}
	for _, x := range opts.Extra {
		defs = append(defs, built{x.Def, WrapExtra(srv.admitExtra(x), opts.Wrap)})
		srv.extraNames = append(srv.extraNames, x.Def.Name)
	}
	srv.specs = specs
	srv.taskTools = map[string]tooldef.TaskSupport{}
	for _, sp := range specs {
		srv.noteTaskSupport(sp)
	}
	for _, x := range opts.Extra {
		if x.Task.Runs() {
			srv.taskTools[x.Def.Name] = x.Task
		}
	}
	for _, d := range defs {
		srv.defs = append(srv.defs, d.def)
	}
	for n := range names {
		srv.res.serve(n)
	}
	if err := srv.refresh(); err != nil {
		return nil, err
	}

	caps := &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Prompts: &mcp.PromptCapabilities{}}
	// The tasks extension is offered whatever is served: a tool opts in
	// (tooldef.TaskSupport), and the toolsets that do can be enabled at
	// run time. A call of any other tool answers inline, as the extension
	// allows.
	tasks.Capabilities(caps)
	m := mcp.NewServer(&mcp.Implementation{Name: "ghgate", Title: "ghgate", Version: version.Current()}, &mcp.ServerOptions{
		// The instructions as they stand when a client connects: the
		// instructions middleware keeps them current.
		Instructions:      srv.Instructions(),
		Logger:            SDKLogger(log),
		CompletionHandler: newCompleter(svc, srv.res.completes, srv.promptCompletes, srv.Fingerprint).complete,
		SetCacheable:      setCacheable,
		// Prompts are declared even where none is offered (no toolset
		// serves their tools): the SDK answers prompts/list whether or not
		// they are, and MCP 2026-07-28 requires a server that answers it
		// to declare the capability (conformance check
		// sep-2575-server-declares-prompts-in-discover fails without it).
		// Logging is the SDK's default, kept. Tools and resources are
		// inferred with listChanged: the surface can grow at run time.
		Capabilities: caps,
	})
	for _, d := range defs {
		m.AddTool(d.def, d.h)
	}
	srv.res.registerFixed(m)
	srv.res.registerTemplates(m)
	srv.servePrompts(m)
	unserved := &unservedTools{env: srv.env, readOnly: opts.ReadOnly, modes: map[string]tooldef.Mode{}, writes: map[string]bool{}, served: names}
	for _, t := range all {
		if !names[t.ToolName()] {
			unserved.modes[t.ToolName()] = t.ToolMode()
			if tooldef.Writes(t) {
				unserved.writes[t.ToolName()] = true
			}
		}
	}
	for _, x := range unservedExtra {
		unserved.modes[x.Def.Name] = x.Mode
		unserved.writes[x.Def.Name] = x.Mode == tooldef.Write
	}
	if opts.Register != nil {
		opts.Register(m)
	}
	// Tasks are run inside the middleware that names the client (added
	// around this server later, as the HTTP guard is), so a task belongs
	// to it and its tool goes through the same wrapper as an inline call.
	taskStore := opts.TaskStore
	if ts, ok := svc.Store.(tasks.Store); ok && taskStore == nil {
		taskStore = ts
	}
	srv.tasks = &tasks.Manager{Store: taskStore, Support: srv.taskSupport, Owner: opts.TaskOwner, Log: log.With("component", "tasks"), Now: svc.Now,
		Limits: opts.Tasks}
	if err := srv.tasks.Register(m); err != nil {
		return nil, err
	}
	m.AddReceivingMiddleware(unserved.middleware, srv.instructions, srv.tasks.Middleware, hideUnconfirmable(opts.Policy), promptsForCaller)
	srv.MCP, srv.unserved = m, unserved
	return srv, nil
}

// Fingerprint identifies the surface served now: ghgate@<version>+<hash>.
func (s *Server) Fingerprint() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.fingerprint
}

// Summary is the capability summary served now, fingerprint included: the
// ghgate://capabilities resource, whole.
func (s *Server) Summary() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.summary
}

// Instructions are the server's instructions served now, fingerprint
// included: what an agent needs before its first call, the guards in
// force, and a pointer to the capability summary for the rest.
func (s *Server) Instructions() string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.brief
}

// Tools are ghgate's own tools served now.
func (s *Server) Tools() []tooldef.Spec {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.specs)
}

// Serves reports whether a tool of that name is served now: one of
// ghgate's own or one added beside them.
func (s *Server) Serves(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, sp := range s.specs {
		if sp.ToolName() == name {
			return true
		}
	}
	return slices.Contains(s.extraNames, name)
}

func (s *Server) schemas() ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.schemasDoc == nil {
		doc, err := schemasDoc(s.specs)
		if err != nil {
			return nil, err
		}
		s.schemasDoc = doc
	}
	return s.schemasDoc, nil
}

// AddExtra serves one more tool that is not ghgate's own, through the
// same wrapper as the rest (an upstream's tool arriving in the broker).
// Sessions are told (notifications/tools/list_changed), and the
// fingerprint and capability summary name it.
func (s *Server) AddExtra(x Extra) error {
	if s.unserved.isServed(x.Def.Name) {
		return fmt.Errorf("tool %s is served already", x.Def.Name)
	}
	s.mu.Lock()
	s.defs = append(s.defs, x.Def)
	s.extraNames = append(s.extraNames, x.Def.Name)
	s.mu.Unlock()
	if err := s.refresh(); err != nil {
		return err
	}
	s.unserved.markServed(x.Def.Name)
	if x.Task.Runs() {
		s.mu.Lock()
		s.taskTools[x.Def.Name] = x.Task
		s.mu.Unlock()
	}
	s.MCP.AddTool(x.Def, WrapExtra(s.admitExtra(x), s.opts.Wrap))
	return nil
}

// taskSupport is whether a served tool may run as an MCP task.
func (s *Server) taskSupport(name string) tooldef.TaskSupport {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.taskTools[name]
}

// noteTaskSupport records a tool of ghgate's own that opts into tasks.
// s.mu is held or the server not yet shared.
func (s *Server) noteTaskSupport(sp tooldef.Spec) {
	if t := sp.ToolTaskSupport(); t.Runs() {
		s.taskTools[sp.ToolName()] = t
	}
}

// TasksRunning is how many MCP tasks this process is running: tool calls
// that go on after the request that started them returned.
func (s *Server) TasksRunning() int { return s.tasks.Running() }

// StopTasks ends the MCP tasks this process runs, recording those cut
// short as failed, within ctx (a graceful shutdown).
func (s *Server) StopTasks(ctx context.Context) { s.tasks.Shutdown(ctx) }

// EnableToolsets serves the named toolsets' tools beside those served
// already, under the same read-only, allow and deny rules, with the
// resource templates they answer. Sessions are told
// (notifications/tools/list_changed, and resources/list_changed when a
// template is added). Unknown names are an error and change nothing.
func (s *Server) EnableToolsets(names ...string) error {
	all := s.registry(s.svc)
	specs, err := selectTools(all, names, s.opts.ReadOnly)
	if err != nil {
		return err
	}
	if specs, err = filterTools(all, specs, s.opts.Extra, s.opts.Allow, s.opts.Deny); err != nil {
		return err
	}
	var newSpecs []tooldef.Spec
	for _, sp := range specs {
		if !s.unserved.isServed(sp.ToolName()) {
			newSpecs = append(newSpecs, sp)
		}
	}
	if len(newSpecs) == 0 {
		return nil
	}
	// The new toolsets count as served while the tools are built, so the
	// new tools, and the served tools rebuilt with them, carry the fields
	// gated on them. Nothing else changes until every build has
	// succeeded; a failed one puts servedOwn back, so the server is as
	// it was.
	s.mu.Lock()
	before := slices.Clone(s.specs)
	prevOwn := maps.Clone(s.servedOwn)
	for _, sp := range newSpecs {
		s.servedOwn[sp.ToolName()] = true
	}
	s.mu.Unlock()
	added, err := s.buildAll(newSpecs)
	var rebuilt []built
	if err == nil {
		rebuilt, err = s.buildAll(before)
	}
	if err != nil {
		s.mu.Lock()
		s.servedOwn = prevOwn
		s.mu.Unlock()
		return err
	}
	s.mu.Lock()
	for i, b := range rebuilt {
		s.defs[i] = b.def
	}
	for i, b := range added {
		s.specs = append(s.specs, newSpecs[i])
		s.schemasDoc = nil
		s.noteTaskSupport(newSpecs[i])
		// ghgate's own tools are listed before other servers'.
		s.defs = slices.Insert(s.defs, len(s.specs)-1, b.def)
	}
	s.mu.Unlock()
	addedSpecs := newSpecs
	for _, sp := range addedSpecs {
		s.res.serve(sp.ToolName())
	}
	if err := s.refresh(); err != nil {
		return err
	}
	for i, b := range added {
		s.unserved.markServed(addedSpecs[i].ToolName())
		s.MCP.AddTool(b.def, b.h)
	}
	for _, b := range rebuilt {
		s.MCP.AddTool(b.def, b.h)
	}
	s.res.registerTemplates(s.MCP)
	s.servePrompts(s.MCP)
	return nil
}

// built is a tool's definition and handler, built and not yet served.
type built struct {
	def *mcp.Tool
	h   mcp.ToolHandler
}

// buildAll builds specs against what is served now; the first failure
// is the error.
func (s *Server) buildAll(specs []tooldef.Spec) ([]built, error) {
	out := make([]built, 0, len(specs))
	for _, sp := range specs {
		def, h, err := sp.Build(s.env)
		if err != nil {
			return nil, err
		}
		out = append(out, built{def, h})
	}
	return out, nil
}

// refresh recomputes the capability summary, the instructions and the
// fingerprint from what is served now.
func (s *Server) refresh() error {
	s.mu.RLock()
	specs, defs, extra := slices.Clone(s.specs), slices.Clone(s.defs), slices.Clone(s.extraNames)
	s.mu.RUnlock()
	body := capabilities(specs, extra, s.opts.ReadOnly, s.res.uris(), lockdownLine(s.opts.Lockdown)+s.opts.Credentials)
	brief := instructions(guards{readOnly: s.opts.ReadOnly, lockdown: s.opts.Lockdown, policy: s.opts.Policy,
		credentials: s.opts.Credentials, forwarded: len(extra) > 0})
	fp, err := fingerprintOf(defs, s.res, body, brief)
	if err != nil {
		return err
	}
	line := "\nSurface fingerprint: " + fp + "\n"
	s.mu.Lock()
	s.fingerprint, s.summary, s.brief = fp, body+line[1:], brief+line
	s.mu.Unlock()
	return nil
}

// instructions is a receiving middleware: the instructions of an
// initialize or server/discover answer are as they stand now, so a client
// connecting after the surface grew reads the fingerprint it will see on
// envelopes; the fingerprint is in the answer's _meta too, for a client
// to compare without parsing text.
func (s *Server) instructions(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		if err != nil {
			return res, err
		}
		s.mu.RLock()
		brief, fp := s.brief, s.fingerprint
		s.mu.RUnlock()
		switch r := res.(type) {
		case *mcp.InitializeResult:
			r.Instructions, r.Meta = brief, withFingerprint(r.Meta, fp)
		case *mcp.DiscoverResult:
			r.Instructions, r.Meta = brief, withFingerprint(r.Meta, fp)
		}
		return res, nil
	}
}

// WrapExtra runs an extra tool through the same wrapper as ghgate's own.
func WrapExtra(x Extra, wrap tooldef.Wrapper) mcp.ToolHandler {
	if wrap == nil {
		return x.Handler
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		return wrap(ctx, tooldef.Call{Tool: x.Def.Name, Mode: x.Mode, Arguments: args},
			func(ctx context.Context) (*mcp.CallToolResult, error) { return x.Handler(ctx, req) })
	}
}

// fingerprintMetaKey names the fingerprint in a discovery answer's _meta.
const fingerprintMetaKey = "ghgate/fingerprint"

func withFingerprint(m mcp.Meta, fp string) mcp.Meta {
	if m == nil {
		m = mcp.Meta{}
	}
	m[fingerprintMetaKey] = fp
	return m
}
