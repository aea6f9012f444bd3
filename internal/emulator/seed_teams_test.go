package emulator_test

import (
	"fmt"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
)

// The demo's acme has two teams and two issue fields, set on #9 and #12.
func TestDemoSeedTeamsAndIssueFields(t *testing.T) {
	s := seeded(t)
	var teams []string
	for _, tm := range s.Teams(emulator.DemoOrg) {
		var members []string
		for _, m := range tm.Members {
			members = append(members, m.Login)
		}
		teams = append(teams, fmt.Sprintf("%s%v", tm.Slug, members))
	}
	if got := fmt.Sprint(teams); got != "[maintainers[alice bob] support[carol]]" {
		t.Errorf("acme's teams = %s", got)
	}
	var fields []string
	for _, f := range s.IssueFields(emulator.DemoOrg) {
		fields = append(fields, f.Name+":"+f.DataType)
	}
	if got := fmt.Sprint(fields); got != "[Priority:SINGLE_SELECT Estimate:NUMBER]" {
		t.Errorf("acme's issue fields = %s", got)
	}
	values := func(n int) string {
		var out []string
		for _, v := range widgetsIssue(t, s, n).FieldValues {
			switch {
			case v.Option != nil:
				out = append(out, v.Field.Name+"="+v.Option.Name)
			default:
				out = append(out, fmt.Sprintf("%s=%g", v.Field.Name, v.Number))
			}
		}
		return fmt.Sprint(out)
	}
	if got := values(emulator.DemoManyCommentsIssue) + values(emulator.DemoParentIssue); got != "[Priority=P1][Priority=P2 Estimate=8]" {
		t.Errorf("field values of #9 and #12 = %s", got)
	}
}
