package tiers

import (
	"slices"
	"strings"
	"testing"
)

// The default (example) rules: the first tier that holds wins, a branch
// counts only when it differs, and plain catches the rest.
func TestDefaultRulesClassify(t *testing.T) {
	t.Parallel()
	r := Default()
	if err := r.Validate("reports.classify"); err != nil {
		t.Fatalf("Default().Validate = %v, want nil", err)
	}
	set := func(names ...string) func(string) bool {
		return func(n string) bool { return slices.Contains(names, n) }
	}
	cases := []struct {
		name           string
		files, differs []string
		want           string
	}{
		{"workflow and next", []string{".github/workflows/release.yml"}, []string{"next"}, "release_flow"},
		{"yaml workflow and dev", []string{".github/workflows/release.yaml"}, []string{"dev"}, "release_flow"},
		{"workflow only", []string{".github/workflows/release.yml"}, nil, "release_workflow"},
		{"branch only", nil, []string{"next"}, "plain"},
		{"nothing", nil, nil, "plain"},
	}
	for _, c := range cases {
		if got := r.Classify(set(c.files...), set(c.differs...)); got != c.want {
			t.Errorf("%s: tier = %q, want %q", c.name, got, c.want)
		}
	}
	all := Rules{Tiers: []Tier{{Name: "both", FilesAll: []string{"a", "b"}, BranchesAll: []string{"x", "y"}}}}
	if got := all.Classify(set("a"), set("x", "y")); got != "" {
		t.Errorf("files_all with one file missing: tier = %q, want none", got)
	}
	if got := all.Classify(set("a", "b"), set("x", "y")); got != "both" {
		t.Errorf("files_all and branches_all met: tier = %q, want both", got)
	}
	if got, want := r.Files(), []string{".github/workflows/release.yml", ".github/workflows/release.yaml"}; !slices.Equal(got, want) {
		t.Errorf("Files() = %v, want %v", got, want)
	}
	if got, want := r.Branches(), []string{"next", "dev"}; !slices.Equal(got, want) {
		t.Errorf("Branches() = %v, want %v", got, want)
	}
}

// Validate names the field at fault.
func TestRulesValidateNamesTheField(t *testing.T) {
	t.Parallel()
	many := make([]string, MaxFiles+1)
	for i := range many {
		many[i] = "f" + strings.Repeat("x", i+1)
	}
	cases := []struct {
		name  string
		rules Rules
		want  string
	}{
		{"empty name", Rules{Tiers: []Tier{{Name: ""}}}, "reports.classify.tier[0].name"},
		{"upper-case name", Rules{Tiers: []Tier{{Name: "Flow", FilesAny: []string{"a"}}}}, "reports.classify.tier[0].name"},
		{"same name twice", Rules{Tiers: []Tier{{Name: "a", FilesAny: []string{"x"}}, {Name: "a"}}}, "reports.classify.tier[1].name"},
		{"catch-all not last", Rules{Tiers: []Tier{{Name: "any"}, {Name: "b", FilesAny: []string{"x"}}}}, "reports.classify.tier[0]: tier \"any\""},
		{"absolute path", Rules{Tiers: []Tier{{Name: "a", FilesAny: []string{"/etc/passwd"}}}}, "reports.classify.tier[0].files_any[0]"},
		{"dot-dot path", Rules{Tiers: []Tier{{Name: "a", FilesAll: []string{"x", "../y"}}}}, "reports.classify.tier[0].files_all[1]"},
		{"bad branch", Rules{Tiers: []Tier{{Name: "a", BranchesAny: []string{"next", "a..b"}}}}, "reports.classify.tier[0].branches_any[1]"},
		{"empty branch", Rules{Tiers: []Tier{{Name: "a", BranchesAll: []string{""}}}}, "reports.classify.tier[0].branches_all[0]"},
		{"too many files", Rules{Tiers: []Tier{{Name: "a", FilesAny: many}}}, "reports.classify.tier: 17 distinct files"},
	}
	for _, c := range cases {
		err := c.rules.Validate("reports.classify")
		if err == nil {
			t.Errorf("%s: Validate = nil, want an error naming %s", c.name, c.want)
			continue
		}
		if !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: Validate = %q, want it to start with %q", c.name, err, c.want)
		}
	}
}
