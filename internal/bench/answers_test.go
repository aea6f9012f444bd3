package bench

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestAnswersBench runs each question both ways: the direct script's last
// answer must state the fact (Answers fails otherwise), and the direct way
// must take no more tool calls and fewer bytes than the reread it replaces.
func TestAnswersBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	figs, err := Answers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(figs) != 2*len(answerTasks()) {
		t.Fatalf("%d figures for %d tasks, want two each", len(figs), len(answerTasks()))
	}
	for _, f := range figs {
		t.Log(f)
		var before int
		if _, err := fmt.Sscanf(f.Note, "%d before", &before); err != nil {
			t.Fatalf("%s: note %q, want one starting \"<n> before\": %v", f.Name, f.Note, err)
		}
		switch {
		case strings.HasPrefix(f.Name, "agent calls: ") && int(f.Value) > before:
			t.Errorf("%s: %v calls now, want at most the %d before", f.Name, f.Value, before)
		case strings.HasPrefix(f.Name, "answer bytes: ") && int(f.Value) >= before:
			t.Errorf("%s: %v bytes now, want fewer than the %d before", f.Name, f.Value, before)
		}
	}
}
