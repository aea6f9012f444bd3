package store

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"
)

func TestSuiteTasksSharedOwnedAndVersioned(t *testing.T) {
	eachBackend(t, func(t *testing.T, open func(*testing.T, ...Option) (Backend, Backend)) {
		ctx := context.Background()
		clk := newClock()
		a, b := open(t, clk.options()...)
		rec := TaskRecord{ID: "t1", Owner: "alice", Data: json.RawMessage(`{"status":"working"}`), Expires: clk.now().Add(time.Hour)}
		if err := a.CreateTask(ctx, rec); err != nil {
			t.Fatal(err)
		}
		if err := b.CreateTask(ctx, rec); !errors.Is(err, ErrTaskExists) {
			t.Fatalf("second create: %v, want ErrTaskExists", err)
		}
		// The other handle (replica) reads it; another owner does not.
		got, ok, err := b.GetTask(ctx, "alice", "t1")
		if err != nil || !ok || got.Version != 1 || string(got.Data) != `{"status":"working"}` {
			t.Fatalf("GetTask: %+v %v %v", got, ok, err)
		}
		if _, ok, err := b.GetTask(ctx, "bob", "t1"); err != nil || ok {
			t.Fatalf("bob's GetTask of alice's task: found=%v err=%v", ok, err)
		}
		// A write names the version it read: the first wins, the second
		// (from the same read) writes nothing.
		first, second := got, got
		first.Data = json.RawMessage(`{"status":"completed"}`)
		second.Data = json.RawMessage(`{"status":"cancelled"}`)
		if done, err := a.SwapTask(ctx, first); err != nil || !done {
			t.Fatalf("first swap: %v %v", done, err)
		}
		if done, err := b.SwapTask(ctx, second); err != nil || done {
			t.Fatalf("second swap from a stale read: done=%v err=%v", done, err)
		}
		bobs := got
		bobs.Owner, bobs.Version = "bob", 2
		if done, err := b.SwapTask(ctx, bobs); err != nil || done {
			t.Fatalf("bob's swap of alice's task: done=%v err=%v", done, err)
		}
		got, ok, err = a.GetTask(ctx, "alice", "t1")
		if err != nil || !ok || got.Version != 2 || string(got.Data) != `{"status":"completed"}` {
			t.Fatalf("after the swaps: %+v %v %v", got, ok, err)
		}
		// Past its expiry a task is gone, and cannot be written.
		clk.add(time.Hour + time.Second)
		if _, ok, err := b.GetTask(ctx, "alice", "t1"); err != nil || ok {
			t.Fatalf("expired task: found=%v err=%v", ok, err)
		}
		got.Data = json.RawMessage(`{"status":"failed"}`)
		if done, err := a.SwapTask(ctx, got); err != nil || done {
			t.Fatalf("swap of an expired task: done=%v err=%v", done, err)
		}
	})
}
