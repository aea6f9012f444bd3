package augment

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/ghgate/ghgate/internal/broker/callargs"
	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The arguments pull_request_ci adds to pull_request_read, spelled as
// that tool spells its own (pullNumber, perPage).
const (
	argVerbosity = "ciVerbosity"
	argLogLines  = "logLines"
)

// pullRequestCI adds the head commit's CI to GitHub's pull_request_read,
// method get, as github_report_ci_status tells it of one pull request
// ([reports.CommitCI]): the answer's JSON object gains a "ci" field. The
// head SHA is the one in the answer, so the pull request is not looked
// up again. ciVerbosity with another method is refused (invalid_field):
// no client of GitHub's server sends it, so refusing breaks none, and a
// silently ignored argument would read as CI that passed.
func pullRequestCI() spec {
	return spec{
		tool: "pull_request_read",
		params: map[string]map[string]any{
			argVerbosity: {"type": "integer", "minimum": 0, "maximum": 3,
				"description": "method get only, added by the ghgate broker: add ci, the head commit's CI: 0 status, 1 + failing jobs, 2 + failed step, 3 + log tail. Absent: no ci."},
			argLogLines: {"type": "integer", "minimum": 1, "maximum": maxLogLines,
				"description": "with ciVerbosity 3: log lines per failing job. Default 200."},
		},
		wrap: func(d Deps, mode tooldef.Mode, next mcp.ToolHandler) mcp.ToolHandler {
			return ciHandler{d: d, mode: mode, next: next}.handle
		},
	}
}

// maxLogLines is [reports.LogLines]' cap.
const maxLogLines = 2000

// ciHandler is pull_request_read with pull_request_ci.
type ciHandler struct {
	d    Deps
	mode tooldef.Mode
	next mcp.ToolHandler
}

// ciArgs are the arguments the broker reads of the call.
type ciArgs struct {
	Method    string
	Verbosity *reports.Verbosity // nil: no ci asked
	LogLines  reports.LogLines
}

func (h ciHandler) handle(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	// The broker read the arguments once, around this handler; called
	// without it, they are the request's.
	args, inCtx := callargs.From(ctx)
	if !inCtx && req != nil && req.Params != nil {
		args = callargs.Args{Canonical: req.Params.Arguments}
	}
	in, e := readCIArgs(args)
	if e != nil {
		return h.d.Refuse(e, h.mode), nil
	}
	if in.Verbosity == nil {
		return h.next(ctx, req) // a plain forward, byte for byte
	}
	forward := args.Without(argVerbosity, argLogLines)
	if inCtx {
		ctx = callargs.With(ctx, forward)
	}
	if req != nil && req.Params != nil {
		params := *req.Params
		params.Arguments = forward.Canonical
		req = &mcp.CallToolRequest{Session: req.Session, Params: &params, Extra: req.Extra}
	}
	res, err := h.next(ctx, req)
	if err != nil || res == nil {
		return res, err
	}
	return h.addCI(ctx, args.Target, in, res), nil
}

// readCIArgs reads method, ciVerbosity and logLines; a value out of range
// or of another type is refused, naming the argument.
func readCIArgs(a callargs.Args) (ciArgs, *contract.Error) {
	var in ciArgs
	if _, err := a.Value("method", &in.Method); err != nil {
		in.Method = "" // the upstream says what is wrong with it
	}
	v, hasV, e := intArg(a, argVerbosity, 0, 3)
	if e != nil {
		return in, e
	}
	n, hasN, e := intArg(a, argLogLines, 1, maxLogLines)
	if e != nil {
		return in, e
	}
	switch {
	case hasN && !hasV:
		return in, field(argLogLines, "takes effect with ciVerbosity 3; give ciVerbosity too, or leave logLines out")
	case hasV && in.Method != "get":
		return in, field(argVerbosity, fmt.Sprintf("is for method get only (the pull request's head commit); method %q takes no ciVerbosity", in.Method))
	}
	if hasV {
		verbosity := reports.Verbosity(v)
		in.Verbosity = &verbosity
	}
	in.LogLines = reports.LogLines(n)
	return in, nil
}

// intArg reads an integer argument in lo..hi: a JSON number without a
// fraction or exponent, not a string holding one.
func intArg(a callargs.Args, name string, lo, hi int) (int, bool, *contract.Error) {
	var raw json.RawMessage
	found, err := a.Value(name, &raw)
	if !found {
		return 0, false, nil
	}
	n, convErr := strconv.Atoi(string(raw))
	if err != nil || convErr != nil || n < lo || n > hi {
		return 0, true, field(name, fmt.Sprintf("must be an integer from %d to %d", lo, hi))
	}
	return n, true, nil
}

func field(name, reason string) *contract.Error {
	return contract.Errorf(contract.CodeInvalidField, "%s %s", name, reason).WithField(name, reason)
}

// prAnswer is what the broker reads of pull_request_read's answer.
type prAnswer struct {
	Number int `json:"number"`
	Head   *struct {
		SHA string `json:"sha"`
	} `json:"head"`
}

// addCI adds "ci" to the answer's JSON object, or a note saying why not.
func (h ciHandler) addCI(ctx context.Context, target callargs.Target, in ciArgs, res *mcp.CallToolResult) *mcp.CallToolResult {
	if res.IsError {
		return withNote(res, "no ci: the pull request read failed")
	}
	if target.Owner == "" || target.Repo == "" {
		return withNote(res, "no ci: the call names no owner and repo")
	}
	content, ok := onlyText(res)
	if !ok {
		return withNote(res, "no ci: the answer is not one text content")
	}
	text := content.Text
	var pr prAnswer
	if json.Unmarshal([]byte(text), &pr) != nil {
		return withNote(res, "no ci: the answer is not a JSON object")
	}
	if pr.Head == nil || pr.Head.SHA == "" {
		return withNote(res, "no ci: the answer names no head sha")
	}
	ci, err := h.d.CI(ctx, reports.CommitCIIn{Owner: target.Owner, Repo: target.Repo, SHA: pr.Head.SHA, Pull: pr.Number,
		Verbosity: *in.Verbosity, LogLines: in.LogLines})
	if err != nil {
		msg := err.Error()
		if e := toolkit.MapError(err); e != nil {
			msg = string(e.Code) + ": " + e.Message
		}
		if h.d.Redact != nil {
			msg = h.d.Redact(msg)
		}
		return withNote(res, "no ci: reading the checks failed: "+msg)
	}
	encoded, err := json.Marshal(ci)
	if err != nil {
		return withNote(res, "no ci: "+err.Error())
	}
	added, ok := withField(text, "ci", encoded)
	if !ok {
		return withNote(res, "no ci: the answer is not a JSON object")
	}
	withCI := *content // its annotations and _meta kept
	withCI.Text = added
	res.Content = []mcp.Content{&withCI}
	if raw, isRaw := res.StructuredContent.(json.RawMessage); isRaw && string(raw) == text {
		res.StructuredContent = json.RawMessage(added)
	}
	return res
}

// onlyText is the answer's one text content.
func onlyText(res *mcp.CallToolResult) (*mcp.TextContent, bool) {
	if len(res.Content) != 1 {
		return nil, false
	}
	t, ok := res.Content[0].(*mcp.TextContent)
	return t, ok
}

// withField adds "key": value as the last member of the JSON object text,
// the rest of its bytes as they were.
func withField(text, key string, value []byte) (string, bool) {
	trimmed := strings.TrimRight(text, " \t\r\n")
	if !strings.HasSuffix(trimmed, "}") {
		return "", false
	}
	var members map[string]json.RawMessage
	if json.Unmarshal([]byte(trimmed), &members) != nil {
		return "", false
	}
	if _, taken := members[key]; taken {
		return "", false
	}
	k, _ := json.Marshal(key)
	sep := ","
	if len(members) == 0 {
		sep = ""
	}
	body := trimmed[:len(trimmed)-1]
	return body + sep + string(k) + ":" + string(value) + "}", true
}

// withNote appends a text content a client shows beside the answer.
func withNote(res *mcp.CallToolResult, note string) *mcp.CallToolResult {
	res.Content = append(res.Content, &mcp.TextContent{Text: "ghgate: " + note})
	return res
}
