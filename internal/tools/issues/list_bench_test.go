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

// BenchmarkListPath times github_search_issues on the list path (plain
// filters, one repository) for the first page of acme/widgets (160
// issues, pull requests among them), repeated as an agent repeats it: after
// the first call every upstream read is answered 304. The emulator runs in
// the same process, so its work is in the figures too.
func BenchmarkListPath(b *testing.B) {
	for _, size := range []int{30, 10} {
		b.Run(fmt.Sprintf("rows=%d", size), func(b *testing.B) {
			env := servertest.Start(b, servertest.Options{})
			args, err := json.Marshal(map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "page_size": size})
			if err != nil {
				b.Fatalf("marshal arguments: %v", err)
			}
			call := func() {
				res, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: toolkit.NameSearchIssues, Arguments: json.RawMessage(args)})
				if err != nil {
					b.Fatalf("listing: %v", err)
				}
				if res.IsError {
					b.Fatalf("listing: got an error, want a page: %+v", res.Content)
				}
			}
			call() // the first read fills the conditional cache
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				call()
			}
		})
	}
}

// BenchmarkWarmGetIssue times github_get_issue on an issue already read,
// as an agent reads it again: every upstream read is answered 304 and
// served from the conditional-request cache.
func BenchmarkWarmGetIssue(b *testing.B) {
	env := servertest.Start(b, servertest.Options{})
	args, err := json.Marshal(map[string]any{"owner": emulator.DemoOrg, "repo": emulator.DemoWidgetsRepo, "issue_number": 1})
	if err != nil {
		b.Fatalf("marshal arguments: %v", err)
	}
	call := func() {
		res, err := env.Session.CallTool(context.Background(), &mcp.CallToolParams{Name: toolkit.NameGetIssue, Arguments: json.RawMessage(args)})
		if err != nil {
			b.Fatalf("get issue: %v", err)
		}
		if res.IsError {
			b.Fatalf("get issue: got an error, want the issue: %+v", res.Content)
		}
	}
	call() // the first read fills the conditional cache
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		call()
	}
}
