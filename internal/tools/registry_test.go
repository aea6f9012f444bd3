package tools_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// TestRegistryToolsets checks that the toolset names known without
// building a tool are exactly the ones the tools declare, and that no
// name is registered twice.
func TestRegistryToolsets(t *testing.T) {
	declared := map[string]int{}
	names := map[string]bool{}
	for _, sp := range tools.All(&toolkit.Service{}) {
		if names[sp.ToolName()] {
			t.Errorf("%s is registered twice, want once", sp.ToolName())
		}
		names[sp.ToolName()] = true
		if !slices.Contains(tools.Toolsets(), sp.ToolsetName()) {
			t.Errorf("%s declares toolset %q, which is not in Toolsets %v", sp.ToolName(), sp.ToolsetName(), tools.Toolsets())
		}
		declared[sp.ToolsetName()]++
	}
	for _, set := range tools.Toolsets() {
		if declared[set] == 0 {
			t.Errorf("toolset %q has no tools, want some", set)
		}
	}
	if !slices.IsSorted(tools.Toolsets()) {
		t.Errorf("Toolsets = %v, want them sorted", tools.Toolsets())
	}
}

// TestSummaryFollowsWhatIsServed: each toolset's part of the capability
// summary speaks of its tools only when they are served, and what is not
// served is said in DoesNot.
func TestSummaryFollowsWhatIsServed(t *testing.T) {
	t.Parallel()
	everything := map[string]bool{}
	for _, sp := range tools.All(&toolkit.Service{}) {
		everything[sp.ToolName()] = true
	}
	cases := []struct {
		name      string
		served    map[string]bool
		does, not []string // substrings that must appear in Does, in DoesNot
		lacks     []string // substrings that must appear in neither
		readOnly  bool
	}{
		{name: "nothing served", served: map[string]bool{},
			does:  []string{"search, read, create and update issues", "search_issues on one repo"},
			not:   []string{"delete issues", "Projects boards (the projects toolset does them", "bulk edits"},
			lacks: []string{"admin toolset:", "pull_requests toolset:", "sync toolset:", "projects toolset:", "reports toolset:"}},
		{name: "everything served", served: everything,
			does: []string{"admin toolset:", "pull_requests toolset:", "sync toolset:", "projects toolset:", "create_issue and update_issue take project",
				toolkit.NameReportUnlabeled, toolkit.NameReportSecurityAlerts, toolkit.NameReportReleasePRs, toolkit.NameReportCIStatus, "bulk edits: "},
			not:   []string{"create or edit Projects boards"},
			lacks: []string{"delete issues,", "Projects boards (the projects toolset does them"}},
		{name: "read only", served: map[string]bool{}, readOnly: true,
			does:  []string{"search and read issues"},
			lacks: []string{"search, read, create and update issues", "expected_version"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := tools.Summary(func(name string) bool { return tc.served[name] }, tc.readOnly)
			does, not := strings.Join(s.Does, ""), strings.Join(s.DoesNot, ", ")
			for _, w := range tc.does {
				if !strings.Contains(does, w) {
					t.Errorf("Does lacks %q; got:\n%s", w, does)
				}
			}
			for _, w := range tc.not {
				if !strings.Contains(not, w) {
					t.Errorf("DoesNot lacks %q; got: %s", w, not)
				}
			}
			for _, w := range tc.lacks {
				if strings.Contains(does, w) {
					t.Errorf("Does says %q, want it absent:\n%s", w, does)
				}
				if strings.Contains(not, w) {
					t.Errorf("DoesNot says %q, want it absent: %s", w, not)
				}
			}
			for _, line := range s.Does {
				if !strings.HasPrefix(line, "- ") {
					t.Errorf("Does line %q, want it to start with \"- \"", line)
				}
				if !strings.HasSuffix(line, "\n") {
					t.Errorf("Does line %q, want it to end in a newline", line)
				}
			}
		})
	}
}
