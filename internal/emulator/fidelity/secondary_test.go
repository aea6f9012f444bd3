package fidelity

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/emulatortest"
)

// More requests in flight than the concurrency limit: the ones over it are
// refused with GitHub's secondary rate limit (403 and a retry-after), which
// leaves the primary budget alone; another credential is not affected, and
// once the others finish the caller is served again. Added latency holds
// the first requests in flight, on the reports' routes as on any.
func TestSecondaryLimitOnConcurrency(t *testing.T) {
	const limit, extra = 4, 3
	srv := emulatortest.Start(t, emulator.Options{Now: emulator.DemoNow, FleetRepos: 2, Latency: time.Second, MaxConcurrent: limit})
	path := fleetRepo(0) + "/actions/runs"
	var wg sync.WaitGroup
	results := make([]*emulatortest.Response, limit+extra)
	send := func(i int) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = srv.Do(t, "GET", path, emulator.DemoTokenAlice, nil)
		}()
	}
	for i := range limit {
		send(i)
	}
	// The refused requests are sent once the first ones are all in flight
	// (held there by the latency).
	for srv.Emu.InFlight(emulator.DemoTokenAlice) < limit {
		time.Sleep(5 * time.Millisecond)
	}
	for i := limit; i < limit+extra; i++ {
		send(i)
	}
	other := srv.Do(t, "GET", path, emulator.DemoTokenBob, nil)
	wg.Wait()
	if peak := srv.Emu.PeakInFlight(emulator.DemoTokenAlice); peak != limit+extra {
		t.Errorf("peak in flight %d, want %d", peak, limit+extra)
	}
	ok, refused := 0, 0
	for _, res := range results {
		switch res.Status {
		case http.StatusOK:
			ok++
		case http.StatusForbidden:
			refused++
			var m message
			res.JSON(t, &m)
			if want := "You have exceeded a secondary rate limit."; !strings.HasPrefix(m.Message, want) {
				t.Errorf("refusal message %q, want one starting %q", m.Message, want)
			}
			if res.Header.Get("Retry-After") == "" {
				t.Errorf("refusal without Retry-After, want one")
			}
		default:
			t.Errorf("status %d: %s", res.Status, res.Body)
		}
	}
	if ok != limit {
		t.Fatalf("%d served, want %d", ok, limit)
	}
	if refused != extra {
		t.Fatalf("%d refused, want %d", refused, extra)
	}
	if other.Status != http.StatusOK {
		t.Errorf("another credential got %d", other.Status)
	}
	res := srv.Do(t, "GET", path, emulator.DemoTokenAlice, nil)
	if res.Status != http.StatusOK {
		t.Fatalf("after the burst: status %d, want %d", res.Status, http.StatusOK)
	}
	// Only the served requests were charged.
	if used := res.Header.Get("X-RateLimit-Used"); used != "5" {
		t.Errorf("x-ratelimit-used %s after %d served requests, want 5", used, limit+1)
	}
}
