package httpauth

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// An issue write carrying project (or a bulk edit's changes.project)
// writes a board as github_update_project_item does, so a client needs
// what that tool needs: the tool itself (its toolset, allow and deny)
// and an owner-wide write grant on the board's owner. A client without
// it is refused before the tool runs.
func TestBoardWritesThroughIssueToolsNeedTheBoardTool(t *testing.T) {
	specs := []tooldef.Spec{
		namedSpec{name: "github_create_issue", toolset: "issues", mode: tooldef.Write},
		namedSpec{name: "github_update_issue", toolset: "issues", mode: tooldef.Write},
		namedSpec{name: "github_bulk_update_issues", toolset: "issues", mode: tooldef.Write},
		namedSpec{name: "github_update_project_item", toolset: "projects", mode: tooldef.Write},
	}
	g := NewGuard(func() []tooldef.Spec { return specs }, func() string { return "fp" }, nil)
	board := `{"owner":"acme","project_number":1,"fields":{"Priority":null}}`
	calls := []struct{ tool, args string }{
		{"github_create_issue", `{"owner":"acme","repo":"widgets","title":"t","project":` + board + `}`},
		{"github_update_issue", `{"owner":"acme","repo":"widgets","issue_number":40,"project":` + board + `}`},
		{"github_bulk_update_issues", `{"owner":"acme","repo":"widgets","issue_numbers":[40,45,50],"continue_on_error":true,"changes":{"project":` + board + `}}`},
		// A decoder matching names without case would read this key too.
		{"github_update_issue", `{"owner":"acme","repo":"widgets","issue_number":40,"Project":` + board + `}`},
	}
	for _, c := range []struct {
		name   string
		client Client
		want   string // the scope the refusal names; "" allowed
	}{
		{"issues toolset only", Client{Read: []string{"acme"}, Write: []string{"acme"}, Tools: broker.Tools{Toolsets: []string{"issues"}}}, "toolset:projects"},
		{"board tool denied", Client{Read: []string{"acme"}, Write: []string{"acme"}, Tools: broker.Tools{Deny: []string{"github_update_project_item"}}}, "tool:github_update_project_item"},
		{"board tool not allowed", Client{Read: []string{"acme"}, Write: []string{"acme"},
			Tools: broker.Tools{Allow: []string{"github_create_issue", "github_update_issue", "github_bulk_update_issues"}}}, "tool:github_update_project_item"},
		{"write grant on one repository", Client{Read: []string{"acme"}, Write: []string{"acme/widgets"}}, "write:acme"},
		{"owner-wide write grant", Client{Read: []string{"acme"}, Write: []string{"acme"}}, ""},
	} {
		e := &clientEntry{name: "bot", policy: newPolicy(c.client)}
		ctx := withClient(context.Background(), e)
		for _, call := range calls {
			ran := false
			res, err := g.Wrap(ctx, tooldef.Call{Tool: call.tool, Mode: tooldef.Write, Arguments: json.RawMessage(call.args)},
				func(context.Context) (*mcp.CallToolResult, error) { ran = true; return &mcp.CallToolResult{}, nil })
			if err != nil {
				t.Fatal(err)
			}
			if c.want == "" {
				if !ran {
					t.Errorf("%s: %s did not run, want it admitted: %+v", c.name, call.tool, res.StructuredContent)
				} else if res.IsError {
					t.Errorf("%s: %s answered an error, want success: %+v", c.name, call.tool, res.StructuredContent)
				}
				continue
			}
			if ran {
				t.Errorf("%s: %s ran with project", c.name, call.tool)
				continue
			}
			var env struct {
				Code    string `json:"code"`
				Details struct {
					RequiredScopes []string `json:"required_scopes"`
				} `json:"details"`
			}
			b, _ := json.Marshal(res.StructuredContent)
			_ = json.Unmarshal(b, &env)
			if env.Code != "insufficient_scope" {
				t.Errorf("%s: %s: code = %q, want insufficient_scope (%s)", c.name, call.tool, env.Code, b)
			}
			if got := env.Details.RequiredScopes; !slices.Equal(got, []string{c.want}) {
				t.Errorf("%s: %s: required_scopes = %q, want [%s]", c.name, call.tool, got, c.want)
			}
		}
		// The same writes without project pass where the client may write
		// the repository.
		if c.client.Write[0] == "acme/widgets" || c.want != "" {
			ran := false
			_, _ = g.Wrap(ctx, tooldef.Call{Tool: "github_update_issue", Mode: tooldef.Write, Arguments: json.RawMessage(`{"owner":"acme","repo":"widgets","issue_number":40,"state":"closed"}`)},
				func(context.Context) (*mcp.CallToolResult, error) { ran = true; return &mcp.CallToolResult{}, nil })
			if !ran {
				t.Errorf("%s: a write without project was refused", c.name)
			}
		}
	}
}
