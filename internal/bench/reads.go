package bench

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/github"
)

// RepeatedReadBudget reports the rate budget a second identical issue read
// spends through the access layer (conditional requests make it 0) and the
// budget the first read spent, for comparison.
func RepeatedReadBudget(ctx context.Context) (Figure, error) {
	s, err := startEmulator(emulator.Options{})
	if err != nil {
		return Figure{}, err
	}
	defer func() { _ = s.Close() }()
	spent, err := github.BenchRepeatedRead(ctx, s.URL, emulator.DemoTokenAlice, emulator.DemoOrg, emulator.DemoWidgetsRepo, 1)
	if err != nil {
		return Figure{}, fmt.Errorf("repeated read: %w", err)
	}
	return Figure{Name: "access layer: rate budget spent by a repeated read", Value: float64(spent), Unit: "requests",
		Note: "the first read spends 1; the repeat is answered 304 via its ETag"}, nil
}
