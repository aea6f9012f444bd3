package toolkit_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// RankNames puts the name meant first: a rename's new name (which holds
// the old one) ahead of a sibling a few letters away, a typo's fix, and
// never a name that merely holds a two-letter fragment.
func TestRankNamesPutsTheMeantNameFirst(t *testing.T) {
	for _, c := range []struct {
		name       string
		candidates []string
		want       []string
	}{
		{"status: triaged", []string{"status: blocked", "status: triage", "bug"}, []string{"status: triage", "status: blocked"}},
		{"area: ui", []string{"area: api", "area: web-ui", "docs"}, []string{"area: web-ui", "area: api"}},
		{"status: triage", []string{"status: in progress", "status: needs triage"}, []string{"status: needs triage", "status: in progress"}},
		{"enhancment", []string{"enhancement", "documentation"}, []string{"enhancement"}},
		{"ui", []string{"build", "guide"}, nil},
		{"BUG", []string{"bug"}, []string{"bug"}},
	} {
		var got []string
		for _, m := range toolkit.RankNames(c.name, c.candidates) {
			got = append(got, m.Name)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("RankNames(%q) = %q, want %q", c.name, got, c.want)
		}
	}
}
