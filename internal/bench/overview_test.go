package bench

import (
	"context"
	"testing"
)

// The overview figure is measured, not assumed: its request count is
// what the meter saw (and what the result reported), within the contract.
func TestOverviewFigures(t *testing.T) {
	figs, err := Overview(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantFigureCount(t, figs, 2)
	checkFigure(t, figs[0], figs[0].Value >= 1 && figs[0].Value <= 5, "1..5")
	checkFigure(t, figs[1], figs[1].Value > 0, "> 0")
	for _, f := range figs {
		t.Logf("%s: %v %s (%s)", f.Name, f.Value, f.Unit, f.Note)
	}
}
