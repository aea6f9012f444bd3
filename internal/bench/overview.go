package bench

import (
	"context"
	"encoding/json"
	"fmt"
)

// Overview reports what github_get_overview of the demo repository costs:
// the upstream requests it makes (at most 5 by contract) and the bytes an
// agent receives, beside the requests it reports making.
func Overview(ctx context.Context) ([]Figure, error) {
	r, err := newRig(ctx, nil)
	if err != nil {
		return nil, err
	}
	defer r.close()
	r.meter.take()
	text, err := r.call(ctx, "github_get_overview", map[string]any{"owner": "acme", "repo": "widgets"})
	if err != nil {
		return nil, err
	}
	reqs, _ := r.meter.take()
	var out struct {
		Requests []json.RawMessage `json:"requests"`
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		return nil, fmt.Errorf("overview: %w", err)
	}
	if len(out.Requests) != len(reqs) {
		return nil, fmt.Errorf("overview: %d upstream requests made, %d reported", len(reqs), len(out.Requests))
	}
	return []Figure{
		{Name: "upstream calls: overview of acme/widgets", Value: float64(len(reqs)), Unit: "calls",
			Note: "one GraphQL query plus the template directory and files; at most 5"},
		{Name: "bytes: overview of acme/widgets", Value: float64(len(text)), Unit: "bytes",
			Note: "counts, labels, milestones, types, templates, 5 newest and 5 most-commented issues, permission"},
	}, nil
}
