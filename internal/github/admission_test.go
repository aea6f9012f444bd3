package github

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/policy"
)

// The access layer's own tests drive its write functions directly; the
// write path that admits them is tested in internal/policy and through the
// tools. TestWritesNeedAnAdmission tests the refusal itself.
func TestMain(m *testing.M) {
	admitUnticketed = true
	os.Exit(m.Run())
}

// A write is sent only with an admission from the write path, and only to
// a repository the admitted call declared; reads need none.
func TestWritesNeedAnAdmission(t *testing.T) {
	admitUnticketed = false
	t.Cleanup(func() { admitUnticketed = true })
	e := startEmu(t, emulator.Options{})
	c, _ := newClient(t, e.URL, emulator.DemoTokenAlice)
	ctx := context.Background()
	route := "POST /api/v3/repos/acme/widgets/issues/1/comments"

	_, set, err := c.CreateComment(ctx, "acme", "widgets", 1, "no admission")
	wantRefusal(t, "unadmitted write", set, asError(t, err), NotStarted, Unadmitted)
	if t.Failed() {
		t.FailNow()
	}
	if n := e.count(route); n != 0 {
		t.Fatalf("an unadmitted write reached the emulator %d times, want 0", n)
	}

	admit := func(owner, repo string) context.Context {
		t.Helper()
		actx, _, pe := (&policy.Path{}).Admit(ctx, policy.Call{Tool: "test", Writes: []policy.Write{
			{Kind: policy.KindComment, Target: policy.Target{Owner: owner, Repo: repo, Number: 1}}}})
		if pe != nil {
			t.Fatalf("Admit: %v", pe)
		}
		return actx
	}
	_, _, err = c.CreateComment(admit("acme", "gadgets"), "acme", "widgets", 1, "admitted elsewhere")
	ge := asError(t, err)
	if ge.Code != Unadmitted {
		t.Fatalf("write to an undeclared repository: error code = %q, want %q (%v)", ge.Code, Unadmitted, ge)
	}
	if !strings.Contains(ge.Message, "did not declare") {
		t.Fatalf("write to an undeclared repository: Message = %q, want one saying %q", ge.Message, "did not declare")
	}
	if n := e.count(route); n != 0 {
		t.Fatalf("a write to an undeclared repository reached the emulator %d times, want 0", n)
	}

	_, set, err = c.CreateComment(admit("ACME", "Widgets"), "acme", "widgets", 1, "admitted")
	wantWritten(t, "admitted write", set, err)
	if n := e.count(route); n != 1 {
		t.Fatalf("the admitted write reached the emulator %d times, want 1", n)
	}
	if _, _, err := c.GetIssue(ctx, "acme", "widgets", 1); err != nil {
		t.Fatalf("a read needs no admission: %v", err)
	}
}
