package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// CreateIssue is github_create_issue (being written).
func (s *Service) CreateIssue() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_create_issue", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_create_issue is not built yet")
		}}
}
