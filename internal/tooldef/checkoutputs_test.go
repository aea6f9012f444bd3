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
	if !res.IsError {
		t.Errorf("checked: IsError = false, want true (text %s)", text)
	}
	for _, want := range []string{`"code":"internal_error"`, "does not match its output schema"} {
		if !strings.Contains(text, want) {
			t.Errorf("checked: text = %s, want it to contain %s", text, want)
		}
	}

	res = callSkew(t, &Env{})
	text, want := res.Content[0].(*mcp.TextContent).Text, `{"n":"seven"}`
	if res.IsError {
		t.Errorf("unchecked: IsError = true, want false (text %s)", text)
	}
	if text != want {
		t.Errorf("unchecked: text = %s, want %s", text, want)
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
