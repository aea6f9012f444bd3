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

// fakeHeap stands in for the runtime: what a collection would return,
// and a count of the releases, each signalled on released.
type fakeHeap struct {
	mu         sync.Mutex
	returnable uint64
	asked      chan struct{}
	released   chan struct{}
	releases   int
}

func newFakeHeap(returnable uint64) *fakeHeap {
	return &fakeHeap{returnable: returnable, asked: make(chan struct{}, 8), released: make(chan struct{}, 8)}
}

func (f *fakeHeap) reclaimer() *Reclaimer {
	return &Reclaimer{QuietFor: time.Millisecond, MinReturn: 1 << 20,
		Returnable: func() uint64 {
			f.asked <- struct{}{}
			f.mu.Lock()
			defer f.mu.Unlock()
			return f.returnable
		},
		Release: func() {
			f.mu.Lock()
			f.releases++
			f.mu.Unlock()
			f.released <- struct{}{}
		}}
}

func (f *fakeHeap) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.releases
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

func TestReclaimerReleasesOnceTheBurstEnds(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(64 << 20)
	r := f.reclaimer()
	finish := burst(t, r, 20)
	if got := r.InFlight(); got != 20 {
		t.Errorf("in flight during the burst = %d, want 20", got)
	}
	if got := f.count(); got != 0 {
		t.Errorf("releases while 20 requests are in flight = %d, want 0", got)
	}
	finish()
	wait(t, f.released, "release after the last request ended")
	if got := r.InFlight(); got != 0 {
		t.Errorf("in flight after the burst = %d, want 0", got)
	}
	if got, want := r.Reclaims(), 1; got != want {
		t.Errorf("reclaims = %d, want %d", got, want)
	}
}

func TestReclaimerSkipsAHeapWithLittleToReturn(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(4 << 10) // below MinReturn
	r := f.reclaimer()
	burst(t, r, 3)()
	wait(t, f.asked, "returnable read after the burst")
	if got := f.count(); got != 0 {
		t.Errorf("releases with 4 KiB returnable and MinReturn 1 MiB = %d, want 0", got)
	}
}

// Each burst that leaves enough to return gets its reclaim, and Settle
// counts as one ending.
func TestReclaimerReleasesAfterEachBurst(t *testing.T) {
	t.Parallel()
	f := newFakeHeap(64 << 20)
	r := f.reclaimer()
	r.Settle()
	wait(t, f.released, "release after Settle")
	burst(t, r, 5)()
	wait(t, f.released, "release after the second burst")
	if got, want := r.Reclaims(), 2; got != want {
		t.Errorf("reclaims after Settle and one burst = %d, want %d", got, want)
	}
}

func TestHeapReturnableCountsGarbage(t *testing.T) {
	// Not parallel (no parallel test runs beside it): it turns the
	// collector off for the process to make garbage that stays.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	runtime.GC()
	for range 256 {
		sink = make([]byte, 64<<10)
	}
	sink = nil
	held := HeapReturnable()
	if want := uint64(8 << 20); held < want {
		t.Errorf("HeapReturnable after 16 MiB of garbage = %d, want at least %d", held, want)
	}
	debug.FreeOSMemory()
	if after := HeapReturnable(); after >= held {
		t.Errorf("HeapReturnable after debug.FreeOSMemory = %d, want less than %d before it", after, held)
	}
}

// sink keeps the compiler from eliding the garbage.
var sink []byte
