package bench

import (
	"context"
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
	if len(figs) != 6 || figs[0].Value != bulkIssues || figs[1].Value != issues.BulkConcurrency || figs[2].Value != bulkIssues+1 ||
		figs[2].Note != "1 preflight read, 50 writes" || figs[3].Value <= 0 || figs[4].Value <= 0 {
		t.Fatalf("figures: %v", figs)
	}
}
