package admin_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
)

// start runs ghgate with the admin toolset (and the default one beside
// it, as an operator enabling it would) against the demo seed as token.
func start(t *testing.T, token string) *servertest.Env {
	t.Helper()
	env := servertest.Start(t, servertest.Options{Token: token, Toolsets: []string{"issues", "admin"}})
	env.Upstream()
	return env
}

// refused makes a call that must fail and checks its envelope as an
// agent meets it (servertest.Refused), with a settlement: these tools all
// write.
func refused(t *testing.T, env *servertest.Env, tool string, args any) contract.Error {
	t.Helper()
	e := servertest.Refused(t, env, tool, args)
	if e.Settlement == "" {
		t.Errorf("settlement = \"\", want one: %+v", e)
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

// inWidgets runs f on acme/widgets under the emulator state's lock.
func inWidgets(env *servertest.Env, f func(r *emulator.Repo)) {
	s := env.Emu.Emu.State()
	s.Lock()
	defer s.Unlock()
	f(s.Repo(emulator.DemoOrg, emulator.DemoWidgetsRepo))
}

// repairArgs re-marshals an envelope's literal repair arguments, as an
// agent passes them back.
func repairArgs(t *testing.T, e contract.Error) json.RawMessage {
	t.Helper()
	if e.Repair == nil {
		t.Fatalf("repair = nil, want a literal call (%+v)", e)
	}
	if e.Repair.Arguments == nil {
		t.Fatalf("repair.arguments = nil, want literal arguments (repair %+v)", *e.Repair)
	}
	b, err := json.Marshal(e.Repair.Arguments)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func ptr[T any](v T) *T { return &v }

// wantContains checks that the text named name holds sub.
func wantContains(t *testing.T, what, name, got, sub string) {
	t.Helper()
	if !strings.Contains(got, sub) {
		t.Errorf("%s: %s = %q, want it to contain %q", what, name, got, sub)
	}
}

// wantNoOp checks an answer's no_op flag.
func wantNoOp(t *testing.T, what string, got, want bool) {
	t.Helper()
	if got != want {
		t.Errorf("%s: no_op = %v, want %v", what, got, want)
	}
}

// wantDeleted checks an answer's deleted flag.
func wantDeleted(t *testing.T, what string, got, want bool) {
	t.Helper()
	if got != want {
		t.Errorf("%s: deleted = %v, want %v", what, got, want)
	}
}

// wantChanged checks an answer's changed_fields, joined with commas.
func wantChanged(t *testing.T, what string, got []string, want string) {
	t.Helper()
	if g := strings.Join(got, ","); g != want {
		t.Errorf("%s: changed_fields = %q, want %q", what, g, want)
	}
}
