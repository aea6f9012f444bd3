package bench

import "testing"

// wantFigureCount stops the test unless figs holds n figures.
func wantFigureCount(t *testing.T, figs []Figure, n int) {
	t.Helper()
	if len(figs) != n {
		t.Fatalf("%d figures, want %d: %v", len(figs), n, figs)
	}
}

// checkFigure reports f, named, with what was wanted of it, unless ok.
func checkFigure(t *testing.T, f Figure, ok bool, want string) {
	t.Helper()
	if !ok {
		t.Errorf("%s = %v %s, want %s", f.Name, f.Value, f.Unit, want)
	}
}
