// Package tools is the registry of ghgate's tools: every toolset's tools,
// built over one shared core.Service. Servers select from it and tests
// walk it; the tools themselves live in a package per toolset
// (internal/tools/issues, internal/tools/admin, internal/tools/mirror,
// internal/tools/projects, internal/tools/pulls) over internal/tools/core.
package tools

import (
	"slices"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/core"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/mirror"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/pulls"
	"github.com/ghgate/ghgate/internal/tools/reports"
)

// Toolsets lists the toolset names, sorted; each tool names its own
// (tooldef.Tool's Toolset), and these are known without building any
// tool.
func Toolsets() []string {
	return []string{admin.Toolset, issues.Toolset, projects.Toolset, pulls.Toolset, reports.Toolset, mirror.Toolset}
}

// All returns every tool ghgate has, toolset by toolset, each in the
// order it is listed.
func All(s *core.Service) []tooldef.Spec {
	return slices.Concat(issues.Specs(s), admin.Specs(s), projects.Specs(s), pulls.Specs(s), reports.Specs(s), mirror.Specs(s))
}

// Summary is every toolset's part of the capability summary, toolset by
// toolset: what the tools served do, and what ghgate then does not (the
// issues toolset's last, as the narrowest).
func Summary(served core.Served, readOnly bool) core.Summary {
	own := issues.Summarize(served, readOnly)
	all := core.Summary{Does: own.Does}
	for _, s := range []core.Summary{admin.Summarize(served), pulls.Summarize(served),
		mirror.Summarize(served), projects.Summarize(served), reports.Summarize(served)} {
		all.Does = append(all.Does, s.Does...)
		all.DoesNot = append(all.DoesNot, s.DoesNot...)
	}
	all.DoesNot = append(all.DoesNot, own.DoesNot...)
	return all
}
