package main

import (
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/tools/reports/tiers"
)

// [reports.classify] in the config file sets the security alert report's
// tiers; none leaves them empty (the report then uses tiers.Default); a
// rule set that cannot work stops serve at load, naming the field.
func TestServeClassifyTiersFromConfig(t *testing.T) {
	c, err := parseServe(t, nil, `
[[reports.classify.tier]]
name = "release_flow"
files_any = [".github/workflows/release.yml"]
branches_any = ["next"]

[[reports.classify.tier]]
name = "plain"
`, nil)
	if err != nil {
		t.Fatalf("a valid [reports.classify]: %v", err)
	}
	if got := len(c.Tiers.Tiers); got != 2 {
		t.Fatalf("tiers = %d, want 2", got)
	}
	if got := c.Tiers.Tiers[0]; got.Name != "release_flow" || len(got.FilesAny) != 1 || len(got.BranchesAny) != 1 {
		t.Errorf("tier[0] = %+v, want release_flow with one file and one branch", got)
	}
	if c, err := parseServe(t, nil, "", nil); err != nil || len(c.Tiers.Tiers) != 0 {
		t.Errorf("no config: tiers %+v, err %v; want none (the default applies)", c.Tiers, err)
	}
	bad := []struct{ body, field string }{
		{"[[reports.classify.tier]]\nname = \"Release Flow\"\nfiles_any = [\"a\"]\n", "reports.classify.tier[0].name"},
		{"[[reports.classify.tier]]\nname = \"any\"\n[[reports.classify.tier]]\nname = \"b\"\nfiles_any = [\"a\"]\n", "reports.classify.tier[0]"},
		{"[[reports.classify.tier]]\nname = \"a\"\nfiles_all = [\"../x\"]\n", "reports.classify.tier[0].files_all[0]"},
		{"[[reports.classify.tier]]\nname = \"a\"\nbranches_any = [\"bad name\"]\n", "reports.classify.tier[0].branches_any[0]"},
	}
	for _, b := range bad {
		_, err := parseServe(t, nil, b.body, nil)
		if err == nil {
			t.Errorf("%q: loaded, want an error naming %s", b.body, b.field)
			continue
		}
		if !strings.Contains(err.Error(), b.field) {
			t.Errorf("%q: error %q, want it to name %s", b.body, err, b.field)
		}
	}
	if tiers.Default().Validate("reports.classify") != nil {
		t.Error("the default tiers do not validate")
	}
}
