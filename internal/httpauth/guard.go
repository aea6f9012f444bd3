package httpauth

import (
	"context"
	"encoding/json"
	"github.com/ghgate/ghgate/internal/caller"
	writepolicy "github.com/ghgate/ghgate/internal/policy"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Guard applies each client's policy inside the MCP server: it narrows
// tools/list to what the client may call, refuses a tool call or a
// resource read (answered by a tool) outside the policy with
// insufficient_scope before the tool runs, bounds completions the same
// way, and writes one audit line per call naming the client.
type Guard struct {
	specs       func() []tooldef.Spec
	fingerprint func() string
	log         *slog.Logger
	now         func() time.Time

	// The tool table is rebuilt whenever the surface fingerprint changes:
	// a toolset enabled at run time must meet the same policy as the tools
	// served from the start, never slip past it as unknown.
	mu        sync.Mutex
	tableFor  string
	toolTable map[string]ToolInfo

	// Lockdown is the server's rule on strangers' text, which each
	// client's [client.tools] may set otherwise (LockdownOf): a client
	// that may not use include_untrusted is not shown it.
	Lockdown toolkit.Lockdown
}

// NewGuard guards a server whose tools specs lists, as they stand at each
// call; fingerprint names the served surface and changes with it.
func NewGuard(specs func() []tooldef.Spec, fingerprint func() string, log *slog.Logger) *Guard {
	g := &Guard{specs: specs, fingerprint: fingerprint, log: log, now: time.Now}
	if g.log == nil {
		g.log = slog.New(slog.DiscardHandler)
	}
	return g
}

// tool describes a served tool by name, from a table kept current with
// the served surface.
func (g *Guard) tool(name string) (ToolInfo, bool) {
	fp := ""
	if g.fingerprint != nil {
		fp = g.fingerprint()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.toolTable == nil || fp != g.tableFor {
		g.toolTable = map[string]ToolInfo{}
		for _, s := range g.specs() {
			g.toolTable[s.ToolName()] = ToolInfo{Mode: s.ToolMode(), Toolset: s.ToolsetName(), Writes: tooldef.Writes(s)}
		}
		g.tableFor = fp
	}
	info, ok := g.toolTable[name]
	return info, ok
}

type clientCtxKey struct{}

func withClient(ctx context.Context, e *clientEntry) context.Context {
	return context.WithValue(ctx, clientCtxKey{}, e)
}

func clientOf(ctx context.Context) *clientEntry {
	e, _ := ctx.Value(clientCtxKey{}).(*clientEntry)
	return e
}

// ClientName is the name of the client a request came from, or "".
func ClientName(ctx context.Context) string {
	if e := clientOf(ctx); e != nil {
		return e.name
	}
	return ""
}

// Middleware is the MCP server's receiving middleware. A request whose
// HTTP request carried no verified token (a server without --auth) passes
// untouched.
func (g *Guard) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		var e *clientEntry
		if x := req.GetExtra(); x != nil {
			e = clientFrom(x.TokenInfo)
		}
		if e == nil {
			return next(ctx, method, req)
		}
		ctx = withClient(ctx, e)
		ctx = caller.With(ctx, caller.Identity{ID: "http:" + e.name,
			Readable: func(owner, repo string) bool { return e.policy.reaches(tooldef.Read, owner, repo) },
			Callable: func(tool string) bool {
				info, ours := g.tool(tool)
				return !ours || e.policy.toolScope(tool, info) == ""
			}})
		switch method {
		case "tools/list":
			// The client's own write policy decides which tools it is not
			// shown for want of a way to confirm them.
			res, err := next(writepolicy.WithScope(ctx, writepolicy.Scope{Rules: e.rules}), method, req)
			if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
				lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool {
					info, ours := g.tool(t.Name)
					return ours && e.policy.toolScope(t.Name, info) != ""
				})
				if !e.tools.LockdownOver(g.Lockdown).AllowInclude {
					for i, t := range lr.Tools {
						lr.Tools[i] = withoutInclude(t)
					}
				}
			}
			return res, err
		case "completion/complete":
			return g.complete(ctx, e, next, method, req)
		}
		return next(ctx, method, req)
	}
}

// Wrap runs around every tool call, including the tool calls that answer
// resource reads: it refuses a tool or a target outside the client's
// policy before the tool runs, and writes the audit line.
func (g *Guard) Wrap(ctx context.Context, call tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
	e := clientOf(ctx)
	if e == nil || call.Unknown {
		return next(ctx)
	}
	start := g.now()
	args, invalid := callargs.Read(call.Arguments, nil)
	// Arguments that cannot be read one way only (a key given twice, or
	// twice under case folding) are refused: the tool could read another
	// owner from them than the one checked here. The broker does the same.
	refused := invalid
	if refused != nil {
		refused.Settlement = contract.NotStarted
	}
	if info, ours := g.tool(call.Tool); ours && refused == nil {
		if s := e.policy.toolScope(call.Tool, info); s != "" {
			refused = refusal(e.name, []string{s}, describe(call.Tool))
		}
	}
	if refused == nil && args.Target.Board != nil {
		// An issue write that puts its issue on a board does
		// github_update_project_item's work: it needs that tool, and an
		// owner-wide write grant on the board's owner, as that tool does.
		refused = g.boardRefusal(e, call.Tool, args.Target.Board)
	}
	if refused == nil && args.Target.Owner != "" && !e.policy.everything(call.Mode) {
		// A query reaching past the named owner would act beyond what is
		// checked below; the broker refuses it the same way. A client that
		// may reach everything is not narrowed by it.
		_, refused = args.RouteOwner("")
	}
	if refused == nil {
		if missing := e.policy.missingScopes(call.Mode, args); len(missing) > 0 {
			refused = refusal(e.name, missing, describe(call.Tool)+" there")
		}
	}
	var (
		res   *mcp.CallToolResult
		err   error
		reach *caller.Reach // what the tool tells of the repositories it reached
	)
	if refused != nil {
		res = tooldef.ErrorResult(&tooldef.Env{Fingerprint: g.fingerprint}, call.Mode, tooldef.NewRequestID(), refused)
	} else {
		var rctx context.Context
		rctx, reach = caller.WithReach(ctx)
		// The write path counts quotas per client and, since a stateless
		// client's requests share no session, remembers its private reads
		// per client.
		subject := "client:" + e.name
		rctx = writepolicy.WithScope(rctx, writepolicy.Scope{Subject: subject, Session: subject, ReadsShared: true, Rules: e.rules, Shared: true})
		res, err = next(rctx)
	}
	outcome, code := "ok", ""
	switch {
	case err != nil:
		outcome, code = "error", string(contract.CodeInternal)
	case res != nil && res.IsError:
		outcome, code = "error", errorCode(res)
	}
	attrs := []any{"client", e.name, "tool", call.Tool, "mode", string(call.Mode), "owner", args.Target.Owner,
		"repo", args.Target.Repo, "outcome", outcome, "code", code, "duration_ms", g.now().Sub(start).Milliseconds()}
	g.log.Info("call", append(attrs, reachAttrs(reach)...)...)
	return res, err
}

// reachAttrs are the audit line's fields for the repositories a tool told
// r it named and read (a report's, owner-wide ones especially): at most
// [caller.AuditRepos] names, the rest counted; none when it told of none.
func reachAttrs(r *caller.Reach) []any {
	s, ok := r.Summary(caller.AuditRepos)
	if !ok {
		return nil
	}
	attrs := []any{"repos", s.Repos}
	if s.More > 0 {
		attrs = append(attrs, "names_omitted", s.More)
	}
	attrs = append(attrs, "repos_read", s.Read)
	if len(s.Untrusted) > 0 {
		// Text lockdown withholds, shown because the call asked.
		attrs = append(attrs, "include_untrusted", s.Untrusted)
	}
	return attrs
}

func errorCode(res *mcp.CallToolResult) string {
	var env struct {
		Code string `json:"code"`
	}
	switch sc := res.StructuredContent.(type) {
	case json.RawMessage:
		_ = json.Unmarshal(sc, &env)
	default:
		if b, err := json.Marshal(sc); err == nil {
			_ = json.Unmarshal(b, &env)
		}
	}
	return env.Code
}

// complete bounds completion/complete: owners and repositories offered
// are only those the client may read, and completing anything inside an
// owner or repository it may not read is refused before GitHub is asked.
func (g *Guard) complete(ctx context.Context, e *clientEntry, next mcp.MethodHandler, method string, req mcp.Request) (mcp.Result, error) {
	p, ok := req.GetParams().(*mcp.CompleteParams)
	if !ok || p == nil {
		return next(ctx, method, req)
	}
	known := map[string]string{}
	if p.Context != nil {
		known = p.Context.Arguments
	}
	owner, repo := known["owner"], known["repo"]
	pol := e.policy
	var keep func(string) bool
	switch p.Argument.Name {
	case "owner":
		owners, all := pol.readableOwners()
		if !all {
			keep = func(v string) bool {
				return slices.ContainsFunc(owners, func(o string) bool { return strings.EqualFold(o, v) })
			}
		}
	case "repo":
		if !pol.everything(tooldef.Read) && !pol.reachesAnyRepoOf(owner) {
			return nil, g.refuseMethod(e.name, target{owner, ""}.scope(tooldef.Read), "to complete repositories of this owner")
		}
		keep = func(v string) bool { return pol.reaches(tooldef.Read, owner, v) }
	default:
		if !pol.reaches(tooldef.Read, owner, repo) {
			return nil, g.refuseMethod(e.name, target{owner, repo}.scope(tooldef.Read), "to complete "+p.Argument.Name+" there")
		}
	}
	g.log.Info("call", "client", e.name, "tool", method, "mode", "read", "owner", owner, "repo", repo)
	res, err := next(ctx, method, req)
	if cr, ok := res.(*mcp.CompleteResult); ok && err == nil && keep != nil {
		vals := slices.DeleteFunc(slices.Clone(cr.Completion.Values), func(v string) bool { return !keep(v) })
		cr.Completion.Values, cr.Completion.Total, cr.Completion.HasMore = vals, len(vals), false
	}
	return res, err
}

// reachesAnyRepoOf reports whether some read grant names owner at all.
func (p *policy) reachesAnyRepoOf(owner string) bool {
	for _, pat := range p.lists(tooldef.Read) {
		if o, _, _ := strings.Cut(pat, "/"); owner != "" && strings.EqualFold(o, owner) {
			return true
		}
	}
	return false
}

func (g *Guard) refuseMethod(client, scope, what string) error {
	e := refusal(client, []string{scope}, what)
	e.RequestID = tooldef.NewRequestID()
	if g.fingerprint != nil {
		e.Fingerprint = g.fingerprint()
	}
	g.log.Info("call", "client", client, "tool", "completion/complete", "outcome", "error", "code", string(e.Code))
	return server.EnvelopeError(jsonrpc.CodeInvalidParams, e)
}

// boardRefusal is the refusal of a call that writes board's items
// beside its issue, when the client may not call
// github_update_project_item there; nil when it may.
func (g *Guard) boardRefusal(e *clientEntry, tool string, board *callargs.Board) *contract.Error {
	name := projects.NameUpdateProjectItem
	info, ok := g.tool(name)
	if !ok {
		// Not served here: judged as what it is, a projects write.
		info = ToolInfo{Mode: tooldef.Write, Toolset: projects.Toolset, Writes: true}
	}
	what := describe(tool) + " with project (" + name + "'s work)"
	if s := e.policy.toolScope(name, info); s != "" {
		return refusal(e.name, []string{s}, what)
	}
	if t := (target{owner: board.Owner}); !e.policy.reaches(tooldef.Write, t.owner, "") {
		return refusal(e.name, []string{t.scope(tooldef.Write)}, what+" on that board")
	}
	return nil
}
