package reports_test

import (
	"context"
	"encoding/json"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
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
	if out.NextCall == nil || out.NextCall.Tool != tool {
		t.Fatalf("truncated report without a next_call to %s: %+v", tool, out.NextCall)
	}
	b, err := json.Marshal(out.NextCall.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// all follows next_call until the report is complete, returning every
// row and the number of calls made.
func all(t *testing.T, env *servertest.Env, args any) ([]reports.UnlabeledRow, []reports.UnlabeledOut) {
	t.Helper()
	outs := follow(t, env, tool, args, func(o reports.UnlabeledOut) (bool, *reports.NextCall) { return o.Truncated, o.NextCall })
	var rows []reports.UnlabeledRow
	for _, o := range outs {
		rows = append(rows, o.Rows...)
	}
	return rows, outs
}

// follow calls a report, then its next_call as given (re-marshalled, as
// an agent passes it back) until a result is not truncated, and returns
// every result.
func follow[Out any](t *testing.T, env *servertest.Env, name string, args any, more func(Out) (bool, *reports.NextCall)) []Out {
	t.Helper()
	var outs []Out
	for range 200 {
		out := servertest.CallOK[Out](t, env, name, args)
		outs = append(outs, out)
		truncated, nc := more(out)
		if !truncated {
			return outs
		}
		if nc == nil || nc.Tool != name {
			t.Fatalf("truncated report without a next_call to %s: %+v", name, nc)
		}
		b, err := json.Marshal(nc.Arguments)
		if err != nil {
			t.Fatal(err)
		}
		args = json.RawMessage(b)
	}
	t.Fatal("report never finished")
	return nil
}

// progressCall calls a report with a progress token over its own session
// and decodes the result into out; it returns the notifications heard,
// waiting until want(out) of them arrived (they may trail the result).
func progressCall(t *testing.T, env *servertest.Env, name string, args map[string]any, out any, want func() int) []*mcp.ProgressNotificationParams {
	t.Helper()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	ctx := context.Background()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := env.Stack.Server.MCP.Connect(ctx, sTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	cl := mcp.NewClient(&mcp.Implementation{Name: "progress", Version: "0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			defer mu.Unlock()
			got = append(got, r.Params)
		}})
	cs, err := cl.Connect(ctx, cTr, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close(); _ = ss.Close() })
	params := &mcp.CallToolParams{Name: name, Arguments: args}
	params.SetProgressToken("report-1")
	res, err := cs.CallTool(ctx, params)
	if err != nil || res.IsError {
		t.Fatalf("call: %v %+v", err, res)
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, out); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n >= want() || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	mu.Lock()
	defer mu.Unlock()
	return slices.Clone(got)
}

var _ = emulator.DemoTokenAlice
