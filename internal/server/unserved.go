package server

import (
	"context"
	"sync"

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
	// modes holds every tool this deployment has but does not serve:
	// ghgate's own and other servers' it fronts.
	modes map[string]tooldef.Mode
	// writes marks the unserved tools that write, on GitHub or locally.
	writes map[string]bool
	// served names the tools that are served; tools can be added while
	// sessions run (Server.AddExtra).
	mu     sync.RWMutex
	served map[string]bool
}

func (u *unservedTools) isServed(name string) bool {
	u.mu.RLock()
	defer u.mu.RUnlock()
	return u.served[name]
}

func (u *unservedTools) markServed(name string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.served[name] = true
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
		if u.isServed(p.Name) {
			// Served, if only since a toolset was enabled at run time.
			return next(ctx, method, req)
		}
		mode, unserved := u.modes[p.Name]
		if !unserved {
			if u.env.Wrap != nil {
				// A name nobody serves gets the protocol's error, and the
				// broker's audit line records the attempt.
				var res mcp.Result
				_, err := u.env.Wrap(ctx, tooldef.Call{Tool: p.Name, Arguments: p.Arguments, Unknown: true},
					func(ctx context.Context) (*mcp.CallToolResult, error) {
						var err error
						res, err = next(ctx, method, req)
						return nil, err
					})
				return res, err
			}
			return next(ctx, method, req)
		}
		var e *contract.Error
		if u.readOnly && u.writes[p.Name] {
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
