package pullrequests_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/pullrequests"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// failMutation makes the next GraphQL mutation fail as kind: the read of
// the thread before it goes through (every call here is a POST to the
// GraphQL endpoint, read first, then the write).
func failMutation(t *testing.T, env *servertest.Env, kind emulator.FaultKind, status int) {
	t.Helper()
	if err := env.Emu.Emu.Faults().Add(emulator.Fault{Method: "POST", Kind: kind, Status: status, After: 1, Times: 1}); err != nil {
		t.Fatal(err)
	}
}

// A resolve GitHub answered with 502 may or may not have landed: the
// envelope says so, and its repair (the same call) finishes the work,
// as a write or as a no_op.
func TestResolveLostTo502(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	failMutation(t, env, emulator.FaultStatus, 502)
	e := refused(t, env, tool, w.args("resolve", nil))
	if e.Code != contract.CodeUpstreamUnavailable || e.Settlement != contract.NoRemoteSuccessKnown || !e.Temporary || e.Repair == nil || e.Repair.Tool != tool {
		t.Fatalf("502: %+v", e)
	}
	if r, _ := threadState(t, env, w); r {
		t.Fatal("the 502 resolved the thread")
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !out.Thread.Resolved || out.NoOp {
		t.Fatalf("the repair: %+v", out)
	}
}

// A resolve whose answer never came (applied, then the connection
// dropped) is indeterminate; the repair finds it done: no_op.
func TestResolveLostAfterApplying(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	failMutation(t, env, emulator.FaultDropAfter, 0)
	e := refused(t, env, tool, w.args("resolve", nil))
	if e.Settlement != contract.Indeterminate || !e.Temporary || e.Repair == nil || e.Repair.Tool != tool {
		t.Fatalf("dropped answer: %+v", e)
	}
	if r, _ := threadState(t, env, w); !r {
		t.Fatal("the emulator did not apply the resolve")
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !out.Thread.Resolved || !out.NoOp {
		t.Fatalf("the repair: %+v", out)
	}
}

// An unkeyed reply whose answer never came is not safe to repeat: the
// repair reads the thread, where the reply is found.
func TestUnkeyedReplyLost(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	failMutation(t, env, emulator.FaultDropAfter, 0)
	e := refused(t, env, tool, w.args("reply", map[string]any{"body": "Thanks, fixed."}))
	if e.Settlement != contract.Indeterminate || e.Temporary || e.Repair == nil || e.Repair.Tool != toolkit.NameListIssueItems {
		t.Fatalf("lost reply: %+v", e)
	}
	if _, n := threadState(t, env, w); n != 2 {
		t.Fatalf("the emulator holds %d comments, want the reply posted", n)
	}
	servertest.CallOK[map[string]any](t, env, e.Repair.Tool, e.Repair.Arguments)
}

// A keyed reply posts once: its repeat is replayed, and a repeat after a
// lost answer finds the reply already posted instead of posting another.
func TestKeyedReply(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	args := w.args("reply", map[string]any{"body": "Fixed in the next push.", "idempotency_key": "reply-1"})
	first := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, args)
	again := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, tool, args)
	if first.ReplyID == 0 || first.Replayed || !again.Replayed || again.ReplyID != first.ReplyID {
		t.Fatalf("first %+v, again %+v", first, again)
	}
	if _, n := threadState(t, env, w); n != 2 {
		t.Fatalf("%d comments after a repeated keyed reply, want 2", n)
	}
	// The same key for another body is refused, with a fresh key ready.
	other := w.args("reply", map[string]any{"body": "Something else.", "idempotency_key": "reply-1"})
	if e := refused(t, env, tool, other); e.Code != contract.CodeIdempotencyKeyReused || e.Repair == nil || e.Repair.Tool != tool {
		t.Fatalf("reused key: %+v", e)
	}

	failMutation(t, env, emulator.FaultDropAfter, 0)
	lost := w.args("reply", map[string]any{"body": "And the docs are updated.", "idempotency_key": "reply-2"})
	e := refused(t, env, tool, lost)
	if e.Settlement != contract.Indeterminate || !e.Temporary || e.Repair == nil || e.Repair.Tool != tool {
		t.Fatalf("lost keyed reply: %+v", e)
	}
	adopted := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !adopted.Replayed || adopted.ReplyID == 0 || len(adopted.Thread.Comments) != 3 {
		t.Fatalf("repeat after a lost answer: %+v", adopted)
	}
	if _, n := threadState(t, env, w); n != 3 {
		t.Fatalf("%d comments, want 3: the lost reply was posted again", n)
	}
}
