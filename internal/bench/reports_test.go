package bench

import (
	"context"
	"testing"
)

// The report bench runs and gives its figures; timing is printed, never
// asserted. The repeat's spent budget is checked: it is a count, not a time.
func TestReportUnlabeledBench(t *testing.T) {
	if testing.Short() {
		t.Skip("the bench reads 200 repositories at 50 ms each")
	}
	figs, err := ReportUnlabeled(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range figs {
		t.Logf("%s: %.2f %s (%s)", f.Name, f.Value, f.Unit, f.Note)
	}
	if figs[3].Value != 0 {
		t.Errorf("the repeated report spent %v calls of rate budget; want conditional requests only", figs[3].Value)
	}
}
