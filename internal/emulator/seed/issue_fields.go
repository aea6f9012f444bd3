package seed

import (
	"github.com/ghgate/ghgate/internal/emulator/state"
)

// seedIssueFields gives acme two issue fields, a single-select Priority
// and a numeric Estimate, and sets them on a few acme/widgets issues: the
// slow dashboard (#9) is P1, the export epic (#12) is P2 with an estimate
// of 8.
func (sd *seeder) seedIssueFields(w *world) {
	s := sd.s
	priority := s.AddIssueField(w.acme, "Priority", "SINGLE_SELECT", ptr("How soon this needs attention"), "P0", "P1", "P2", "P3")
	estimate := s.AddIssueField(w.acme, "Estimate", "NUMBER", ptr("Effort in ideal days"))
	for _, v := range []struct {
		n     int
		f     *state.IssueField
		value string
	}{
		{DemoManyCommentsIssue, priority, "P1"},
		{DemoParentIssue, priority, "P2"},
		{DemoParentIssue, estimate, "8"},
	} {
		if err := s.SetIssueFieldValue(w.widgets.Issue(v.n), v.f, v.value); err != nil {
			panic("emulator: demo seed: " + err.Error()) // the values above are fixed; every test catches this
		}
	}
}
