package projects_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// start runs ghgate with the projects toolset beside the default one,
// against the demo seed as token ("" for alice).
func start(t *testing.T, token string) *servertest.Env {
	t.Helper()
	env := servertest.Start(t, servertest.Options{Token: token, Toolsets: []string{"issues", "projects"}})
	env.Upstream()
	return env
}

// refused makes a call that must fail and checks the envelope as an agent
// meets it (servertest.Refused).
func refused(t *testing.T, env *servertest.Env, tool string, args any) contract.Error {
	t.Helper()
	return servertest.Refused(t, env, tool, args)
}

// upstream is the upstream requests made since the last call, as
// "METHOD /path".
func upstream(env *servertest.Env) []string {
	var got []string
	for _, u := range env.Upstream() {
		method, path, _ := strings.Cut(u, " ")
		got = append(got, method+" "+strings.TrimPrefix(path, "/api/v3"))
	}
	return got
}

func wantCalls(t *testing.T, env *servertest.Env, n int) {
	t.Helper()
	if got := upstream(env); len(got) != n {
		t.Errorf("upstream calls: got %d %q, want %d", len(got), got, n)
	}
}

// repairArgs re-marshals an envelope's literal repair (or follow-up)
// arguments, as an agent passes them back.
func repairArgs(t *testing.T, r *contract.Repair) json.RawMessage {
	t.Helper()
	if r == nil {
		t.Fatal("repair = nil, want a callable one")
	}
	if r.Arguments == nil {
		t.Fatalf("repair arguments = nil, want literal arguments: %+v", r)
	}
	if r.Tool == "" {
		t.Fatalf("repair tool is empty, want one: %+v", r)
	}
	b, err := json.Marshal(r.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func has(list []string, s string) bool { return slices.Contains(list, s) }

var _ = emulator.DemoOrg

// envelopeWant is what a refusal must carry; fields left empty are not
// checked.
type envelopeWant struct {
	code       contract.Code
	field      string // details.field
	settlement contract.Settlement
	repair     string // repair.tool
}

// wantEnvelope checks e against w, one condition each, reporting through
// report (t.Fatalf or t.Errorf); it says whether every condition held.
func wantEnvelope(t *testing.T, report func(string, ...any), what string, e contract.Error, w envelopeWant) bool {
	t.Helper()
	ok := true
	fail := func(format string, args ...any) {
		t.Helper()
		ok = false
		report(format, args...)
	}
	if e.Code != w.code {
		fail("%s: code = %s, want %s (%s)", what, e.Code, w.code, e.Message)
	}
	if w.field != "" {
		if e.Details == nil {
			fail("%s: details = nil, want field %s", what, w.field)
		} else if e.Details.Field != w.field {
			fail("%s: details.field = %q, want %q", what, e.Details.Field, w.field)
		}
	}
	if w.settlement != "" && e.Settlement != w.settlement {
		fail("%s: settlement = %q, want %s", what, e.Settlement, w.settlement)
	}
	if w.repair != "" {
		if e.Repair == nil {
			fail("%s: repair = nil, want a call of %s", what, w.repair)
		} else if e.Repair.Tool != w.repair {
			fail("%s: repair tool = %q, want %s", what, e.Repair.Tool, w.repair)
		}
	}
	return ok
}
