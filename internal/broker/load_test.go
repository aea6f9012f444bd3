package broker_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/broker/brokertest"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// TestDaemonUnderLoad runs 8 socket clients × 60 calls, each client as
// fast as it can, against an emulator that adds 5 ms to every request,
// under the default limits: calls are paced, never refused or lost, and
// every one is audited. It asserts correctness only (the bound below
// catches a hang, not slowness); throughput is measured by ghgate bench.
func TestDaemonUnderLoad(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("480 calls")
	}
	const clients, calls = 8, 60
	d := brokertest.Start(t, brokertest.Options{Latency: 5 * time.Millisecond, Plain: true})
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
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
				for retries := 0; err != nil && retries < 100; retries++ {
					// Over the session's call rate: the refusal says when
					// to send it again, as a well-behaved client does.
					wait, limited := retryAfter(err)
					if !limited {
						break
					}
					time.Sleep(wait)
					res, err = d.Call(ctx, cs, tool, args)
				}
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
		t.Fatalf("the load hung: %d calls done, %d failed after 15 minutes", ok.Load(), fail.Load())
	}
	if n := fail.Load(); n != 0 {
		t.Errorf("%d calls failed, want 0; first error: %v", n, firstErr)
	}
	if n := ok.Load(); n != clients*calls {
		t.Errorf("%d calls succeeded, want %d", n, clients*calls)
	}
	if n := len(brokertest.AuditLines(t, d.Audit)); n != clients*calls {
		t.Errorf("%d audit lines for %d calls", n, clients*calls)
	}
}

// retryAfter reads a rate_limited refusal's retry time.
func retryAfter(err error) (time.Duration, bool) {
	var werr *jsonrpc.Error
	if !errors.As(err, &werr) {
		return 0, false
	}
	var d struct {
		Code         string `json:"code"`
		RetryAfterMS int64  `json:"retry_after_ms"`
	}
	if json.Unmarshal(werr.Data, &d) != nil || d.Code != "rate_limited" {
		return 0, false
	}
	return time.Duration(d.RetryAfterMS) * time.Millisecond, true
}
