package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// ListIssueItems is github_list_issue_items (being written).
func (s *Service) ListIssueItems() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_list_issue_items", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_list_issue_items is not built yet")
		}}
}
