package tooldef

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type echoIn struct {
	Owner  string   `json:"owner" jsonschema:"repository owner"`
	State  string   `json:"state,omitempty"`
	Size   int      `json:"size,omitempty"`
	Labels []string `json:"labels,omitempty"`
	Nested *struct {
		Add []string `json:"add,omitempty"`
	} `json:"nested,omitempty"`
	Panic bool  `json:"panic,omitempty"`
	Big   int64 `json:"big,omitempty"`
}

func (in *echoIn) Validate() *contract.Error {
	if in.Owner == "nobody" {
		return contract.Errorf(contract.CodeInvalidField, "owner nobody is refused").WithField("owner", "is reserved")
	}
	return nil
}

// Writes implements policy.Declarer: the test tool writes a comment on
// its owner's repository "r", with its first label as the text sent.
func (in *echoIn) Writes() []policy.Write {
	w := policy.Write{Kind: policy.KindComment, Target: policy.Target{Owner: in.Owner, Repo: "r", Number: 1}}
	if len(in.Labels) > 0 {
		w.Text = policy.Str("body", &in.Labels[0])
	}
	return []policy.Write{w}
}

type echoOut struct {
	Owner  string   `json:"owner"`
	Body   string   `json:"body,omitempty"`
	Labels []string `json:"labels,omitempty"`
	Count  int      `json:"count,omitempty"`
}

var echo = Tool[echoIn, echoOut]{
	Name: "test_echo", Description: "echo", Mode: Write,
	Input: func(s *jsonschema.Schema) {
		s.Properties["state"].Enum = []any{"open", "closed"}
		s.Properties["size"].Minimum = ptr(1.0)
		s.Properties["size"].Maximum = ptr(100.0)
	},
	Run: func(ctx context.Context, in echoIn) (echoOut, error) {
		if in.Panic {
			panic("boom")
		}
		if in.Owner == "fail" {
			return echoOut{}, errors.New("upstream said no with secret-ish detail")
		}
		return echoOut{Owner: in.Owner, Body: "a<b && c", Labels: in.Labels}, nil
	},
}

func connect(t *testing.T, env *Env, specs ...Spec) *mcp.ClientSession {
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
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, args string) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "test_echo", Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", args, err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	var sc map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &sc); err != nil {
		t.Fatalf("structuredContent: %v", err)
	}
	var fromText map[string]any
	if err := json.Unmarshal([]byte(text), &fromText); err != nil {
		t.Fatalf("text block is not JSON: %q", text)
	}
	if !jsonEqual(sc, fromText) {
		t.Fatalf("text block and structuredContent differ:\n%s\n%s", text, b)
	}
	return res, sc
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestToolContract(t *testing.T) {
	env := &Env{Fingerprint: func() string { return "fp1" }, CheckOutputs: true}
	cs := connect(t, env, echo)

	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	schema, _ := json.Marshal(tools.Tools[0].InputSchema)
	// Listed open (the properties name every argument), checked closed:
	// the bogus case below is refused.
	if strings.Contains(string(schema), `"additionalProperties"`) {
		t.Fatalf("input schema lists additionalProperties, want it listed open: %s", schema)
	}
	if strings.Contains(string(schema), `"null"`) {
		t.Fatalf("input schema still names null, want it not nullable: %s", schema)
	}
	if tools.Tools[0].OutputSchema == nil {
		t.Fatal("OutputSchema = nil, want the output schema")
	}
	if tools.Tools[0].Annotations.ReadOnlyHint {
		t.Fatal("ReadOnlyHint = true on a write tool, want false")
	}

	res, out := call(t, cs, `{"owner":"acme","labels":["x"]}`)
	if res.IsError {
		t.Fatalf("success: answered an error: %+v", out)
	}
	if out["body"] != "a<b && c" {
		t.Fatalf("success: body = %v, want %q", out["body"], "a<b && c")
	}
	if out["owner"] != "acme" {
		t.Fatalf("success: owner = %v, want acme", out["owner"])
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "a<b && c") {
		t.Fatalf("text block escaped HTML: %s", text)
	}

	cases := []struct {
		args, code, field string
	}{
		{`{}`, "invalid_field", "owner"},
		{`{"owner":"acme","bogus":1}`, "invalid_field", "bogus"},
		{`{"owner":"acme","state":"maybe"}`, "invalid_field", "state"},
		{`{"owner":"acme","size":1000}`, "invalid_field", "size"},
		{`{"owner":5}`, "invalid_field", "owner"},
		{`{"owner":"acme","nested":{"add":"x"}}`, "invalid_field", "nested.add"},
		{`{"owner":"acme","nested":{"nope":[]}}`, "invalid_field", "nested.nope"},
		{`{"owner":"nobody"}`, "invalid_field", "owner"},
		{`{"owner":"x","panic":true}`, "internal_error", ""},
		{`{"owner":"x","big":1e30}`, "invalid_field", "big"},
		{`{"owner":"fail"}`, "internal_error", ""},
	}
	for _, c := range cases {
		t.Run(c.args, func(t *testing.T) {
			res, env := call(t, cs, c.args)
			if !res.IsError {
				t.Errorf("%s: not an error", c.args)
				return
			}
			if env["code"] != c.code {
				t.Errorf("%s: code %v, want %s", c.args, env["code"], c.code)
			}
			details, _ := env["details"].(map[string]any)
			if c.field != "" && details["field"] != c.field {
				t.Errorf("%s: details.field = %v, want %s (details %v)", c.args, details["field"], c.field, details)
			}
			if _, ok := env["retry_after_ms"]; !ok {
				t.Errorf("%s: retry_after_ms absent", c.args)
			}
			if env["fingerprint"] != "fp1" {
				t.Errorf("%s: fingerprint = %v, want fp1", c.args, env["fingerprint"])
			}
			if id, _ := env["request_id"].(string); !strings.HasPrefix(id, "ghg_") {
				t.Errorf("%s: request_id = %q, want one starting ghg_", c.args, id)
			}
			if env["settlement"] == nil {
				t.Errorf("%s: a write tool's error carries no settlement", c.args)
			}
			if strings.Contains(res.Content[0].(*mcp.TextContent).Text, "secret-ish") {
				t.Errorf("%s: an unmapped error leaked its text", c.args)
			}
		})
	}
	// The enum members are server-known values and may be echoed.
	_, env2 := call(t, cs, `{"owner":"acme","state":"maybe"}`)
	if v := env2["details"].(map[string]any)["value"]; v == nil {
		t.Errorf("enum field error: details.value = nil, want the members listed (%v)", env2)
	}
}

// TestAnnotationsAreHonest: a read is idempotent and says so; a write's
// destructive and idempotent hints are what its Tool says.
func TestAnnotationsAreHonest(t *testing.T) {
	type hints struct {
		readOnly, idempotent bool
		destructive          *bool
	}
	yes, no := true, false
	cases := []struct {
		name string
		tool Tool[echoIn, echoOut]
		want hints
	}{
		{"read", Tool[echoIn, echoOut]{Mode: Read}, hints{readOnly: true, idempotent: true}},
		{"additive write", Tool[echoIn, echoOut]{Mode: Write}, hints{destructive: &no}},
		{"idempotent write", Tool[echoIn, echoOut]{Mode: Write, Idempotent: true}, hints{idempotent: true, destructive: &no}},
		{"destructive idempotent write", Tool[echoIn, echoOut]{Mode: Write, Destructive: true, Idempotent: true}, hints{idempotent: true, destructive: &yes}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			c.tool.Name, c.tool.Run = "test_"+strings.ReplaceAll(c.name, " ", "_"), echo.Run
			def, _, err := c.tool.Build(&Env{})
			if err != nil {
				t.Fatal(err)
			}
			a := def.Annotations
			got := hints{readOnly: a.ReadOnlyHint, idempotent: a.IdempotentHint, destructive: a.DestructiveHint}
			if diff := cmp.Diff(c.want, got, cmp.AllowUnexported(hints{})); diff != "" {
				t.Errorf("%s: annotations mismatch (-want +got):\n%s", c.name, diff)
			}
			b, _ := json.Marshal(a)
			if c.want.readOnly && !strings.Contains(string(b), `"idempotentHint":true`) {
				t.Errorf("%s: published annotations %s lack idempotentHint true", c.name, b)
			}
		})
	}
}
