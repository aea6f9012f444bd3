package bench

import "context"

// Config bounds the measurements.
type Config struct {
	Requests int // requests for throughput measurements
	Workers  int // concurrent connections for them
	// OverheadCalls is how many calls per tool the overhead percentiles
	// are taken over.
	OverheadCalls int
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
	if cfg.OverheadCalls <= 0 {
		cfg.OverheadCalls = 300
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
	more, err := Surface(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Tasks(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Answers(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Triage(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Overview(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = ReportUnlabeled(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Bulk(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Projects(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Listing(ctx, ListingAttempts)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Sync(ctx)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Overhead(ctx, cfg.OverheadCalls)
	figs = append(figs, more...)
	if err != nil {
		return figs, err
	}
	more, err = Broker(ctx)
	figs = append(figs, more...)
	return figs, err
}
