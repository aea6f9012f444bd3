package tooldef

// TaskSupport says whether a tool may run as an MCP task (the
// io.modelcontextprotocol/tasks extension, SEP-2663): a call from a client
// that declares the extension then answers at once with the task, and the
// work goes on after the request ends, its state in the store so any
// replica answers tasks/get. A client that does not declare it gets the
// answer inline, as from any tool.
type TaskSupport struct {
	// Mode is "" (never a task), TaskOptional or TaskRequired (a client
	// without the extension is refused with -32021 before the tool runs).
	Mode string
	// AfterInput keeps a call inline while the tool asks the client for
	// input (SEP-2322 input requests answered by a retried call); the
	// task begins with the call that carries the answers.
	AfterInput bool
}

// The task support modes, as SEP-2663 names them.
const (
	TaskOptional = "optional"
	TaskRequired = "required"
)

// Runs reports whether the tool may run as a task at all.
func (s TaskSupport) Runs() bool { return s.Mode == TaskOptional || s.Mode == TaskRequired }
