package bench

import (
	"context"
	"strings"
	"testing"
	"time"
)

// TestTasksBench runs the scripted write tasks: each must succeed (the
// duplicate close is checked in the emulator: closed, and the original
// recorded) and report its upstream calls, tool calls and bytes.
func TestTasksBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	figs, err := Tasks(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var duplicate bool
	for _, f := range figs {
		t.Log(f)
		checkFigure(t, f, f.Value >= 1, "at least 1")
		if f.Unit != "calls" {
			t.Errorf("%s unit = %q, want calls", f.Name, f.Unit)
		}
		if strings.Contains(f.Name, "close as a duplicate of a named issue") {
			duplicate = true
			if !strings.HasPrefix(f.Note, "1 tool call returned ") {
				t.Errorf("%s: note %q, want one starting %q", f.Name, f.Note, "1 tool call returned ")
			}
		}
	}
	if !duplicate {
		t.Error("no figure for the duplicate close")
	}
}
