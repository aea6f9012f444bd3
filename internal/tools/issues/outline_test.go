package issues_test

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/emulator"
	"github.com/ghgate/ghgate/internal/server/servertest"
	"github.com/ghgate/ghgate/internal/tools/issues"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type schemaDoc = map[string]any

// TestToolsListOutlinesRelationsAndTheCreatedParent reads the default
// tools/list: github_get_issue's relations are listed one level down (which
// way each dependency points, what each count counts), and so is the parent
// github_create_issue linked. Each listed field has the type and
// description of the full schema (ghgate://schemas), and every field a real
// result carries there is listed.
func TestToolsListOutlinesRelationsAndTheCreatedParent(t *testing.T) {
	t.Parallel()
	env := servertest.Start(t, servertest.Options{})
	listed := listedOutputs(t, env)
	full := fullOutputs(t, env)
	for _, c := range []struct {
		tool, field string
		want        []string
	}{
		{toolkit.NameGetIssue, "relations", []string{"blocked_by", "blocking", "parent", "sub_issues", "sub_issues_completed"}},
		{toolkit.NameCreateIssue, "issue", []string{"parent"}},
	} {
		got := nested(listed[c.tool], c.field)
		if names := slices.Sorted(maps.Keys(got)); !slices.Equal(names, c.want) {
			t.Errorf("%s: %s lists %q, want %q", c.tool, c.field, names, c.want)
		}
		fullFields := nested(full[c.tool], c.field)
		for _, name := range c.want {
			g, _ := got[name].(schemaDoc)
			f, _ := fullFields[name].(schemaDoc)
			if g == nil {
				t.Errorf("%s: %s.%s is not listed, want it as the full schema has it: %v", c.tool, c.field, name, f)
				continue
			}
			if f == nil {
				t.Errorf("%s: %s.%s is not in the full schema, want it there: listed as %v", c.tool, c.field, name, g)
				continue
			}
			if !reflect.DeepEqual(g["type"], f["type"]) {
				t.Errorf("%s: %s.%s listed type = %v, want the full schema's %v", c.tool, c.field, name, g["type"], f["type"])
			}
			if !reflect.DeepEqual(g["description"], f["description"]) {
				t.Errorf("%s: %s.%s listed description = %q, want the full schema's %q", c.tool, c.field, name, g["description"], f["description"])
			}
		}
	}
	rel := nested(listed[toolkit.NameGetIssue], "relations")
	for _, name := range []string{"blocked_by", "blocking", "sub_issues"} {
		if description(rel[name]) == "" {
			t.Errorf("relations.%s description in tools/list is empty, want one", name)
		}
	}
	if description(rel["blocked_by"]) == description(rel["blocking"]) {
		t.Errorf("blocked_by and blocking descriptions are both %q, want them to differ", description(rel["blocking"]))
	}
	if description(nested(listed[toolkit.NameCreateIssue], "issue")["parent"]) == "" {
		t.Errorf("create_issue's issue.parent description in tools/list is empty, want one")
	}

	// Real results: an epic's child with children of its own, and an
	// issue both blocked and blocking. Every relation they carry is listed,
	// with its JSON type.
	seen := map[string]bool{}
	for _, n := range []toolkit.IssueNumber{emulator.DemoNestedParentIssue, emulator.DemoChainIssue} {
		var out struct {
			Relations map[string]any `json:"relations"`
		}
		res := env.Call(t, toolkit.NameGetIssue, issues.GetIssueIn{Owner: "acme", Repo: "widgets", IssueNumber: n, Detail: "summary"})
		if res.IsError {
			t.Fatalf("#%d: got an error, want the issue: %s", n, res.JSON)
		}
		if err := json.Unmarshal(res.JSON, &out); err != nil {
			t.Fatalf("#%d: decode: %v: %s", n, err, res.JSON)
		}
		for name, v := range out.Relations {
			seen[name] = true
			if !listedType(rel[name], v) {
				t.Errorf("#%d: relations.%s = %v, want a value of the listed type %v", n, name, v, rel[name])
			}
		}
	}
	if len(seen) != len(rel) {
		t.Errorf("the seed issues carry relations %q, want every one tools/list lists: %q", slices.Sorted(maps.Keys(seen)), slices.Sorted(maps.Keys(rel)))
	}
	created := servertest.CallOK[map[string]map[string]any](t, env, toolkit.NameCreateIssue,
		issues.CreateIssueIn{Owner: "acme", Repo: "widgets", Title: "Outlined parent", ParentIssueNumber: emulator.DemoParentIssue})
	if p := created["issue"]["parent"]; !listedType(nested(listed[toolkit.NameCreateIssue], "issue")["parent"], p) {
		t.Errorf("create_issue's issue.parent = %v, want a value of the listed type %v", p, nested(listed[toolkit.NameCreateIssue], "issue")["parent"])
	}
}

// listedOutputs is each default tool's outputSchema as tools/list sends it.
func listedOutputs(t *testing.T, env *servertest.Env) map[string]schemaDoc {
	t.Helper()
	res, err := env.Session.ListTools(t.Context(), nil)
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	out := map[string]schemaDoc{}
	for _, tool := range res.Tools {
		b, err := json.Marshal(tool.OutputSchema)
		if err != nil {
			t.Fatalf("%s output schema: %v", tool.Name, err)
		}
		var s schemaDoc
		if err := json.Unmarshal(b, &s); err != nil {
			t.Fatalf("%s output schema %s: %v", tool.Name, b, err)
		}
		out[tool.Name] = s
	}
	return out
}

// fullOutputs is each tool's full output schema, from ghgate://schemas.
func fullOutputs(t *testing.T, env *servertest.Env) map[string]schemaDoc {
	t.Helper()
	res, err := env.Session.ReadResource(t.Context(), &mcp.ReadResourceParams{URI: "ghgate://schemas"})
	if err != nil {
		t.Fatalf("read ghgate://schemas: %v", err)
	}
	var doc map[string]struct {
		Output schemaDoc `json:"output"`
	}
	if err := json.Unmarshal([]byte(res.Contents[0].Text), &doc); err != nil {
		t.Fatalf("decode ghgate://schemas: %v", err)
	}
	out := map[string]schemaDoc{}
	for name, p := range doc {
		out[name] = p.Output
	}
	return out
}

// nested is the properties of the output field named, as a schema lists
// them (none when it lists none).
func nested(s schemaDoc, field string) map[string]any {
	props, _ := s["properties"].(schemaDoc)
	f, _ := props[field].(schemaDoc)
	p, _ := f["properties"].(schemaDoc)
	return p
}

func description(schema any) string {
	s, _ := schema.(schemaDoc)
	d, _ := s["description"].(string)
	return d
}

// listedType reports whether a JSON value has a type the listed schema
// allows.
func listedType(schema any, v any) bool {
	s, _ := schema.(schemaDoc)
	if s == nil || v == nil {
		return false
	}
	var types []any
	switch ty := s["type"].(type) {
	case string:
		types = []any{ty}
	case []any:
		types = ty
	}
	var kind string
	switch x := v.(type) {
	case map[string]any:
		kind = "object"
	case []any:
		kind = "array"
	case string:
		kind = "string"
	case bool:
		kind = "boolean"
	case float64:
		kind = "number"
		if x == float64(int64(x)) {
			kind = "integer"
		}
	}
	return slices.Contains(types, any(kind)) || (kind == "integer" && slices.Contains(types, any("number")))
}
