package issues_test

import (
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
)

// wantCodeSettlement reports, one message each, where the error envelope's
// code and settlement differ from want, and stops the test if either does.
// what names the call the envelope answered.
func wantCodeSettlement(t *testing.T, what string, e contract.Error, code contract.Code, settlement contract.Settlement) {
	t.Helper()
	failed := false
	if e.Code != code {
		t.Errorf("%s: code = %q (%q), want %q", what, e.Code, e.Message, code)
		failed = true
	}
	if e.Settlement != settlement {
		t.Errorf("%s: settlement = %q, want %q", what, e.Settlement, settlement)
		failed = true
	}
	if failed {
		t.FailNow()
	}
}

// wantCode stops the test unless the error envelope's code is code.
func wantCode(t *testing.T, what string, e contract.Error, code contract.Code) {
	t.Helper()
	if e.Code != code {
		t.Fatalf("%s: code = %q (%q), want %q", what, e.Code, e.Message, code)
	}
}

// wantRepairTool stops the test unless r is a repair calling tool.
func wantRepairTool(t *testing.T, what string, r *contract.Repair, tool string) {
	t.Helper()
	if r == nil {
		t.Fatalf("%s: repair = nil, want a call to %s", what, tool)
	}
	if r.Tool != tool {
		t.Fatalf("%s: repair.tool = %q, want %q", what, r.Tool, tool)
	}
}

// wantDetailsField stops the test unless the envelope's details name field.
func wantDetailsField(t *testing.T, what string, e contract.Error, field string) {
	t.Helper()
	if e.Details == nil {
		t.Fatalf("%s: details = nil, want field %q", what, field)
	}
	if e.Details.Field != field {
		t.Fatalf("%s: details.field = %q, want %q", what, e.Details.Field, field)
	}
}

// ptr prints what p points to, or nil.
func ptr[T any](p *T) string {
	if p == nil {
		return "nil"
	}
	return fmt.Sprint(*p)
}
