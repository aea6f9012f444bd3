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
	if len(figs) != 3 {
		t.Fatalf("figures: %v", figs)
	}
	for _, f := range figs {
		t.Log(f)
	}
	if figs[0].Value <= 0 || figs[0].Value > 4000 {
		t.Errorf("projects tools/list: %v", figs[0])
	}
	if figs[1].Value != 2 || figs[2].Value != 1 {
		t.Errorf("status move calls: %v then %v, want 2 then 1", figs[1].Value, figs[2].Value)
	}
}
