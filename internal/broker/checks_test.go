package broker_test

import (
	"reflect"
	"testing"

	"github.com/ghgate/ghgate/internal/broker"
	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wantAudit compares the fields of an audit line that want names (by Go
// field name) and reports any difference as one diff; it says whether they
// all matched.
func wantAudit(t *testing.T, what string, got broker.AuditLine, want map[string]any) bool {
	t.Helper()
	v := reflect.ValueOf(got)
	picked := make(map[string]any, len(want))
	for name := range want {
		picked[name] = v.FieldByName(name).Interface()
	}
	if diff := cmp.Diff(want, picked); diff != "" {
		t.Errorf("%s: audit line mismatch (-want +got):\n%s", what, diff)
		return false
	}
	return true
}

// wantEnvelope reports a failure unless res is an error result whose
// envelope carries code; it says whether both held.
func wantEnvelope(t *testing.T, what string, res *mcp.CallToolResult, code string) bool {
	t.Helper()
	ok := true
	if !res.IsError {
		t.Errorf("%s: isError = false, want an error envelope with code %s: %s", what, code, brokertest.ResultText(res))
		ok = false
	}
	if got := envelopeCode(res); got != code {
		t.Errorf("%s: code = %q, want %q", what, got, code)
		ok = false
	}
	return ok
}
