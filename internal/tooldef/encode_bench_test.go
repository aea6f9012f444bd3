package tooldef

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchRow and benchSearch stand for a search result as the issue tools
// answer it: 30 rows, each with a body, labels and a few empty fields
// that Compact drops.
type benchRow struct {
	Number    int      `json:"number,omitempty"`
	Title     string   `json:"title,omitempty"`
	State     string   `json:"state,omitempty"`
	Author    string   `json:"author,omitempty"`
	Labels    []string `json:"labels"`
	Assignees []string `json:"assignees,omitempty"`
	Milestone *struct {
		Title string `json:"title,omitempty"`
	} `json:"milestone,omitempty"`
	Comments  int    `json:"comments,omitempty"`
	Body      string `json:"body,omitempty"`
	URL       string `json:"url,omitempty"`
	CreatedAt string `json:"created_at,omitempty"`
	ClosedAt  string `json:"closed_at,omitempty"`
	Locked    bool   `json:"locked,omitempty"`
}

type benchSearch struct {
	Query      string     `json:"query,omitempty"`
	TotalCount int        `json:"total_count,omitempty"`
	Incomplete bool       `json:"incomplete_results,omitempty"`
	Items      []benchRow `json:"items"`
	NextPage   *int       `json:"next_page,omitempty"`
	Note       string     `json:"note,omitempty"`
}

func benchOutput() benchSearch {
	out := benchSearch{Query: "repo:acme/widgets is:open crash", TotalCount: 412}
	body := strings.Repeat("Steps: run `widgets --fast` & watch <stderr>; it crashes — “héllo” ☃. ", 8)
	for i := range 30 {
		out.Items = append(out.Items, benchRow{
			Number: 1000 + i, Title: fmt.Sprintf("Crash %d when the cache is <empty> & cold", i), State: "open",
			Author: "alice", Labels: []string{"bug", "p1"}, Assignees: []string{}, Comments: i % 7,
			Body: body, URL: fmt.Sprintf("https://github.com/acme/widgets/issues/%d", 1000+i),
			CreatedAt: "2026-11-01T10:00:00Z",
		})
	}
	return out
}

var benchTool = Tool[struct{}, benchSearch]{
	Name: "bench_search", Description: "bench", Mode: Read,
	Keep: []string{"items[].labels"},
	Run:  func(context.Context, struct{}) (benchSearch, error) { return benchOutput(), nil },
}

// BenchmarkCompact is the encoding of a 30-row search answer alone.
func BenchmarkCompact(b *testing.B) {
	out := benchOutput()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compact(out, benchTool.Keep...); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHandler is a whole call of a read tool that answers a 30-row
// search, from the arguments to the result the SDK is handed: as a
// server runs it, and as the tests run it (checked against the output
// schema).
func BenchmarkHandler(b *testing.B) {
	for _, env := range []struct {
		name string
		env  *Env
	}{{"serve", &Env{}}, {"checked", &Env{CheckOutputs: true}}} {
		b.Run(env.name, func(b *testing.B) {
			_, h, err := benchTool.Build(env.env)
			if err != nil {
				b.Fatal(err)
			}
			req := &mcp.CallToolRequest{Params: &mcp.CallToolParamsRaw{Name: benchTool.Name, Arguments: json.RawMessage(`{}`)}}
			b.ReportAllocs()
			for b.Loop() {
				res, err := h(context.Background(), req)
				if err != nil {
					b.Fatalf("call: %v", err)
				}
				if res.IsError {
					b.Fatalf("call answered an error, want success: %v", res)
				}
			}
		})
	}
}
