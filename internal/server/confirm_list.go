package server

import (
	"context"
	"slices"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// hideUnconfirmable is the receiving middleware that leaves out of
// tools/list the tools a person must confirm, for a client that cannot
// ask its user, where the rules say "hide" ([policy.Confirm.Unavailable]).
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

// hiddenFrom reports whether tools/list leaves the tool out for the
// client asking req (see hideUnconfirmable): a prompt's message names it
// only as a proposal then.
func hiddenFrom(ctx context.Context, p *policy.Path, req mcp.Request, tool string) bool {
	if p == nil || listerCanElicit(req) {
		return false
	}
	return slices.Contains(p.RulesFor(ctx).HiddenFrom(), tool)
}

// listerCanElicit reports whether the client sending req (a listing, or
// a prompts/get) declared form elicitation.
func listerCanElicit(req mcp.Request) bool {
	r, ok := req.(interface {
		ClientCapabilities() *mcp.ClientCapabilities
	})
	if !ok {
		return false
	}
	caps := r.ClientCapabilities()
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	return caps.Elicitation.Form != nil || caps.Elicitation.URL == nil
}
