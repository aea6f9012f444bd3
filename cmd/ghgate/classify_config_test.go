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
	got := c.Tiers.Tiers[0]
	if got.Name != "release_flow" {
		t.Errorf("tier[0].Name = %q, want release_flow", got.Name)
	}
	if len(got.FilesAny) != 1 {
		t.Errorf("tier[0].FilesAny = %q, want one file", got.FilesAny)
	}
	if len(got.BranchesAny) != 1 {
		t.Errorf("tier[0].BranchesAny = %q, want one branch", got.BranchesAny)
	}
	if c, err := parseServe(t, nil, "", nil); err != nil {
		t.Errorf("no config: %v", err)
	} else if len(c.Tiers.Tiers) != 0 {
		t.Errorf("no config: tiers = %+v, want none (the default applies)", c.Tiers)
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
