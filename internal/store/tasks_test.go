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
		wantTask(t, "GetTask", got, ok, err, 1, `{"status":"working"}`)
		_, ok, err = b.GetTask(ctx, "bob", "t1")
		wantFound(t, "bob's GetTask of alice's task", ok, err, false)
		// A write names the version it read: the first wins, the second
		// (from the same read) writes nothing.
		first, second := got, got
		first.Data = json.RawMessage(`{"status":"completed"}`)
		second.Data = json.RawMessage(`{"status":"cancelled"}`)
		done, err := a.SwapTask(ctx, first)
		wantSwap(t, "first swap", done, err, true)
		done, err = b.SwapTask(ctx, second)
		wantSwap(t, "second swap from a stale read", done, err, false)
		bobs := got
		bobs.Owner, bobs.Version = "bob", 2
		done, err = b.SwapTask(ctx, bobs)
		wantSwap(t, "bob's swap of alice's task", done, err, false)
		got, ok, err = a.GetTask(ctx, "alice", "t1")
		wantTask(t, "GetTask after the swaps", got, ok, err, 2, `{"status":"completed"}`)
		// Past its expiry a task is gone, and cannot be written.
		clk.add(time.Hour + time.Second)
		_, ok, err = b.GetTask(ctx, "alice", "t1")
		wantFound(t, "GetTask of an expired task", ok, err, false)
		got.Data = json.RawMessage(`{"status":"failed"}`)
		done, err = a.SwapTask(ctx, got)
		wantSwap(t, "swap of an expired task", done, err, false)
	})
}

// wantTask stops the test unless GetTask found the task at the version and
// with the data given.
func wantTask(t *testing.T, what string, got TaskRecord, ok bool, err error, version int64, data string) {
	t.Helper()
	wantFound(t, what, ok, err, true)
	if got.Version != version {
		t.Fatalf("%s: Version = %d, want %d", what, got.Version, version)
	}
	if string(got.Data) != data {
		t.Fatalf("%s: Data = %s, want %s", what, got.Data, data)
	}
}

// wantSwap stops the test unless SwapTask returned no error and wrote (or
// not) as want says.
func wantSwap(t *testing.T, what string, done bool, err error, want bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if done != want {
		t.Fatalf("%s: swapped = %v, want %v", what, done, want)
	}
}
