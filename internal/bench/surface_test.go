package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestSurfaceBench runs the size measurements: each figure is a size, and
// the instructions with every toolset are at least those of the default.
func TestSurfaceBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	figs, err := Surface(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ins := map[string]float64{}
	for _, f := range figs {
		t.Log(f)
		checkFigure(t, f, f.Value > 0, "> 0")
		if f.Unit != "bytes" {
			t.Errorf("%s unit = %q, want bytes", f.Name, f.Unit)
		}
		if strings.HasPrefix(f.Name, "instructions at session start") {
			ins[f.Name] = f.Value
		}
	}
	def, all := ins["instructions at session start, default toolset"], ins["instructions at session start, all toolsets"]
	if def == 0 {
		t.Errorf("instructions figure for the default toolset = 0, want one")
	}
	if all < def {
		t.Errorf("instructions figure for all toolsets = %v, want at least the default toolset's %v", all, def)
	}
}
