package bench

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestListingBench runs both paths: every plain listing succeeds on the
// list path; search lets through its 30 a minute (and repeats of pages no
// write changed, answered 304) and refuses the rest; a summary row costs
// the same bytes whichever path read it.
//
// It asks each path for 100 listings, more than search lets through, rather
// than the bench's 200: enough to show both behaviours, and light enough
// for a busy machine under the race detector. The deadline only stops a
// hung run.
func TestListingBench(t *testing.T) {
	const attempts = 100
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	figs, err := Listing(ctx, attempts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		t.Log(f)
	}
	wantFigureCount(t, figs, 5)
	checkFigure(t, figs[0], figs[0].Value == attempts, fmt.Sprint(attempts))
	checkFigure(t, figs[1], figs[1].Value < figs[0].Value && figs[1].Value >= 30, fmt.Sprintf("30..%v (below %s)", figs[0].Value, figs[0].Name))
	checkFigure(t, figs[2], figs[2].Value > 0, "> 0")
	checkFigure(t, figs[3], figs[3].Value > 0, "> 0")
	if figs[3].Value != figs[4].Value {
		t.Errorf("bytes per row differ between paths: list %.1f, search %.1f, want them equal", figs[3].Value, figs[4].Value)
	}
}
