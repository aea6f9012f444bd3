package server

import (
	"context"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeHeap stands in for the runtime: its heap goal, which a collection
// lowers to settled, its free resident heap, which a collection returns,
// and a count of the collections, each signalled on collected; every read
// of the goal is signalled on asked.
type fakeHeap struct {
	mu          sync.Mutex
	goal        uint64
	settled     uint64
	free        uint64
	collections int
	asked       chan struct{}
	collected   chan struct{}
}

func newFakeHeap(goal, settled uint64) *fakeHeap {
	return &fakeHeap{goal: goal, settled: settled, asked: make(chan struct{}, 64), collected: make(chan struct{}, 8)}
}

func (f *fakeHeap) reclaimer() *Reclaimer {
	return &Reclaimer{QuietFor: time.Millisecond, MinGrowth: 4 << 20,
		Goal: func() uint64 {
			f.asked <- struct{}{}
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.goal
		},
		Free: func() uint64 {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.free
		},
		Collect: func() {
			f.mu.Lock()
			f.collections++
			f.goal = f.settled
			f.free = 0
			f.mu.Unlock()
			f.collected <- struct{}{}
		}}
}

// setFree is a burst leaving free heap resident.
func (f *fakeHeap) setFree(n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.free = n
}

// setGoal is a burst raising the heap goal.
func (f *fakeHeap) setGoal(g uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.goal = g
}

func (f *fakeHeap) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.collections
}

// drain forgets the goal reads so far.
func (f *fakeHeap) drain() {
	for {
		select {
		case <-f.asked:
		default:
			return
		}
	}
}

// wait fails the test unless ch is signalled within a generous bound (a
// missing signal, not a slow one, is the failure).
func wait(t *testing.T, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatalf("%s: never happened", what)
	}
}

// burst runs n requests through r's middleware, each held until the
// returned function is called.
func burst(t *testing.T, r *Reclaimer, n int) (finish func()) {
	t.Helper()
	hold := make(chan struct{})
	var started, done sync.WaitGroup
	h := r.Middleware(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		started.Done()
		<-hold
		return nil, nil
	})
	for range n {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			_, _ = h(context.Background(), "tools/call", nil)
		}()
	}
	started.Wait()
	return func() { close(hold); done.Wait() }
}

const mb = 1 << 20

func TestReclaimerCollectsOnceTheBurstEnds(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(64*mb, 8*mb)
	r := f.reclaimer()
	finish := burst(t, r, 20)
	if got := r.InFlight(); got != 20 {
		t.Errorf("in flight during the burst = %d, want 20", got)
	}
	if got := f.count(); got != 0 {
		t.Errorf("collections while 20 requests are in flight = %d, want 0", got)
	}
	finish()
	wait(t, f.collected, "collection after the last request ended")
	if got := r.InFlight(); got != 0 {
		t.Errorf("in flight after the burst = %d, want 0", got)
	}
	if got, want := r.Reclaims(), 1; got != want {
		t.Errorf("reclaims = %d, want %d", got, want)
	}
}

// Calls that leave the heap goal where the last collection left it (a
// trickle) earn no collection; a burst that raises it does.
func TestReclaimerCollectsWhenTheGoalRose(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(12*mb, 8*mb)
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "collection after Settle")
	f.drain()
	f.setGoal(11 * mb) // 3 MB above the settled 8: under MinGrowth
	burst(t, r, 3)()
	wait(t, f.asked, "goal read after a trickle")
	if got, want := f.count(), 1; got != want {
		t.Errorf("collections after a trickle raising the goal 3 MB = %d, want %d", got, want)
	}
	f.setGoal(40 * mb)
	burst(t, r, 20)()
	wait(t, f.collected, "collection after a burst raising the goal to 40 MB")
	if got, want := r.Reclaims(), 2; got != want {
		t.Errorf("reclaims after Settle, a trickle and a burst = %d, want %d", got, want)
	}
}

// A burst can leave the goal where it was and its memory free but
// resident (the runtime's scavenger returns it slowly): that earns a
// reclaim too, and a little free heap does not.
func TestReclaimerCollectsWhenFreeHeapStaysResident(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(8*mb, 8*mb)
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "collection after Settle")
	f.drain()
	f.setFree(3 * mb) // under MinGrowth
	burst(t, r, 3)()
	wait(t, f.asked, "goal read after calls leaving 3 MB free")
	if got, want := f.count(), 1; got != want {
		t.Errorf("collections after calls leaving 3 MB of free heap = %d, want %d", got, want)
	}
	f.setFree(6 * mb)
	burst(t, r, 20)()
	wait(t, f.collected, "collection after a burst leaving 6 MB of free heap")
	if got, want := r.Reclaims(), 2; got != want {
		t.Errorf("reclaims after Settle, a trickle and a burst = %d, want %d", got, want)
	}
}

// Settle collects before it returns (the server is not serving yet),
// even with the goal low: what the build left is resident whatever its
// size.
func TestReclaimerSettleCollectsWhateverTheGoal(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(1*mb, 1*mb)
	r := f.reclaimer()
	r.Settle()
	if got, want := r.Reclaims(), 1; got != want {
		t.Errorf("reclaims once Settle returned = %d, want %d", got, want)
	}
	wait(t, f.collected, "collection after Settle with a 1 MB goal")
}

func TestHeapGoalFollowsTheLiveHeap(t *testing.T) {
	// Not parallel (no parallel test runs beside it): it reads the
	// process's own heap goal.
	sink = make([]byte, 32*mb)
	runtime.GC()
	with := HeapGoal()
	if with < 32*mb {
		t.Errorf("HeapGoal with 32 MB live = %d, want at least %d", with, 32*mb)
	}
	sink = nil
	runtime.GC()
	if without := HeapGoal(); without+16*mb > with {
		t.Errorf("HeapGoal once 32 MB died = %d, want at least 16 MB under the %d before", without, with)
	}
}

// The reclaim gives the free heap back to the OS at once: two
// collections alone leave a dead 32 MB resident for the scavenger.
func TestCollectReturnsTheFreeHeap(t *testing.T) {
	// Not parallel: it reads the process's own heap.
	sink = make([]byte, 32*mb)
	for i := range sink {
		sink[i] = 1 // resident, not only reserved
	}
	sink = nil
	collect()
	if free := HeapFree(); free > 4*mb {
		t.Errorf("free heap still resident after collect = %d bytes, want at most %d", free, 4*mb)
	}
}

// sink holds the live heap the tests above measure.
var sink []byte
