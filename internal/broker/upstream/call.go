package upstream

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"reflect"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// handler forwards one allowlisted tool. Every failure comes back as an
// isError result with an envelope: an agent's session never ends because
// an upstream did.
func (p *Proxy) handler(a Allowed, rules callargs.Upstream) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		reqID := newRequestID()
		fail := func(e *contract.Error) (*mcp.CallToolResult, error) { return p.errorResult(a.Mode, reqID, e), nil }

		// The arguments are read once, by the broker around this handler
		// (or here, when called without it): the one owner they name
		// chooses the route, and the same bytes are forwarded, so the
		// upstream reads the owner the credential was chosen for.
		args, ok := callargs.From(ctx)
		if !ok {
			var raw json.RawMessage
			if req != nil && req.Params != nil {
				raw = req.Params.Arguments
			}
			var e *contract.Error
			if args, e = callargs.ReadUpstream(raw, rules); e != nil {
				return fail(e)
			}
		}
		// A call naming no owner goes where it always went: the configured
		// owner's route, or with none ("*"), the "*" route, which the
		// router refuses (missing_credential) when there is no "*" route.
		owner, e := args.RouteOwner(p.owner)
		if e != nil {
			return fail(e)
		}
		token, cred, err := p.opts.Tokens.Token(ctx, owner, a.Mode)
		if err == nil && token == "" {
			err = contract.Errorf(contract.CodeMissingCredential, "no %s credential is routed for upstream %s", a.Mode, p.cfg.Name)
		}
		if err != nil {
			e, ok := contract.AsError(err)
			if !ok {
				p.log.Error("choosing the upstream credential", "tool", a.Tool, "err", p.red.clean(err.Error()), "request_id", reqID)
				e = contract.Errorf(contract.CodeInternal, "choosing the credential for upstream %s failed; the details are in the server log", p.cfg.Name)
			}
			e.Settlement = contract.NotStarted
			return fail(e)
		}
		p.red.add(token)

		sess, err := p.acquire(ctx, a.Mode, cred, token)
		if err != nil {
			p.log.Error("upstream unavailable", "tool", a.Tool, "err", p.red.clean(err.Error()), "request_id", reqID)
			e := unavailable("upstream %s could not be started or reached", p.cfg.Name)
			e.Settlement = contract.NotStarted
			return fail(e)
		}
		defer sess.release()

		var forwarded any
		if len(args.Canonical) > 0 {
			forwarded = args.Canonical
		}
		if p.opts.Forwarded != nil {
			p.opts.Forwarded(ctx)
		}
		res, err := sess.cs.CallTool(ctx, &mcp.CallToolParams{Name: a.Tool, Arguments: forwarded})
		if err != nil {
			return fail(p.callError(a, reqID, err))
		}
		if p.red.leaks(res) {
			p.log.Error("upstream result contained a credential; withheld", "tool", a.Tool, "request_id", reqID)
			e := unavailable("upstream %s returned an answer that cannot be shown; the details are in the server log", p.cfg.Name)
			e.Temporary = false
			e.Settlement = contract.Indeterminate
			return fail(e)
		}
		p.red.scrub(res)
		return exactStructured(res), nil
	}
}

// callError turns a failed tools/call into an envelope. A JSON-RPC error
// means the upstream answered and refused; anything else means the answer
// never came, so a write may or may not have happened.
func (p *Proxy) callError(a Allowed, reqID string, err error) *contract.Error {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		msg := p.red.clean(werr.Message)
		p.log.Warn("upstream refused the call", "tool", a.Tool, "code", werr.Code, "message", msg, "request_id", reqID)
		var e *contract.Error
		if werr.Code == jsonrpc.CodeInvalidParams {
			e = contract.Errorf(contract.CodeInvalidField, "upstream %s refused the arguments: %s", p.cfg.Name, msg)
		} else {
			e = unavailable("upstream %s answered with an error: %s", p.cfg.Name, msg)
		}
		e.Settlement = contract.NoRemoteSuccessKnown
		return e
	}
	p.log.Error("upstream call failed", "tool", a.Tool, "err", p.red.clean(err.Error()), "request_id", reqID)
	e := unavailable("upstream %s did not answer", p.cfg.Name)
	e.Settlement = contract.Indeterminate
	return e
}

func unavailable(format string, args ...any) *contract.Error {
	return contract.Errorf(contract.CodeUpstreamUnavailable, format, args...)
}

// exactStructured keeps large integers exact: the SDK decodes
// structuredContent into float64s, so when the single text block carries
// the same JSON (as ghgate's tools and many others send it) its bytes are
// forwarded as structuredContent instead. Otherwise res is unchanged.
func exactStructured(res *mcp.CallToolResult) *mcp.CallToolResult {
	if res.StructuredContent == nil || len(res.Content) != 1 {
		return res
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		return res
	}
	var fromText any
	if json.Unmarshal([]byte(text.Text), &fromText) != nil || !reflect.DeepEqual(fromText, res.StructuredContent) {
		return res
	}
	res.StructuredContent = json.RawMessage(text.Text)
	return res
}

func newRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "ghg_" + hex.EncodeToString(b[:])
}

// errorResult renders an envelope as ghgate's own tools do.
func (p *Proxy) errorResult(mode tooldef.Mode, reqID string, e *contract.Error) *mcp.CallToolResult {
	return tooldef.ErrorResult(&tooldef.Env{Fingerprint: p.opts.Fingerprint, Redact: p.red.clean}, mode, reqID, e)
}
