package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// AddComment is github_add_comment (being written).
func (s *Service) AddComment() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_add_comment", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_add_comment is not built yet")
		}}
}
