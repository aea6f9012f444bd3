package broker_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeUpstreamArg, as the test binary's first argument, makes the binary
// a fake upstream MCP server on stdio (runFakeUpstream) instead of running
// tests: a broker under test starts it as its upstream child. A child's
// environment holds only PATH, HOME, LANG and its token, so the switch is
// an argument, not a variable.
const fakeUpstreamArg = "ghgate-fake-upstream"

// fakeTokenEnv is the variable the fake upstream reads its token from.
const fakeTokenEnv = "FAKE_UPSTREAM_TOKEN"

func TestMain(m *testing.M) {
	if len(os.Args) == 3 && os.Args[1] == fakeUpstreamArg {
		os.Exit(runFakeUpstream(os.Args[2]))
	}
	os.Exit(m.Run())
}

// fakeTools are the fake upstream's tools, named and shaped after GitHub's
// MCP server's: each names the owner it acts on by another argument.
var fakeTools = map[string]map[string]any{
	"list_org_dependabot_alerts": {"org": str, "state": str},
	"search_issues_in":           {"repositories": map[string]any{"type": "array", "items": str}, "query": str},
	"list_issues_filtered":       {"filter": map[string]any{"type": "object"}},
	"fork_repository":            {"owner": str, "repo": str, "organization": str},
	"create_repository":          {"name": str, "organization": str, "private": map[string]any{"type": "boolean"}},
	"get_account":                {"account": str, "target": map[string]any{"type": "object"}},
	// Named after GitHub's, for the augments (augment_test.go): its
	// answer is chosen by pullNumber (fakePullAnswer).
	"pull_request_read": {"method": str, "owner": str, "repo": str, "pullNumber": map[string]any{"type": "number"}},
	"issue_write":       {"method": str, "owner": str, "repo": str, "issue_number": map[string]any{"type": "number"}, "labels": map[string]any{"type": "array", "items": str}},
}

var str = map[string]any{"type": "string"}

// fakeCall is one call the fake upstream received, as it logs it.
type fakeCall struct {
	Tool  string          `json:"tool"`
	Token string          `json:"token"`
	Args  json.RawMessage `json:"args"`
}

// runFakeUpstream serves fakeTools on stdio. Every call appends one line
// to logPath: the tool, the token the child was started with, and the
// arguments as received. It answers with a text that holds no token.
func runFakeUpstream(logPath string) int {
	srv := mcp.NewServer(&mcp.Implementation{Name: "fake-upstream", Version: "0"}, nil)
	for name, props := range fakeTools {
		schema := map[string]any{"type": "object", "properties": props}
		srv.AddTool(&mcp.Tool{Name: name, InputSchema: schema}, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			line, err := json.Marshal(fakeCall{Tool: name, Token: os.Getenv(fakeTokenEnv), Args: req.Params.Arguments})
			if err != nil {
				return nil, err
			}
			f, err := os.OpenFile(logPath, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
			if err != nil {
				return nil, err
			}
			defer f.Close()
			if _, err := f.Write(append(line, '\n')); err != nil {
				return nil, err
			}
			if name == "pull_request_read" {
				return fakePullAnswer(req.Params.Arguments), nil
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done: " + name}}}, nil
		})
	}
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "fake upstream:", err)
		return 1
	}
	return 0
}

// fakePullHeadSHA is the head SHA of the fake's pull request 4.
const fakePullHeadSHA = "0123456789abcdef0123456789abcdef01234567"

// fakePullAnswer is the fake pull_request_read's answer, by pullNumber:
// 1 text that is not JSON, 2 a pull request without a head, 3 an error
// result, 4 a pull request whose head is fakePullHeadSHA.
func fakePullAnswer(args json.RawMessage) *mcp.CallToolResult {
	var in struct {
		PullNumber int `json:"pullNumber"`
	}
	_ = json.Unmarshal(args, &in)
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	switch in.PullNumber {
	case 1:
		return text("pull request one, in prose")
	case 2:
		return text(`{"number":2,"title":"no head"}`)
	case 3:
		res := text("failed to get pull request: 404 Not Found")
		res.IsError = true
		return res
	}
	return text(fmt.Sprintf(`{"number":%d,"title":"with a head","head":{"ref":"topic","sha":%q}}`, in.PullNumber, fakePullHeadSHA))
}
