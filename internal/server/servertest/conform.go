package servertest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/ghgate/ghgate/internal/tools"
	"github.com/ghgate/ghgate/internal/tools/toolkit"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Every tool result a test sees through Env.Call is held to the schema
// the server publishes for it in ghgate://schemas: a result to output, a
// failure's envelope to error, a write's dry run to dry_run. The check
// is strict: a field the schema does not declare fails it as surely as a
// required one missing, at any depth, so an answer cannot carry what its
// schema does not tell the agent, nor leave out what it promises.

// schemasURI is the resource the schemas are read from, as an agent
// reads them.
const schemasURI = "ghgate://schemas"

// schemaCache is ghgate://schemas as a session is served it, read once
// and again when a tool is missing (the surface can grow while a
// session runs).
type schemaCache struct {
	mu  sync.Mutex
	doc map[string]tooldef.Published
}

// conform fails t when res does not conform to what ghgate://schemas
// publishes for tool's answer of its kind.
func (e *schemaCache) conform(t testing.TB, cs *mcp.ClientSession, tool string, args json.RawMessage, res Result) {
	t.Helper()
	kind, s, err := e.answerSchema(cs, tool, args, res.IsError)
	if err != nil {
		t.Errorf("%s: %v", tool, err)
		return
	}
	if problems := Conform(s, res.JSON); len(problems) > 0 {
		t.Errorf("%s: the %s does not conform to its schema in %s:\n  %s\nanswer: %s",
			tool, kind, schemasURI, strings.Join(problems, "\n  "), res.JSON)
	}
	if res.IsError {
		var env contract.Error
		if json.Unmarshal(res.JSON, &env) == nil && !contract.Known(env.Code) {
			t.Errorf("%s: error code %q is not in ghgate://errors", tool, env.Code)
		}
	}
}

// answerSchema picks the schema an answer of tool is held to: error for
// a failure, dry_run for a write's dry run, output otherwise. A tool
// this server does not serve has no entry; its refusal is held to the
// error schema it would publish if served.
func (e *schemaCache) answerSchema(cs *mcp.ClientSession, tool string, args json.RawMessage, isError bool) (string, *jsonschema.Schema, error) {
	p, served, err := e.published(cs, tool)
	if err != nil {
		return "", nil, err
	}
	switch {
	case isError:
		if p.Error == nil {
			return "", nil, fmt.Errorf("%s publishes no error schema for it", schemasURI)
		}
		return "error envelope", p.Error, nil
	case !served:
		return "", nil, fmt.Errorf("answered a result, but %s has no entry for it", schemasURI)
	case dryRun(args):
		if p.DryRun == nil {
			return "", nil, fmt.Errorf("answered a dry run, but %s publishes no dry_run schema for it", schemasURI)
		}
		return "dry run", p.DryRun, nil
	}
	return "result", p.Output, nil
}

// published is tool's entry in ghgate://schemas. served is false for a
// tool the server does not serve: its entry is then the one its spec
// would publish.
func (e *schemaCache) published(cs *mcp.ClientSession, tool string) (p tooldef.Published, served bool, err error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if p, ok := e.doc[tool]; ok {
		return p, true, nil
	}
	res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: schemasURI})
	if err != nil {
		return p, false, fmt.Errorf("reading %s: %v", schemasURI, err)
	}
	if len(res.Contents) != 1 {
		return p, false, fmt.Errorf("%s: %d contents, want 1", schemasURI, len(res.Contents))
	}
	doc, err := decodePublished(res.Contents[0].Text)
	if err != nil {
		return p, false, err
	}
	e.doc = doc
	if p, ok := doc[tool]; ok {
		return p, true, nil
	}
	for _, sp := range tools.All(&toolkit.Service{}) {
		if sp.ToolName() == tool {
			p, err := sp.Schemas()
			return p, false, err
		}
	}
	return p, false, fmt.Errorf("ghgate has no tool of that name")
}

// publishedDocs are the ghgate://schemas documents decoded in this test
// binary, by their text. Its sessions are served few distinct documents,
// and decoding one was most of what checking an answer cost; a decoded
// document is shared, and only read.
var publishedDocs sync.Map // string → map[string]tooldef.Published

func decodePublished(text string) (map[string]tooldef.Published, error) {
	if doc, ok := publishedDocs.Load(text); ok {
		return doc.(map[string]tooldef.Published), nil
	}
	doc := map[string]tooldef.Published{}
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		return nil, fmt.Errorf("decoding %s: %v", schemasURI, err)
	}
	publishedDocs.Store(text, doc)
	return doc, nil
}

// resolvedSchemas are the schemas Conform has resolved, by schema: the
// same published schema checks many answers, and resolving it again for
// each was the rest of the cost.
var resolvedSchemas sync.Map // *jsonschema.Schema → *jsonschema.Resolved

func resolve(s *jsonschema.Schema) (*jsonschema.Resolved, error) {
	if r, ok := resolvedSchemas.Load(s); ok {
		return r.(*jsonschema.Resolved), nil
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return nil, err
	}
	resolvedSchemas.Store(s, r)
	return r, nil
}

// dryRun reports whether a call's arguments ask for a dry run.
func dryRun(args json.RawMessage) bool {
	var a struct {
		DryRun bool `json:"dry_run"`
	}
	return json.Unmarshal(args, &a) == nil && a.DryRun
}

// Conform checks a JSON value against a schema strictly and returns each
// problem as "PATH: what is wrong" (PATH is $ for the value itself,
// $.field, $.items[2].labels below it). An object's fields are checked
// against the properties its schema declares, whether or not the schema
// closes it with additionalProperties: false; a schema that declares no
// properties and no additionalProperties (an "any value" field, such as
// a repair's arguments) accepts whatever it holds.
func Conform(s *jsonschema.Schema, raw []byte) []string {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return []string{"$: not JSON: " + err.Error()}
	}
	problems := conformAt(s, v, "$")
	if len(problems) == 0 {
		// Keywords the walk does not read (bounds, patterns, formats) are
		// the library's to check.
		if r, err := resolve(s); err != nil {
			problems = append(problems, "$: the published schema does not resolve: "+err.Error())
		} else if err := r.Validate(plainJSON(raw)); err != nil {
			problems = append(problems, "$: "+err.Error())
		}
	}
	return problems
}

func conformAt(s *jsonschema.Schema, v any, path string) []string {
	if s == nil {
		return nil
	}
	if s.Not != nil && isEmptySchema(s.Not) {
		return []string{path + ": present, but the schema allows nothing here"}
	}
	if alts := append(slices.Clone(s.AnyOf), s.OneOf...); len(alts) > 0 {
		var first []string
		for i, alt := range alts {
			p := conformAt(alt, v, path)
			if len(p) == 0 {
				break
			}
			if i == 0 {
				first = p
			}
			if i == len(alts)-1 {
				return append([]string{fmt.Sprintf("%s: matches none of its %d alternatives; against the first:", path, len(alts))}, first...)
			}
		}
	}
	if want := schemaTypes(s); len(want) > 0 && !slices.ContainsFunc(want, func(t string) bool { return hasType(v, t) }) {
		return []string{fmt.Sprintf("%s: is %s, the schema says %s", path, jsonType(v), strings.Join(want, " or "))}
	}
	if len(s.Enum) > 0 && !inEnum(s.Enum, v) {
		return []string{fmt.Sprintf("%s: %s is not one of %v", path, short(v), s.Enum)}
	}
	switch t := v.(type) {
	case map[string]any:
		return conformObject(s, t, path)
	case []any:
		var out []string
		for i, item := range t {
			out = append(out, conformAt(s.Items, item, fmt.Sprintf("%s[%d]", path, i))...)
		}
		return out
	}
	return nil
}

func conformObject(s *jsonschema.Schema, obj map[string]any, path string) []string {
	var out []string
	open := len(s.Properties) == 0 && s.AdditionalProperties == nil
	for _, name := range slices.Sorted(maps.Keys(obj)) {
		at := path + "." + name
		if p, ok := s.Properties[name]; ok {
			out = append(out, conformAt(p, obj[name], at)...)
			continue
		}
		switch ap := s.AdditionalProperties; {
		case open:
		case ap != nil && !(ap.Not != nil && isEmptySchema(ap.Not)):
			out = append(out, conformAt(ap, obj[name], at)...)
		default:
			out = append(out, fmt.Sprintf("%s: undeclared field (the schema declares %s)", at, declared(s)))
		}
	}
	for _, name := range s.Required {
		if _, ok := obj[name]; !ok {
			out = append(out, fmt.Sprintf("%s.%s: required field missing", path, name))
		}
	}
	return out
}

func declared(s *jsonschema.Schema) string {
	if len(s.Properties) == 0 {
		return "no fields"
	}
	return strings.Join(slices.Sorted(maps.Keys(s.Properties)), ", ")
}

func isEmptySchema(s *jsonschema.Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && (string(b) == "{}" || string(b) == "true")
}

func schemaTypes(s *jsonschema.Schema) []string {
	if s.Type != "" {
		return []string{s.Type}
	}
	return s.Types
}

func hasType(v any, t string) bool {
	switch t {
	case "integer":
		n, ok := v.(json.Number)
		if !ok {
			return false
		}
		_, err := n.Int64()
		return err == nil
	case "number":
		_, ok := v.(json.Number)
		return ok
	}
	return jsonType(v) == t
}

func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func inEnum(enum []any, v any) bool {
	got, _ := json.Marshal(v)
	for _, e := range enum {
		if want, _ := json.Marshal(e); bytes.Equal(got, want) {
			return true
		}
	}
	return false
}

// short quotes a value for a message, cut to a readable length.
func short(v any) string {
	b, _ := json.Marshal(v)
	if len(b) > 60 {
		return string(b[:57]) + "..."
	}
	return string(b)
}

// plainJSON decodes raw as encoding/json does by default (numbers as
// float64), the values the schema library validates.
func plainJSON(raw []byte) any {
	var v any
	_ = json.Unmarshal(raw, &v)
	return v
}
