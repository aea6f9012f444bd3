package contracttest_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
)

// recorder is a testing.TB that records what a check reports instead of
// failing; only the methods the checks call are implemented.
type recorder struct {
	testing.TB
	errors  []string
	stopped bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) {
	r.Errorf(format, args...)
	r.stopped = true
}

func (r *recorder) FailNow() { r.stopped = true }

// refusal is an envelope every check below is run against.
var refusal = contract.Error{
	Code:       contract.CodeInvalidField,
	Message:    "labels must be a list",
	Settlement: contract.NotStarted,
	Temporary:  false,
	Details:    &contract.Details{Field: "labels", Rule: "allowed_labels"},
	Repair:     &contract.Repair{Tool: "github_list_repo_metadata"},
}

// Each check holds on a matching envelope, saying nothing, and on a
// mismatch reports one message per condition naming got and want,
// without stopping the test.
func TestChecks(t *testing.T) {
	bare := contract.Error{Code: contract.CodeInvalidField}
	for _, c := range []struct {
		name  string
		check func(t testing.TB) bool
		want  []string // messages; none means the check holds
	}{
		{"code holds", func(t testing.TB) bool { return contracttest.Code(t, "call", refusal, contract.CodeInvalidField) }, nil},
		{"code differs", func(t testing.TB) bool { return contracttest.Code(t, "call", refusal, contract.CodeConflict) },
			[]string{`call: code = "invalid_field", want "conflict" (message "labels must be a list")`}},
		{"no what", func(t testing.TB) bool { return contracttest.Code(t, "", refusal, contract.CodeConflict) },
			[]string{`code = "invalid_field", want "conflict" (message "labels must be a list")`}},
		{"settlement holds", func(t testing.TB) bool { return contracttest.Settlement(t, "call", refusal, contract.NotStarted) }, nil},
		{"settlement differs", func(t testing.TB) bool {
			return contracttest.Settlement(t, "call", refusal, contract.RemoteSuccessKnown)
		},
			[]string{`call: settlement = "not_started", want "remote_success_known"`}},
		{"no settlement wanted", func(t testing.TB) bool { return contracttest.Settlement(t, "call", refusal, "") },
			[]string{`call: settlement = "not_started", want ""`}},
		{"envelope holds", func(t testing.TB) bool {
			return contracttest.Envelope(t, "call", refusal, contract.CodeInvalidField, contract.NotStarted)
		}, nil},
		{"envelope differs twice", func(t testing.TB) bool {
			return contracttest.Envelope(t, "call", refusal, contract.CodeConflict, contract.RemoteSuccessKnown)
		}, []string{
			`call: code = "invalid_field", want "conflict" (message "labels must be a list")`,
			`call: settlement = "not_started", want "remote_success_known"`,
		}},
		{"envelope differs in settlement", func(t testing.TB) bool {
			return contracttest.Envelope(t, "call", refusal, contract.CodeInvalidField, "")
		}, []string{`call: settlement = "not_started", want ""`}},
		{"field holds", func(t testing.TB) bool { return contracttest.Field(t, "call", refusal, "labels") }, nil},
		{"field differs", func(t testing.TB) bool { return contracttest.Field(t, "call", refusal, "title") },
			[]string{`call: details.field = "labels", want "title"`}},
		{"no details for a field", func(t testing.TB) bool { return contracttest.Field(t, "call", bare, "title") },
			[]string{`call: details = nil, want field "title"`}},
		{"rule holds", func(t testing.TB) bool { return contracttest.Rule(t, "call", refusal, "allowed_labels") }, nil},
		{"rule differs", func(t testing.TB) bool { return contracttest.Rule(t, "call", refusal, "flow") },
			[]string{`call: details.rule = "allowed_labels", want "flow"`}},
		{"no details for a rule", func(t testing.TB) bool { return contracttest.Rule(t, "call", bare, "flow") },
			[]string{`call: details = nil, want rule "flow"`}},
		{"temporary holds", func(t testing.TB) bool { return contracttest.Temporary(t, "call", refusal, false) }, nil},
		{"temporary differs", func(t testing.TB) bool { return contracttest.Temporary(t, "call", refusal, true) },
			[]string{`call: temporary = false, want true`}},
		{"repair holds", func(t testing.TB) bool {
			return contracttest.RepairTool(t, "call", refusal.Repair, "github_list_repo_metadata")
		}, nil},
		{"repair differs", func(t testing.TB) bool { return contracttest.RepairTool(t, "call", refusal.Repair, "github_get_issue") },
			[]string{`call: repair.tool = "github_list_repo_metadata", want "github_get_issue"`}},
		{"no repair", func(t testing.TB) bool { return contracttest.RepairTool(t, "call", nil, "github_get_issue") },
			[]string{`call: repair = nil, want a call to github_get_issue`}},
		{"matches all", func(t testing.TB) bool {
			return contracttest.Matches(t, "call", refusal, contracttest.Want{Code: contract.CodeInvalidField,
				Settlement: contract.NotStarted, Field: "labels", Rule: "allowed_labels", RepairTool: "github_list_repo_metadata"})
		}, nil},
		{"matches the code alone", func(t testing.TB) bool {
			return contracttest.Matches(t, "call", bare, contracttest.Want{Code: contract.CodeInvalidField})
		}, nil},
		{"matches nothing", func(t testing.TB) bool {
			return contracttest.Matches(t, "call", bare, contracttest.Want{Code: contract.CodeConflict,
				Settlement: contract.NotStarted, Field: "labels", Rule: "flow", RepairTool: "github_get_issue"})
		}, []string{
			`call: code = "invalid_field", want "conflict" (message "")`,
			`call: settlement = "", want "not_started"`,
			`call: details = nil, want field "labels"`,
			`call: details = nil, want rule "flow"`,
			`call: repair = nil, want a call to github_get_issue`,
		}},
	} {
		r := &recorder{}
		held := c.check(r)
		if held != (c.want == nil) {
			t.Errorf("%s: held = %v, want %v", c.name, held, c.want == nil)
		}
		if !slices.Equal(r.errors, c.want) {
			t.Errorf("%s: reported %q, want %q", c.name, r.errors, c.want)
		}
		if r.stopped {
			t.Errorf("%s: stopped the test, want it to go on", c.name)
		}
	}
}

// MustRepair returns a repair that is there, reporting a wrong tool
// without stopping; with no repair it stops the test.
func TestMustRepair(t *testing.T) {
	r := &recorder{}
	if got := contracttest.MustRepair(r, "call", refusal.Repair, "github_list_repo_metadata"); got != refusal.Repair || len(r.errors) > 0 || r.stopped {
		t.Errorf("matching repair: returned %v, reported %q, stopped %v; want the repair, nothing, false", got, r.errors, r.stopped)
	}

	r = &recorder{}
	got := contracttest.MustRepair(r, "call", refusal.Repair, "github_get_issue")
	want := []string{`call: repair.tool = "github_list_repo_metadata", want "github_get_issue"`}
	if got != refusal.Repair || !slices.Equal(r.errors, want) || r.stopped {
		t.Errorf("other tool: returned %v, reported %q, stopped %v; want the repair, %q, false", got, r.errors, r.stopped, want)
	}

	r = &recorder{}
	got = contracttest.MustRepair(r, "call", nil, "github_get_issue")
	want = []string{`call: repair = nil, want a call to github_get_issue`}
	if got != nil || !slices.Equal(r.errors, want) || !r.stopped {
		t.Errorf("no repair: returned %v, reported %q, stopped %v; want nil, %q, true", got, r.errors, r.stopped, want)
	}
}

// A caller that cannot go on stops the test on a false result.
func TestStopOnFailure(t *testing.T) {
	r := &recorder{}
	if !contracttest.Code(r, "call", refusal, contract.CodeConflict) {
		r.FailNow()
	}
	if !r.stopped || len(r.errors) != 1 {
		t.Errorf("reported %q, stopped %v; want one message, true", r.errors, r.stopped)
	}
}
