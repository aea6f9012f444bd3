package server

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/issues"
)

// DefaultToolsets is what a server offers when none are named; a fresh
// slice each call, so no caller can change another's default.
func DefaultToolsets() []string { return []string{issues.Toolset} }

// toolsets groups every tool by the toolset it declares, each in the
// order the registry lists them.
func toolsets(all []tooldef.Spec) map[string][]tooldef.Spec {
	sets := map[string][]tooldef.Spec{}
	for _, t := range all {
		sets[t.ToolsetName()] = append(sets[t.ToolsetName()], t)
	}
	return sets
}

// ToolsetNames lists the known toolsets, sorted; known statically, so no
// tool is built to answer it.
func ToolsetNames() []string { return tools.Toolsets() }

// selectTools resolves toolset names ("all" for every one) into the tools
// to serve, in a deterministic order: toolsets in the order named (sorted
// for "all"), tools in each toolset's order. Read-only drops every write.
func selectTools(all []tooldef.Spec, names []string, readOnly bool) ([]tooldef.Spec, error) {
	sets := toolsets(all)
	if len(names) == 0 {
		names = DefaultToolsets()
	}
	known := slices.Sorted(maps.Keys(sets))
	if slices.Contains(names, "all") {
		names = known
	}
	var unknown []string
	for _, n := range names {
		if _, ok := sets[n]; !ok {
			unknown = append(unknown, n)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("unknown toolset %s (known: %s, or all)", strings.Join(unknown, ", "), strings.Join(known, ", "))
	}
	var out []tooldef.Spec
	seen := map[string]bool{}
	for _, n := range names {
		for _, t := range sets[n] {
			if seen[t.ToolName()] || (readOnly && tooldef.Writes(t)) {
				continue
			}
			seen[t.ToolName()] = true
			out = append(out, t)
		}
	}
	return out, nil
}

// filterTools applies an allowlist and a denylist by tool name. Names must
// be tools ghgate has (in any toolset) or extra tools offered beside them.
func filterTools(all, specs []tooldef.Spec, extra []Extra, allow, deny []string) ([]tooldef.Spec, error) {
	known := map[string]bool{}
	for _, t := range all {
		known[t.ToolName()] = true
	}
	for _, x := range extra {
		known[x.Def.Name] = true
	}
	for _, n := range append(append([]string{}, allow...), deny...) {
		if !known[n] {
			return nil, fmt.Errorf("unknown tool %q in allow or deny", n)
		}
	}
	var out []tooldef.Spec
	for _, t := range specs {
		if permitted(t.ToolName(), allow, deny) {
			out = append(out, t)
		}
	}
	return out, nil
}

// permitted applies allow (when not empty) and deny to one tool name.
func permitted(name string, allow, deny []string) bool {
	return (len(allow) == 0 || slices.Contains(allow, name)) && !slices.Contains(deny, name)
}

// selectExtra splits the extra tools into those served and those refused:
// under read-only every tool not declared a read is refused (a tool of
// unknown mode counts as a write), and allow and deny apply as to
// ghgate's own tools. A deny entry naming a tool ghgate has denies
// ghgate's own: that is how an upstream's tool of the same name is served
// in its place (the upstream's allow list chose it).
func selectExtra(all []tooldef.Spec, extra []Extra, readOnly bool, allow, deny []string) (served, refused []Extra) {
	own := map[string]bool{}
	for _, t := range all {
		own[t.ToolName()] = true
	}
	var denyExtra []string
	for _, n := range deny {
		if !own[n] {
			denyExtra = append(denyExtra, n)
		}
	}
	for _, x := range extra {
		if (readOnly && x.Mode != tooldef.Read) || !permitted(x.Def.Name, allow, denyExtra) {
			refused = append(refused, x)
			continue
		}
		served = append(served, x)
	}
	return served, refused
}
