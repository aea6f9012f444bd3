// Package tooldef turns a typed Go function into an MCP tool that obeys
// ghgate's contract: schemas inferred from the input and output types,
// arguments checked field by field into an invalid_field envelope, failures
// returned as isError results carrying the envelope in structuredContent,
// successes sent as compact JSON (and, in tests, validated against the
// output schema: Env.CheckOutputs).
//
// The SDK's own generic [mcp.AddTool] reports argument errors as plain text
// and replaces structuredContent with the marshalled output, so it cannot
// carry the envelope; this package registers through the low-level
// Server.AddTool instead.
package tooldef

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"reflect"
	"runtime/debug"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Mode says whether a tool only reads or also writes.
type Mode string

const (
	Read  Mode = "read"
	Write Mode = "write"
)

// Tool describes one tool: a typed input, a typed output and a function.
type Tool[In, Out any] struct {
	Name string
	// Toolset names the group the tool is offered in; servers select
	// tools by it.
	Toolset     string
	Title       string
	Description string
	Mode        Mode
	// Destructive marks writes that can remove or overwrite data;
	// Idempotent marks writes that have no further effect when repeated.
	Destructive bool
	Idempotent  bool
	// LocalWrites marks a tool that reads GitHub (Mode Read: a read
	// credential serves it) but writes files on this machine: it is not
	// announced read-only, and Destructive says whether it removes any.
	LocalWrites bool
	// Input adjusts the inferred input schema. ghgate's own tools leave it
	// nil: their field types state ranges and enums (SelfDescribing), so
	// no schema is edited by property name.
	Input func(s *jsonschema.Schema)
	// Keep names output fields written even when empty (see Compact):
	// those whose absence would read as "not included" rather than "none".
	Keep []string
	// Outline names output fields tools/list describes one level down
	// (see outlineField): "relations" for every field of an object,
	// "items[]" for every field of each item, "issue.parent" for one.
	//
	// Every outlined field is paid for in the default tools/list's
	// 10,000 bytes, so a tool outlines only what an agent would otherwise
	// guess at: which way a relation points and what a count counts, and
	// what a write did beyond the fields it was given (the parent a create
	// linked). Fields whose names and types say it all, and rows an agent
	// sees in full in its first result (a search's summary row), stay in
	// the ghgate://schemas resource.
	Outline []string
	// Unlisted names top-level output fields tools/list leaves to the
	// ghgate://schemas resource because listing them tells an agent
	// nothing it lacks: an argument repeated back (the issue_number it
	// sent), a constant (link_issues' done, true on every success), or a
	// field only a Gated argument brings, which the capability summary
	// names where that argument's toolset is served.
	Unlisted []string
	// Gated names input fields that do another tool's work, field →
	// that tool's name: github_create_issue's project writes a board as
	// github_update_project_item does, github_get_issue's source reads
	// the mirror github_sync_issues keeps. A field is a path of property
	// names, so a nested one is gated too ("changes.project" on the bulk
	// edit). A server that does not serve that tool (its toolset off, or
	// the tool denied or left out by allow, or read-only for a write)
	// neither lists nor accepts the field, so the default tools/list pays
	// nothing for features it does not offer, a read of a toolset does
	// not bring its writes in by the back door, and a call naming the
	// field is refused like any unknown field, before anything runs.
	Gated map[string]string
	// Brief names input fields (objects) tools/list shows as an object
	// and its description only: a field that takes another tool's
	// arguments (a bulk edit takes github_update_issue's edits), whose
	// description names that tool's fields instead of repeating their
	// schema, or one whose description states its whole shape in fewer
	// bytes than its schema (github_update_issue's labels). Arguments are still checked against the full schema, so a
	// stray or invalid nested field is refused as invalid_field by name.
	Brief []string
	// Task lets a call run as an MCP task (see [TaskSupport]). The
	// reports (the reports toolset) opt in as [TaskOptional]: each reads
	// many pages, so a client may leave one running. Every other tool
	// leaves it zero and answers inline.
	Task TaskSupport
	Run  func(ctx context.Context, in In) (Out, error)
	// Preview, when set, is a write tool's dry run beyond its declared
	// writes: it reads what the call would read and plans with the
	// tool's own code, and says what each item would settle as and the
	// requests it would send. It must not write (it runs without the
	// admission the GitHub client asks of a write, so a write would be
	// refused). Its answer is the dry run's preview; its error is the
	// error the real call would give. Forecasts builds it.
	Preview *Forecast[In]
}

// ToolTaskSupport is whether the tool may run as an MCP task.
func (t Tool[In, Out]) ToolTaskSupport() TaskSupport { return t.Task }

// Validator is implemented by inputs with rules that span fields.
type Validator interface {
	Validate() *contract.Error
}

// Env carries what every tool call needs from the server around it.
type Env struct {
	Log *slog.Logger
	// MapError turns an error a tool returned into an envelope; errors that
	// are already envelopes are passed through before it is asked.
	MapError func(error) *contract.Error
	// Fingerprint identifies the whole tool surface; every envelope carries it.
	Fingerprint func() string
	// Wrap, when set, runs around every call (credential routing, audit).
	Wrap Wrapper
	// Serves reports whether the server serves a tool (by name); a
	// tool's Gated fields exist only when it does. Nil means every tool
	// is served.
	Serves func(tool string) bool
	// Redact, when set, removes credentials from an envelope's text
	// before it is sent: a message can quote what GitHub, an upstream or
	// a proxy answered, and that can carry a token.
	Redact func(string) string
	// Policy is the write path every write tool's call passes between
	// Validate and the run (see package policy); nil applies the defaults.
	Policy *policy.Path
	// Before, when set, reads the issue a write changes as it stands, for
	// a dry run to show beside what the write would make of it.
	Before func(ctx context.Context, t policy.Target) (*policy.IssueBefore, error)
	// CheckOutputs validates every result against the tool's output
	// schema before it is sent, and answers internal_error naming the
	// mismatch when it does not conform. Tests and CI set it (as does
	// CheckOutputsEnv in the environment); a production server leaves it
	// off: the output types are the contract, and the check would decode
	// every answer again.
	CheckOutputs bool
}

// CheckOutputsEnv is the environment variable that, set to 1, turns
// CheckOutputs on in every server the process builds (the e2e suites
// run `ghgate serve` with it).
const CheckOutputsEnv = "GHGATE_CHECK_OUTPUTS"

// checksOutputs reports whether results are validated before they are
// sent (see Env.CheckOutputs).
func (env *Env) checksOutputs() bool {
	return (env != nil && env.CheckOutputs) || os.Getenv(CheckOutputsEnv) == "1"
}

// Call describes a tool call to a Wrapper.
type Call struct {
	Tool      string
	Mode      Mode
	Arguments json.RawMessage
	// Unknown marks a call to a tool this server does not have at all;
	// it is answered with the protocol's error, and audited.
	Unknown bool
}

// Wrapper runs around a tool call: next runs the tool. The broker routes
// credentials and writes its audit line here.
type Wrapper func(ctx context.Context, call Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error)

// Spec is the type-erased form of a Tool, as toolsets hold them.
type Spec interface {
	ToolName() string
	ToolMode() Mode
	// ToolsetName is the toolset the tool belongs to.
	ToolsetName() string
	// Build returns the MCP tool definition and its handler.
	Build(env *Env) (*mcp.Tool, mcp.ToolHandler, error)
	// ToolTaskSupport is whether a call may run as an MCP task.
	ToolTaskSupport() TaskSupport
	// Schemas returns the full schemas: what arguments are checked
	// against, and what each kind of answer validates against (a result
	// is, before it is sent, where Env.CheckOutputs). tools/list carries a shorter form
	// of the input and output.
	Schemas() (Published, error)
}

// Schemas implements Spec.
func (t Tool[In, Out]) Schemas() (Published, error) {
	var p Published
	in, err := t.inputSchema()
	if err != nil {
		return p, err
	}
	out, err := t.resultSchema()
	if err != nil {
		return p, err
	}
	errMode := t.Mode
	if t.LocalWrites {
		errMode = Write // its failures say whether files were written (errorResult)
	}
	if p.Error, err = ErrorSchema(errMode); err != nil {
		return p, fmt.Errorf("tool %s: error schema: %w", t.Name, err)
	}
	p.Input, p.Output = in, out
	if t.Mode != Write {
		return p, nil
	}
	p.Input = withDryRun(in)
	if p.Output, err = withNeutralizedField(out); err != nil {
		return p, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	if p.DryRun, err = dryRunSchema(t.Preview); err != nil {
		return p, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	return p, nil
}

// resultSchema is the schema of what Run returns, as Compact writes it.
func (t Tool[In, Out]) resultSchema() (*jsonschema.Schema, error) {
	out, err := schemaFor(reflect.TypeFor[Out]())
	if err != nil {
		return nil, fmt.Errorf("tool %s: output schema: %w", t.Name, err)
	}
	for _, path := range t.Keep {
		if err := allowNull(out, path); err != nil {
			return nil, fmt.Errorf("tool %s: keep %s: %w", t.Name, path, err)
		}
	}
	return out, nil
}

func (t Tool[In, Out]) inputSchema() (*jsonschema.Schema, error) {
	in, err := schemaFor(reflect.TypeFor[In]())
	if err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	requireNonEmpty(in)
	if t.Input != nil {
		t.Input(in)
	}
	if err := defaultsFromTags(in); err != nil {
		return nil, fmt.Errorf("tool %s: input schema: %w", t.Name, err)
	}
	return in, nil
}

// ToolName implements Spec.
func (t Tool[In, Out]) ToolName() string { return t.Name }

// ToolMode implements Spec.
func (t Tool[In, Out]) ToolMode() Mode { return t.Mode }

// WritesLocally reports LocalWrites.
func (t Tool[In, Out]) WritesLocally() bool { return t.LocalWrites }

// Writes reports whether a tool writes anything: on GitHub (Mode Write)
// or on this machine (LocalWrites). A read-only server serves neither.
func Writes(s Spec) bool {
	if s.ToolMode() != Read {
		return true
	}
	lw, ok := s.(interface{ WritesLocally() bool })
	return ok && lw.WritesLocally()
}

// ToolsetName implements Spec.
func (t Tool[In, Out]) ToolsetName() string { return t.Toolset }

// Build implements Spec.
func (t Tool[In, Out]) Build(env *Env) (*mcp.Tool, mcp.ToolHandler, error) {
	full, err := t.Schemas()
	if err != nil {
		return nil, nil, err
	}
	in, out := full.Input, full.Output
	if in, err = gate(in, t.Gated, env.Serves); err != nil {
		return nil, nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	if t.Mode == Write {
		if _, ok := any(new(In)).(policy.Declarer); !ok {
			return nil, nil, fmt.Errorf("tool %s writes but its input does not declare its writes (policy.Declarer)", t.Name)
		}
	}
	check, err := newValidator(in)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %s: resolving input schema: %w", t.Name, err)
	}
	// The output schema is resolved only where results are checked
	// against it (tests): resolving it for nothing costs every start.
	var outResolved *jsonschema.Resolved
	if env.checksOutputs() {
		if outResolved, err = out.Resolve(nil); err != nil {
			return nil, nil, fmt.Errorf("tool %s: resolving output schema: %w", t.Name, err)
		}
	}
	result, err := t.resultSchema()
	if err != nil {
		return nil, nil, err
	}
	// A write's neutralized is left to ghgate://schemas, as the fields a
	// Gated argument brings are: it is in an answer only where the
	// outbound policy rewrote the text sent, and tools/list's output
	// schemas are open, so the listing stays true without it.
	published, err := publishedOutput(result, t.Outline, t.Unlisted)
	if err != nil {
		return nil, nil, fmt.Errorf("tool %s: %w", t.Name, err)
	}
	readOnly := t.Mode == Read && !t.LocalWrites
	// openWorldHint defaults to true and the destructive hint means
	// nothing for a read-only tool, so it is sent for writes only. On a
	// write it is sent even when true (the spec's default): a client that
	// does not apply defaults must not take an overwrite for an addition.
	// The SDK (since 1.7) always sends readOnlyHint and idempotentHint,
	// false or not, so they cannot be left to their defaults to save
	// bytes: a read says it is idempotent (repeating it changes nothing),
	// a write says so only when it is.
	// Title is the short name a client shows a person (GitHub's MCP server
	// sends it as annotations.title too, which every revision reads).
	// openWorldHint is sent, true, for the same reason as a write's
	// destructiveHint: every ghgate tool reads or writes GitHub, even
	// sync_issues, which writes local files from GitHub's answers, and a
	// client that does not apply the spec's default must not take one for
	// a tool of a closed world.
	ann := &mcp.ToolAnnotations{Title: t.Title, ReadOnlyHint: readOnly, IdempotentHint: readOnly || t.Idempotent, OpenWorldHint: ptr(true)}
	if !readOnly {
		ann.DestructiveHint = ptr(t.Destructive)
	}
	def := &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: publishedInput(in, t.Brief...), OutputSchema: published, Annotations: ann}

	run := func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		reqID := NewRequestID()
		fail := func(e *contract.Error) (*mcp.CallToolResult, error) {
			return t.errorResult(env, reqID, e), nil
		}
		var raw json.RawMessage
		if req != nil && req.Params != nil {
			raw = req.Params.Arguments
		}
		normalized, fe := check.checkNormalized(raw)
		if fe != nil {
			e := contract.Errorf(contract.CodeInvalidField, "%s", fe.String()).WithField(fe.Field, fe.Reason)
			if len(fe.Enum) > 0 {
				e.Details.Value = fe.Enum
			}
			e.Settlement = contract.NotStarted
			if fe.Unknown {
				if args, ok := withoutField(raw, fe.Field); ok {
					return fail(e.WithRepair(contract.Repair{NextStep: "call " + t.Name + " again without " + fe.Field, Tool: t.Name, Arguments: args}))
				}
			}
			return fail(e.WithRepair(contract.Repair{NextStep: "call " + t.Name + " again with " + fieldOrArguments(fe.Field) + " corrected", Tool: t.Name}))
		}
		var input In
		if len(normalized) > 0 && string(normalized) != "null" {
			if err := json.Unmarshal(normalized, &input); err != nil {
				// The schema accepted it, so what is left is a value its Go
				// type cannot hold (an integer too large, say). The reason
				// names the field, never the value sent.
				field := ""
				var te *json.UnmarshalTypeError
				if errors.As(err, &te) {
					field = te.Field
				}
				e := contract.Errorf(contract.CodeInvalidField, "%s does not fit its type", fieldOrArguments(field)).
					WithField(field, "does not fit its type: too large, or not a whole number")
				e.Settlement = contract.NotStarted
				return fail(e.WithRepair(contract.Repair{NextStep: "call " + t.Name + " again with " + fieldOrArguments(field) + " corrected", Tool: t.Name}))
			}
		}
		if v, ok := any(&input).(Validator); ok {
			if e := v.Validate(); e != nil {
				if e.Settlement == "" {
					e.Settlement = contract.NotStarted
				}
				if e.Repair == nil && e.Details != nil && e.Details.Field != "" {
					// A rule without a repair of its own still says what to fix.
					e.Repair = &contract.Repair{NextStep: "correct " + e.Details.Field + " (" + e.Details.Reason + ") and call again", Tool: t.Name}
				}
				return fail(e)
			}
		}
		ctx = env.policy().Reading(ctx, sessionOf(req))
		var neutralized policy.Neutralized
		if t.Mode == Write {
			adm, e := t.admit(ctx, env, req, &input, normalized)
			if e != nil {
				return fail(e)
			}
			if adm.result != nil {
				return adm.result, nil
			}
			ctx, neutralized = adm.ctx, adm.plan.Neutralized
		}
		output, err := t.safeRun(withRequestProgress(ctx, req), env, input)
		if err != nil {
			return fail(toEnvelope(env, err))
		}
		body, err := Compact(output, t.Keep...)
		if err != nil {
			return fail(internal(env, t.Name, fmt.Errorf("encoding output: %w", err)))
		}
		if outResolved != nil {
			if err := outResolved.Validate(decodeForValidation(body)); err != nil {
				// Only tests and CI check: the mismatch is named, so the
				// failing test says what the answer got wrong.
				internal(env, t.Name, fmt.Errorf("output does not match the output schema: %w", err))
				return fail(contract.Errorf(contract.CodeInternal, "the answer of %s does not match its output schema: %v", t.Name, err))
			}
		}
		body = withNeutralized(body, neutralized)
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
			StructuredContent: json.RawMessage(body),
		}, nil
	}
	handler := run
	if env.Wrap != nil {
		handler = func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args json.RawMessage
			if req != nil && req.Params != nil {
				args = req.Params.Arguments
			}
			return env.Wrap(ctx, Call{Tool: t.Name, Mode: t.Mode, Arguments: args},
				func(ctx context.Context) (*mcp.CallToolResult, error) { return run(ctx, req) })
		}
	}
	return def, handler, nil
}

// safeRun turns a panic in a tool into an internal error: no panic reaches
// a client.
func (t Tool[In, Out]) safeRun(ctx context.Context, env *Env, in In) (out Out, err error) {
	defer func() {
		if v := recover(); v != nil {
			env.log().Error("tool panic", "tool", t.Name, "panic", fmt.Sprint(v), "stack", string(debug.Stack()))
			err = contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition in %s", t.Name)
		}
	}()
	return t.Run(ctx, in)
}

func (t Tool[In, Out]) errorResult(env *Env, reqID string, e *contract.Error) *mcp.CallToolResult {
	mode := t.Mode
	if t.LocalWrites {
		// Its failures say, as a write's do, whether anything was written:
		// here, files.
		mode = Write
	}
	res := errorResult(env, mode, reqID, e)
	// The request id ties the agent's envelope to this line; the message is
	// left out (it may quote what the agent sent), the code says what failed.
	env.log().Info("tool call failed", "tool", t.Name, "code", string(e.Code), "request_id", reqID,
		"temporary", e.Temporary, "settlement", string(e.Settlement))
	return res
}

// ErrorResult is the tool result carrying e, for a call answered outside
// a Tool (a refused call to a tool not served, a forwarded upstream tool):
// compact JSON in structuredContent and text, with the request id and
// fingerprint, and a settlement only on writes.
func ErrorResult(env *Env, mode Mode, reqID string, e *contract.Error) *mcp.CallToolResult {
	return errorResult(env, mode, reqID, e)
}

func errorResult(env *Env, mode Mode, reqID string, e *contract.Error) *mcp.CallToolResult {
	env.redact(e)
	e.RequestID = reqID
	if env.Fingerprint != nil {
		e.Fingerprint = env.Fingerprint()
	}
	if mode == Write && e.Settlement == "" {
		// A write that failed without saying how far it got is reported as
		// unknown: the agent must re-read before repeating it.
		e.Settlement = contract.Indeterminate
	}
	if mode == Read {
		e.Settlement = ""
	}
	body, err := Compact(e, "retry_after_ms")
	if err != nil {
		body = []byte(`{"code":"internal_error","message":"cannot encode error","retry_after_ms":null}`)
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: string(body)}},
		StructuredContent: json.RawMessage(body),
	}
}

func toEnvelope(env *Env, err error) *contract.Error {
	if e, ok := contract.AsError(err); ok {
		return e
	}
	if env.MapError != nil {
		if e := env.MapError(err); e != nil {
			return e
		}
	}
	return internal(env, "", err)
}

func internal(env *Env, tool string, err error) *contract.Error {
	env.log().Error("internal error", "tool", tool, "err", err)
	return contract.Errorf(contract.CodeInternal, "ghgate hit an unexpected condition; the details are in the server log")
}

// redact applies env.Redact to the text of e: its message, the reason
// for a field, and its repair's and follow-up's prose.
func (env *Env) redact(e *contract.Error) {
	if env == nil || env.Redact == nil {
		return
	}
	e.Message = env.Redact(e.Message)
	if d := e.Details; d != nil {
		d.Reason = env.Redact(d.Reason)
	}
	for _, r := range []*contract.Repair{e.Repair, e.FollowUp} {
		if r != nil {
			r.NextStep, r.Alternative = env.Redact(r.NextStep), env.Redact(r.Alternative)
		}
	}
}

func (env *Env) log() *slog.Logger {
	if env == nil || env.Log == nil {
		return slog.New(slog.DiscardHandler)
	}
	return env.Log
}

func fieldOrArguments(f string) string {
	if f == "" {
		return "the arguments"
	}
	return "`" + f + "`"
}

func decodeForValidation(body []byte) any {
	var v any
	_ = json.Unmarshal(body, &v)
	return v
}

// NewRequestID mints the id an envelope carries for support and logs.
func NewRequestID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "ghg_" + hex.EncodeToString(b[:])
}

func ptr[T any](v T) *T { return &v }

// Register adds specs to server in the order given.
func Register(server *mcp.Server, env *Env, specs ...Spec) error {
	for _, s := range specs {
		def, h, err := s.Build(env)
		if err != nil {
			return err
		}
		server.AddTool(def, h)
	}
	return nil
}
