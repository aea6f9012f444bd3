package issues_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// wireEnvelope checks an error result the way an agent meets it: isError,
// a known code, retry_after_ms present (even when null), a request id, the
// surface fingerprint, and a settlement exactly when the tool writes.
func wireEnvelope(t *testing.T, res servertest.Result, write bool) contract.Error {
	t.Helper()
	e := res.Envelope(t)
	var raw map[string]json.RawMessage
	res.Decode(t, &raw)
	if _, ok := raw["retry_after_ms"]; !ok {
		t.Errorf("retry_after_ms missing, want it present (even null): %s", res.JSON)
	}
	if !strings.HasPrefix(e.RequestID, "ghg_") {
		t.Errorf("request_id = %q, want one starting %q: %s", e.RequestID, "ghg_", res.JSON)
	}
	if e.Fingerprint == "" {
		t.Errorf("fingerprint is empty, want the surface fingerprint: %s", res.JSON)
	}
	if e.Message == "" {
		t.Errorf("message is empty, want one: %s", res.JSON)
	}
	if write != (e.Settlement != "") {
		t.Errorf("settlement = %q on a write=%v tool, want one exactly when the tool writes: %s", e.Settlement, write, res.JSON)
	}
	return e
}

// wantUpstream fails unless the upstream requests made since the last
// check are exactly want, in order ("METHOD /path" without the /api/v3
// prefix).
func wantUpstream(t *testing.T, env *servertest.Env, want ...string) {
	t.Helper()
	var got []string
	for _, u := range env.Upstream() {
		method, path, _ := strings.Cut(u, " ")
		got = append(got, method+" "+strings.TrimPrefix(path, "/api/v3"))
	}
	if !slices.Equal(got, want) {
		t.Errorf("upstream calls:\n got  %q\n want %q", got, want)
	}
}

// addFault installs an emulator fault or fails the test.
func addFault(t *testing.T, env *servertest.Env, f emulator.Fault) {
	t.Helper()
	if err := env.Emu.Emu.Faults().Add(f); err != nil {
		t.Fatalf("add fault %+v: %v", f, err)
	}
}

// widgets returns acme/widgets from the emulator's state; the caller holds
// the state's lock.
func widgets(env *servertest.Env) *emulator.Repo {
	return env.Emu.Emu.State().Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo)
}

// withState runs f under the emulator state's lock.
func withState(env *servertest.Env, f func(s *emulator.State)) {
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	f(s)
}

// wantStrings checks a list of strings against want, exactly and in order
// (nil and empty are equal).
func wantStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s = %q, want %q", what, got, want)
	}
}

// strPtr prints an optional string: its value, or <nil>.
func strPtr(p *string) string {
	if p == nil {
		return "<nil>"
	}
	return *p
}
