package tools_test

import (
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/core"
)

// TestRegistryToolsets checks that the toolset names known without
// building a tool are exactly the ones the tools declare, and that no
// name is registered twice.
func TestRegistryToolsets(t *testing.T) {
	declared := map[string]int{}
	names := map[string]bool{}
	for _, sp := range tools.All(&core.Service{}) {
		if names[sp.ToolName()] {
			t.Errorf("%s is registered twice", sp.ToolName())
		}
		names[sp.ToolName()] = true
		if !slices.Contains(tools.Toolsets(), sp.ToolsetName()) {
			t.Errorf("%s declares toolset %q, which is not in Toolsets %v", sp.ToolName(), sp.ToolsetName(), tools.Toolsets())
		}
		declared[sp.ToolsetName()]++
	}
	for _, set := range tools.Toolsets() {
		if declared[set] == 0 {
			t.Errorf("toolset %q has no tools", set)
		}
	}
	if !slices.IsSorted(tools.Toolsets()) {
		t.Errorf("Toolsets %v is not sorted", tools.Toolsets())
	}
}
