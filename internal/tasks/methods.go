package tasks

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// metaClientCapabilities is where a 2026-07-28 request carries the
// client's capabilities (SEP-2575).
const metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"

type idParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
}

type updateParams struct {
	mcp.ParamsBase
	TaskID string `json:"taskId"`
	// Answers by the key of the input request they answer; kept raw, as
	// keys the task is not waiting on are ignored, whatever they hold.
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
}

// Register adds tasks/get, tasks/update and tasks/cancel to s. The
// methods SEP-2663 removed (tasks/result, tasks/list) stay unknown
// (-32601).
func (m *Manager) Register(s *mcp.Server) error {
	if err := mcp.AddReceivingCustomMethod(s, "tasks/get", m.get); err != nil {
		return err
	}
	if err := mcp.AddReceivingCustomMethod(s, "tasks/update", m.updateMethod); err != nil {
		return err
	}
	return mcp.AddReceivingCustomMethod(s, "tasks/cancel", m.cancel)
}

// Capabilities declares the extension in the server's capabilities.
func Capabilities(c *mcp.ServerCapabilities) {
	c.AddExtension(Extension, map[string]any{})
}

func (m *Manager) get(ctx context.Context, ss *mcp.ServerSession, p *idParams) (*task, error) {
	if err := gate(ss, p.GetMeta(), p.TaskID); err != nil {
		return nil, err
	}
	_, r, ok, err := m.load(ctx, m.owner(ctx), p.TaskID)
	if err != nil {
		return nil, storeError(err)
	}
	if !ok {
		return nil, unknownTask(p.TaskID)
	}
	return m.wire(p.TaskID, r, "complete"), nil
}

func (m *Manager) updateMethod(ctx context.Context, ss *mcp.ServerSession, p *updateParams) (*ack, error) {
	if err := gate(ss, p.GetMeta(), p.TaskID); err != nil {
		return nil, err
	}
	owner := m.owner(ctx)
	// The answers that complete a task resume it, which takes a running
	// slot: taken once an answer is seen to need it, and the answers
	// applied again with it.
	var release func()
	for {
		r, ok, outcome, err := m.answer(ctx, owner, p, release != nil)
		switch {
		case err != nil:
			return nil, m.dropSlot(release, storeError(err))
		case !ok:
			return nil, m.dropSlot(release, unknownTask(p.TaskID))
		case outcome == needsSlot:
			if release, err = m.reserve(ctx, owner); err != nil {
				return nil, err
			}
			continue
		case outcome != resumes:
			return &ack{ResultType: "complete"}, m.dropSlot(release, nil)
		}
		if err := m.resume(ctx, ss, owner, p.TaskID, r, release); err != nil {
			release()
			// An answer that is no answer to what was asked fails the task
			// rather than leaving it working for ever.
			_ = m.settle(ctx, owner, p.TaskID, nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "an input response does not answer its request"})
		}
		return &ack{ResultType: "complete"}, nil
	}
}

// dropSlot gives back a running slot taken for a resumption that did not
// happen, and returns err.
func (m *Manager) dropSlot(release func(), err error) error {
	if release != nil {
		release()
	}
	return err
}

// What tasks/update's answers did to the task.
type answerOutcome int

const (
	answered  answerOutcome = iota // recorded, or nothing to record
	resumes                        // the last answer: the task runs again
	needsSlot                      // would resume, but no running slot is held
)

// answer records the answers p gives to the input owner's task is waiting
// on. Answers that complete it set it working again, if haveSlot.
func (m *Manager) answer(ctx context.Context, owner string, p *updateParams, haveSlot bool) (*record, bool, answerOutcome, error) {
	var outcome answerOutcome
	r, ok, err := m.update(ctx, owner, p.TaskID, func(r *record) bool {
		outcome = answered
		if r.Status != StatusInputRequired {
			return false
		}
		pending := 0
		for k := range r.InputRequests {
			if _, given := p.InputResponses[k]; !given {
				pending++
			}
		}
		if pending == 0 && !haveSlot {
			outcome = needsSlot
			return false
		}
		changed := false
		for k, v := range p.InputResponses {
			if _, asked := r.InputRequests[k]; !asked {
				continue
			}
			if r.InputResponses == nil {
				r.InputResponses = map[string]json.RawMessage{}
			}
			r.InputResponses[k] = v
			delete(r.InputRequests, k)
			changed = true
		}
		if changed && len(r.InputRequests) == 0 {
			r.Status, r.InputRequests, outcome = StatusWorking, nil, resumes
		}
		return changed
	})
	return r, ok, outcome, err
}

func (m *Manager) cancel(ctx context.Context, ss *mcp.ServerSession, p *idParams) (*ack, error) {
	if err := gate(ss, p.GetMeta(), p.TaskID); err != nil {
		return nil, err
	}
	_, ok, err := m.update(ctx, m.owner(ctx), p.TaskID, func(r *record) bool {
		if r.terminal() {
			return false // idempotent: a settled task stays as it is
		}
		r.Status, r.InputRequests = StatusCancelled, nil
		return true
	})
	if err != nil {
		return nil, storeError(err)
	}
	if !ok {
		return nil, unknownTask(p.TaskID)
	}
	// Running here, it stops now; on another replica, at its next look
	// at the store (watch).
	m.mu.Lock()
	if c := m.running[p.TaskID]; c != nil {
		c()
	}
	m.mu.Unlock()
	return &ack{ResultType: "complete"}, nil
}

// gate refuses the task methods to a client that did not declare the
// extension (SEP-2663: -32021), and a request naming no task.
func gate(ss *mcp.ServerSession, meta map[string]any, id string) error {
	if !declared(meta, ss) {
		return missingExtension()
	}
	if id == "" {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "taskId is required"}
	}
	return nil
}

// declared reports whether the request's _meta (2026-07-28) or, failing
// that, the session's initialize capabilities declare the extension.
func declared(meta map[string]any, ss *mcp.ServerSession) bool {
	if caps, ok := meta[metaClientCapabilities].(map[string]any); ok {
		ext, _ := caps["extensions"].(map[string]any)
		_, ok := ext[Extension]
		return ok
	}
	if ss == nil {
		return false
	}
	if p := ss.InitializeParams(); p != nil && p.Capabilities != nil {
		_, ok := p.Capabilities.Extensions[Extension]
		return ok
	}
	return false
}

func missingExtension() error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{Extension: map[string]any{}}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
		Message: "this call needs the " + Extension + " extension: declare it in the client's capabilities", Data: data}
}

func unknownTask(id string) error {
	data, _ := json.Marshal(map[string]string{"taskId": id})
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown task (it expired, or it belongs to another client)", Data: data}
}

func storeError(err error) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task state store is unavailable"}
}
