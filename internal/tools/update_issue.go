package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// UpdateIssue is github_update_issue (being written).
func (s *Service) UpdateIssue() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_update_issue", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_update_issue is not built yet")
		}}
}
