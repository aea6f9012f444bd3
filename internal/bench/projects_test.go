package bench

import (
	"context"
	"testing"
)

// The projects figures are counts, not times: the toolset's bytes stay in
// budget, and a status move costs two upstream calls first and one once
// the board and the item are known.
func TestProjectsBench(t *testing.T) {
	figs, err := Projects(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	wantFigureCount(t, figs, 3)
	for _, f := range figs {
		t.Log(f)
	}
	checkFigure(t, figs[0], figs[0].Value > 0 && figs[0].Value <= 4000, "> 0 and at most 4000")
	checkFigure(t, figs[1], figs[1].Value == 2, "2")
	checkFigure(t, figs[2], figs[2].Value == 1, "1")
}
