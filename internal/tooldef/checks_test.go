package tooldef

import (
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantCode stops the test unless the answer is an error with the code
// given.
func wantCode(t *testing.T, what string, res *mcp.CallToolResult, sc map[string]any, code string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("%s: IsError = false, want a %s error (%v)", what, code, sc)
	}
	if sc["code"] != code {
		t.Fatalf("%s: code = %v, want %s (%v)", what, sc["code"], code, sc)
	}
}

// wantRefusal stops the test unless the answer is an error with the code
// given, settled not_started.
func wantRefusal(t *testing.T, what string, res *mcp.CallToolResult, sc map[string]any, code string) {
	t.Helper()
	wantCode(t, what, res, sc, code)
	if sc["settlement"] != "not_started" {
		t.Fatalf("%s: settlement = %v, want not_started", what, sc["settlement"])
	}
}
