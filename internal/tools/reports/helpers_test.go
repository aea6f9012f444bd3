package reports_test

import (
	"encoding/json"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/reports"
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
		t.Fatalf("%s(%v): %s", tool, args, res.JSON)
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
	if nc == nil || nc.Tool != tool {
		t.Fatalf("truncated report without a next_call to %s: %+v", tool, nc)
	}
	b, err := json.Marshal(nc.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// all follows next_call until the report is complete, returning every
// row and the number of calls made.
func all(t *testing.T, env *servertest.Env, args any) ([]reports.UnlabeledRow, []reports.UnlabeledOut) {
	t.Helper()
	var rows []reports.UnlabeledRow
	var outs []reports.UnlabeledOut
	for range 100 {
		out := report(t, env, args)
		rows = append(rows, out.Rows...)
		outs = append(outs, out)
		if !out.Truncated {
			return rows, outs
		}
		args = next(t, out)
	}
	t.Fatal("report never finished")
	return nil, nil
}

var _ = emulator.DemoTokenAlice
