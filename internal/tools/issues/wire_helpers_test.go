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
		t.Errorf("retry_after_ms missing: %s", res.JSON)
	}
	if !strings.HasPrefix(e.RequestID, "ghg_") || e.Fingerprint == "" || e.Message == "" {
		t.Errorf("request_id, fingerprint or message missing: %s", res.JSON)
	}
	if write != (e.Settlement != "") {
		t.Errorf("settlement %q on a write=%v tool: %s", e.Settlement, write, res.JSON)
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
		t.Fatal(err)
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
