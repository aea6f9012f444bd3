package server_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/server"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type probeIn struct {
	Owner string `json:"owner"`
	Extra string `json:"extra,omitempty"`
}

type probeOut struct {
	Extra string `json:"extra,omitempty"`
}

// probe is a default-set tool with a field gated on the "late" toolset.
var probe = tooldef.Tool[probeIn, probeOut]{
	Name: "test_probe", Toolset: "issues", Description: "probe", Mode: tooldef.Read,
	Gated: map[string]string{"extra": "late"},
	Run:   func(ctx context.Context, in probeIn) (probeOut, error) { return probeOut{Extra: in.Extra}, nil },
}

// A field gated on a toolset is neither listed nor accepted until that
// toolset is served, and arrives with it when it is enabled at run time.
func TestGatedFieldsArriveWithTheirToolset(t *testing.T) {
	svc := &core.Service{Clients: core.OneClient{}}
	registry := func(svc *core.Service) []tooldef.Spec { return append(splitRegistry(svc), probe) }
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
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: probe.Name, Arguments: map[string]any{"owner": "acme", "extra": "x"}})
		if err != nil {
			t.Fatal(err)
		}
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
