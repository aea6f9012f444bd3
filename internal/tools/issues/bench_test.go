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

// The benchmarks here time one tool call through the whole server, with
// the emulator in the same process (its work is in the figures too). Each
// makes its first call before the timer starts: a read fills the
// conditional cache, so every timed read is one GitHub answers 304.

// benchCalls times tool with the arguments args(i) gives the i-th call,
// on acme/widgets.
func benchCalls(b *testing.B, tool string, args func(i int) map[string]any) {
	b.Helper()
	env := servertest.Start(b, servertest.Options{})
	call := func(i int) {
		a := args(i)
		a["owner"], a["repo"] = emulator.DemoOrg, emulator.DemoWidgetsRepo
		raw, err := json.Marshal(a)
		if err != nil {
			b.Fatalf("marshal arguments: %v", err)
		}
		res, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(raw)})
		if err != nil {
			b.Fatalf("%s: %v", tool, err)
		}
		if res.IsError {
			b.Fatalf("%s: got an error: %+v", tool, res.Content)
		}
	}
	call(-1)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		call(i)
	}
}

// BenchmarkListPath times github_search_issues on the list path (plain
// filters, one repository) for the first page of acme/widgets (160
// issues, pull requests among them), repeated as an agent repeats it.
func BenchmarkListPath(b *testing.B) {
	for _, size := range []int{30, 10} {
		b.Run(fmt.Sprintf("rows=%d", size), func(b *testing.B) {
			benchCalls(b, toolkit.NameSearchIssues, func(int) map[string]any { return map[string]any{"page_size": size} })
		})
	}
}

// BenchmarkWarmGetIssue times github_get_issue on an issue already read,
// as an agent reads it again.
func BenchmarkWarmGetIssue(b *testing.B) {
	benchCalls(b, toolkit.NameGetIssue, func(int) map[string]any { return map[string]any{"issue_number": 1} })
}

// BenchmarkWritePath times the two writes ghgate bench --peer compares with
// GitHub's MCP server: creating an issue and commenting on one, each call
// with its own title or body, as an agent's calls are.
func BenchmarkWritePath(b *testing.B) {
	b.Run("create", func(b *testing.B) {
		benchCalls(b, toolkit.NameCreateIssue, func(i int) map[string]any {
			return map[string]any{"title": fmt.Sprintf("Legend overlaps the axis (%d)", i), "body": "Seen at 360px."}
		})
	})
	b.Run("comment", func(b *testing.B) {
		benchCalls(b, toolkit.NameAddComment, func(i int) map[string]any {
			return map[string]any{"issue_number": 1, "body": fmt.Sprintf("Still seen (%d).", i)}
		})
	})
}
