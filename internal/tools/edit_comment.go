package tools

import (
	"context"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
)

// EditComment is github_edit_comment (being written).
func (s *Service) EditComment() tooldef.Spec {
	return tooldef.Tool[struct{}, struct{}]{Name: "github_edit_comment", Mode: tooldef.Write,
		Run: func(context.Context, struct{}) (struct{}, error) {
			return struct{}{}, contract.Errorf(contract.CodeInternal, "github_edit_comment is not built yet")
		}}
}
