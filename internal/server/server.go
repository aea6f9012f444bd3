// Package server assembles ghgate's MCP server: the selected toolsets, the
// capability summary, resources, completions and the surface fingerprint.
package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/ghgate/ghgate/internal/version"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options select what the server offers.
type Options struct {
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
}

// Extra is a tool that is not ghgate's own.
type Extra struct {
	Def     *mcp.Tool
	Handler mcp.ToolHandler
	Mode    tooldef.Mode
}

// Server is an assembled MCP server and what it was built from.
type Server struct {
	MCP         *mcp.Server
	Tools       []tooldef.Spec
	Fingerprint string

	unserved *unservedTools
	wrap     tooldef.Wrapper
}

// AddExtra serves one more tool that is not ghgate's own, through the
// same wrapper as the rest. It is not part of the fingerprint.
func (s *Server) AddExtra(x Extra) {
	s.unserved.markServed(x.Def.Name)
	s.MCP.AddTool(x.Def, WrapExtra(x, s.wrap))
}

// New builds the MCP server over svc.
func New(svc *core.Service, opts Options) (*Server, error) {
	specs, err := selectTools(svc, opts.Toolsets, opts.ReadOnly)
	if err != nil {
		return nil, err
	}
	if specs, err = filterTools(svc, specs, opts.Extra, opts.Allow, opts.Deny); err != nil {
		return nil, err
	}
	// Another server's tools obey the same rules as ghgate's own: read-only
	// serves only the reads, and allow and deny name them too.
	served, unservedExtra := selectExtra(svc, opts.Extra, opts.ReadOnly, opts.Allow, opts.Deny)
	opts.Extra = served
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	names := map[string]bool{}
	for _, sp := range specs {
		names[sp.ToolName()] = true
	}
	var extraNames []string
	for _, x := range opts.Extra {
		if names[x.Def.Name] {
			return nil, fmt.Errorf("tool %s is served twice (deny ghgate's own to serve another's)", x.Def.Name)
		}
		names[x.Def.Name] = true
		extraNames = append(extraNames, x.Def.Name)
	}
	res := newResources(svc, specs)
	summary := capabilities(specs, extraNames, opts.ReadOnly, res.uris())
	srv := &Server{Tools: specs}
	env := &tooldef.Env{Log: log, MapError: core.MapError, Wrap: opts.Wrap,
		Fingerprint: func() string { return srv.Fingerprint }}

	type built struct {
		def *mcp.Tool
		h   mcp.ToolHandler
	}
	var defs []built
	for _, s := range specs {
		def, h, err := s.Build(env)
		if err != nil {
			return nil, err
		}
		defs = append(defs, built{def, h})
	}
	surface := struct {
		Version   string              `json:"version"`
		Tools     []*mcp.Tool         `json:"tools"`
		Resources []string            `json:"resources"`
		Codes     []contract.CodeInfo `json:"codes"`
	}{Version: version.Current(), Resources: res.uris(), Codes: contract.Catalog()}
	for _, x := range opts.Extra {
		defs = append(defs, built{x.Def, WrapExtra(x, opts.Wrap)})
	}
	for _, d := range defs {
		surface.Tools = append(surface.Tools, d.def)
	}
	b, err := json.Marshal(surface)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(b)
	srv.Fingerprint = "sha256:" + hex.EncodeToString(sum[:8])

	m := mcp.NewServer(&mcp.Implementation{Name: "ghgate", Title: "ghgate", Version: version.Current()}, &mcp.ServerOptions{
		Instructions:      summary + "Surface fingerprint: " + srv.Fingerprint + "\n",
		Logger:            log,
		CompletionHandler: newCompleter(svc, res.uris(), env.Fingerprint).complete,
		// ghgate has no prompts, but the SDK answers prompts/list (with an
		// empty list) whether or not prompts are declared, and MCP
		// 2026-07-28 requires a server that answers it to declare the
		// capability (conformance check
		// sep-2575-server-declares-prompts-in-discover fails without it).
		// Logging is the SDK's default, kept.
		Capabilities: &mcp.ServerCapabilities{Logging: &mcp.LoggingCapabilities{}, Prompts: &mcp.PromptCapabilities{}},
	})
	for _, d := range defs {
		m.AddTool(d.def, d.h)
	}
	if err := res.register(m, summary, env); err != nil {
		return nil, err
	}
	unserved := &unservedTools{env: env, readOnly: opts.ReadOnly, modes: map[string]tooldef.Mode{}, served: names}
	for _, t := range tools.All(svc) {
		if !names[t.ToolName()] {
			unserved.modes[t.ToolName()] = t.ToolMode()
		}
	}
	for _, x := range unservedExtra {
		unserved.modes[x.Def.Name] = x.Mode
	}
	m.AddReceivingMiddleware(unserved.middleware)
	srv.MCP, srv.unserved, srv.wrap = m, unserved, opts.Wrap
	return srv, nil
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
