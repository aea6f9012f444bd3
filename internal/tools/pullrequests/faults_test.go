package pullrequests_test

import (
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/contract/contracttest"
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
	contracttest.Code(t, "502", e, contract.CodeUpstreamUnavailable)
	contracttest.Settlement(t, "502", e, contract.NoRemoteSuccessKnown)
	contracttest.Temporary(t, "502", e, true)
	contracttest.MustRepair(t, "502", e.Repair, tool)
	if r, _ := threadState(t, env, w); r {
		t.Fatal("502: the thread's resolved = true, want false")
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !out.Thread.Resolved {
		t.Errorf("the repair: thread.resolved = false, want true")
	}
	if out.NoOp {
		t.Errorf("the repair: no_op = true, want false")
	}
}

// A resolve whose answer never came (applied, then the connection
// dropped) is indeterminate; the repair finds it done: no_op.
func TestResolveLostAfterApplying(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	failMutation(t, env, emulator.FaultDropAfter, 0)
	e := refused(t, env, tool, w.args("resolve", nil))
	contracttest.Settlement(t, "dropped answer", e, contract.Indeterminate)
	contracttest.Temporary(t, "dropped answer", e, true)
	contracttest.MustRepair(t, "dropped answer", e.Repair, tool)
	if r, _ := threadState(t, env, w); !r {
		t.Fatal("dropped answer: the emulator's resolved = false, want true (the resolve applied)")
	}
	out := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !out.Thread.Resolved {
		t.Errorf("the repair: thread.resolved = false, want true")
	}
	if !out.NoOp {
		t.Errorf("the repair: no_op = false, want true")
	}
}

// An unkeyed reply whose answer never came is not safe to repeat: the
// repair reads the thread, where the reply is found.
func TestUnkeyedReplyLost(t *testing.T) {
	env := start(t, emulator.DemoTokenBob)
	w := findThread(t, env, isBot)
	failMutation(t, env, emulator.FaultDropAfter, 0)
	e := refused(t, env, tool, w.args("reply", map[string]any{"body": "Thanks, fixed."}))
	contracttest.Settlement(t, "lost reply", e, contract.Indeterminate)
	contracttest.Temporary(t, "lost reply", e, false)
	contracttest.MustRepair(t, "lost reply", e.Repair, toolkit.NameListIssueItems)
	if _, n := threadState(t, env, w); n != 2 {
		t.Fatalf("lost reply: the emulator holds %d comments, want 2 (the reply posted)", n)
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
	if first.ReplyID == 0 {
		t.Errorf("first: reply_id = 0, want the new comment's")
	}
	if first.Replayed {
		t.Errorf("first: replayed = true, want false")
	}
	if !again.Replayed {
		t.Errorf("again: replayed = false, want true")
	}
	if again.ReplyID != first.ReplyID {
		t.Errorf("again: reply_id = %d, want %d (the first's)", again.ReplyID, first.ReplyID)
	}
	if _, n := threadState(t, env, w); n != 2 {
		t.Fatalf("comments after a repeated keyed reply = %d, want 2", n)
	}
	// The same key for another body is refused, with a fresh key ready.
	other := w.args("reply", map[string]any{"body": "Something else.", "idempotency_key": "reply-1"})
	reused := refused(t, env, tool, other)
	contracttest.Code(t, "reused key", reused, contract.CodeIdempotencyKeyReused)
	contracttest.MustRepair(t, "reused key", reused.Repair, tool)

	failMutation(t, env, emulator.FaultDropAfter, 0)
	lost := w.args("reply", map[string]any{"body": "And the docs are updated.", "idempotency_key": "reply-2"})
	e := refused(t, env, tool, lost)
	contracttest.Settlement(t, "lost keyed reply", e, contract.Indeterminate)
	contracttest.Temporary(t, "lost keyed reply", e, true)
	contracttest.MustRepair(t, "lost keyed reply", e.Repair, tool)
	adopted := servertest.CallOK[pullrequests.UpdateReviewThreadOut](t, env, e.Repair.Tool, e.Repair.Arguments)
	if !adopted.Replayed {
		t.Errorf("repeat after a lost answer: replayed = false, want true")
	}
	if adopted.ReplyID == 0 {
		t.Errorf("repeat after a lost answer: reply_id = 0, want the lost reply's")
	}
	if n := len(adopted.Thread.Comments); n != 3 {
		t.Errorf("repeat after a lost answer: thread.comments = %d, want 3", n)
	}
	if _, n := threadState(t, env, w); n != 3 {
		t.Fatalf("comments = %d, want 3: the lost reply was posted again", n)
	}
}
