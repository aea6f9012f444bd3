package demo

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// step is one call of the tour and what it shows.
type step struct {
	say  string
	tool string
	args string
	// expectError says the call is meant to fail (the tour shows recovery).
	expectError bool
	// before runs first (to arrange a fault, say).
	before func(t *tour)
	// after reads what the call returned, for later steps.
	after func(t *tour, result map[string]any) error
}

type tour struct {
	out     io.Writer
	session *mcp.ClientSession
	stack   *Stack
	version string
	created float64
}

// Tour walks through ghgate's contract against the demo world, printing
// each call and an abridged result: search, read, a label swap, a stale
// version refused and repaired, an idempotent create repeated, and a rate
// limit with its retry hint.
func Tour(ctx context.Context, out io.Writer) error {
	st, err := NewStack(ctx, server.StackOptions{}, nil)
	if err != nil {
		return err
	}
	defer st.Close()
	sTr, cTr := mcp.NewInMemoryTransports()
	ss, err := st.Server.MCP.Connect(ctx, sTr, nil)
	if err != nil {
		return err
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "ghgate-demo", Version: "1"}, nil).Connect(ctx, cTr, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	t := &tour{out: out, session: cs, stack: st}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return err
	}
	listBytes, _ := json.Marshal(tools)
	fmt.Fprintf(out, "ghgate demo: acting as alice on an in-process GitHub emulator (no token, no network)\n")
	fmt.Fprintf(out, "tools/list: %d tools in %d bytes\n\n", len(tools.Tools), len(listBytes))

	for i, s := range t.steps() {
		if s.before != nil {
			s.before(t)
		}
		args := t.fill(s.args)
		fmt.Fprintf(out, "%d. %s\n   → %s %s\n", i+1, s.say, s.tool, args)
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: s.tool, Arguments: json.RawMessage(args)})
		if err != nil {
			return fmt.Errorf("%s: %w", s.tool, err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		fmt.Fprintf(out, "   ← %s%s\n\n", errorMark(res.IsError), abridge(text, 600))
		if res.IsError != s.expectError {
			return fmt.Errorf("step %d (%s): isError=%v, want %v: %s", i+1, s.tool, res.IsError, s.expectError, text)
		}
		if s.after != nil {
			var m map[string]any
			if err := json.Unmarshal([]byte(text), &m); err != nil {
				return err
			}
			if err := s.after(t, m); err != nil {
				return fmt.Errorf("step %d (%s): %w", i+1, s.tool, err)
			}
		}
	}
	fmt.Fprintln(out, "demo complete")
	return nil
}

// fill substitutes values learned in earlier steps.
func (t *tour) fill(args string) string {
	return strings.NewReplacer("$VERSION", t.version, "$CREATED", fmt.Sprint(t.created)).Replace(args)
}

func errorMark(isErr bool) string {
	if isErr {
		return "isError: "
	}
	return ""
}

// abridge shortens a result for printing without breaking UTF-8.
func abridge(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + fmt.Sprintf("… (%d bytes in all)", len(s))
}

func (t *tour) steps() []step {
	issue := emulator.DemoTriageIssue
	return []step{
		{say: "Orient in the repository: counts, labels, milestones, types, templates, top issues, permission (each upstream request listed)",
			tool: "github_get_overview", args: `{"owner":"acme","repo":"widgets"}`,
			after: func(_ *tour, r map[string]any) error {
				if reqs, _ := r["requests"].([]any); len(reqs) == 0 || len(reqs) > 5 {
					return fmt.Errorf("overview reported %d upstream requests, want 1 to 5", len(reqs))
				}
				if r["permission"] != "admin" {
					return fmt.Errorf("overview gave alice permission %v, want admin", r["permission"])
				}
				return nil
			}},
		{say: "Search open, unlabeled issues (summary rows are small)", tool: "github_search_issues",
			args: `{"owner":"acme","repo":"widgets","no_labels":true,"page_size":5}`},
		{say: "Read an issue: fields, relations, comments and the version to update against", tool: "github_get_issue",
			args: fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"detail":"summary"}`, issue),
			after: func(t *tour, r map[string]any) error {
				is, _ := r["issue"].(map[string]any)
				v, _ := is["version"].(string)
				if v == "" {
					return fmt.Errorf("no version in %v", r)
				}
				t.version = v
				return nil
			}},
		{say: "Swap the status label: status: triage goes, status: in progress comes, the other labels stay", tool: "github_update_issue",
			args: fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"labels":{"swap":{"prefix":"status: ","to":"status: in progress"}}}`, issue)},
		{say: "Retitle with the version read before the swap: refused as a conflict, nothing written", tool: "github_update_issue",
			args:        fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"title":"Chart widget freezes the tab on switching to the dark theme","expected_version":"$VERSION"}`, issue),
			expectError: true},
		{say: "The repair: re-read to get the current version", tool: "github_get_issue",
			args: fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"detail":"summary"}`, issue),
			after: func(t *tour, r map[string]any) error {
				is, _ := r["issue"].(map[string]any)
				t.version, _ = is["version"].(string)
				return nil
			}},
		{say: "…and retry with it: the update goes through", tool: "github_update_issue",
			args: fmt.Sprintf(`{"owner":"acme","repo":"widgets","issue_number":%d,"title":"Chart widget freezes the tab on switching to the dark theme","expected_version":"$VERSION"}`, issue)},
		{say: "Create an issue with an idempotency key", tool: "github_create_issue",
			args: `{"owner":"acme","repo":"widgets","title":"Export fails on empty widgets","body":"Exporting a widget with no parts returns a<b && c>d in the log.","labels":["bug"],"idempotency_key":"demo-create-1"}`,
			after: func(t *tour, r map[string]any) error {
				is, _ := r["issue"].(map[string]any)
				n, _ := is["number"].(float64)
				if n == 0 {
					return fmt.Errorf("no number in %v", r)
				}
				t.created = n
				return nil
			}},
		{say: "Repeat the same create with the same key: the first result comes back, nothing new is created", tool: "github_create_issue",
			args: `{"owner":"acme","repo":"widgets","title":"Export fails on empty widgets","body":"Exporting a widget with no parts returns a<b && c>d in the log.","labels":["bug"],"idempotency_key":"demo-create-1"}`,
			after: func(t *tour, r map[string]any) error {
				is, _ := r["issue"].(map[string]any)
				if n, _ := is["number"].(float64); n != t.created {
					return fmt.Errorf("repeat created #%v, first was #%v", n, t.created)
				}
				return nil
			}},
		{say: "Spend the rate budget (as a busy day would): the error says when to retry", tool: "github_get_issue",
			args:        `{"owner":"acme","repo":"widgets","issue_number":$CREATED}`,
			expectError: true,
			before: func(t *tour) {
				t.stack.Emulator.Emu.ExhaustRateLimit(emulator.DemoTokenAlice, "core")
			}},
	}
}
