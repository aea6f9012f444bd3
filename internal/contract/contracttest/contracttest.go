// Package contracttest checks a tool's error envelope ([contract.Error])
// in tests; only test files import it.
//
// Each check reports through t.Errorf, one message per condition that
// does not hold, naming what it got and what it wanted, and returns
// whether every condition held. A caller that cannot go on after a
// failed check stops the test itself:
//
//	if !contracttest.Code(t, "create", e, contract.CodeInvalidField) {
//		t.FailNow()
//	}
//
// [MustRepair] is the one check that stops the test on its own, when
// there is no repair to return.
//
// what names the call the envelope answered and opens every message; an
// empty what opens none.
package contracttest

import (
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
)

// prefix is what, ready to open a message.
func prefix(what string) string {
	if what == "" {
		return ""
	}
	return what + ": "
}

// Code checks e's code; the message quotes e's message too.
func Code(t testing.TB, what string, e contract.Error, code contract.Code) bool {
	t.Helper()
	if e.Code != code {
		t.Errorf("%scode = %q, want %q (message %q)", prefix(what), e.Code, code, e.Message)
		return false
	}
	return true
}

// Settlement checks e's settlement; want "" checks that there is none.
func Settlement(t testing.TB, what string, e contract.Error, want contract.Settlement) bool {
	t.Helper()
	if e.Settlement != want {
		t.Errorf("%ssettlement = %q, want %q", prefix(what), e.Settlement, want)
		return false
	}
	return true
}

// Envelope checks e's code and settlement, one message each.
func Envelope(t testing.TB, what string, e contract.Error, code contract.Code, s contract.Settlement) bool {
	t.Helper()
	ok := Code(t, what, e, code)
	return Settlement(t, what, e, s) && ok
}

// Field checks the argument e's details name; missing details fail it.
func Field(t testing.TB, what string, e contract.Error, field string) bool {
	t.Helper()
	return detail(t, what, e, "field", field, func(d *contract.Details) string { return d.Field })
}

// Rule checks the policy rule e's details name; missing details fail it.
func Rule(t testing.TB, what string, e contract.Error, rule string) bool {
	t.Helper()
	return detail(t, what, e, "rule", rule, func(d *contract.Details) string { return d.Rule })
}

// detail checks the member of e's details that get reads, named name.
func detail(t testing.TB, what string, e contract.Error, name, want string, get func(*contract.Details) string) bool {
	t.Helper()
	if e.Details == nil {
		t.Errorf("%sdetails = nil, want %s %q", prefix(what), name, want)
		return false
	}
	if got := get(e.Details); got != want {
		t.Errorf("%sdetails.%s = %q, want %q", prefix(what), name, got, want)
		return false
	}
	return true
}

// Temporary checks e's temporary flag.
func Temporary(t testing.TB, what string, e contract.Error, want bool) bool {
	t.Helper()
	if e.Temporary != want {
		t.Errorf("%stemporary = %v, want %v", prefix(what), e.Temporary, want)
		return false
	}
	return true
}

// RepairTool checks that r (an envelope's repair or follow-up, or a
// result's retry) is a call to tool; a nil r fails it.
func RepairTool(t testing.TB, what string, r *contract.Repair, tool string) bool {
	t.Helper()
	if r == nil {
		t.Errorf("%srepair = nil, want a call to %s", prefix(what), tool)
		return false
	}
	if r.Tool != tool {
		t.Errorf("%srepair.tool = %q, want %q", prefix(what), r.Tool, tool)
		return false
	}
	return true
}

// MustRepair checks r as [RepairTool] does, but stops the test when r is
// nil, for callers that go on to use the repair; it returns r.
func MustRepair(t testing.TB, what string, r *contract.Repair, tool string) *contract.Repair {
	t.Helper()
	if r == nil {
		t.Fatalf("%srepair = nil, want a call to %s", prefix(what), tool)
		return nil
	}
	RepairTool(t, what, r, tool)
	return r
}

// Want is what an envelope must carry for [Matches]. Code is always
// checked; the other fields only when they are not empty.
type Want struct {
	Code       contract.Code
	Settlement contract.Settlement
	Field      string // details.field
	Rule       string // details.rule
	RepairTool string // repair.tool
}

// Matches checks e against w, one message per condition that does not
// hold.
func Matches(t testing.TB, what string, e contract.Error, w Want) bool {
	t.Helper()
	ok := Code(t, what, e, w.Code)
	if w.Settlement != "" {
		ok = Settlement(t, what, e, w.Settlement) && ok
	}
	if w.Field != "" {
		ok = Field(t, what, e, w.Field) && ok
	}
	if w.Rule != "" {
		ok = Rule(t, what, e, w.Rule) && ok
	}
	if w.RepairTool != "" {
		ok = RepairTool(t, what, e.Repair, w.RepairTool) && ok
	}
	return ok
}
