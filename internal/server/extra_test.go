package server_test

import (
	"context"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestExtraToolsJoinTheSurface(t *testing.T) {
	svc := &tools.Service{Clients: tools.OneClient{}}
	plain, err := server.New(svc, server.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var wrapped []string
	wrap := func(ctx context.Context, c tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		wrapped = append(wrapped, c.Tool)
		return next(ctx)
	}
	extra := server.Extra{Mode: tooldef.Read,
		Def: &mcp.Tool{Name: "pull_request_read", InputSchema: map[string]any{"type": "object"}},
		Handler: func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
		}}
	withExtra, err := server.New(svc, server.Options{Extra: []server.Extra{extra}, Wrap: wrap})
	if err != nil {
		t.Fatal(err)
	}
	if withExtra.Fingerprint == plain.Fingerprint {
		t.Fatal("an extra tool does not change the surface fingerprint")
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := withExtra.MCP.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	if !strings.Contains(cs.InitializeResult().Instructions, "pull_request_read") {
		t.Fatal("the capability summary does not name the extra tool")
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pull_request_read", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if len(wrapped) != 1 || wrapped[0] != "pull_request_read" {
		t.Fatalf("the extra tool did not go through the wrapper: %v", wrapped)
	}
	clash := extra
	clash.Def = &mcp.Tool{Name: "github_get_issue", InputSchema: map[string]any{"type": "object"}}
	if _, err := server.New(svc, server.Options{Extra: []server.Extra{clash}}); err == nil || !strings.Contains(err.Error(), "github_get_issue") {
		t.Fatalf("a clashing name was accepted: %v", err)
	}
}
