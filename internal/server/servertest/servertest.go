// Package servertest runs a whole ghgate against the emulator for tests:
// every upstream response is checked against GitHub's OpenAPI description,
// every upstream request is counted, and tools are called over a real MCP
// client session.
package servertest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/caller"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Options shape the environment; the zero value is alice on the demo seed
// with the default toolsets.
type Options struct {
	Emulator            emulator.Options
	Token               string // default emulator.DemoTokenAlice; "-" for none
	Toolsets            []string
	ReadOnly            bool
	AllowedIssueCreator string
	// SyncRoot allows local mirrors under it (github_sync_issues).
	SyncRoot string
	// Releases are the operator's release conventions (reports).
	Releases toolkit.ReleaseSettings
	// Tiers are the operator's repository tiers (reports' classify).
	Tiers          tiers.Rules
	StorePath      string
	MaxReadRetries int
	RateFloor      int
	// Emu, when set, is an emulator already running (another replica's):
	// this environment then shares it instead of starting its own.
	Emu *emulatortest.Server
	// Wrap runs around every tool call, as a deployment's does (see
	// AsCaller).
	Wrap tooldef.Wrapper
	// Caller, when set, is the identity every tool call carries, as an
	// HTTP client's or a broker peer's would (caller.With).
	Caller *caller.Identity
	// Policy is the write policy; PolicyShared serves it as to an HTTP
	// client (mentions neutralised by default).
	Policy       policy.Rules
	PolicyShared bool
	// Lockdown is the rule on strangers' text and what the server lists
	// of it (server.StackOptions).
	Lockdown server.LockdownOptions
}

// AsCaller is a Wrap that runs every call as id, as the HTTP guard runs
// a client's calls: its grant bounds what the tools show.
func AsCaller(id caller.Identity) tooldef.Wrapper {
	return func(ctx context.Context, _ tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		return next(caller.With(ctx, id))
	}
}

// Env is a running ghgate and its emulator.
type Env struct {
	Emu     *emulatortest.Server
	Stack   *server.Stack
	Session *mcp.ClientSession

	mu       sync.Mutex
	upstream []string
	answers  []string

	// schemas are ghgate://schemas as this session last read them (see
	// conform).
	schemas schemaCache
}

// Start assembles the environment; everything stops when the test ends.
func Start(t testing.TB, o Options) *Env {
	t.Helper()
	env := &Env{Emu: o.Emu}
	if env.Emu == nil {
		env.Emu = emulatortest.Start(t, o.Emulator)
	}
	token := o.Token
	switch token {
	case "":
		token = emulator.DemoTokenAlice
	case "-":
		token = ""
	}
	client := env.Emu.Client()
	client.Transport = &counting{next: client.Transport, env: env}
	st, err := server.NewStack(context.Background(), server.StackOptions{BaseURL: env.Emu.URL, Token: token,
		StorePath: o.StorePath, Toolsets: o.Toolsets, ReadOnly: o.ReadOnly, AllowedIssueCreator: o.AllowedIssueCreator,
		SyncRoot: o.SyncRoot, Releases: o.Releases, Tiers: o.Tiers, HTTPClient: client, MaxReadRetries: o.MaxReadRetries, RateFloor: o.RateFloor,
		Wrap: o.wrap(t), Policy: o.Policy, PolicyShared: o.PolicyShared, Lockdown: o.Lockdown,
		// Every result is also checked on the server, against the schema
		// its type gives, before it is sent (conform checks what the
		// client receives against what ghgate://schemas publishes).
		CheckOutputs: true})
	if err != nil {
		t.Fatalf("server.NewStack: %v", err)
	}
	t.Cleanup(func() { _ = st.Close() })
	env.Stack = st
	env.Session = Connect(t, st.Server.MCP)
	return env
}

// withCaller attaches id to every tool call; nil attaches nothing.
// wrap is the Wrap every call goes through: Wrap, or AsCaller(Caller).
func (o Options) wrap(t testing.TB) tooldef.Wrapper {
	if o.Caller == nil {
		return o.Wrap
	}
	if o.Wrap != nil {
		t.Fatal("servertest: set Wrap or Caller, not both")
	}
	return AsCaller(*o.Caller)
}

// Connect opens an in-memory MCP client session to m.
func Connect(t testing.TB, m *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := m.Connect(ctx, sTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "servertest", Version: "0"}, nil).Connect(ctx, cTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	return cs
}

type counting struct {
	next http.RoundTripper
	env  *Env
}

func (c *counting) RoundTrip(req *http.Request) (*http.Response, error) {
	c.env.mu.Lock()
	c.env.upstream = append(c.env.upstream, req.Method+" "+req.URL.Path)
	c.env.mu.Unlock()
	resp, err := c.next.RoundTrip(req)
	status := 0
	if err == nil {
		status = resp.StatusCode
	}
	c.env.mu.Lock()
	c.env.answers = append(c.env.answers, fmt.Sprintf("%s %s %d", req.Method, req.URL.RequestURI(), status))
	c.env.mu.Unlock()
	return resp, err
}

// Answered returns the upstream requests answered since the last call,
// as "METHOD /path?query STATUS" (0: no answer), and resets the record.
func (e *Env) Answered() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.answers
	e.answers = nil
	return out
}

// Upstream returns the upstream requests made since the last call, as
// "METHOD /path", and resets the record.
func (e *Env) Upstream() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.upstream
	e.upstream = nil
	return out
}

// Result is a tool call's outcome as the client saw it.
type Result struct {
	IsError bool
	// JSON is structuredContent, byte for byte as the text block carries it.
	JSON json.RawMessage
}

// Decode unmarshals the result into v.
func (r Result) Decode(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.JSON, v); err != nil {
		t.Fatalf("decoding %s: %v", r.JSON, err)
	}
}

// Envelope decodes an error result's envelope, failing if it is not one.
func (r Result) Envelope(t testing.TB) contract.Error {
	t.Helper()
	if !r.IsError {
		t.Fatalf("expected an error result, got %s", r.JSON)
	}
	var e contract.Error
	r.Decode(t, &e)
	if e.Code == "" || !contract.Known(e.Code) {
		t.Fatalf("envelope without a known code: %s", r.JSON)
	}
	return e
}

// Call calls a tool with args (marshalled to JSON; a [json.RawMessage] or
// string is sent as it is) and checks the contract's invariants on the
// wire: the text block is the same JSON as structuredContent, and that
// JSON conforms to the schema ghgate://schemas publishes for the answer
// (see conform).
func (e *Env) Call(t testing.TB, tool string, args any) Result {
	t.Helper()
	raw := rawArgs(t, args)
	res, err := e.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: raw})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return answer(t, e.Session, &e.schemas, tool, raw, res)
}

// CallOn is Call on a session of the test's own (a client that can ask
// its user, say), to a server of its own or the Env's.
func CallOn(t testing.TB, cs *mcp.ClientSession, tool string, args any) Result {
	t.Helper()
	raw := rawArgs(t, args)
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: raw})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	return answer(t, cs, &schemaCache{}, tool, raw, res)
}

// Answer checks a result that a test got by itself on session cs (as
// another client, with a progress token, from calls made at once) as
// Call checks its own, against the schemas cs is served, and returns it.
// args are the call's arguments, as Call takes them.
func Answer(t testing.TB, cs *mcp.ClientSession, tool string, args any, res *mcp.CallToolResult) Result {
	t.Helper()
	return answer(t, cs, &schemaCache{}, tool, rawArgs(t, args), res)
}

// rawArgs is a call's arguments as sent: JSON already encoded (a
// [json.RawMessage], []byte or string) as it is, anything else marshalled.
func rawArgs(t testing.TB, args any) json.RawMessage {
	t.Helper()
	switch a := args.(type) {
	case json.RawMessage:
		return a
	case []byte:
		return json.RawMessage(a)
	case string:
		return json.RawMessage(a)
	}
	b, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// answer checks res on the wire: one text block, the same JSON as
// structuredContent, conforming to its published schema.
func answer(t testing.TB, cs *mcp.ClientSession, schemas *schemaCache, tool string, raw json.RawMessage, res *mcp.CallToolResult) Result {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("%s: %d content blocks, want 1", tool, len(res.Content))
	}
	text, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s: content is %T, want text", tool, res.Content[0])
	}
	sc, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if !sameJSON(sc, []byte(text.Text)) {
		t.Fatalf("%s: text block and structuredContent differ:\ntext: %s\nsc:   %s", tool, text.Text, sc)
	}
	out := Result{IsError: res.IsError, JSON: json.RawMessage(text.Text)}
	schemas.conform(t, cs, tool, raw, out)
	if res.IsError {
		checkEcho(t, tool, raw, out.JSON)
	}
	return out
}

func sameJSON(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

// CallOK makes a call that must succeed and decodes its result as Out.
func CallOK[Out any](t testing.TB, env *Env, tool string, args any) Out {
	t.Helper()
	res := env.Call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s(%+v): %s", tool, args, res.JSON)
	}
	var out Out
	res.Decode(t, &out)
	return out
}

// Refused makes a call that must fail and checks its envelope as an agent
// meets it: a catalogued code, retry_after_ms present (even when null), a
// request id, the fingerprint and a message.
func Refused(t testing.TB, env *Env, tool string, args any) contract.Error {
	t.Helper()
	res := env.Call(t, tool, args)
	e := res.Envelope(t)
	var raw map[string]json.RawMessage
	res.Decode(t, &raw)
	if _, ok := raw["retry_after_ms"]; !ok {
		t.Errorf("retry_after_ms missing: %s", res.JSON)
	}
	if !strings.HasPrefix(e.RequestID, "ghg_") || e.Fingerprint == "" || e.Message == "" {
		t.Errorf("request_id, fingerprint or message missing: %s", res.JSON)
	}
	return e
}
