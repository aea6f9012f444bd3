package broker

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// auditMethods is a receiving middleware for the requests other than
// tools/call that can reach GitHub: completions and resource reads. Each
// gets a [CallRecord], so the router records (and pins) its route as it
// does a tool call's, and one audit line. A resource read answered by a
// tool is audited by that tool call's line instead.
func (b *Broker) auditMethods(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method != "completion/complete" && method != "resources/read" {
			return next(ctx, method, req)
		}
		start := b.now()
		rec := &CallRecord{Tool: method, Mode: string(tooldef.Read)}
		// Completing an owner asks the credential's own view (no owner
		// routes it); completing anything else is routed by the owner
		// already chosen, and pinned to it.
		if p, ok := req.GetParams().(*mcp.CompleteParams); ok && p.Context != nil && p.Argument.Name != "owner" {
			rec.Owner, rec.Repo = p.Context.Arguments["owner"], p.Context.Arguments["repo"]
			rec.ownerNamed = rec.Owner != ""
		}
		if b.draining.Load() {
			err := &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the broker is shutting down; reconnect and ask again"}
			b.auditMethod(ctx, rec, start, err)
			return nil, err
		}
		res, err := next(WithRecord(ctx, rec), method, req)
		if !rec.covered.Load() {
			b.auditMethod(ctx, rec, start, err)
		}
		return res, err
	}
}

func (b *Broker) auditMethod(ctx context.Context, rec *CallRecord, start time.Time, err error) {
	line := b.lineFor(ctx, rec, start)
	if err != nil {
		line.Outcome, line.Code = "error", methodErrorCode(err)
	}
	b.writeAudit(line)
}

// methodErrorCode is the envelope's code a failed request carries in its
// JSON-RPC error data, or a generic one.
func methodErrorCode(err error) string {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		var d struct {
			MachineCode string `json:"machine_code"`
		}
		if json.Unmarshal(werr.Data, &d) == nil && d.MachineCode != "" {
			return d.MachineCode
		}
		return "protocol_error"
	}
	return string(contract.CodeInternal)
}
