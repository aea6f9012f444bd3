// Package bench measures ghgate on the machine it runs on and reports the
// figures `ghgate bench` prints. Nothing here passes or fails on a clock:
// the numbers are printed for people to read and compare.
package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/ghgate/ghgate/internal/demo"
	"github.com/ghgate/ghgate/internal/emulator"
)

// Figure is one measured quantity.
type Figure struct {
	Name  string
	Value float64
	Unit  string
	// Note says what the figure is compared against, if anything.
	Note string
}

func (f Figure) String() string {
	// A ratio is read against goals like 1.2: one decimal would round
	// 1.24 into it.
	digits := 1
	if f.Unit == "ratio" {
		digits = 2
	}
	s := fmt.Sprintf("%-72s %9.*f %s", f.Name, digits, f.Value, f.Unit)
	if f.Note != "" {
		s += "  (" + f.Note + ")"
	}
	return s
}

// startEmulator runs an emulator on a loopback port for the duration of a
// measurement.
func startEmulator(opts emulator.Options) (*demo.Emulator, error) { return demo.StartEmulator(opts) }

// EmulatorIssueGET measures the emulator's throughput for a plain issue GET
// over loopback HTTP: `requests` requests spread over `workers` connections,
// stopping early at the deadline in ctx.
func EmulatorIssueGET(ctx context.Context, requests, workers int) (Figure, error) {
	// A budget large enough that the measurement never hits the rate limit.
	s, err := startEmulator(emulator.Options{CoreLimit: requests + 100})
	if err != nil {
		return Figure{}, err
	}
	defer func() { _ = s.Close() }()
	tr := &http.Transport{MaxIdleConnsPerHost: workers}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	url := s.URL + "/repos/acme/widgets/issues/1"

	var done, failed atomic.Int64
	var firstErr error
	var once sync.Once
	var wg sync.WaitGroup
	start := time.Now()
	per := requests / workers
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < per && ctx.Err() == nil; i++ {
				req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
				req.Header.Set("Authorization", "token "+emulator.DemoTokenAlice)
				resp, err := client.Do(req)
				if err == nil {
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						err = fmt.Errorf("GET %s: status %d", url, resp.StatusCode)
					}
				}
				if err != nil {
					failed.Add(1)
					once.Do(func() { firstErr = err })
					continue
				}
				done.Add(1)
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	if done.Load() == 0 {
		return Figure{}, errors.Join(errors.New("no request succeeded"), firstErr)
	}
	if failed.Load() > 0 {
		return Figure{}, fmt.Errorf("%d of %d requests failed: %w", failed.Load(), done.Load()+failed.Load(), firstErr)
	}
	return Figure{Name: "emulator: plain issue GET throughput", Value: float64(done.Load()) / elapsed.Seconds(),
		Unit: "req/s", Note: fmt.Sprintf("%d requests, %d connections, loopback", done.Load(), workers)}, nil
}
