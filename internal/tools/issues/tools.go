// Package issues is the issues toolset: searching, reading, creating and
// updating issues, their comments, sub-issues and dependencies, and the
// repository metadata an issue names. Its tools build on the shared toolkit.
package issues

import (
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Toolset is this toolset's name.
const Toolset = "issues"

// Tools builds the issue tools over a Service; every tool it builds shares
// the Service's state (clients, cursors, known names).
type Tools struct{ *toolkit.Service }

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{s}
	return []tooldef.Spec{
		t.SearchIssues(),
		t.GetIssue(),
		t.CreateIssue(),
		t.UpdateIssue(),
		t.AddComment(),
		t.EditComment(),
		t.ListIssueItems(),
		t.ListRepoMetadata(),
		t.LinkIssues(),
		t.BulkUpdateIssues(),
		t.GetOverview(),
	}
}
