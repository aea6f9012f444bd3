package server_test

import (
	"context"
	"fmt"
	"slices"
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
		t.Fatalf("fingerprint with an extra tool = %s, want a change from the plain surface's", withExtra.Fingerprint())
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
	if s := withExtra.Summary(); !strings.Contains(s, "pull_request_read") {
		t.Fatalf("the capability summary does not name the extra tool pull_request_read, want it to:\n%s", s)
	}
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "tools forwarded from other MCP servers") {
		t.Fatalf("the instructions do not point to the extra tool, want \"tools forwarded from other MCP servers\":\n%s", ins)
	}
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "pull_request_read", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"pull_request_read"}; !slices.Equal(wrapped, want) {
		t.Fatalf("wrapped = %v, want %v: the extra tool goes through the wrapper", wrapped, want)
	}
	clash := extra
	clash.Def = &mcp.Tool{Name: toolkit.NameGetIssue, InputSchema: map[string]any{"type": "object"}}
	_, err = server.New(svc, server.Options{Extra: []server.Extra{clash}})
	if err == nil {
		t.Fatal("a clashing name was accepted, want an error")
	}
	if !strings.Contains(err.Error(), toolkit.NameGetIssue) {
		t.Fatalf("a clashing name: error = %v, want one naming %s", err, toolkit.NameGetIssue)
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
	if s := srv.Summary(); strings.Contains(s, "{issue_number}") {
		t.Fatalf("the capability summary names the issue template, want it not to:\n%s", s)
	}
	if s := srv.Summary(); !strings.Contains(s, "{?state,labels") {
		t.Fatalf("the capability summary does not name the issue index's template, want it to:\n%s", s)
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
	if want := []string{toolkit.NameSearchIssues}; !slices.Equal(wrapped, want) {
		t.Fatalf("wrapped = %v, want %v: the read goes through the wrapper as that tool's call", wrapped, want)
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
				t.Errorf("served templates %v: %d labels completed, want some completed = %v", c.want, len(res.Completion.Values), c.want)
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
	err = srv.EnableToolsets("nope")
	if err == nil {
		t.Fatal("an unknown toolset was enabled, want an error")
	}
	if !strings.Contains(err.Error(), "late") {
		t.Fatalf("an unknown toolset: error = %v, want one naming the toolset late", err)
	}
	if got := srv.Fingerprint(); got != before {
		t.Fatalf("an unknown toolset: fingerprint = %s, want it unchanged, %s", got, before)
	}
	if err := srv.EnableToolsets("late"); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sp := range srv.Tools() {
		names = append(names, sp.ToolName())
	}
	if contains(names, toolkit.NameGetIssue) {
		t.Fatalf("after enabling late with get_issue denied: tools = %v, want no %s", names, toolkit.NameGetIssue)
	}
	if !contains(names, toolkit.NameListRepoMetadata) {
		t.Fatalf("after enabling late with get_issue denied: tools = %v, want %s among them", names, toolkit.NameListRepoMetadata)
	}
	if got := srv.Fingerprint(); got == before {
		t.Fatalf("after enabling late with get_issue denied: fingerprint = %s, want a change from it", got)
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
