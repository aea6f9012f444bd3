package upstream

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ghgate/ghgate/internal/redact"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// echoUpstream is an MCP server over HTTP with one tool, "echo", whose
// result carries text the test chooses, as text and as structured content.
func echoUpstream(t *testing.T, text func() string) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "echo", Version: "0"}, nil)
	srv.AddTool(&mcp.Tool{Name: "echo", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			s := text()
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}},
				StructuredContent: map[string]any{"log": []any{"x", s}}}, nil
		})
	h := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(h.Close)
	return h.URL
}

// An upstream's answer that holds credential-shaped text no route owns
// (an Authorization value, an x-access-token password, a GitHub token)
// comes back with that text redacted; one that holds a secret of the
// process's registry, in any form, is withheld whole.
func TestProxyScrubsCredentials(t *testing.T) {
	t.Parallel()
	const routeSecret = "route-secret-for-another-owner-0042"
	unknown := "ghp_" + strings.Repeat("Zx9Qw8", 6)
	var answer string
	url := echoUpstream(t, func() string { return answer })
	tr, log := newTranscript(t, routeSecret, unknown)
	secrets := redact.NewRegistry(routeSecret)
	p := connect(t, Config{Name: "echo", URL: url, Allow: []Allowed{{Tool: "echo", Mode: tooldef.Read}}},
		newFakeTokens("read-token-0123456789", ""), tr, Options{Log: log, Secrets: secrets})
	cs := serve(t, p)

	answer = "clone with https://x-access-token:" + unknown + "@github.com/a/b and Authorization: Bearer Qw8Zx9Qw8Zx9Qw8Zx9Qw8Zx9"
	isErr, out := call(t, tr, cs, "echo", map[string]any{})
	if isErr {
		t.Fatalf("echo: isError, want the scrubbed answer: %v", out)
	}
	want := "clone with https://x-access-token:[redacted]@github.com/a/b and Authorization: Bearer [redacted]"
	if got := out["log"].([]any)[1]; got != want {
		t.Errorf("structured log = %q, want %q", got, want)
	}

	answer = "debug " + base64.StdEncoding.EncodeToString([]byte("k="+routeSecret))
	if isErr, out := call(t, tr, cs, "echo", map[string]any{}); !isErr {
		t.Errorf("echo of a registered secret in base64: %v, want it withheld", out)
	}
	// The token handed to the upstream joins the registry.
	if !secrets.Holds("read-token-0123456789") {
		t.Error("the upstream's token is not in the registry")
	}
}
