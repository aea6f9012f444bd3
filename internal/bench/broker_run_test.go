package bench

import (
	"context"
	"testing"
	"time"
)

// TestBrokerBench runs the broker measurement once: it must complete
// without a failed call and report its figures.
func TestBrokerBench(t *testing.T) {
	if testing.Short() {
		t.Skip("2,000 calls")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	figs, err := Broker(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) < 2 {
		t.Fatalf("%d figures, want at least 2: %v", len(figs), figs)
	}
	checkFigure(t, figs[0], figs[0].Value > 0, "> 0")
	checkFigure(t, figs[1], figs[1].Value > 0, "> 0")
	for _, f := range figs {
		t.Log(f)
	}
}
