package bench

import (
	"context"
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
	if len(figs) != 3 || figs[0].Value <= 0 || figs[1].Value < 2 || figs[2].Value < figs[1].Value {
		t.Fatalf("figures: %v", figs)
	}
	for _, f := range figs {
		t.Log(f)
	}
}
