package tooldef

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// skewOut declares an integer n but writes a string: an answer that does
// not conform to the output schema inferred from its type.
type skewOut struct {
	N int `json:"n"`
}

func (skewOut) MarshalJSON() ([]byte, error) { return []byte(`{"n":"seven"}`), nil }

var skew = Tool[struct{}, skewOut]{
	Name: "test_skew", Description: "skew", Mode: Read,
	Run: func(context.Context, struct{}) (skewOut, error) { return skewOut{N: 7}, nil },
}

func callSkew(t *testing.T, env *Env) *mcp.CallToolResult {
	t.Helper()
	_, h, err := skew.Build(env)
	if err != nil {
		t.Fatal(err)
	}
	res, err := h(context.Background(), &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: skew.Name, Arguments: json.RawMessage(`{}`)}})
	if err != nil {
		t.Fatalf("protocol error: %v", err)
	}
	return res
}

// With CheckOutputs (tests, CI) an answer that does not match its output
// schema fails the call, naming the mismatch; without it (a production
// server) the answer is sent as the tool wrote it, unchecked.
func TestCheckOutputs(t *testing.T) {
	t.Parallel()
	res := callSkew(t, &Env{CheckOutputs: true})
	text := res.Content[0].(*mcp.TextContent).Text
	if !res.IsError || !strings.Contains(text, `"code":"internal_error"`) || !strings.Contains(text, "does not match its output schema") {
		t.Errorf("checked: IsError = %v, text = %s; want internal_error naming the output schema", res.IsError, text)
	}

	res = callSkew(t, &Env{})
	if text, want := res.Content[0].(*mcp.TextContent).Text, `{"n":"seven"}`; res.IsError || text != want {
		t.Errorf("unchecked: IsError = %v, text = %s; want %s", res.IsError, text, want)
	}
}

// GHGATE_CHECK_OUTPUTS=1 turns the check on without the option, so the
// e2e suites can run `ghgate serve` with it.
func TestCheckOutputsFromEnvironment(t *testing.T) {
	t.Setenv(CheckOutputsEnv, "1")
	if res := callSkew(t, &Env{}); !res.IsError {
		t.Errorf("with %s=1: IsError = false, want the mismatch refused", CheckOutputsEnv)
	}
}
