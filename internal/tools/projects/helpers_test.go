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
