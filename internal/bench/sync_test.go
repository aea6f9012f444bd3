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
	wantFigureCount(t, figs, 4)
	checkFigure(t, figs[2], figs[2].Value == 1, "1")
	checkFigure(t, figs[3], figs[3].Value == 0, "0")
	checkFigure(t, figs[0], figs[0].Value >= 2, "at least 2")
	for _, f := range figs {
		t.Log(f)
	}
}
