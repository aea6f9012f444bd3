package server

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// unservedTools answers a call to one of ghgate's tools that this
// deployment does not serve (read-only, an allow or deny list, a toolset
// not enabled) with the contract's envelope, read_only or
// tool_not_allowed, instead of the protocol's bare "unknown tool". Names
// ghgate does not have at all still get the protocol error.
type unservedTools struct {
	env      *tooldef.Env
	readOnly bool
	// modes holds every ghgate tool this deployment does not serve.
	modes map[string]tooldef.Mode
}

func (u *unservedTools) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "tools/call" {
			return next(ctx, method, req)
		}
		p, ok := req.GetParams().(*mcp.CallToolParamsRaw)
		if !ok {
			return next(ctx, method, req)
		}
		mode, unserved := u.modes[p.Name]
		if !unserved {
			return next(ctx, method, req)
		}
		var e *contract.Error
		if u.readOnly && mode == tooldef.Write {
			e = contract.Errorf(contract.CodeReadOnly, "%s writes, and this server is read-only; nothing was written", p.Name)
		} else {
			e = contract.Errorf(contract.CodeToolNotAllowed, "%s is not served by this deployment; nothing was done", p.Name)
		}
		e.Settlement = contract.NotStarted
		e.WithRepair(contract.Repair{NextStep: "use the tools tools/list shows; retrying will not help",
			Alternative: "read " + capabilitiesURI + " for what this server does"})
		refuse := func(context.Context) (*mcp.CallToolResult, error) {
			return tooldef.ErrorResult(u.env, mode, tooldef.NewRequestID(), e), nil
		}
		if u.env.Wrap != nil {
			// Through the wrapper, so the broker's audit log records the
			// refused call like any other.
			return u.env.Wrap(ctx, tooldef.Call{Tool: p.Name, Mode: mode, Arguments: p.Arguments}, refuse)
		}
		return refuse(ctx)
	}
}
