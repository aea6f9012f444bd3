package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/fanout"
)

// Reports' fan-out is measured over the fleet organization at GitHub-like
// latency: 200 repositories, 50 ms added to every request.
const (
	reportsFleet   = 200
	reportsLatency = 50 * time.Millisecond
)

// ReportUnlabeled measures github_report_unlabeled over every repository
// of the fleet: its wall time, the calls it made, and how close the wall
// time comes to its lower bound (calls × latency ÷ concurrency: no
// fan-out of that concurrency can be faster); then the same report again
// with nothing changed, whose calls should all be conditional (304s,
// which spend no rate budget).
func ReportUnlabeled(ctx context.Context) ([]Figure, error) {
	r, err := newRigOn(ctx, []string{"reports"}, emulator.Options{FleetRepos: reportsFleet, Latency: reportsLatency,
		CoreLimit: 1_000_000, SearchLimit: 1_000_000})
	if err != nil {
		return nil, err
	}
	defer r.close()
	args := map[string]any{"owner": "fleet", "max_repos": reportsFleet, "max_api_calls": 1000}
	type out struct {
		Rows            []json.RawMessage `json:"rows"`
		APICalls        int               `json:"api_calls"`
		ConditionalHits int               `json:"conditional_hits"`
		Truncated       bool              `json:"truncated"`
	}
	run := func() (out, time.Duration, error) {
		start := time.Now()
		text, err := r.call(ctx, "github_report_unlabeled", args)
		d := time.Since(start)
		var o out
		if err == nil {
			err = json.Unmarshal([]byte(text), &o)
		}
		if err == nil && o.Truncated {
			err = fmt.Errorf("report_unlabeled over %d repositories was truncated", reportsFleet)
		}
		return o, d, err
	}
	first, wall, err := run()
	if err != nil {
		return nil, err
	}
	bound := time.Duration(first.APICalls) * reportsLatency / fanout.DefaultConcurrency
	again, wall2, err := run()
	if err != nil {
		return nil, err
	}
	note := fmt.Sprintf("%d repositories, %v latency, concurrency %d", reportsFleet, reportsLatency, fanout.DefaultConcurrency)
	return []Figure{
		{Name: "report_unlabeled: wall time", Value: float64(wall.Milliseconds()), Unit: "ms", Note: note},
		{Name: "report_unlabeled: calls", Value: float64(first.APICalls), Unit: "calls", Note: fmt.Sprintf("%d rows", len(first.Rows))},
		{Name: "report_unlabeled: wall time / lower bound", Value: float64(wall) / float64(bound), Unit: "ratio",
			Note: fmt.Sprintf("bound = calls × latency ÷ concurrency = %v; goal ≤ 1.2", bound.Round(time.Millisecond))},
		{Name: "report_unlabeled repeated, nothing changed: rate budget spent", Value: float64(again.APICalls - again.ConditionalHits), Unit: "calls",
			Note: fmt.Sprintf("%d calls, %d of them conditional (304); wall %v", again.APICalls, again.ConditionalHits, wall2.Round(time.Millisecond))},
	}, nil
}
