package server

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeHeap stands in for the runtime: its resident memory, which a
// reclaim lowers to settled, and a count of the reclaims, each signalled
// on collected; every read of the resident memory is signalled on asked.
type fakeHeap struct {
	mu          sync.Mutex
	resident    uint64
	settled     uint64
	live        uint64 // what a reclaim finds live
	collections int
	asked       chan struct{}
	collected   chan struct{}
}

func newFakeHeap(resident, settled uint64) *fakeHeap {
	return &fakeHeap{resident: resident, settled: settled, asked: make(chan struct{}, 64), collected: make(chan struct{}, 8)}
}

func (f *fakeHeap) reclaimer() *Reclaimer {
	return &Reclaimer{QuietFor: time.Millisecond, MinGrowth: 4 << 20,
		Resident: func() uint64 {
			f.asked <- struct{}{}
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.resident
		},
		Live: func() uint64 {
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.live
		},
		Collect: func() {
			f.mu.Lock()
			f.collections++
			f.resident = f.settled
			f.mu.Unlock()
			f.collected <- struct{}{}
		}}
}

// setResident is a burst raising the resident memory.
func (f *fakeHeap) setResident(n uint64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.resident = n
}

func (f *fakeHeap) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.collections
}

// drain forgets the reads so far.
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

// Calls that leave the resident memory where the last reclaim left it
// (a trickle) earn no reclaim; a burst that raises it does.
func TestReclaimerCollectsWhenResidentMemoryRose(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(12*mb, 8*mb)
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "reclaim after Settle")
	f.drain()
	f.setResident(11 * mb) // 3 MB above the settled 8: under MinGrowth
	burst(t, r, 3)()
	wait(t, f.asked, "resident memory read after a trickle")
	if got, want := f.count(), 1; got != want {
		t.Errorf("reclaims after a trickle raising the resident memory 3 MB = %d, want %d", got, want)
	}
	f.setResident(40 * mb)
	burst(t, r, 20)()
	wait(t, f.collected, "reclaim after a burst raising the resident memory to 40 MB")
	if got, want := r.Reclaims(), 2; got != want {
		t.Errorf("reclaims after Settle, a trickle and a burst = %d, want %d", got, want)
	}
}

// With a large live heap, the growth a trickle of calls brings (the heap
// grows to twice the live heap between collections) earns no reclaim;
// growth beyond it does.
func TestReclaimerAllowsTheLiveHeapsOwnGrowth(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(40*mb, 24*mb)
	f.live = 20 * mb
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "reclaim after Settle")
	f.drain()
	f.setResident(24*mb + 18*mb) // under the 20 MB live heap's own growth
	burst(t, r, 3)()
	wait(t, f.asked, "resident memory read after a trickle")
	if got, want := f.count(), 1; got != want {
		t.Errorf("reclaims after growth of 18 MB with 20 MB live = %d, want %d", got, want)
	}
	f.setResident(24*mb + 30*mb)
	burst(t, r, 20)()
	wait(t, f.collected, "reclaim after growth of 30 MB with 20 MB live")
}

// No reclaim runs while a task is running (outside any request), even
// after a burst; the next quiet spell without one reclaims.
func TestReclaimerWaitsForRunningTasks(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(8*mb, 8*mb)
	r := f.reclaimer()
	var mu sync.Mutex
	tasks := 1
	consulted := make(chan struct{}, 64)
	r.Busy = func() bool {
		consulted <- struct{}{}
		mu.Lock()
		defer mu.Unlock()
		return tasks > 0
	}
	f.setResident(40 * mb)
	burst(t, r, 5)()
	wait(t, consulted, "a quiet spell with a task running")
	if got := f.count(); got != 0 {
		t.Errorf("reclaims with a task running = %d, want 0", got)
	}
	mu.Lock()
	tasks = 0
	mu.Unlock()
	burst(t, r, 1)() // the client's poll for the task's result
	wait(t, f.collected, "reclaim once the task ended")
	if got, want := r.Reclaims(), 1; got != want {
		t.Errorf("reclaims after a burst during a task and a poll after it = %d, want %d", got, want)
	}
}

// Settle collects before it returns (the server is not serving yet),
// even with little resident: what the build left is resident whatever its
// size.
func TestReclaimerSettleCollectsWhateverTheGrowth(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(1*mb, 1*mb)
	r := f.reclaimer()
	r.Settle()
	if got, want := r.Reclaims(), 1; got != want {
		t.Errorf("reclaims once Settle returned = %d, want %d", got, want)
	}
	wait(t, f.collected, "reclaim after Settle with 1 MB resident")
}

// Resident follows what the process holds, and the reclaim returns what
// died at once: two collections alone leave a dead 32 MB resident for
// the runtime's scavenger.
func TestCollectReturnsWhatDied(t *testing.T) {
	// Not parallel (no parallel test runs beside it): it reads the
	// process's own memory.
	collect()
	before := Resident()
	sink = make([]byte, 32*mb)
	for i := range sink {
		sink[i] = 1 // resident, not only reserved
	}
	with := Resident()
	if with < before+24*mb { // the allocation may reuse what the runtime kept
		t.Errorf("Resident with 32 MB more live = %d, want at least %d", with, before+24*mb)
	}
	sink = nil
	collect()
	if after := Resident(); after+16*mb > with {
		t.Errorf("Resident once 32 MB died and collect ran = %d, want at least 16 MB under the %d before", after, with)
	}
}

// sink holds the live heap the tests above measure.
var sink []byte
