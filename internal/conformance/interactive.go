package conformance

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serverToClientTools ask the client mid-call (sampling/createMessage,
// elicitation/create). Over stateless HTTP there is no session to carry
// such a request, so these answer with the SDK's refusal as a tool error.
func serverToClientTools() []server.Extra {
	prompt := json.RawMessage(`{"type":"object","properties":{"prompt":{"type":"string"}},"required":["prompt"]}`)
	message := json.RawMessage(`{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`)
	elicit := func(ctx context.Context, req *mcp.CallToolRequest, p *mcp.ElicitParams) (*mcp.CallToolResult, error) {
		res, err := req.Session.Elicit(ctx, p)
		if err != nil {
			r := text("elicitation failed: " + err.Error())
			r.IsError = true
			return r, nil
		}
		content, _ := json.Marshal(res.Content)
		return text(fmt.Sprintf("Elicitation completed: action=%s, content=%s", res.Action, content)), nil
	}
	return []server.Extra{
		tool("test_sampling", "Asks the client's LLM", prompt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Prompt string `json:"prompt"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &in)
			res, err := req.Session.CreateMessage(ctx, &mcp.CreateMessageParams{MaxTokens: 100,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: in.Prompt}}}})
			if err != nil {
				r := text("sampling failed: " + err.Error())
				r.IsError = true
				return r, nil
			}
			reply := ""
			if t, ok := res.Content.(*mcp.TextContent); ok {
				reply = t.Text
			}
			return text("LLM response: " + reply), nil
		}),
		tool("test_elicitation", "Asks the user", message, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Message string `json:"message"`
			}
			_ = json.Unmarshal(req.Params.Arguments, &in)
			return elicit(ctx, req, &mcp.ElicitParams{Message: in.Message, RequestedSchema: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{"username": {Type: "string", Description: "User's response"}, "email": {Type: "string", Description: "User's email address"}},
				Required:   []string{"username", "email"}}})
		}),
		tool("test_elicitation_sep1034_defaults", "Asks the user, with defaults", nil, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return elicit(ctx, req, &mcp.ElicitParams{Message: "Please review your details", RequestedSchema: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"name":     {Type: "string", Default: json.RawMessage(`"John Doe"`)},
					"age":      {Type: "integer", Default: json.RawMessage(`30`)},
					"score":    {Type: "number", Default: json.RawMessage(`95.5`)},
					"status":   {Type: "string", Enum: []any{"active", "inactive", "pending"}, Default: json.RawMessage(`"active"`)},
					"verified": {Type: "boolean", Default: json.RawMessage(`true`)},
				}}})
		}),
		tool("test_elicitation_sep1330_enums", "Asks the user to choose", nil, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return elicit(ctx, req, &mcp.ElicitParams{Message: "Choose", RequestedSchema: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{
					"untitledSingle": {Type: "string", Enum: []any{"option1", "option2", "option3"}},
					"titledSingle":   {Type: "string", OneOf: []*jsonschema.Schema{{Const: ptr[any]("value1"), Title: "First Option"}, {Const: ptr[any]("value2"), Title: "Second Option"}}},
					"untitledMulti":  {Type: "array", Items: &jsonschema.Schema{Type: "string", Enum: []any{"option1", "option2", "option3"}}},
					"titledMulti":    {Type: "array", Items: &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Const: ptr[any]("value1"), Title: "First Choice"}, {Const: ptr[any]("value2"), Title: "Second Choice"}}}},
				}}})
		}),
	}
}

func ptr[T any](v T) *T { return &v }

// statelessTools are the 2026-07-28 server-stateless scenario's
// diagnostics.
func statelessTools() []server.Extra {
	return []server.Extra{
		// Needs the sampling capability; a request that does not declare
		// it is refused with -32021 before anything runs.
		tool("test_missing_capability", "Needs the client's sampling capability", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if c := req.ClientCapabilities(); c != nil && c.Sampling != nil {
				return text("sampling declared: the tool ran"), nil
			}
			data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"sampling": map[string]any{}}})
			return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities, Message: "this tool needs the sampling capability", Data: data}
		}),
		// Answers with its result only: a 2026-07-28 server sends no
		// request of its own on a request's stream.
		tool("test_streaming_elicitation", "Answers on the request's stream with its result only", nil, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return text("result only: no server-to-client request on this stream"), nil
		}),
		// Logs; the SDK sends the message only when the request set a log
		// level in its _meta.
		tool("test_logging_tool", "Logs one message", nil, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Data: "test_logging_tool ran"})
			return text("logged (if the request asked for logs)"), nil
		}),
	}
}

// stateSigner signs the requestState the input-required tools hand out,
// so a state the client altered is refused (SEP-2322: an unauthenticated
// server must sign and verify it).
type stateSigner struct{ key []byte }

func newStateSigner() stateSigner {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return stateSigner{key: k}
}

func (s stateSigner) sign(v string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(v))
	return base64.RawURLEncoding.EncodeToString([]byte(v)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// open returns the signed value, or ok=false for a state this server did
// not sign.
func (s stateSigner) open(state string) (string, bool) {
	body, sig, found := strings.Cut(state, ".")
	if !found {
		return "", false
	}
	v, err1 := base64.RawURLEncoding.DecodeString(body)
	got, err2 := base64.RawURLEncoding.DecodeString(sig)
	if err1 != nil || err2 != nil {
		return "", false
	}
	m := hmac.New(sha256.New, s.key)
	m.Write(v)
	if !hmac.Equal(got, m.Sum(nil)) {
		return "", false
	}
	return string(v), true
}

func badState() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState was not issued by this server (altered or forged)"}
}

func objectSchema(props ...string) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{}, Required: props}
	for _, p := range props {
		s.Properties[p] = &jsonschema.Schema{Type: "string"}
	}
	return s
}

func askName() *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: "What is your name?", RequestedSchema: objectSchema("name")}
}

// accepted is the content of an accepted elicitation answer under key.
func accepted(r mcp.InputResponseMap, key string) map[string]any {
	e, ok := r[key].(*mcp.ElicitResult)
	if !ok || e == nil || e.Action != "accept" {
		return nil
	}
	return e.Content
}

func sampled(r mcp.InputResponseMap, key string) (string, bool) {
	res, ok := r[key].(*mcp.CreateMessageWithToolsResult)
	if !ok || res == nil {
		return "", false
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			return t.Text, true
		}
	}
	return "", true
}

func askGreeting(q string) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{MaxTokens: 50, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: q}}}}
}

func needs(reqs mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}
}

// inputRequiredTools ask for input by answering with input requests and
// take the answers in the retried call (SEP-2322), stateless.
func (f *Fixtures) inputRequiredTools() []server.Extra {
	st := f.state
	return []server.Extra{
		tool("test_input_required_result_elicitation", "Asks for a name, then greets", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if name, _ := accepted(req.Params.InputResponses, "user_name")["name"].(string); name != "" {
				return text("Hello, " + name + "!"), nil
			}
			return needs(mcp.InputRequestMap{"user_name": askName()}, ""), nil
		}),
		tool("test_input_required_result_sampling", "Asks the client's LLM", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if t, ok := sampled(req.Params.InputResponses, "capital_question"); ok {
				return text("Sampling response: " + t), nil
			}
			return needs(mcp.InputRequestMap{"capital_question": &mcp.CreateMessageParams{MaxTokens: 100,
				Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "What is the capital of France?"}}}}}, ""), nil
		}),
		tool("test_input_required_result_list_roots", "Asks for the client's roots", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if r, ok := req.Params.InputResponses["client_roots"].(*mcp.ListRootsResult); ok && r != nil {
				uris := make([]string, 0, len(r.Roots))
				for _, root := range r.Roots {
					uris = append(uris, root.URI)
				}
				return text(fmt.Sprintf("%d root(s): %s", len(r.Roots), strings.Join(uris, ", "))), nil
			}
			return needs(mcp.InputRequestMap{"client_roots": &mcp.ListRootsParams{}}, ""), nil
		}),
		tool("test_input_required_result_request_state", "Asks for a confirmation, keeping a signed state", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if accepted(req.Params.InputResponses, "confirm") != nil {
				if v, ok := st.open(req.Params.RequestState); !ok || v != "confirm" {
					return nil, badState()
				}
				return text("state-ok: requestState received and confirmation accepted"), nil
			}
			return needs(mcp.InputRequestMap{"confirm": &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{"ok": {Type: "boolean"}}, Required: []string{"ok"}}}}, st.sign("confirm")), nil
		}),
		tool("test_input_required_result_multiple_inputs", "Asks for a name, a greeting and the roots at once", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := req.Params.InputResponses
			name, _ := accepted(in, "user_name")["name"].(string)
			greeting, hasGreeting := sampled(in, "greeting")
			roots, hasRoots := in["client_roots"].(*mcp.ListRootsResult)
			if name != "" && hasGreeting && hasRoots && roots != nil {
				return text(fmt.Sprintf("%s %s (%d roots)", greeting, name, len(roots.Roots))), nil
			}
			return needs(mcp.InputRequestMap{"user_name": askName(), "greeting": askGreeting("Generate a greeting"),
				"client_roots": &mcp.ListRootsParams{}}, st.sign("multiple")), nil
		}),
		tool("test_input_required_result_multi_round", "Asks twice, carrying the first answer in a signed state", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState == "" {
				return needs(mcp.InputRequestMap{"step1": &mcp.ElicitParams{Message: "Step 1: What is your name?", RequestedSchema: objectSchema("name")}}, st.sign("round1")), nil
			}
			v, ok := st.open(req.Params.RequestState)
			if !ok {
				return nil, badState()
			}
			if v == "round1" {
				name, _ := accepted(req.Params.InputResponses, "step1")["name"].(string)
				return needs(mcp.InputRequestMap{"step2": &mcp.ElicitParams{Message: "Step 2: What is your favorite color?", RequestedSchema: objectSchema("color")}},
					st.sign("round2:"+name)), nil
			}
			name, found := strings.CutPrefix(v, "round2:")
			if !found {
				return nil, badState()
			}
			color, _ := accepted(req.Params.InputResponses, "step2")["color"].(string)
			return text(fmt.Sprintf("Multi-round complete: %s likes %s", name, color)), nil
		}),
		tool("test_input_required_result_tampered_state", "Refuses an altered requestState", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState != "" {
				if v, ok := st.open(req.Params.RequestState); !ok || v != "tamper-check" {
					return nil, badState()
				}
				if accepted(req.Params.InputResponses, "confirm") != nil {
					return text("state-ok: requestState received and confirmation accepted"), nil
				}
			}
			return needs(mcp.InputRequestMap{"confirm": &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: &jsonschema.Schema{Type: "object",
				Properties: map[string]*jsonschema.Schema{"ok": {Type: "boolean"}}, Required: []string{"ok"}}}}, st.sign("tamper-check")), nil
		}),
		tool("test_input_required_result_capabilities", "Asks only for what the client declared it can give", nil, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return text("Capability-aware input requests fulfilled"), nil
			}
			c := req.ClientCapabilities()
			reqs := mcp.InputRequestMap{}
			if c != nil && c.Elicitation != nil {
				reqs["user_name"] = askName()
			}
			if c != nil && c.Sampling != nil {
				reqs["greeting"] = askGreeting("Generate a short greeting")
			}
			if c != nil && (c.RootsV2 != nil || c.Roots.ListChanged) {
				reqs["client_roots"] = &mcp.ListRootsParams{}
			}
			if len(reqs) == 0 {
				return text("The client declared no capability that could answer an input request"), nil
			}
			return needs(reqs, ""), nil
		}),
	}
}
