// Package issuesync is the sync toolset: github_sync_issues keeps a local
// mirror of a repository's issues, one JSON file per issue, under the
// directory the operator allows (sync_root). It is opt-in (--toolsets
// sync) and refused where sync_root is not set: it writes files on the
// machine ghgate runs on.
package issuesync

import (
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// Toolset is this toolset's name.
const Toolset = "sync"

// Tools builds the sync tools over a Service.
type Tools struct{ *toolkit.Service }

// Specs returns the toolset's tools in the order they are listed.
func Specs(s *toolkit.Service) []tooldef.Spec {
	t := &Tools{s}
	return []tooldef.Spec{t.SyncIssues()}
}
