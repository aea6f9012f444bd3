package tools

import "github.com/ghgate/ghgate/internal/tooldef"

// The toolsets ghgate offers; each tool names its own (tooldef.Tool's
// Toolset), and these are known without building any tool.
const (
	ToolsetIssues = "issues"
)

// Toolsets lists the toolset names, sorted.
func Toolsets() []string { return []string{ToolsetIssues} }

// All returns every tool ghgate has, in the order they are listed: the
// one registry servers select from and tests walk.
func All(s *Service) []tooldef.Spec {
	return []tooldef.Spec{
		s.SearchIssues(),
		s.GetIssue(),
		s.CreateIssue(),
		s.UpdateIssue(),
		s.AddComment(),
		s.EditComment(),
		s.ListIssueItems(),
		s.ListRepoMetadata(),
		s.LinkIssues(),
	}
}
