package graphql_test

import (
	"encoding/json"
	"slices"
	"sort"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/graphql"
)

// The introspection answers are checked against the served schema itself
// (the embedded SDL, parsed independently by the test), never against
// numbers written here.

// introTypeRef is a __Type as the full introspection query reads it: a
// named type, or a wrapper with ofType.
type introTypeRef struct {
	Kind   string        `json:"kind"`
	Name   *string       `json:"name"`
	OfType *introTypeRef `json:"ofType"`
}

// sdl writes a type reference as SDL does ("[Label!]!").
func (r *introTypeRef) sdl() string {
	switch {
	case r == nil:
		return "<nil>"
	case r.Kind == "NON_NULL":
		return r.OfType.sdl() + "!"
	case r.Kind == "LIST":
		return "[" + r.OfType.sdl() + "]"
	case r.Name != nil:
		return *r.Name
	}
	return "<unnamed>"
}

type introInputJSON struct {
	Name         string       `json:"name"`
	Type         introTypeRef `json:"type"`
	DefaultValue *string      `json:"defaultValue"`
}

type introFullType struct {
	Kind   string `json:"kind"`
	Name   string `json:"name"`
	Fields []struct {
		Name         string           `json:"name"`
		Args         []introInputJSON `json:"args"`
		Type         introTypeRef     `json:"type"`
		IsDeprecated bool             `json:"isDeprecated"`
	} `json:"fields"`
	InputFields   []introInputJSON        `json:"inputFields"`
	Interfaces    []introTypeRef          `json:"interfaces"`
	EnumValues    []struct{ Name string } `json:"enumValues"`
	PossibleTypes []introTypeRef          `json:"possibleTypes"`
}

// fullIntrospection is graphql-js's getIntrospectionQuery(), the document
// GraphiQL and code generators send, with deprecated members included.
const fullIntrospection = `query IntrospectionQuery {
  __schema {
    queryType { name }
    mutationType { name }
    subscriptionType { name }
    types { ...FullType }
    directives { name description locations args { ...InputValue } }
  }
}
fragment FullType on __Type {
  kind name description
  fields(includeDeprecated: true) {
    name description
    args { ...InputValue }
    type { ...TypeRef }
    isDeprecated deprecationReason
  }
  inputFields { ...InputValue }
  interfaces { ...TypeRef }
  enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
  possibleTypes { ...TypeRef }
}
fragment InputValue on __InputValue { name description type { ...TypeRef } defaultValue }
fragment TypeRef on __Type {
  kind name
  ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } }
}`

func servedSchema(t *testing.T) *ast.Schema {
	t.Helper()
	s, err := graphql.LoadSchema()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func testGraphQLIntrospection(t *testing.T, w *gqlWorld) {
	s := servedSchema(t)
	var d struct {
		Schema struct {
			QueryType    struct{ Name string }
			MutationType *struct{ Name string }
			Types        []introFullType
			Directives   []struct {
				Name      string
				Locations []string
			}
		} `json:"__schema"`
	}
	w.query("emu-alice", fullIntrospection, nil).ok(t, &d)
	if d.Schema.QueryType.Name != s.Query.Name {
		t.Errorf("queryType = %q, want %q", d.Schema.QueryType.Name, s.Query.Name)
	}
	if d.Schema.MutationType == nil {
		t.Errorf("mutationType = null, want %q", s.Mutation.Name)
	} else if d.Schema.MutationType.Name != s.Mutation.Name {
		t.Errorf("mutationType = %q, want %q", d.Schema.MutationType.Name, s.Mutation.Name)
	}
	if len(d.Schema.Types) != len(s.Types) {
		t.Errorf("introspection lists %d types, want %d, the served schema's", len(d.Schema.Types), len(s.Types))
	}
	if !sort.SliceIsSorted(d.Schema.Types, func(i, j int) bool { return d.Schema.Types[i].Name < d.Schema.Types[j].Name }) {
		t.Error("types are not in name order")
	}
	for _, got := range d.Schema.Types {
		def := s.Types[got.Name]
		if def == nil {
			t.Errorf("introspection lists %s, which the schema lacks", got.Name)
			continue
		}
		checkIntroType(t, s, def, got)
	}
	var dirs []string
	for _, dir := range d.Schema.Directives {
		dirs = append(dirs, dir.Name)
		if want := s.Directives[dir.Name]; want == nil {
			t.Errorf("directive %s is listed, but the served schema lacks it", dir.Name)
		} else if len(dir.Locations) != len(want.Locations) {
			t.Errorf("directive %s: locations %v, want %d of them", dir.Name, dir.Locations, len(want.Locations))
		}
	}
	for _, name := range []string{"include", "skip", "deprecated"} {
		if !slices.Contains(dirs, name) {
			t.Errorf("directives = %v, want %s among them", dirs, name)
		}
	}

	testIntrospectionType(t, w, s)
	testIntrospectionDeprecated(t, w, s)
}

// checkIntroType compares one introspected type with its definition.
func checkIntroType(t *testing.T, s *ast.Schema, def *ast.Definition, got introFullType) {
	t.Helper()
	if got.Kind != string(def.Kind) {
		t.Errorf("%s: kind %s, want %s", def.Name, got.Kind, def.Kind)
	}
	switch def.Kind {
	case ast.Object, ast.Interface:
		var want []*ast.FieldDefinition
		for _, f := range def.Fields {
			if !introspectionField(f.Name) {
				want = append(want, f)
			}
		}
		if len(got.Fields) != len(want) {
			t.Errorf("%s: %d fields, want %d", def.Name, len(got.Fields), len(want))
			return
		}
		for i, f := range want {
			g := got.Fields[i]
			bad := false
			if g.Name != f.Name {
				t.Errorf("%s field %d: name %s, want %s", def.Name, i, g.Name, f.Name)
				bad = true
			}
			if g.Type.sdl() != f.Type.String() {
				t.Errorf("%s.%s: type %s, want %s", def.Name, f.Name, g.Type.sdl(), f.Type.String())
				bad = true
			}
			if len(g.Args) != len(f.Arguments) {
				t.Errorf("%s.%s: %d args, want %d", def.Name, f.Name, len(g.Args), len(f.Arguments))
				bad = true
			}
			if want := isDeprecated(f.Directives); g.IsDeprecated != want {
				t.Errorf("%s.%s: isDeprecated %v, want %v", def.Name, f.Name, g.IsDeprecated, want)
				bad = true
			}
			if bad {
				continue
			}
			for j, a := range f.Arguments {
				if g.Args[j].Name != a.Name {
					t.Errorf("%s.%s argument %d: name %s, want %s", def.Name, f.Name, j, g.Args[j].Name, a.Name)
				}
				if g.Args[j].Type.sdl() != a.Type.String() {
					t.Errorf("%s.%s(%s): type %s, want %s", def.Name, f.Name, a.Name, g.Args[j].Type.sdl(), a.Type.String())
				}
			}
		}
		if len(got.Interfaces) != len(def.Interfaces) {
			t.Errorf("%s: interfaces %d, want %v", def.Name, len(got.Interfaces), def.Interfaces)
		}
	case ast.Enum:
		if len(got.EnumValues) != len(def.EnumValues) {
			t.Errorf("%s: %d values, want %d", def.Name, len(got.EnumValues), len(def.EnumValues))
		}
	case ast.InputObject:
		if len(got.InputFields) != len(def.Fields) {
			t.Errorf("%s: %d input fields, want %d", def.Name, len(got.InputFields), len(def.Fields))
		}
		for i, f := range def.Fields {
			if i >= len(got.InputFields) {
				continue
			}
			if g := got.InputFields[i]; g.Name != f.Name {
				t.Errorf("%s input field %d: name %s, want %s", def.Name, i, g.Name, f.Name)
			}
			if g := got.InputFields[i]; g.Type.sdl() != f.Type.String() {
				t.Errorf("%s.%s: type %s, want %s", def.Name, f.Name, g.Type.sdl(), f.Type.String())
			}
		}
	}
	if def.Kind == ast.Interface || def.Kind == ast.Union {
		var names []string
		for _, p := range got.PossibleTypes {
			names = append(names, p.sdl())
		}
		var want []string
		for _, p := range s.GetPossibleTypes(def) {
			want = append(want, p.Name)
		}
		sort.Strings(want)
		if !slices.Equal(names, want) {
			t.Errorf("%s: possible types %v, want %v", def.Name, names, want)
		}
	} else if got.PossibleTypes != nil {
		t.Errorf("%s: possibleTypes %v on a %s, want null", def.Name, got.PossibleTypes, def.Kind)
	}
	if def.Kind != ast.Object && def.Kind != ast.Interface && got.Fields != nil {
		t.Errorf("%s: fields %v on a %s, want null", def.Name, got.Fields, def.Kind)
	}
}

// testIntrospectionType asks __type as gh does, by name, and for a name
// the schema does not have.
func testIntrospectionType(t *testing.T, w *gqlWorld, s *ast.Schema) {
	var d struct {
		Issue   *struct{ Fields []struct{ Name string } }
		Nope    *struct{ Name string }
		Typname string `json:"__typename"`
		Schema  struct {
			Typename string `json:"__typename"`
		} `json:"__schema"`
	}
	w.query("emu-alice", `query LinkedBranchFeature {
  Issue: __type(name: "Issue") { fields { name } }
  Nope: __type(name: "NoSuchType") { name }
  __typename
  __schema { __typename }
}`, nil).ok(t, &d)
	if d.Issue == nil {
		t.Fatalf(`__type(name: "Issue") = null, want the type`)
	}
	if d.Nope != nil {
		t.Fatalf(`__type(name: "NoSuchType") = %+v, want null`, d.Nope)
	}
	if d.Typname != "Query" {
		t.Fatalf("__typename = %q, want Query", d.Typname)
	}
	if d.Schema.Typename != "__Schema" {
		t.Fatalf("__schema { __typename } = %q, want __Schema", d.Schema.Typename)
	}
	var want []string
	for _, f := range s.Types["Issue"].Fields {
		if !isDeprecated(f.Directives) {
			want = append(want, f.Name)
		}
	}
	var got []string
	for _, f := range d.Issue.Fields {
		got = append(got, f.Name)
	}
	if !slices.Equal(got, want) {
		t.Errorf("Issue fields:\n got %v\nwant %v", got, want)
	}

	// An input object's fields and their defaults; a scalar has no fields.
	var in struct {
		Input struct {
			Kind        string
			InputFields []introInputJSON
			Fields      *json.RawMessage
		}
		Str struct {
			Kind   string
			Fields *json.RawMessage
			OfType *json.RawMessage
		}
	}
	w.query("emu-alice", `{
  Input: __type(name: "CreateIssueInput") { kind inputFields { name type { kind name ofType { kind name } } defaultValue } fields { name } }
  Str: __type(name: "String") { kind fields { name } ofType { name } }
}`, nil).ok(t, &in)
	def := s.Types["CreateIssueInput"]
	if in.Input.Kind != "INPUT_OBJECT" {
		t.Errorf("CreateIssueInput kind = %s, want INPUT_OBJECT", in.Input.Kind)
	}
	if len(in.Input.InputFields) != len(def.Fields) {
		t.Errorf("CreateIssueInput has %d inputFields, want %d", len(in.Input.InputFields), len(def.Fields))
	}
	if in.Input.Fields != nil {
		t.Errorf("CreateIssueInput fields = %s, want null", *in.Input.Fields)
	}
	for i, f := range def.Fields {
		if i < len(in.Input.InputFields) && in.Input.InputFields[i].Name != f.Name {
			t.Errorf("CreateIssueInput field %d = %s, want %s", i, in.Input.InputFields[i].Name, f.Name)
		}
	}
	if in.Str.Kind != "SCALAR" {
		t.Errorf("String kind = %s, want SCALAR", in.Str.Kind)
	}
	if in.Str.Fields != nil {
		t.Errorf("String fields = %s, want null", *in.Str.Fields)
	}
	if in.Str.OfType != nil {
		t.Errorf("String ofType = %s, want null", *in.Str.OfType)
	}
}

// testIntrospectionDeprecated checks includeDeprecated on fields: a
// deprecated field of the served schema is listed only when asked for.
func testIntrospectionDeprecated(t *testing.T, w *gqlWorld, s *ast.Schema) {
	var typeName, fieldName, reason string
	for _, name := range []string{"Issue", "ReactionGroup"} {
		for _, f := range s.Types[name].Fields {
			if d := f.Directives.ForName("deprecated"); d != nil {
				typeName, fieldName, reason = name, f.Name, d.Arguments.ForName("reason").Value.Raw
				break
			}
		}
		if typeName != "" {
			break
		}
	}
	if typeName == "" {
		t.Skip("the served schema has no deprecated field to check")
	}
	var d struct {
		Plain, All struct {
			Fields []struct {
				Name              string
				IsDeprecated      bool
				DeprecationReason *string
			}
		}
	}
	w.query("emu-alice", `query($n: String!) {
  Plain: __type(name: $n) { fields { name isDeprecated deprecationReason } }
  All: __type(name: $n) { fields(includeDeprecated: true) { name isDeprecated deprecationReason } }
}`, map[string]any{"n": typeName}).ok(t, &d)
	find := func(fields []struct {
		Name              string
		IsDeprecated      bool
		DeprecationReason *string
	}) int {
		return slices.IndexFunc(fields, func(f struct {
			Name              string
			IsDeprecated      bool
			DeprecationReason *string
		}) bool {
			return f.Name == fieldName
		})
	}
	if find(d.Plain.Fields) >= 0 {
		t.Errorf("%s.%s is listed without includeDeprecated, want it left out", typeName, fieldName)
	}
	i := find(d.All.Fields)
	if i < 0 {
		t.Errorf("%s.%s is not listed with includeDeprecated, want it listed", typeName, fieldName)
	} else {
		f := d.All.Fields[i]
		if !f.IsDeprecated {
			t.Errorf("%s.%s with includeDeprecated: isDeprecated = false, want true", typeName, fieldName)
		}
		if f.DeprecationReason == nil || *f.DeprecationReason != reason {
			t.Errorf("%s.%s with includeDeprecated: deprecationReason = %v, want %q", typeName, fieldName, deref(f.DeprecationReason), reason)
		}
	}
	if len(d.All.Fields) != len(s.Types[typeName].Fields) {
		t.Errorf("%s: %d fields with includeDeprecated, want %d", typeName, len(d.All.Fields), len(s.Types[typeName].Fields))
	}
}
