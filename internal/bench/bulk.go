package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/tools/issues"
)

// Bulk edit measurement: bulkIssues open issues of acme/widgets get one
// label through github_bulk_update_issues, against an emulator that answers
// every request after bulkLatency.
const (
	bulkIssues  = 50
	bulkLatency = 50 * time.Millisecond
	bulkLabel   = "help wanted"
)

// Bulk labels bulkIssues issues in one github_bulk_update_issues call and
// reports the upstream calls it made (one preflight read, one write per
// issue) and its wall time against the lower bound the concurrency allows:
// writes × latency ÷ concurrency, plus the preflight's latency.
func Bulk(ctx context.Context) ([]Figure, error) {
	r, err := newRigOn(ctx, nil, emulator.Options{Latency: bulkLatency, CoreLimit: 1_000_000, SearchLimit: 1_000_000})
	if err != nil {
		return nil, err
	}
	defer r.close()
	targets, err := bulkTargets(ctx, r)
	if err != nil {
		return nil, err
	}
	r.meter.take()
	start := time.Now()
	text, err := r.call(ctx, "github_bulk_update_issues", map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo,
		"issue_numbers": targets, "changes": map[string]any{"labels": map[string]any{"add": []string{bulkLabel}}}})
	wall := time.Since(start)
	if err != nil {
		return nil, err
	}
	reqs, _ := r.meter.take()
	var out issues.BulkUpdateIssuesOut
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, err
	}
	for _, it := range out.Items {
		if it.Settlement != issues.BulkApplied {
			return nil, fmt.Errorf("bulk: #%d settled %s", it.IssueNumber, it.Settlement)
		}
	}
	if len(out.Items) != len(targets) {
		return nil, fmt.Errorf("bulk: %d items for %d issues", len(out.Items), len(targets))
	}
	reads, writes := 0, 0
	for _, q := range reqs {
		if strings.HasPrefix(q, "GET ") || strings.HasSuffix(q, "/graphql") {
			reads++
		} else {
			writes++
		}
	}
	bound := time.Duration(writes)*bulkLatency/issues.BulkConcurrency + time.Duration(reads)*bulkLatency
	load := fmt.Sprintf("%d issues labelled, concurrency %d, %v emulator latency", len(targets), issues.BulkConcurrency, bulkLatency)
	return []Figure{
		{Name: "bulk update: issues", Value: float64(len(targets)), Unit: "issues", Note: load},
		{Name: "bulk update: concurrency", Value: issues.BulkConcurrency, Unit: "writes at once"},
		{Name: "bulk update: upstream calls", Value: float64(len(reqs)), Unit: "calls", Note: fmt.Sprintf("%d preflight read, %d writes", reads, writes)},
		{Name: "bulk update: wall time", Value: float64(wall.Microseconds()) / 1000, Unit: "ms"},
		{Name: "bulk update: lower bound, writes × latency ÷ concurrency + preflight", Value: float64(bound.Microseconds()) / 1000, Unit: "ms"},
		{Name: "bulk update: wall time ÷ lower bound", Value: wall.Seconds() / bound.Seconds(), Unit: "x"},
	}, nil
}

// bulkTargets lists bulkIssues open issues (not pull requests) without
// bulkLabel.
func bulkTargets(ctx context.Context, r *rig) ([]int, error) {
	var out []int
	cursor := ""
	for len(out) < bulkIssues {
		args := map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "state": "open", "page_size": 100, "detail": "full"}
		if cursor != "" {
			args["cursor"] = cursor
		}
		text, err := r.call(ctx, "github_search_issues", args)
		if err != nil {
			return nil, err
		}
		var page struct {
			Items []struct {
				Number      int      `json:"number"`
				Labels      []string `json:"labels"`
				PullRequest bool     `json:"is_pr"`
			} `json:"items"`
			NextCursor string `json:"next_cursor"`
		}
		if err := json.Unmarshal([]byte(text), &page); err != nil {
			return nil, err
		}
		for _, it := range page.Items {
			if len(out) < bulkIssues && !it.PullRequest && !slices.Contains(it.Labels, bulkLabel) {
				out = append(out, it.Number)
			}
		}
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	if len(out) < bulkIssues {
		return nil, fmt.Errorf("bulk: only %d open issues without %q", len(out), bulkLabel)
	}
	return out, nil
}
