package tools_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/store"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzToolArguments sends arbitrary arguments to each of the real tools'
// handlers (typed decoding, Nullable fields, Validate rules, cursors,
// idempotency keys), with no GitHub behind them: every call must come back
// as a result, an error result must carry the envelope, and nothing may
// reach the internal_error a recovered panic becomes.
func FuzzToolArguments(f *testing.F) {
	st, err := store.Open(context.Background(), "")
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { _ = st.Close() })
	cursors, err := contract.NewCursors([]byte("0123456789abcdef0123456789abcdef"), time.Now)
	if err != nil {
		f.Fatal(err)
	}
	svc := &toolkit.Service{Clients: toolkit.OneClient{}, Store: st, Cursors: cursors}
	specs := tools.All(svc)
	handlers := make([]mcp.ToolHandler, len(specs))
	for i, sp := range specs {
		if _, handlers[i], err = sp.Build(&tooldef.Env{MapError: toolkit.MapError, CheckOutputs: true}); err != nil {
			f.Fatal(err)
		}
	}
	for i, seed := range []string{
		`{"owner":"acme","repo":"widgets","query":"x","cursor":"abc.def","labels":["a,b"]}`,
		`{"owner":"acme","repo":"widgets","issue_number":1,"comments_cursor":"x"}`,
		`{"owner":"acme","repo":"widgets","title":"t","milestone":1,"labels":["bug"],"idempotency_key":"k","parent_issue_number":2}`,
		`{"owner":"acme","repo":"widgets","issue_number":1,"milestone":null,"type":null,"labels":{"swap":{"prefix":"s:","to":"s: x"}},"expected_version":"v1.AAAAAAAAAAAAAAAA"}`,
		`{"owner":"acme","repo":"widgets","issue_number":1,"body":"b","idempotency_key":""}`,
		`{"owner":"acme","repo":"widgets","comment_id":1,"delete":true}`,
		`{"owner":"acme","repo":"widgets","issue_number":1,"collection":"timeline","page_size":100}`,
		`{"owner":"acme","repo":"widgets/../x","kind":"labels"}`,
		`{"owner":"acme","repo":"widgets","issue_number":1,"relation":"sub_issue","action":"reorder","target_issue_number":2,"after_issue_number":3}`,
	} {
		f.Add(uint8(i), []byte(seed))
	}
	f.Fuzz(func(t *testing.T, which uint8, raw []byte) {
		i := int(which) % len(handlers)
		res, err := handlers[i](context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Arguments: raw}})
		if err != nil {
			t.Fatalf("%s(%q): %v", specs[i].ToolName(), raw, err)
		}
		if res == nil {
			t.Fatalf("%s(%q): result = nil, want one", specs[i].ToolName(), raw)
		}
		if !res.IsError {
			return
		}
		body, _ := res.StructuredContent.(json.RawMessage)
		var env struct {
			Code contract.Code `json:"code"`
		}
		var fields map[string]json.RawMessage
		_ = json.Unmarshal(body, &fields)
		if err := json.Unmarshal(body, &env); err != nil {
			t.Fatalf("%s(%q): error result is not an envelope: %v: %s", specs[i].ToolName(), raw, err, body)
		}
		if env.Code == "" {
			t.Fatalf("%s(%q): error result has no code, want an envelope: %s", specs[i].ToolName(), raw, body)
		}
		if _, always := fields["retry_after_ms"]; !always {
			t.Fatalf("%s(%q): error result lacks retry_after_ms, want an envelope: %s", specs[i].ToolName(), raw, body)
		}
		if env.Code == contract.CodeInternal {
			t.Fatalf("%s(%q): code = internal_error, want a catalogued refusal: %s", specs[i].ToolName(), raw, body)
		}
		if !contract.Known(env.Code) {
			t.Fatalf("%s(%q): code = %s, want one in the catalog", specs[i].ToolName(), raw, env.Code)
		}
	})
}
