package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// ListRepoMetadata is github_list_repo_metadata (being written).
func (s *Service) ListRepoMetadata() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_list_repo_metadata", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_list_repo_metadata is not built yet")
		}}
}
