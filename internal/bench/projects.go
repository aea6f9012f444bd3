package bench

import (
	"context"
	"fmt"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/emulator/seed"
	"github.com/ghgate/ghgate/internal/tools/projects"
)

// Projects reports what the projects toolset costs an agent: its
// tools/list bytes (its own four tools), and the upstream calls to move
// an issue to "In progress" on the demo board, the first time (the board
// and the issue's item unknown) and again once they are known.
func Projects(ctx context.Context) ([]Figure, error) {
	only, largest, largestBytes, err := toolsListBytes(ctx, []string{projects.Toolset})
	if err != nil {
		return nil, err
	}
	figs := []Figure{{Name: "tools/list, projects toolset alone, compact", Value: float64(only), Unit: "bytes",
		Note: fmt.Sprintf("budget 4,000; largest %s %d bytes", largest, largestBytes)}}
	r, err := newRig(ctx, []string{projects.Toolset})
	if err != nil {
		return nil, err
	}
	defer r.close()
	move := func(issue int, status string) (int, error) {
		r.meter.take()
		if _, err := r.call(ctx, projects.NameUpdateProjectItem, map[string]any{"owner": emulator.DemoOrg, "project_number": seed.DemoProjectNumber,
			"item": map[string]any{"repo": emulator.DemoWidgetsRepo, "issue_number": issue}, "action": "set_fields",
			"fields": map[string]any{"Status": status}}); err != nil {
			return 0, err
		}
		reqs, _ := r.meter.take()
		return len(reqs), nil
	}
	// An open issue on the board, taken out of "In progress" first so
	// each move is a real change; the first move meets a board ghgate
	// has not read.
	const issue = 20
	first, err := move(issue, "Todo")
	if err != nil {
		return figs, err
	}
	known, err := move(issue, "In progress")
	if err != nil {
		return figs, err
	}
	return append(figs,
		Figure{Name: "move an issue to \"In progress\": upstream calls, board unknown", Value: float64(first), Unit: "calls",
			Note: "one read of the board with the issue's item, then the write"},
		Figure{Name: "move an issue to \"In progress\": upstream calls, board and item known", Value: float64(known), Unit: "calls",
			Note: "the write alone"}), nil
}
