package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// LinkIssues is github_link_issues (being written).
func (s *Service) LinkIssues() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_link_issues", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_link_issues is not built yet")
		}}
}
