package tasks_test

import "testing"

// wantRPCError stops the test unless the call answered a JSON-RPC error
// with the code given.
func wantRPCError(t *testing.T, what string, e *rpcError, code int) {
	t.Helper()
	if e == nil {
		t.Fatalf("%s: no error, want code %d", what, code)
	}
	if e.Code != code {
		t.Fatalf("%s: error code = %d, want %d (%+v)", what, e.Code, code, e)
	}
}

// wantStatus stops the test unless the task is in the status given.
func wantStatus(t *testing.T, what string, got map[string]any, status string) {
	t.Helper()
	if got["status"] != status {
		t.Fatalf("%s: status = %v, want %s (%v)", what, got["status"], status, got)
	}
}

// wantText stops the test unless the task's result holds one content
// block with the text given.
func wantText(t *testing.T, what string, got map[string]any, text string) {
	t.Helper()
	res, _ := got["result"].(map[string]any)
	content, _ := res["content"].([]any)
	if len(content) != 1 {
		t.Fatalf("%s: result holds %d content blocks, want 1 (%v)", what, len(content), got["result"])
	}
	if got := content[0].(map[string]any)["text"]; got != text {
		t.Fatalf("%s: result text = %v, want %q", what, got, text)
	}
}
