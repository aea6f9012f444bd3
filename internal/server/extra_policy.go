package server

import (
	"context"
	"encoding/json"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ExtraWrites is what an upstream write tool's configuration says its
// calls write: the kind the write policy counts, and the top-level string
// arguments that are text sent to GitHub.
type ExtraWrites struct {
	Kind policy.Kind
	Text []string
}

// defaultExtraText are the arguments GitHub's own MCP server names its
// titles and bodies by.
var defaultExtraText = []string{"body", "title"}

// admitExtra puts an upstream write tool's calls through the write path
// ghgate's own tools pass: quotas, denied kinds, the outbound text policy
// (its text arguments rewritten before they are forwarded), the data-flow
// guard and confirmation. The target is what the arguments name (read by
// callargs, as the broker routes the credential by it). Reads pass as they
// are.
func (s *Server) admitExtra(x Extra) Extra {
	if x.Mode != tooldef.Write {
		return x
	}
	kind := x.Writes.Kind
	if kind == "" {
		kind = policy.KindUpstream
	}
	fields := x.Writes.Text
	if fields == nil {
		fields = defaultExtraText
	}
	next := x.Handler
	x.Handler = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, read := callargs.From(ctx)
		raw := args.Canonical
		if !read && req != nil && req.Params != nil {
			raw = req.Params.Arguments
		}
		var obj map[string]json.RawMessage
		if len(raw) > 0 {
			if err := json.Unmarshal(raw, &obj); err != nil {
				e := contract.Errorf(contract.CodeInvalidField, "the arguments are not a JSON object").WithField("arguments", "must be an object")
				e.Settlement = contract.NotStarted
				return tooldef.ErrorResult(s.env, tooldef.Write, tooldef.NewRequestID(), e), nil
			}
		}
		w := policy.Write{Kind: kind, Target: policy.Target{Owner: args.Target.Owner, Repo: args.Target.Repo},
			Summary: "call " + x.Def.Name}
		texts := map[string]*string{}
		for _, f := range fields {
			var v string
			if json.Unmarshal(obj[f], &v) == nil && v != "" {
				texts[f] = &v
				w.Text = append(w.Text, policy.Text{Field: f, Value: &v})
			}
		}
		adm, e := tooldef.AdmitWrites(ctx, s.env, req, x.Def.Name, []policy.Write{w}, raw)
		if e != nil {
			return tooldef.ErrorResult(s.env, tooldef.Write, tooldef.NewRequestID(), e), nil
		}
		actx, answer := adm.Admitted()
		if answer != nil {
			return answer, nil
		}
		if len(texts) > 0 {
			for f, v := range texts {
				obj[f], _ = json.Marshal(*v) // a string always encodes
			}
			rewritten, err := json.Marshal(obj)
			if err != nil {
				return nil, err
			}
			args.Canonical = rewritten
			actx = callargs.With(actx, args)
			if req != nil && req.Params != nil {
				p := *req.Params
				p.Arguments = rewritten
				r := *req
				r.Params = &p
				req = &r
			}
		}
		return next(actx, req)
	}
	return x
}
