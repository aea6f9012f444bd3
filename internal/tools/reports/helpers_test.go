package reports_test

import (
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const tool = "github_report_unlabeled"

// fleetEnv runs ghgate with the reports toolset against the demo seed
// with a fleet organization of n repositories.
func fleetEnv(t *testing.T, n int, o servertest.Options) *servertest.Env {
	t.Helper()
	o.Emulator.FleetRepos = n
	o.Toolsets = []string{"reports"}
	env := servertest.Start(t, o)
	env.Upstream()
	return env
}

func report(t *testing.T, env *servertest.Env, args any) reports.UnlabeledOut {
	t.Helper()
	res := env.Call(t, tool, args)
	if res.IsError {
		t.Fatalf("%s(%v): is_error = true, want a result: %s", tool, args, res.JSON)
	}
	var out reports.UnlabeledOut
	res.Decode(t, &out)
	return out
}

// next takes the report's next_call as given: its arguments, re-marshalled
// as an agent passes them back.
func next(t *testing.T, out reports.UnlabeledOut) json.RawMessage {
	t.Helper()
	return nextArgs(t, tool, out.NextCall)
}

// nextArgs is a next_call to tool's arguments as an agent passes them back.
func nextArgs(t *testing.T, tool string, nc *reports.NextCall) json.RawMessage {
	t.Helper()
	if nc == nil {
		t.Fatalf("next_call = nil, want a call to %s", tool)
	}
	if nc.Tool != tool {
		t.Fatalf("next_call.tool = %q, want %q", nc.Tool, tool)
	}
	b, err := json.Marshal(nc.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// all follows next_call until the report is complete, returning every
// row and each call's result.
func all(t *testing.T, env *servertest.Env, args any) ([]reports.UnlabeledRow, []reports.UnlabeledOut) {
	t.Helper()
	outs := follow(t, env, tool, args, func(o reports.UnlabeledOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall })
	var rows []reports.UnlabeledRow
	for _, o := range outs {
		rows = append(rows, o.Rows...)
	}
	return rows, outs
}

// follow calls tool, then each next_call as given, until a call is not
// truncated (more says whether it was, and its next_call).
func follow[Out any](t *testing.T, env *servertest.Env, tool string, args any, more func(Out) (bool, *reports.NextCall)) []Out {
	t.Helper()
	var outs []Out
	for range 200 {
		out := servertest.CallOK[Out](t, env, tool, args)
		outs = append(outs, out)
		truncated, nc := more(out)
		if !truncated {
			return outs
		}
		args = nextArgs(t, tool, nc)
	}
	t.Fatal("report never finished")
	return nil
}

var _ = emulator.DemoTokenAlice

// handler is the named report's handler, built as the server builds it,
// for calls made with a context the test controls.
func handler(t *testing.T, env *servertest.Env, name string) mcp.ToolHandler {
	t.Helper()
	for _, sp := range reports.Specs(env.Stack.Service) {
		if sp.ToolName() == name {
			_, h, err := sp.Build(&tooldef.Env{CheckOutputs: true})
			if err != nil {
				t.Fatal(err)
			}
			return h
		}
	}
	t.Fatalf("no report named %s", name)
	return nil
}
