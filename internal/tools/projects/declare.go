package projects

import (
	"fmt"

	"github.com/ghgate/ghgate/internal/policy"
)

// Writes implements [policy.Declarer]. A board belongs to its owner, not to
// a repository; the issue an item names is read, not written.
func (in *UpdateProjectItemIn) Writes() []policy.Write {
	return []policy.Write{{Kind: policy.KindBoard, Target: policy.Target{Owner: in.Owner},
		Summary: fmt.Sprintf("%s on board %d", in.Action, in.ProjectNumber), Request: "POST /graphql (the board's ProjectV2 mutations)"}}
}
