package broker_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
)

// TestDaemonUnderLoad runs 50 socket clients × 200 calls against an
// emulator that adds 5 ms to every request. It asserts no error and that
// the run ends within a generous deadline; it does not assert speed.
func TestDaemonUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("10,000 calls")
	}
	const clients, calls = 50, 200
	d := brokertest.Start(t, brokertest.Options{Latency: 5 * time.Millisecond, Plain: true})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	var (
		wg       sync.WaitGroup
		ok, fail atomic.Int64
		errMu    sync.Mutex
		firstErr error
	)
	for c := 0; c < clients; c++ {
		cs := d.Connect(t)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < calls && ctx.Err() == nil; i++ {
				// Spread the calls over 40 issues, the reads a team of
				// agents makes, and every twentieth a search.
				tool, args := "github_get_issue", map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 1 + (c*calls+i)%40}
				if i%20 == 19 {
					tool, args = "github_search_issues", map[string]any{"owner": "acme", "repo": "widgets", "query": "bug"}
				}
				res, err := d.Call(ctx, cs, tool, args)
				if err == nil && res.IsError {
					err = fmt.Errorf("%s: %s", tool, brokertest.ResultText(res))
				}
				if err != nil {
					fail.Add(1)
					errMu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					errMu.Unlock()
					continue
				}
				ok.Add(1)
			}
		}()
	}
	wg.Wait()
	if ctx.Err() != nil {
		t.Fatalf("the load did not finish within the deadline: %d calls done, %d failed", ok.Load(), fail.Load())
	}
	if fail.Load() != 0 || ok.Load() != clients*calls {
		t.Fatalf("%d calls succeeded, %d failed (want %d, 0); first error: %v", ok.Load(), fail.Load(), clients*calls, firstErr)
	}
	if n := len(brokertest.AuditLines(t, d.Audit)); n != clients*calls {
		t.Errorf("%d audit lines for %d calls", n, clients*calls)
	}
}
