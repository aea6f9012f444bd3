package bench

import (
	"context"
	"testing"
)

// The sync figures come from a run whose second sync is one request
// answered 304 (Sync fails otherwise).
func TestSyncBench(t *testing.T) {
	figs, err := Sync(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 4 || figs[2].Value != 1 || figs[3].Value != 0 || figs[0].Value < 2 {
		t.Fatalf("figures: %v", figs)
	}
	for _, f := range figs {
		t.Log(f)
	}
}
