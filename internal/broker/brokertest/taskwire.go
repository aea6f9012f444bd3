package brokertest

import (
	"encoding/json"
	"fmt"

	"github.com/ghgate/ghgate/internal/tasks"
)

// The JSON-RPC lines of a client that runs tools as MCP tasks, for tests
// that speak to the socket (or a bridge) line by line.

// TaskInitLine opens a session whose client declares the tasks extension.
const TaskInitLine = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",` +
	`"capabilities":{"extensions":{"` + tasks.Extension + `":{}}},"clientInfo":{"name":"raw","version":"0"}}}`

// InitializedLine completes the handshake.
const InitializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`

// CallLine is a tools/call request line.
func CallLine(id int, tool string, args any) string {
	return line(id, "tools/call", map[string]any{"name": tool, "arguments": args})
}

// TaskMethodLine is a tasks/get, tasks/update (with no answers) or
// tasks/cancel request line for a task.
func TaskMethodLine(id int, method, taskID string) string {
	params := map[string]any{"taskId": taskID}
	if method == "tasks/update" {
		params["inputResponses"] = map[string]any{}
	}
	return line(id, method, params)
}

func line(id int, method string, params any) string {
	b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	if err != nil {
		panic(fmt.Sprintf("brokertest: encoding a %s line: %v", method, err))
	}
	return string(b)
}

// Reply is an answer to a tools/call or a tasks/* request: a task, or a
// JSON-RPC error carrying the contract's envelope.
type Reply struct {
	ID     json.RawMessage `json:"id"`
	Result struct {
		ResultType string `json:"resultType"`
		TaskID     string `json:"taskId"`
		Status     string `json:"status"`
	} `json:"result"`
	Error *ReplyError `json:"error"`
}

// ReplyError is a JSON-RPC error with the envelope in its data.
type ReplyError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
	Data    struct {
		Code         string `json:"code"`
		RetryAfterMS *int64 `json:"retry_after_ms"`
		Repair       *struct {
			NextStep string `json:"next_step"`
		} `json:"repair"`
	} `json:"data"`
}

// Task is the id of the task the reply started, "" when it started none.
func (r Reply) Task() string {
	if r.Error != nil || r.Result.ResultType != "task" {
		return ""
	}
	return r.Result.TaskID
}

// RateLimited reports whether the reply is a refusal by a limit.
func (r Reply) RateLimited() bool { return r.Error != nil && r.Error.Data.Code == "rate_limited" }

// ParseReply decodes one answer line.
func ParseReply(line []byte) (Reply, error) {
	var r Reply
	err := json.Unmarshal(line, &r)
	return r, err
}
