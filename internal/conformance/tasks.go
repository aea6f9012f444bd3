package conformance

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// taskTools are the tasks extension scenarios' fixtures (SEP-2663).
func taskTools() []server.Extra {
	optional := tooldef.TaskSupport{Mode: tooldef.TaskOptional}
	required := tooldef.TaskSupport{Mode: tooldef.TaskRequired}
	withTask := func(x server.Extra, t tooldef.TaskSupport) server.Extra { x.Task = t; return x }
	return []server.Extra{
		tool("greet", "Greets, at once (never a task)", json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in struct {
					Name string `json:"name"`
				}
				_ = json.Unmarshal(req.Params.Arguments, &in)
				return text("Hello, " + in.Name + "!"), nil
			}),
		withTask(tool("slow_compute", "Sleeps the seconds given, then answers; a task where the client allows",
			json.RawMessage(`{"type":"object","properties":{"seconds":{"type":"number","minimum":0,"maximum":600},"label":{"type":"string"}}}`),
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in struct {
					Seconds float64 `json:"seconds"`
					Label   string  `json:"label"`
				}
				_ = json.Unmarshal(req.Params.Arguments, &in)
				// Cancelled, it stops: the task is already recorded as
				// cancelled, and what it returns now is dropped.
				if !sleep(ctx, time.Duration(in.Seconds*float64(time.Second))) {
					return nil, ctx.Err()
				}
				return text(fmt.Sprintf("computed %s after %gs", in.Label, in.Seconds)), nil
			}), optional),
		withTask(tool("failing_job", "Fails as a tool after about a second; only ever a task", nil,
			func(ctx context.Context, _ *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if !sleep(ctx, time.Second) {
					return nil, ctx.Err()
				}
				r := text("failing_job failed, as it always does")
				r.IsError = true
				return r, nil
			}), required),
		// Panics: the task fails with a protocol error (-32603) and the
		// server goes on. Only ever a task, so no inline call panics.
		withTask(tool("protocol_error_job", "Panics; only ever a task", nil,
			func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				panic("protocol_error_job: a deliberate failure")
			}), required),
		withTask(tool("confirm_delete", "Asks for a confirmation, then answers",
			json.RawMessage(`{"type":"object","properties":{"filename":{"type":"string"}},"required":["filename"]}`),
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in struct {
					Filename string `json:"filename"`
				}
				_ = json.Unmarshal(req.Params.Arguments, &in)
				if r, ok := req.Params.InputResponses["confirm"].(*mcp.ElicitResult); ok && r != nil {
					if ok, _ := r.Content["confirm"].(bool); r.Action == "accept" && ok {
						return text("deleted " + in.Filename + " (nothing was deleted: a fixture)"), nil
					}
					return text("kept " + in.Filename), nil
				}
				return needs(mcp.InputRequestMap{"confirm": &mcp.ElicitParams{Message: "Delete " + in.Filename + "?",
					RequestedSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"confirm": {Type: "boolean"}}, Required: []string{"confirm"}}}}, ""), nil
			}), optional),
		withTask(tool("multi_input", "Asks two questions at once, then answers", nil,
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				first, _ := accepted(req.Params.InputResponses, "first")["name"].(string)
				second, _ := accepted(req.Params.InputResponses, "second")["name"].(string)
				if first != "" && second != "" {
					return text("got " + first + " and " + second), nil
				}
				return needs(mcp.InputRequestMap{
					"first":  &mcp.ElicitParams{Message: "First name?", RequestedSchema: objectSchema("name")},
					"second": &mcp.ElicitParams{Message: "Second name?", RequestedSchema: objectSchema("name")},
				}, ""), nil
			}), optional),
		// Asks for a name inline (SEP-2322), then runs as a task with it.
		withTask(tool("test_tool_with_task", "Asks for a name, then greets as a task", nil,
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				if name, _ := accepted(req.Params.InputResponses, "user_name")["name"].(string); name != "" {
					return text("Hello, " + name + ", from a task"), nil
				}
				return needs(mcp.InputRequestMap{"user_name": askName()}, ""), nil
			}), tooldef.TaskSupport{Mode: tooldef.TaskOptional, AfterInput: true}),
	}
}
