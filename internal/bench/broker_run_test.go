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
	if len(figs) < 2 || figs[0].Value <= 0 || figs[1].Value <= 0 {
		t.Fatalf("figures: %v", figs)
	}
	for _, f := range figs {
		t.Log(f)
	}
}
