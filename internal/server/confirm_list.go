package server

import (
	"context"
	"slices"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hideUnconfirmable is the receiving middleware that leaves out of
// tools/list the tools a person must confirm, for a client that cannot
// ask its user, where the rules say "hide" (policy.Confirm.Unavailable).
// A call to one is still refused with confirmation_unavailable.
func hideUnconfirmable(p *policy.Path) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if method != "tools/list" || err != nil || p == nil {
				return res, err
			}
			hidden := p.RulesFor(ctx).HiddenFrom()
			lr, ok := res.(*mcp.ListToolsResult)
			if !ok || len(hidden) == 0 || listerCanElicit(req) {
				return res, err
			}
			lr.Tools = slices.DeleteFunc(slices.Clone(lr.Tools), func(t *mcp.Tool) bool { return slices.Contains(hidden, t.Name) })
			return lr, nil
		}
	}
}

// listerCanElicit reports whether the client listing tools declared form
// elicitation.
func listerCanElicit(req mcp.Request) bool {
	r, ok := req.(*mcp.ServerRequest[*mcp.ListToolsParams])
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}
