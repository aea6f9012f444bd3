package server

import (
	"context"
	"slices"
	"sort"
	"strings"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/prompts"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	gh "github.com/google/go-github/v88/github"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// servePrompts adds the prompts whose tools are served now and were not
// offered yet; EnableToolsets calls it again, so a prompt appears with
// the toolset it needs (notifications/prompts/list_changed). What a
// prompt's message says is decided at prompts/get, from what is served
// then. The fingerprint needs no share of them: they follow from the
// tools served, the read-only switch and the release, all hashed.
func (s *Server) servePrompts(m *mcp.Server) {
	for _, p := range prompts.All() {
		if !p.Listed(s.Serves) {
			continue
		}
		s.mu.Lock()
		offered := slices.Contains(s.prompts, p.Name)
		if !offered {
			s.prompts = append(s.prompts, p.Name)
		}
		s.mu.Unlock()
		if !offered {
			m.AddPrompt(p.Def(), s.promptHandler(p))
		}
	}
}

// promptHandler answers prompts/get for p: its arguments checked as a
// tool's are (a missing, unknown or malformed one is invalid params with
// the envelope naming it), then its message.
func (s *Server) promptHandler(p prompts.Prompt) mcp.PromptHandler {
	return func(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		var args map[string]string
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		// A prompt whose tools this caller may not call is not offered to
		// it (prompts/list leaves it out too).
		if !p.Listed(func(tool string) bool { return caller.From(ctx).CanCall(tool) }) {
			e := contract.Errorf(contract.CodeInvalidField, "prompt %q is not offered to this client: its policy does not grant the tools it uses", p.Name).
				WithField("name", "not offered to this client")
			e.RequestID, e.Fingerprint = tooldef.NewRequestID(), s.Fingerprint()
			return nil, EnvelopeError(jsonrpc.CodeInvalidParams, e)
		}
		in, e := p.Parse(args, s.svc.CurrentTime())
		if e != nil {
			e.RequestID, e.Fingerprint = tooldef.NewRequestID(), s.Fingerprint()
			return nil, EnvelopeError(jsonrpc.CodeInvalidParams, e)
		}
		// A write tool this client is not shown (it must be confirmed and
		// the client cannot ask its user) is, for the message, not served.
		served := func(tool string) bool {
			return s.Serves(tool) && caller.From(ctx).CanCall(tool) && !hiddenFrom(ctx, s.opts.Policy, req, tool)
		}
		return &mcp.GetPromptResult{Description: p.Description, Messages: p.Messages(in, served)}, nil
	}
}

// promptCompletes reports whether completion offers values for a
// prompt's argument: owner, repo and milestone of a prompt offered now.
func (s *Server) promptCompletes(name, arg string) bool {
	s.mu.RLock()
	offered := slices.Contains(s.prompts, name)
	s.mu.RUnlock()
	if !offered {
		return false
	}
	for _, p := range prompts.All() {
		if p.Name != name {
			continue
		}
		a, ok := p.Arg(arg)
		return ok && (a.Kind == prompts.Owner || a.Kind == prompts.Repo || a.Kind == prompts.Milestone)
	}
	return false
}

// maxMilestoneCompletions is how many titles a completion offers, as for
// the other names (core's maxCompletions).
const maxMilestoneCompletions = 100

// completeMilestones suggests the titles of a repository's milestones
// starting with prefix (case-insensitively), sorted; never
// nil. A failed read offers nothing, as the other completions do.
func completeMilestones(ctx context.Context, svc *toolkit.Service, owner, repo, prefix string) []string {
	out := []string{}
	if owner == "" || repo == "" || toolkit.CheckNames(owner, repo) != nil {
		return out
	}
	c, err := svc.Client(ctx, owner, tooldef.Read)
	if err != nil {
		return out
	}
	// Closed ones too: release notes are drafted for a milestone just
	// closed as often as for one still open.
	ms, _, err := c.ListMilestones(ctx, owner, repo, "all", gh.ListOptions{PerPage: 100})
	if err != nil {
		return out
	}
	p := strings.ToLower(prefix)
	for _, m := range ms {
		if t := m.GetTitle(); t != "" && strings.HasPrefix(strings.ToLower(t), p) {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	if len(out) > maxMilestoneCompletions {
		out = out[:maxMilestoneCompletions]
	}
	return out
}

// promptsForCaller leaves out of prompts/list the prompts whose tools the
// caller may not call (an HTTP client's policy), as tools/list leaves
// those tools out.
func promptsForCaller(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		lr, ok := res.(*mcp.ListPromptsResult)
		if method != "prompts/list" || err != nil || !ok || caller.From(ctx).Callable == nil {
			return res, err
		}
		byName := map[string]prompts.Prompt{}
		for _, p := range prompts.All() {
			byName[p.Name] = p
		}
		lr.Prompts = slices.DeleteFunc(slices.Clone(lr.Prompts), func(d *mcp.Prompt) bool {
			p, ok := byName[d.Name]
			return ok && !p.Listed(func(tool string) bool { return caller.From(ctx).CanCall(tool) })
		})
		return lr, nil
	}
}
