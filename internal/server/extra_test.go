package server_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestExtraToolsJoinTheSurface(t *testing.T) {
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
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
	if withExtra.Fingerprint() == plain.Fingerprint() {
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
	if !strings.Contains(withExtra.Summary(), "pull_request_read") || !strings.Contains(cs.InitializeResult().Instructions, "tools forwarded from other MCP servers") {
		t.Fatal("the capability summary does not name the extra tool, or the instructions do not point to it")
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pull_request_read", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if len(wrapped) != 1 || wrapped[0] != "pull_request_read" {
		t.Fatalf("the extra tool did not go through the wrapper: %v", wrapped)
	}
	clash := extra
	clash.Def = &mcp.Tool{Name: toolkit.NameGetIssue, InputSchema: map[string]any{"type": "object"}}
	if _, err := server.New(svc, server.Options{Extra: []server.Extra{clash}}); err == nil || !strings.Contains(err.Error(), toolkit.NameGetIssue) {
		t.Fatalf("a clashing name was accepted: %v", err)
	}
}

// A template read is the tool call that answers it: it goes through the
// wrapper (the broker's routing and audit), and a tool the deployment does
// not serve cannot be reached through its template.
func TestResourceReadsFollowTheToolSurface(t *testing.T) {
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
	var wrapped []string
	wrap := func(ctx context.Context, c tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		wrapped = append(wrapped, c.Tool)
		return next(ctx)
	}
	srv, err := server.New(svc, server.Options{Deny: []string{toolkit.NameGetIssue}, Wrap: wrap})
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.MCP.Connect(context.Background(), st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	templates, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range templates.ResourceTemplates {
		if strings.Contains(tpl.URITemplate, "{issue_number}") {
			t.Fatalf("the issue template is listed while github_get_issue is denied: %s", tpl.URITemplate)
		}
	}
	if strings.Contains(srv.Summary(), "{issue_number}") || !strings.Contains(srv.Summary(), "{?state,labels") {
		t.Fatal("the capability summary names the issue template, or not the issue index's")
	}
	if _, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "github://acme/widgets/issues/1"}); err == nil {
		t.Fatal("an issue was read through the template of a denied tool")
	}
	if len(wrapped) != 0 {
		t.Fatalf("a refused read reached a tool: %v", wrapped)
	}
	// The repository template's tool is served: its read goes through the
	// wrapper as that tool's call (it fails here, there is no credential).
	_, _ = cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "github://acme/widgets/issues?labels=bug"})
	if len(wrapped) != 1 || wrapped[0] != toolkit.NameSearchIssues {
		t.Fatalf("the read did not go through the wrapper as github_search_issues: %v", wrapped)
	}
}

// A template left out by allow or deny completes nothing: its names
// would be read through a tool the deployment does not serve.
func TestCompletionsOnlyForServedTemplates(t *testing.T) {
	env := servertest.Start(t, servertest.Options{})
	restricted, err := server.New(env.Stack.Service, server.Options{Allow: []string{toolkit.NameAddComment}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		srv  *server.Server
		want bool
	}{{env.Stack.Server, true}, {restricted, false}} {
		t.Run(fmt.Sprintf("listed %v", c.want), func(t *testing.T) {
			st, ct := mcp.NewInMemoryTransports()
			if _, err := c.srv.MCP.Connect(context.Background(), st, nil); err != nil {
				t.Fatal(err)
			}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "0"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := cs.Complete(context.Background(), &mcp.CompleteParams{
				Ref:      &mcp.CompleteReference{Type: "ref/resource", URI: "github://{owner}/{repo}/issues{?state,labels,assignee,updated_after}"},
				Argument: mcp.CompleteParamsArgument{Name: "labels", Value: ""},
				Context:  &mcp.CompleteContext{Arguments: map[string]string{"owner": "acme", "repo": "widgets"}},
			})
			_ = cs.Close()
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.Completion.Values) > 0; got != c.want {
				t.Errorf("served templates %v: %d labels completed", c.want, len(res.Completion.Values))
			}
		})
	}
}

// A toolset enabled at run time obeys the rules the server was built
// with: an unknown name changes nothing, and a denied tool (with the
// templates it answers) stays unserved.
func TestEnableToolsetsKeepsTheRules(t *testing.T) {
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
	srv, err := server.NewWithRegistry(svc, server.Options{Deny: []string{toolkit.NameGetIssue}}, splitRegistry)
	if err != nil {
		t.Fatal(err)
	}
	before := srv.Fingerprint()
	if err := srv.EnableToolsets("nope"); err == nil || !strings.Contains(err.Error(), "late") || srv.Fingerprint() != before {
		t.Fatalf("an unknown toolset: %v (fingerprint %s, was %s)", err, srv.Fingerprint(), before)
	}
	if err := srv.EnableToolsets("late"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sp := range srv.Tools() {
		names = append(names, sp.ToolName())
	}
	if contains(names, toolkit.NameGetIssue) || !contains(names, toolkit.NameListRepoMetadata) || srv.Fingerprint() == before {
		t.Fatalf("after enabling late with get_issue denied: %v, fingerprint %s (was %s)", names, srv.Fingerprint(), before)
	}
	cs := servertest.Connect(t, srv.MCP)
	tpls, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range tpls.ResourceTemplates {
		if strings.Contains(tpl.URITemplate, "{issue_number}") {
			t.Errorf("%s is served though github_get_issue is denied", tpl.URITemplate)
		}
	}
	if len(tpls.ResourceTemplates) != 2 {
		t.Errorf("templates %d, want the index and labels", len(tpls.ResourceTemplates))
	}
}
