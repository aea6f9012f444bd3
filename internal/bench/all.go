package bench

import "context"

// Config bounds the measurements.
type Config struct {
	Requests int // requests for throughput measurements
	Workers  int // concurrent connections for them
}

// All runs every measurement and returns the figures gathered, stopping at
// the first failure.
func All(ctx context.Context, cfg Config) ([]Figure, error) {
	if cfg.Requests <= 0 {
		cfg.Requests = 20000
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 4
	}
	var figs []Figure
	f, err := EmulatorIssueGET(ctx, cfg.Requests, cfg.Workers)
	if err != nil {
		return figs, err
	}
	figs = append(figs, f)
	if f, err = RepeatedReadBudget(ctx); err != nil {
		return figs, err
	}
	figs = append(figs, f)
	return figs, nil
}
