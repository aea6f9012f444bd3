package bench

import (
	"context"
	"testing"
	"time"
)

// TestListingBench runs both paths: every plain listing succeeds on the
// list path; search lets through its 30 a minute (and repeats of pages no
// write changed, answered 304) and refuses the rest; a summary row costs
// the same bytes whichever path read it.
func TestListingBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	figs, err := Listing(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		t.Log(f)
	}
	if len(figs) != 5 || figs[0].Value != listingAttempts || figs[1].Value >= figs[0].Value || figs[1].Value < 30 || figs[2].Value <= 0 {
		t.Fatalf("figures: %v", figs)
	}
	if figs[3].Value <= 0 || figs[3].Value != figs[4].Value {
		t.Fatalf("bytes per row differ between paths: list %.1f, search %.1f", figs[3].Value, figs[4].Value)
	}
}
