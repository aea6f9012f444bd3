// Package conformance holds the MCP conformance suites' fixtures: the
// tools, prompts and resources the suites' scenarios call by name
// (test_simple_text, test://static-text, slow_compute, …), written from
// what each scenario says it must return. They are served only by the
// test-only build of ghgate (go build -tags conformance, flag
// --conformance-fixtures), on ghgate's own stack: the same HTTP handler,
// auth, wrapper and tasks middleware as its own tools. ghgate as released
// does not import this package.
package conformance

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"time"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Fixtures is one set of fixtures; its request-state key signs the state
// the input-required tools hand the client between rounds.
type Fixtures struct {
	state stateSigner
}

// New makes the fixtures with a fresh signing key.
func New() *Fixtures { return &Fixtures{state: newStateSigner()} }

// Apply adds the fixtures to a stack's options: tools as extra tools
// (through the stack's wrapper, and the tasks middleware for those that
// opt in), prompts and resources through Register.
func (f *Fixtures) Apply(o *server.StackOptions) {
	o.Extra = append(o.Extra, f.Tools()...)
	prev := o.Register
	o.Register = func(m *mcp.Server) {
		if prev != nil {
			prev(m)
		}
		registerPrompts(m, f)
		registerResources(m)
	}
}

// Names are the fixture tools', prompts' and resources' names: none may
// be served by ghgate as released.
func (f *Fixtures) Names() []string {
	var out []string
	for _, t := range f.Tools() {
		out = append(out, t.Def.Name)
	}
	return append(out, promptNames...)
}

var noArgs = json.RawMessage(`{"type":"object","properties":{}}`)

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}

func tool(name, desc string, schema json.RawMessage, h mcp.ToolHandler) server.Extra {
	if schema == nil {
		schema = noArgs
	}
	return server.Extra{Def: &mcp.Tool{Name: name, Description: desc, InputSchema: schema}, Handler: h, Mode: tooldef.Read}
}

// Tools are the fixture tools.
func (f *Fixtures) Tools() []server.Extra {
	out := []server.Extra{
		tool("test_simple_text", "Returns simple text", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("This is a simple text response for testing."), nil
		}),
		tool("test_image_content", "Returns a PNG image", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"}}}, nil
		}),
		tool("test_audio_content", "Returns a WAV sound", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.AudioContent{Data: silence, MIMEType: "audio/wav"}}}, nil
		}),
		tool("test_embedded_resource", "Returns an embedded resource", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{
				URI: "test://embedded-resource", MIMEType: "text/plain", Text: "This is an embedded resource content."}}}}, nil
		}),
		tool("test_multiple_content_types", "Returns text, an image and a resource", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{
				&mcp.TextContent{Text: "Multiple content types test:"},
				&mcp.ImageContent{Data: redPixel, MIMEType: "image/png"},
				&mcp.EmbeddedResource{Resource: &mcp.ResourceContents{URI: "test://mixed-content-resource", MIMEType: "application/json", Text: `{"test":"data","value":123}`}},
			}}, nil
		}),
		tool("test_tool_with_logging", "Logs three messages while it runs", nil, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			for i, msg := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
				if i > 0 && !sleep(ctx, 50*time.Millisecond) {
					return nil, ctx.Err()
				}
				_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: msg})
			}
			return text("Logging test completed"), nil
		}),
		tool("test_tool_with_progress", "Reports progress 0, 50, 100 of 100", nil, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			tok := req.Params.GetProgressToken()
			for i, p := range []float64{0, 50, 100} {
				if i > 0 && !sleep(ctx, 50*time.Millisecond) {
					return nil, ctx.Err()
				}
				if tok != nil {
					_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: tok, Progress: p, Total: 100})
				}
			}
			return text("Progress test completed"), nil
		}),
		tool("test_error_handling", "Always fails", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			r := text("This tool intentionally returns an error for testing")
			r.IsError = true
			return r, nil
		}),
		{Def: &mcp.Tool{Name: "json_schema_2020_12_tool", Description: "Tool with JSON Schema 2020-12 features", InputSchema: schema202012},
			Handler: func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return text("received " + string(req.Params.Arguments)), nil
			}, Mode: tooldef.Read},
		tool("test_x_mcp_header", "Echoes a parameter the client also sends as the Mcp-Param-Region header",
			json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}},"required":["region"]}`),
			func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				var in struct {
					Region string `json:"region"`
				}
				if err := json.Unmarshal(req.Params.Arguments, &in); err != nil {
					return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "region must be a string"}
				}
				return text("region=" + in.Region), nil
			}),
	}
	out = append(out, serverToClientTools()...)
	out = append(out, statelessTools()...)
	out = append(out, f.inputRequiredTools()...)
	return append(out, taskTools()...)
}

// sleep waits d or until ctx ends; false if it ended.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// redPixel is a 1×1 red PNG; silence a tenth of a second of 8 kHz mono
// 16-bit WAV.
var redPixel, silence = pngPixel(), wavSilence()

func pngPixel() []byte {
	img := image.NewRGBA(image.Rect(0, 0, 1, 1))
	img.Set(0, 0, color.RGBA{R: 255, A: 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(fmt.Sprintf("conformance: encoding a 1x1 PNG: %v", err)) // cannot happen: an in-memory buffer
	}
	return b.Bytes()
}

func wavSilence() []byte {
	const rate, samples = 8000, 800
	var b bytes.Buffer
	w := func(v any) { _ = binary.Write(&b, binary.LittleEndian, v) }
	b.WriteString("RIFF")
	w(uint32(36 + samples*2))
	b.WriteString("WAVEfmt ")
	w(uint32(16))
	w(uint16(1)) // PCM
	w(uint16(1)) // mono
	w(uint32(rate))
	w(uint32(rate * 2))
	w(uint16(2))
	w(uint16(16))
	b.WriteString("data")
	w(uint32(samples * 2))
	b.Write(make([]byte, samples*2))
	return b.Bytes()
}

var schema202012 = json.RawMessage(`{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "type": "object",
  "$defs": {"address": {"$anchor": "addressDef", "type": "object", "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
  "properties": {
    "name": {"type": "string"},
    "address": {"$ref": "#/$defs/address"},
    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
    "phone": {"type": "string"},
    "email": {"type": "string"}
  },
  "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
  "if": {"properties": {"contactMethod": {"const": "phone"}}, "required": ["contactMethod"]},
  "then": {"required": ["phone"]},
  "else": {"required": ["email"]},
  "additionalProperties": false
}`)
