package servertest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// recorder stands for a test's testing.TB and keeps what Errorf would
// have failed it with, so a test can see the check fail.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.failed = append(r.failed, fmt.Sprintf(format, args...))
}

func (r *recorder) take() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.failed
	r.failed = nil
	return out
}

// rewrite is a Wrap that edits every answer's JSON with edit, in
// structuredContent and the text block alike, as a deployment's wrapper
// around the tools could.
func rewrite(edit func(tool string, isError bool, v map[string]any)) tooldef.Wrapper {
	return func(ctx context.Context, call tooldef.Call, next func(context.Context) (*mcp.CallToolResult, error)) (*mcp.CallToolResult, error) {
		res, err := next(ctx)
		if err != nil || res == nil || len(res.Content) != 1 {
			return res, err
		}
		text, ok := res.Content[0].(*mcp.TextContent)
		if !ok {
			return res, err
		}
		var v map[string]any
		if json.Unmarshal([]byte(text.Text), &v) != nil {
			return res, err
		}
		edit(call.Tool, res.IsError, v)
		b, _ := json.Marshal(v)
		text.Text, res.StructuredContent = string(b), json.RawMessage(b)
		return res, nil
	}
}

// Every answer a test sees through Env.Call is held to ghgate://schemas:
// a field the schema does not declare, at any depth, and a required one
// missing fail the test with the tool, the path and what is wrong; an
// answer left as the server made it passes. A result, a dry run and an
// error envelope are each held to their own schema.
func TestCallHoldsEveryAnswerToItsPublishedSchema(t *testing.T) {
	var mu sync.Mutex
	edit := func(string, bool, map[string]any) {}
	env := servertest.Start(t, servertest.Options{Wrap: rewrite(func(tool string, isError bool, v map[string]any) {
		mu.Lock()
		defer mu.Unlock()
		edit(tool, isError, v)
	})})
	setEdit := func(f func(tool string, isError bool, v map[string]any)) {
		mu.Lock()
		defer mu.Unlock()
		edit = f
	}
	link := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": emulator.DemoParentIssue,
		"relation": "blocked_by", "action": "remove", "target_issue_number": emulator.DemoBlockerIssue}
	dry := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 2, "title": "A clearer title", "dry_run": true}
	missing := map[string]any{"owner": "acme", "repo": "widgets", "issue_number": 99999}
	for _, c := range []struct {
		name  string
		tool  string
		args  map[string]any
		edit  func(tool string, isError bool, v map[string]any)
		wants []string // what the failure says; none: the answer passes
	}{
		{name: "result as made", tool: toolkit.NameLinkIssues, args: link},
		{name: "dry run as made", tool: toolkit.NameUpdateIssue, args: dry},
		{name: "error as made", tool: toolkit.NameGetIssue, args: missing},
		{name: "undeclared top-level field", tool: toolkit.NameLinkIssues, args: link,
			edit:  func(_ string, _ bool, v map[string]any) { v["done"] = true },
			wants: []string{toolkit.NameLinkIssues, "the result does not conform", "$.done: undeclared field"}},
		{name: "undeclared nested field", tool: toolkit.NameLinkIssues, args: link,
			edit:  func(_ string, _ bool, v map[string]any) { v["relation"].(map[string]any)["blocks"] = "acme/widgets#1" },
			wants: []string{"$.relation.blocks: undeclared field (the schema declares blocked_by, issue, linked"}},
		{name: "required field missing", tool: toolkit.NameLinkIssues, args: link,
			edit:  func(_ string, _ bool, v map[string]any) { delete(v["relation"].(map[string]any), "linked") },
			wants: []string{"$.relation.linked: required field missing"}},
		{name: "wrong type", tool: toolkit.NameLinkIssues, args: link,
			edit:  func(_ string, _ bool, v map[string]any) { v["no_op"] = "yes" },
			wants: []string{"$.no_op: is string, the schema says boolean"}},
		{name: "undeclared field in a dry run", tool: toolkit.NameUpdateIssue, args: dry,
			edit: func(_ string, _ bool, v map[string]any) {
				v["preview"].(map[string]any)["items"].([]any)[0].(map[string]any)["guess"] = 1
			},
			wants: []string{toolkit.NameUpdateIssue, "the dry run does not conform", "$.preview.items[0].guess: undeclared field"}},
		{name: "a read's envelope with a settlement", tool: toolkit.NameGetIssue, args: missing,
			edit:  func(_ string, _ bool, v map[string]any) { v["settlement"] = "not_started" },
			wants: []string{"the error envelope does not conform", "$.settlement: undeclared field"}},
		{name: "envelope without its request id", tool: toolkit.NameGetIssue, args: missing,
			edit:  func(_ string, _ bool, v map[string]any) { delete(v, "request_id") },
			wants: []string{"$.request_id: required field missing"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			setEdit(func(string, bool, map[string]any) {})
			if c.edit != nil {
				setEdit(c.edit)
			}
			rec := &recorder{TB: t}
			env.Call(rec, c.tool, c.args)
			failed := rec.take()
			if len(c.wants) == 0 {
				if len(failed) > 0 {
					t.Fatalf("an answer as the server made it failed the check: %v", failed)
				}
				return
			}
			if len(failed) != 1 {
				t.Fatalf("the check reported %d failures, want 1: %v", len(failed), failed)
			}
			for _, want := range c.wants {
				if !strings.Contains(failed[0], want) {
					t.Errorf("the failure does not say %q:\n%s", want, failed[0])
				}
			}
		})
	}
}

// Conform walks arrays, maps and alternatives, and an "any value" field
// accepts whatever it holds; problems name each path.
func TestConformNamesEachPath(t *testing.T) {
	closed := func(props map[string]*jsonschema.Schema, required ...string) *jsonschema.Schema {
		return &jsonschema.Schema{Type: "object", Properties: props, Required: required, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	}
	s := closed(map[string]*jsonschema.Schema{
		"rows":  {Type: "array", Items: closed(map[string]*jsonschema.Schema{"n": {Type: "integer"}}, "n")},
		"by":    {Type: "object", AdditionalProperties: &jsonschema.Schema{Type: "integer"}},
		"kind":  {Type: "string", Enum: []any{"a", "b"}},
		"any":   {},
		"maybe": {AnyOf: []*jsonschema.Schema{{Type: "integer"}, {Type: "null"}}},
	}, "rows")
	for _, c := range []struct {
		json string
		want []string
	}{
		{`{"rows":[{"n":1}],"by":{"x":2},"kind":"a","any":{"whatever":[1]},"maybe":null}`, nil},
		{`{"rows":[{"n":1},{"m":2}]}`, []string{"$.rows[1].m: undeclared field (the schema declares n)", "$.rows[1].n: required field missing"}},
		{`{"rows":[{"n":1.5}]}`, []string{"$.rows[0].n: is number, the schema says integer"}},
		{`{"rows":[],"by":{"x":"two"}}`, []string{"$.by.x: is string, the schema says integer"}},
		{`{"rows":[],"kind":"c"}`, []string{`$.kind: "c" is not one of [a b]`}},
		{`{"rows":[],"maybe":"x"}`, []string{"$.maybe: matches none of its 2 alternatives; against the first:", "$.maybe: is string, the schema says integer"}},
		{`{}`, []string{"$.rows: required field missing"}},
	} {
		if got := servertest.Conform(s, []byte(c.json)); !slices.Equal(got, c.want) {
			t.Errorf("%s:\n got %q\nwant %q", c.json, got, c.want)
		}
	}
}
