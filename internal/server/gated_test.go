package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

type probeIn struct {
	Owner string `json:"owner"`
	Extra string `json:"extra,omitempty"`
}

type probeOut struct {
	Extra string `json:"extra,omitempty"`
}

// probe is a default-set tool with a field gated on github_list_repo_metadata,
// which splitRegistry moves to the "late" toolset.
var probe = tooldef.Tool[probeIn, probeOut]{
	Name: "test_probe", Toolset: "issues", Description: "probe", Mode: tooldef.Read,
	Gated: map[string]string{"extra": toolkit.NameListRepoMetadata},
	Run:   func(ctx context.Context, in probeIn) (probeOut, error) { return probeOut{Extra: in.Extra}, nil },
}

// A field gated on a toolset is neither listed nor accepted until that
// toolset is served, and arrives with it when it is enabled at run time.
func TestGatedFieldsArriveWithTheirToolset(t *testing.T) {
	svc := &toolkit.Service{Clients: toolkit.OneClient{}}
	registry := func(svc *toolkit.Service) []tooldef.Spec { return append(splitRegistry(svc), probe) }
	srv, err := server.NewWithRegistry(svc, server.Options{}, registry)
	if err != nil {
		t.Fatal(err)
	}
	cs := servertest.Connect(t, srv.MCP)
	check := func(stage string, want bool) {
		t.Helper()
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range list.Tools {
			if tool.Name != probe.Name {
				continue
			}
			schema, _ := json.Marshal(tool.InputSchema)
			if got := strings.Contains(string(schema), `"extra"`); got != want {
				t.Errorf("%s: extra listed %v, want %v: %s", stage, got, want, schema)
			}
		}
		res := servertest.CallOn(t, cs, probe.Name, map[string]any{"owner": "acme", "extra": "x"})
		if res.IsError == want {
			t.Errorf("%s: a call with extra: error %v, want %v", stage, res.IsError, !want)
		}
	}
	check("default set", false)
	if err := srv.EnableToolsets("late"); err != nil {
		t.Fatal(err)
	}
	check("late enabled", true)
}

// The issue writes' project writes a board, so it comes with
// github_update_project_item, not with any projects tool: a server that
// keeps only github_list_projects (allow) or denies the write neither
// lists nor accepts project, on the bulk edit's changes either.
func TestProjectFieldNeedsTheBoardWriteTool(t *testing.T) {
	project := map[string]any{"owner": "acme", "project_number": 1, "fields": map[string]any{"Priority": nil}}
	for _, opts := range []server.Options{
		{Toolsets: []string{"issues", "projects"}, Allow: []string{toolkit.NameUpdateIssue, toolkit.NameBulkUpdateIssues, "github_list_projects"}},
		{Toolsets: []string{"issues", "projects"}, Deny: []string{"github_update_project_item"}},
	} {
		srv, err := server.New(&toolkit.Service{Clients: toolkit.OneClient{}}, opts)
		if err != nil {
			t.Fatal(err)
		}
		cs := servertest.Connect(t, srv.MCP)
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tool := range list.Tools {
			if tool.Name == toolkit.NameUpdateIssue {
				if schema, _ := json.Marshal(tool.InputSchema); strings.Contains(string(schema), `"project"`) {
					t.Errorf("allow %v deny %v: update_issue lists project: %s", opts.Allow, opts.Deny, schema)
				}
			}
		}
		for _, c := range []struct {
			tool, field string
			args        map[string]any
		}{
			{toolkit.NameUpdateIssue, "project", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 40, "project": project}},
			{toolkit.NameBulkUpdateIssues, "changes.project", map[string]any{"owner": "acme", "repo": "widgets", "issue_numbers": []int{40, 45},
				"changes": map[string]any{"project": project}}},
		} {
			res := servertest.CallOn(t, cs, c.tool, c.args)
			var e contract.Error
			b := res.JSON
			_ = json.Unmarshal(b, &e)
			what := fmt.Sprintf("allow %v deny %v: %s with %s", opts.Allow, opts.Deny, c.tool, c.field)
			switch {
			case !res.IsError:
				t.Errorf("%s: %s, want invalid_field", what, b)
				continue
			case e.Code != contract.CodeInvalidField:
				t.Errorf("%s: code = %s, want %s", what, e.Code, contract.CodeInvalidField)
				continue
			case e.Details == nil:
				t.Errorf("%s: details = nil, want field %s", what, c.field)
				continue
			case e.Details.Field != c.field:
				t.Errorf("%s: details.field = %q, want %s", what, e.Details.Field, c.field)
				continue
			}
			if e.Repair == nil {
				t.Errorf("%s: repair = nil, want the call without project", c.tool)
			} else if strings.Contains(fmt.Sprint(e.Repair.Arguments), "project") {
				t.Errorf("%s: repair arguments %v keep project, want them without it", c.tool, e.Repair.Arguments)
			}
		}
	}
}
