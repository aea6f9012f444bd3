// Package tools is the registry of ghgate's tools: every toolset's tools,
// built over one shared [toolkit.Service]. Servers select from it and tests
// walk it; the tools themselves live in a package per toolset
// (internal/tools/issues, internal/tools/admin, internal/tools/issuesync,
// internal/tools/projects, internal/tools/pullrequests) over internal/tools/toolkit.
package tools

import (
	"slices"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/admin"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/issuesync"
	"github.com/ghgate/ghgate/internal/tools/projects"
	"github.com/ghgate/ghgate/internal/tools/pullrequests"
	"github.com/ghgate/ghgate/internal/tools/reports"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Toolsets lists the toolset names, sorted; each tool names its own
// ([tooldef.Tool]'s Toolset), and these are known without building any
// tool.
func Toolsets() []string {
	return []string{admin.Toolset, issues.Toolset, projects.Toolset, pullrequests.Toolset, reports.Toolset, issuesync.Toolset}
}

// All returns every tool ghgate has, toolset by toolset, each in the
// order it is listed.
func All(s *toolkit.Service) []tooldef.Spec {
	return slices.Concat(issues.Specs(s), admin.Specs(s), projects.Specs(s), pullrequests.Specs(s), reports.Specs(s), issuesync.Specs(s))
}

// Summary is every toolset's part of the capability summary, toolset by
// toolset: what the tools served do, and what ghgate then does not (the
// issues toolset's last, as the narrowest).
func Summary(served toolkit.Served, readOnly bool) toolkit.Summary {
	own := issues.Summarize(served, readOnly)
	all := toolkit.Summary{Does: own.Does}
	for _, s := range []toolkit.Summary{admin.Summarize(served), pullrequests.Summarize(served),
		issuesync.Summarize(served), projects.Summarize(served), reports.Summarize(served)} {
		all.Does = append(all.Does, s.Does...)
		all.DoesNot = append(all.DoesNot, s.DoesNot...)
	}
	all.DoesNot = append(all.DoesNot, own.DoesNot...)
	return all
}
