package server

import (
	"context"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fakeHeap stands in for the runtime: the garbage a collection would
// free, and a count of the collections, each signalled on collected.
type fakeHeap struct {
	mu          sync.Mutex
	garbage     uint64
	asked       chan struct{}
	collected   chan struct{}
	collections int
}

func newFakeHeap(garbage uint64) *fakeHeap {
	return &fakeHeap{garbage: garbage, asked: make(chan struct{}, 8), collected: make(chan struct{}, 8)}
}

func (f *fakeHeap) reclaimer() *Reclaimer {
	return &Reclaimer{QuietFor: time.Millisecond, MinGarbage: 1 << 20,
		Garbage: func() uint64 {
			f.asked <- struct{}{}
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.garbage
		},
		Collect: func() {
			f.mu.Lock()
			f.collections++
			f.mu.Unlock()
			f.collected <- struct{}{}
		}}
}

func (f *fakeHeap) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.collections
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

func TestReclaimerCollectsOnceTheBurstEnds(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(64 << 20)
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

func TestReclaimerSkipsLittleGarbage(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(4 << 10) // below MinGarbage
	r := f.reclaimer()
	burst(t, r, 3)()
	wait(t, f.asked, "garbage read after the burst")
	if got := f.count(); got != 0 {
		t.Errorf("collections with 4 KiB of garbage and MinGarbage 1 MiB = %d, want 0", got)
	}
}

// Each burst that leaves enough garbage gets its collection, and Settle
// counts as one ending.
func TestReclaimerCollectsAfterEachBurst(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(64 << 20)
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "collection after Settle")
	burst(t, r, 5)()
	wait(t, f.collected, "collection after the second burst")
	if got, want := r.Reclaims(), 2; got != want {
		t.Errorf("reclaims after Settle and one burst = %d, want %d", got, want)
	}
}

// Settle collects even below MinGarbage (what the build left is
// resident whatever its size); a burst after it is held to MinGarbage.
func TestReclaimerSettleCollectsWhateverTheGarbage(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(4 << 10) // below MinGarbage
	r := f.reclaimer()
	r.Settle()
	wait(t, f.collected, "collection after Settle with 4 KiB of garbage")
	burst(t, r, 3)()
	wait(t, f.asked, "garbage read after the burst")
	if got, want := f.count(), 1; got != want {
		t.Errorf("collections after Settle and a burst leaving 4 KiB = %d, want %d", got, want)
	}
}

func TestHeapGarbageCountsWhatACollectionFrees(t *testing.T) {
	// Not parallel (no parallel test runs beside it): it turns the
	// collector off for the process to make garbage that stays.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	for range 256 {
		sink = make([]byte, 64<<10)
	}
	sink = nil
	before := HeapGarbage()
	if want := uint64(8 << 20); before < want {
		t.Errorf("HeapGarbage after 16 MiB of garbage = %d, want at least %d", before, want)
	}
	runtime.GC()
	if after := HeapGarbage(); after >= before/4 {
		t.Errorf("HeapGarbage after a collection = %d, want less than a quarter of the %d before it", after, before)
	}
}

// sink keeps the compiler from eliding the garbage.
var sink []byte
