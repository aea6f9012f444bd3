package bench

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestTriageBench runs the scripted triage: it must label every unlabelled
// open issue (Triage checks that afterwards) and report what it spent.
func TestTriageBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	figs, err := Triage(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantFigureCount(t, figs, 3)
	checkFigure(t, figs[0], figs[0].Value > 0, "> 0")
	checkFigure(t, figs[1], figs[1].Value >= 2, "at least 2")
	checkFigure(t, figs[2], figs[2].Value >= figs[1].Value, fmt.Sprintf("at least %v (%s)", figs[1].Value, figs[1].Name))
	for _, f := range figs {
		t.Log(f)
	}
}
