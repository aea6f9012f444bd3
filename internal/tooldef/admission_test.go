package tooldef

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ghgate/ghgate/internal/policy"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingEcho is the echo tool counting its runs, so a test can tell a
// call answered by the write path from one that ran.
func countingEcho(runs *atomic.Int32) Tool[echoIn, echoOut] {
	t := echo
	run := echo.Run
	t.Run = func(ctx context.Context, in echoIn) (echoOut, error) {
		runs.Add(1)
		if _, ok := policy.TicketFrom(ctx); !ok {
			// The write path hands every admitted call a ticket; a run
			// without one would be refused by the GitHub client.
			return echoOut{}, errNoTicket
		}
		return run(ctx, in)
	}
	return t
}

var errNoTicket = &policyError{"the run carried no admission"}

type policyError struct{ s string }

func (e *policyError) Error() string { return e.s }

// connectAs connects a client of the given protocol version, with an
// elicitation handler when ask is not nil.
func connectAs(t *testing.T, env *Env, version string, ask func(*mcp.ElicitRequest) (*mcp.ElicitResult, error), specs ...Spec) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	srv := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "0"}, nil)
	if err := Register(srv, env, specs...); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	opts := &mcp.ClientOptions{}
	if ask != nil {
		opts.ElicitationHandler = func(_ context.Context, r *mcp.ElicitRequest) (*mcp.ElicitResult, error) { return ask(r) }
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, opts).Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	b, _ := json.Marshal(res.StructuredContent)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", b, err)
	}
	return m
}

func TestDryRunAnswersThePlanAndRunsNothing(t *testing.T) {
	var runs atomic.Int32
	cs := connect(t, &Env{}, countingEcho(&runs))
	res, sc := call(t, cs, `{"owner":"acme","labels":["hello"],"dry_run":true}`)
	if res.IsError {
		t.Fatalf("dry run answered an error: %v", sc)
	}
	plan, _ := sc["dry_run"].(map[string]any)
	writes, _ := plan["writes"].([]any)
	if len(writes) != 1 {
		t.Fatalf("dry run plan %v: want one write", sc)
	}
	w := writes[0].(map[string]any)
	if w["kind"] != "comment" {
		t.Errorf("planned write kind = %v, want comment (%v)", w["kind"], w)
	}
	if w["target"] != "acme/r#1" {
		t.Errorf("planned write target = %v, want acme/r#1", w["target"])
	}
	if text, _ := w["text"].(map[string]any); text["body"] != "hello" {
		t.Errorf("planned write body = %v, want hello", text["body"])
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times on a dry run, want 0", n)
	}
	// The real call runs, with its admission.
	res, sc = call(t, cs, `{"owner":"acme","labels":["hello"]}`)
	if res.IsError {
		t.Fatalf("real call answered an error: %v", sc)
	}
	if sc["owner"] != "acme" {
		t.Fatalf("real call: owner = %v, want acme", sc["owner"])
	}
	if n := runs.Load(); n != 1 {
		t.Errorf("the tool ran %d times, want 1", n)
	}
}

func TestBuildRefusesAWriteToolThatDeclaresNothing(t *testing.T) {
	type plainIn struct {
		Owner string `json:"owner"`
	}
	tool := Tool[plainIn, echoOut]{Name: "test_plain", Mode: Write, Run: func(context.Context, plainIn) (echoOut, error) { return echoOut{}, nil }}
	if _, _, err := tool.Build(&Env{}); err == nil || !strings.Contains(err.Error(), "does not declare its writes") {
		t.Fatalf("Build of an undeclared write tool: error = %v, want one saying %q", err, "does not declare its writes")
	}
	tool.Mode = Read
	if _, _, err := tool.Build(&Env{}); err != nil {
		t.Fatalf("a read tool needs no declaration: %v", err)
	}
}

func TestPolicyRefusalRunsNothing(t *testing.T) {
	var runs atomic.Int32
	env := &Env{Policy: &policy.Path{Rules: policy.Rules{Deny: []policy.Kind{policy.KindComment}}}}
	cs := connect(t, env, countingEcho(&runs))
	for _, args := range []string{`{"owner":"acme"}`, `{"owner":"acme","dry_run":true}`} {
		res, sc := call(t, cs, args)
		wantRefusal(t, args, res, sc, "policy_refused")
		if d := sc["details"].(map[string]any); d["rule"] != "deny" {
			t.Errorf("%s: details %v, want rule deny", args, d)
		}
	}
	if n := runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times, want 0", n)
	}
}

// A person's answer, through both protocol versions: the 2026-07-28 one
// answers input_required and the client retries with the answer; the
// older ones are asked by the SDK through elicitation/create.
func TestConfirmationThroughElicitation(t *testing.T) {
	key := []byte(strings.Repeat("k", 32))
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		cases := []struct {
			name     string
			answer   *mcp.ElicitResult // nil: the client cannot elicit
			wantRun  bool
			wantCode string
		}{
			{"accepted", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": true}}, true, ""},
			{"accepted without the yes", &mcp.ElicitResult{Action: "accept", Content: map[string]any{"confirm": false}}, false, "confirmation_declined"},
			{"declined", &mcp.ElicitResult{Action: "decline"}, false, "confirmation_declined"},
			{"cancelled", &mcp.ElicitResult{Action: "cancel"}, false, "confirmation_declined"},
			{"unavailable", nil, false, "confirmation_unavailable"},
		}
		for _, c := range cases {
			t.Run(version+"/"+c.name, func(t *testing.T) {
				confirmations, err := policy.NewConfirmations(key, nil)
				if err != nil {
					t.Fatal(err)
				}
				env := &Env{Policy: &policy.Path{Confirmations: confirmations,
					Rules: policy.Rules{Confirm: policy.Confirm{Tools: []string{"test_echo"}}}}}
				var runs, asked atomic.Int32
				var message string
				var ask func(*mcp.ElicitRequest) (*mcp.ElicitResult, error)
				if c.answer != nil {
					ask = func(r *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						asked.Add(1)
						message = r.Params.Message
						return c.answer, nil
					}
				}
				cs := connectAs(t, env, version, ask, countingEcho(&runs))
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "test_echo",
					Arguments: json.RawMessage(`{"owner":"acme","labels":["ship it"]}`)})
				if err != nil {
					t.Fatalf("call: %v", err)
				}
				sc := structured(t, res)
				if got := runs.Load() == 1; got != c.wantRun {
					t.Fatalf("tool ran: %v, want %v (%v)", got, c.wantRun, sc)
				}
				if c.wantCode == "" && res.IsError {
					t.Fatalf("accepted call answered an error: %v", sc)
				}
				if c.wantCode != "" {
					wantRefusal(t, "answer", res, sc, c.wantCode)
				}
				if c.answer != nil {
					if asked.Load() != 1 {
						t.Fatalf("the person was asked %d times, want 1", asked.Load())
					}
					for _, want := range []string{"test_echo", "acme/r#1"} {
						if !strings.Contains(message, want) {
							t.Errorf("question %q does not name %q, want it to say what will change", message, want)
						}
					}
				}
			})
		}
	}
}

type panickyIn struct {
	Owner string `json:"owner"`
}

func (in *panickyIn) Writes() []policy.Write { panic("declaration bug") }

// A panic in the write path (a declaration, say) refuses the write; it
// never reaches the client as a crash.
func TestPanicInTheWritePathRefusesTheWrite(t *testing.T) {
	var runs atomic.Int32
	tool := Tool[panickyIn, echoOut]{Name: "test_echo", Mode: Write, Run: func(context.Context, panickyIn) (echoOut, error) {
		runs.Add(1)
		return echoOut{}, nil
	}}
	cs := connect(t, &Env{}, tool)
	res, sc := call(t, cs, `{"owner":"acme"}`)
	if n := runs.Load(); n != 0 {
		t.Errorf("the tool ran %d times, want 0", n)
	}
	wantRefusal(t, "a panicking declaration", res, sc, "internal_error")
}
