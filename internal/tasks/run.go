package tasks

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// settleTimeout bounds writing a task's outcome once its tool returned.
const settleTimeout = 30 * time.Second

// Middleware is the server's receiving middleware for tools/call. It must
// be added once, inside any middleware that puts the client's identity in
// the context (the HTTP guard), so a task is owned by that client and the
// tool runs through the same wrapper (policy, audit) as an inline call.
func (m *Manager) Middleware(next mcp.MethodHandler) mcp.MethodHandler {
	m.mu.Lock()
	m.call = next
	m.mu.Unlock()
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		ctr, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || ctr.Params == nil || m.Support == nil {
			return next(ctx, method, req)
		}
		sup := m.Support(ctr.Params.Name)
		switch {
		case !sup.Runs():
			return next(ctx, method, req)
		case !declared(ctr.Params.Meta, ctr.Session):
			if sup.Mode == tooldef.TaskRequired {
				return nil, missingExtension()
			}
			return next(ctx, method, req)
		case sup.AfterInput && len(ctr.Params.InputResponses) == 0:
			// Still gathering input: answered inline (SEP-2322).
			return next(ctx, method, req)
		}
		return m.start(ctx, ctr)
	}
}

// start creates the task, durably, before answering: a tasks/get sent as
// soon as the answer arrives finds it, on any replica. Its running slot
// is taken first: a task over the limits is never created.
func (m *Manager) start(ctx context.Context, req *mcp.CallToolRequest) (mcp.Result, error) {
	if m.isClosing() {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the server is shutting down: call the tool again (another replica may take it)"}
	}
	if m.Store == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task could not be created: this server keeps no state store; call the tool without task"}
	}
	owner, id, now := m.owner(ctx), newID(), m.now()
	p := *req.Params
	responses, err := rawResponses(p.InputResponses)
	if err != nil {
		return nil, err
	}
	// The answers are kept beside the call, not in it: tasks/update adds
	// to them and the tool runs again with all of them.
	p.InputResponses = nil
	params, err := json.Marshal(&p)
	if err != nil {
		return nil, fmt.Errorf("tasks: encoding the call: %w", err)
	}
	r := &record{Status: StatusWorking, CreatedAt: now, LastUpdatedAt: now, Tool: p.Name, Params: params, InputResponses: responses}
	data, err := json.Marshal(r)
	if err != nil {
		return nil, err
	}
	release, err := m.reserve(ctx, owner)
	if err != nil {
		return nil, err
	}
	if err := m.Store.CreateTask(ctx, store.TaskRecord{ID: id, Owner: owner, Data: data, Expires: now.Add(m.ttl())}); err != nil {
		release()
		m.log().Error("tasks: creating a task", "tool", p.Name, "error", err)
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task could not be created: the state store is unavailable"}
	}
	m.launch(ctx, owner, id, req, release)
	return m.wire(id, r, "task"), nil
}

// launch runs the tool in the background, past the end of the request
// that started it (its context's values, such as the client's identity,
// are kept; its cancellation is not). release gives back the task's
// running slot once the tool has returned, before its outcome is
// recorded.
func (m *Manager) launch(ctx context.Context, owner, id string, req *mcp.CallToolRequest, release func()) {
	rctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m.mu.Lock()
	if m.running == nil {
		m.running = map[string]context.CancelFunc{}
	}
	m.running[id] = cancel
	if m.closing {
		cancel() // Shutdown came first: it fails at once
	}
	next := m.call
	m.mu.Unlock()
	m.wg.Add(1)
	go func() {
		defer m.wg.Done()
		defer func() {
			m.mu.Lock()
			delete(m.running, id)
			m.mu.Unlock()
			cancel()
		}()
		defer release() // a panic past runTool's recover still frees it
		m.wg.Add(1)
		go func() { defer m.wg.Done(); m.watch(rctx, owner, id, cancel) }()
		res, err := runTool(rctx, next, req)
		if err != nil && m.isClosing() {
			err = errShutdown
		}
		release()
		sctx, done := context.WithTimeout(context.WithoutCancel(ctx), settleTimeout)
		defer done()
		if err := m.settle(sctx, owner, id, res, err); err != nil {
			m.log().Error("tasks: recording a task's outcome", "task", id, "tool", req.Params.Name, "error", err)
		}
	}()
}

// runTool calls the tool through the server's handler chain; a panic is
// a protocol error of the task, never the process's end.
func runTool(ctx context.Context, next mcp.MethodHandler, req *mcp.CallToolRequest) (res *mcp.CallToolResult, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the tool failed"}
		}
	}()
	if next == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: tasks middleware not installed"}
	}
	out, err := next(ctx, "tools/call", req)
	if err != nil {
		return nil, err
	}
	r, ok := out.(*mcp.CallToolResult)
	if !ok || r == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "internal error: the tool returned no result"}
	}
	return r, nil
}

// watch cancels a running task once its record says cancelled (or is
// gone): a tasks/cancel that reached another replica stops it here.
func (m *Manager) watch(ctx context.Context, owner, id string, cancel context.CancelFunc) {
	t := time.NewTicker(m.poll())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		_, r, ok, err := m.load(ctx, owner, id)
		if err != nil {
			continue // the store is out of reach: keep running, look again
		}
		if !ok || r.Status == StatusCancelled {
			cancel()
			return
		}
	}
}

// settle records what the tool returned, unless the task was cancelled
// (or otherwise settled) meanwhile: a terminal status is final.
func (m *Manager) settle(ctx context.Context, owner, id string, res *mcp.CallToolResult, callErr error) error {
	var (
		result   json.RawMessage
		requests map[string]json.RawMessage
	)
	if callErr == nil {
		var err error
		if len(res.InputRequests) > 0 {
			if requests, err = rawRequests(res.InputRequests); err != nil {
				callErr = err
			}
		} else if result, err = json.Marshal(res); err != nil {
			callErr = err
		}
	}
	_, _, err := m.update(ctx, owner, id, func(r *record) bool {
		if r.terminal() || r.Status != StatusWorking {
			return false
		}
		switch {
		case callErr != nil:
			r.Status, r.Error = StatusFailed, protocolError(callErr)
		case requests != nil:
			r.Status, r.InputRequests = StatusInputRequired, requests
		default:
			r.Status, r.Result = StatusCompleted, result
		}
		return true
	})
	return err
}

// rawRequests is the wire form of each input request, by its key.
func rawRequests(in mcp.InputRequestMap) (map[string]json.RawMessage, error) {
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	var out map[string]json.RawMessage
	return out, json.Unmarshal(b, &out)
}

func rawResponses(in mcp.InputResponseMap) (map[string]json.RawMessage, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]json.RawMessage, len(in))
	for k, v := range in {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out[k] = b
	}
	return out, nil
}

// resume runs the tool again with every answer the task has gathered, in
// a request on session ss (the tasks/update that completed them), in the
// running slot release gives back.
func (m *Manager) resume(ctx context.Context, ss *mcp.ServerSession, owner, id string, r *record, release func()) error {
	var p mcp.CallToolParamsRaw
	if err := json.Unmarshal(r.Params, &p); err != nil {
		return err
	}
	if len(r.InputResponses) > 0 {
		b, err := json.Marshal(r.InputResponses)
		if err != nil {
			return err
		}
		if err := json.Unmarshal(b, &p.InputResponses); err != nil {
			return err
		}
	}
	m.launch(ctx, owner, id, &mcp.CallToolRequest{Session: ss, Params: &p}, release)
	return nil
}
