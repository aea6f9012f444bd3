package bench

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/ghgate/ghgate/internal/tools/issues"
)

// TestBulkBench labels 50 issues in one bulk call: one preflight read and
// one write per issue, and every figure reported. Times are printed, not
// judged.
func TestBulkBench(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	figs, err := Bulk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		t.Log(f)
	}
	wantFigureCount(t, figs, 6)
	checkFigure(t, figs[0], figs[0].Value == bulkIssues, fmt.Sprint(bulkIssues))
	checkFigure(t, figs[1], figs[1].Value == issues.BulkConcurrency, fmt.Sprint(issues.BulkConcurrency))
	checkFigure(t, figs[2], figs[2].Value == bulkIssues+1, fmt.Sprint(bulkIssues+1))
	if want := "1 preflight read, 50 writes"; figs[2].Note != want {
		t.Errorf("%s note = %q, want %q", figs[2].Name, figs[2].Note, want)
	}
	checkFigure(t, figs[3], figs[3].Value > 0, "> 0")
	checkFigure(t, figs[4], figs[4].Value > 0, "> 0")
}
