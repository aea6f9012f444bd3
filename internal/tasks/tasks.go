// Package tasks serves the MCP tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663) on ghgate's server stack: a tools/call of a tool that opts in
// ([tooldef.TaskSupport]), from a client that declares the extension,
// answers at once with a CreateTaskResult, and the tool runs on after the
// request ends; tasks/get reports it (its result inlined once done),
// tasks/update delivers the input it asked for, tasks/cancel stops it.
//
// go-sdk v1.8.0 has no task support, so this package adds it as a
// receiving middleware (tools/call) and three custom methods. A task's
// state lives in the store (SQLite or Redis), never only in the process,
// so over stateless HTTP any replica answers for it; each task belongs to
// the client that created it, and another client's tasks/get, update or
// cancel finds nothing, as for an unknown id. The tasks running at once
// are bounded per client and in all (Limits), and a deployment may admit
// each run too (the broker counts it against its client's requests in
// flight).
package tasks

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"sync"
	"time"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Extension is the extension's identifier, under capabilities.extensions.
const Extension = "io.modelcontextprotocol/tasks"

// Task statuses (SEP-2663).
const (
	StatusWorking       = "working"
	StatusInputRequired = "input_required"
	StatusCompleted     = "completed"
	StatusFailed        = "failed"
	StatusCancelled     = "cancelled"
)

// Defaults for Manager's zero fields.
const (
	DefaultTTL          = time.Hour
	DefaultPollInterval = 500 * time.Millisecond
	// DefaultMaxTasks and [DefaultMaxTasksPerClient] bound the tasks one
	// process runs at once, and those of one client: each runs a tool
	// (a report fans out to GitHub) past the request that started it.
	DefaultMaxTasks          = 64
	DefaultMaxTasksPerClient = 8
)

// Limits bound the tasks a Manager runs at once. A task holds its slot
// while its tool runs (not while it waits for input) and gives it back
// before its outcome is recorded, so a client that sees its task ended
// finds the slot free. The counts are this process's: replicas each
// apply them.
type Limits struct {
	// MaxTasks bounds the running tasks in all, MaxTasksPerClient those
	// of one owner; 0 takes DefaultMaxTasks and DefaultMaxTasksPerClient.
	MaxTasks, MaxTasksPerClient int
	// Admit, when set, is asked too before a task runs (or resumes with
	// the input it asked for): it returns the function that gives back
	// what it took, called once when the run ends, or the refusal to
	// answer the call with. The broker counts a task here against its
	// client's requests in flight.
	Admit func(ctx context.Context) (release func(), refusal *contract.Error)
}

// Store keeps tasks' records, shared by every replica using it.
// [store.Backend] (SQLite or Redis) holds it.
type Store interface {
	CreateTask(ctx context.Context, t store.TaskRecord) error
	GetTask(ctx context.Context, owner, id string) (store.TaskRecord, bool, error)
	// SwapTask replaces the record whose Version t carries; false: it
	// changed since (see internal/store's tasks.go).
	SwapTask(ctx context.Context, t store.TaskRecord) (bool, error)
}

// Manager runs tasks and answers for them. Its zero fields take defaults;
// Store is required.
type Manager struct {
	Store Store
	// Support says whether a tool (by name) may run as a task.
	Support func(tool string) tooldef.TaskSupport
	// Owner names the client a request comes from; nil takes the
	// authenticated caller (caller.ID: an HTTP client, a broker peer's
	// uid), "" being the one local client.
	Owner func(ctx context.Context) string
	Log   *slog.Logger
	Now   func() time.Time
	// TTL is how long a task is kept after its last change.
	TTL time.Duration
	// PollInterval is what clients are told to wait between tasks/get,
	// and how often a running task checks the store for a cancellation
	// made on another replica.
	PollInterval time.Duration
	Limits       Limits

	mu      sync.Mutex
	call    mcp.MethodHandler             // the handler chain inside Middleware
	running map[string]context.CancelFunc // tasks running in this process
	// slots counts the running tasks by owner, and in all: what Limits
	// bound.
	slots   map[string]int
	inSlots int
	closing bool
	wg      sync.WaitGroup
}

// record is a task as the store keeps it ([store.TaskRecord.Data]).
type record struct {
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      time.Time                  `json:"createdAt"`
	LastUpdatedAt  time.Time                  `json:"lastUpdatedAt"`
	Tool           string                     `json:"tool"`
	Params         json.RawMessage            `json:"params"` // the tools/call params, to run the tool again with answers
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          *wireError                 `json:"error,omitempty"`
}

func (r *record) terminal() bool {
	return r.Status == StatusCompleted || r.Status == StatusFailed || r.Status == StatusCancelled
}

type wireError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// task is the wire form shared by CreateTaskResult and tasks/get's
// DetailedTask: the flat Result & Task of SEP-2663.
type task struct {
	mcp.ResultBase
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          *wireError                 `json:"error,omitempty"`
}

// ack is the empty answer to tasks/update and tasks/cancel.
type ack struct {
	mcp.ResultBase
	ResultType string `json:"resultType"`
}

func (m *Manager) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Manager) ttl() time.Duration {
	if m.TTL > 0 {
		return m.TTL
	}
	return DefaultTTL
}

func (m *Manager) poll() time.Duration {
	if m.PollInterval > 0 {
		return m.PollInterval
	}
	return DefaultPollInterval
}

func (m *Manager) log() *slog.Logger {
	if m.Log != nil {
		return m.Log
	}
	return slog.New(slog.DiscardHandler)
}

func (m *Manager) owner(ctx context.Context) string {
	if m.Owner != nil {
		return m.Owner(ctx)
	}
	return caller.ID(ctx)
}

// Running is how many tasks this process is running now.
func (m *Manager) Running() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.running)
}

// Wait blocks until every task this process runs has settled.
func (m *Manager) Wait() { m.wg.Wait() }

// errShutdown is what a task cut short by its process's shutdown fails
// with: the client learns at once, rather than polling a task no process
// runs until it expires.
var errShutdown = &jsonrpc.Error{Code: jsonrpc.CodeInternalError,
	Message: "the server running this task shut down before it finished; call the tool again"}

// Shutdown stops the tasks this process runs, records each that had not
// finished as failed (errShutdown), and waits for that until ctx ends.
// Tasks started afterwards are refused.
func (m *Manager) Shutdown(ctx context.Context) {
	m.mu.Lock()
	m.closing = true
	for _, cancel := range m.running {
		cancel()
	}
	m.mu.Unlock()
	done := make(chan struct{})
	go func() { m.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

func (m *Manager) isClosing() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closing
}

func (m *Manager) wire(id string, r *record, kind string) *task {
	t := &task{ResultType: kind, TaskID: id, Status: r.Status, StatusMessage: r.StatusMessage,
		CreatedAt: r.CreatedAt.UTC().Format(time.RFC3339Nano), LastUpdatedAt: r.LastUpdatedAt.UTC().Format(time.RFC3339Nano),
		TTLMs: m.ttl().Milliseconds(), PollIntervalMs: max(1, m.poll().Milliseconds())}
	if kind == "complete" { // tasks/get: the details; a CreateTaskResult carries none
		switch r.Status {
		case StatusInputRequired:
			t.InputRequests = r.InputRequests
		case StatusCompleted:
			t.Result = r.Result
		case StatusFailed:
			t.Error = r.Error
		}
	}
	return t
}

func newID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24+)
	return hex.EncodeToString(b)
}

// load reads a task of owner; a missing one is found=false.
func (m *Manager) load(ctx context.Context, owner, id string) (store.TaskRecord, *record, bool, error) {
	if m.Store == nil {
		return store.TaskRecord{}, nil, false, nil
	}
	tr, ok, err := m.Store.GetTask(ctx, owner, id)
	if err != nil || !ok {
		return tr, nil, false, err
	}
	var r record
	if err := json.Unmarshal(tr.Data, &r); err != nil {
		return tr, nil, false, err
	}
	return tr, &r, true, nil
}

// update applies change to the task until it is written (another replica
// may write between the read and the write: the change is then made again
// on what it wrote). change returns false to write nothing. The written
// record is returned, or the one found when nothing was written.
func (m *Manager) update(ctx context.Context, owner, id string, change func(r *record) bool) (*record, bool, error) {
	for {
		tr, r, ok, err := m.load(ctx, owner, id)
		if err != nil || !ok {
			return nil, false, err
		}
		if !change(r) {
			return r, true, nil
		}
		r.LastUpdatedAt = m.now()
		data, err := json.Marshal(r)
		if err != nil {
			return nil, false, err
		}
		tr.Data, tr.Expires = data, r.LastUpdatedAt.Add(m.ttl())
		done, err := m.Store.SwapTask(ctx, tr)
		if err != nil {
			return nil, false, err
		}
		if done {
			return r, true, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, false, err
		}
	}
}

// protocolError turns a handler's error into the JSON-RPC error a failed
// task carries.
func protocolError(err error) *wireError {
	var je *jsonrpc.Error
	if e, ok := err.(*jsonrpc.Error); ok {
		je = e
	}
	if je == nil {
		return &wireError{Code: jsonrpc.CodeInternalError, Message: "internal error: the tool failed"}
	}
	return &wireError{Code: je.Code, Message: je.Message, Data: je.Data}
}
