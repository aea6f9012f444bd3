package issues_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
)

// BenchmarkWritePath times the two writes ghgate bench --peer compares with
// GitHub's MCP server: creating an issue and commenting on one. Each call
// has its own title or body, as an agent's calls do. The emulator runs in
// the same process, so its work is in the figures too.
func BenchmarkWritePath(b *testing.B) {
	writes := []struct {
		name, tool string
		args       func(i int) map[string]any
	}{
		{"create", toolkit.NameCreateIssue, func(i int) map[string]any {
			return map[string]any{"title": fmt.Sprintf("Legend overlaps the axis (%d)", i), "body": "Seen at 360px."}
		}},
		{"comment", toolkit.NameAddComment, func(i int) map[string]any {
			return map[string]any{"issue_number": 1, "body": fmt.Sprintf("Still seen (%d).", i)}
		}},
	}
	for _, w := range writes {
		b.Run(w.name, func(b *testing.B) {
			env := servertest.Start(b, servertest.Options{})
			call := func(i int) {
				a := w.args(i)
				a["owner"], a["repo"] = emulator.DemoOrg, emulator.DemoWidgetsRepo
				raw, err := json.Marshal(a)
				if err != nil {
					b.Fatalf("marshal arguments: %v", err)
				}
				res, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: w.tool, Arguments: json.RawMessage(raw)})
				if err != nil {
					b.Fatalf("%s: %v", w.name, err)
				}
				if res.IsError {
					b.Fatalf("%s: got an error: %+v", w.name, res.Content)
				}
			}
			call(-1)
			b.ReportAllocs()
			b.ResetTimer()
			for i := range b.N {
				call(i)
			}
		})
	}
}
