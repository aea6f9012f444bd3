package bench

import (
	"strings"
	"testing"
)

// A ratio prints two decimals, so a figure just over a goal such as 1.2
// is not rounded into it; other figures print one.
func TestFigureDigits(t *testing.T) {
	if s := (Figure{Name: "r", Value: 1.2118, Unit: "ratio"}).String(); !strings.Contains(s, " 1.21 ratio") {
		t.Errorf("ratio printed as %q, want it to contain %q", s, " 1.21 ratio")
	}
	if s := (Figure{Name: "w", Value: 1379.04, Unit: "ms"}).String(); !strings.Contains(s, " 1379.0 ms") {
		t.Errorf("wall time printed as %q, want it to contain %q", s, " 1379.0 ms")
	}
}
