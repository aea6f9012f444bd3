package graphql

import (
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/vektah/gqlparser/v2/ast"
)

// A field registered twice is remembered, not served twice and not a
// panic; the registry as built has none.
func TestGraphQLResolverRegisteredTwiceIsReported(t *testing.T) {
	r := &resolvers{fields: map[string]fieldResolver{}, types: map[reflect.Type]func(any) string{}}
	one := func(*gqlContext, root) (any, error) { return "one", nil }
	resolve(r, "Query.answer", one)
	resolve(r, "Query.answer", one)
	resolve(r, "Query.other", one)
	if got := strings.Join(r.twice, ","); got != "Query.answer" {
		t.Fatalf("twice = %q, want Query.answer", got)
	}
	if len(r.fields) != 2 {
		t.Fatalf("%d fields registered, want 2", len(r.fields))
	}
	if _, err := newResolvers(); err != nil {
		t.Fatalf("the emulator's own registry: %v", err)
	}
}

// TestEveryServedFieldHasAResolver checks the pruned schema and the
// registry agree both ways.
func TestEveryServedFieldHasAResolver(t *testing.T) {
	pruned, err := LoadSchema()
	if err != nil {
		t.Fatal(err)
	}
	reg, err := newResolvers()
	if err != nil {
		t.Fatal(err)
	}
	fields, err := Fields()
	if err != nil {
		t.Fatal(err)
	}
	served := map[string]bool{}
	for _, f := range fields {
		key := f.Type + "." + f.Field
		served[key] = true
		def := pruned.Types[f.Type]
		if def == nil || def.Fields.ForName(f.Field) == nil {
			t.Errorf("resolver %s is not in the embedded schema: regenerate it", key)
		}
	}
	// A type the schema keeps only as a member of a union or interface
	// (schema/members.go) has no field served: no value is of that type.
	servedType := map[string]bool{}
	for _, f := range fields {
		servedType[f.Type] = true
	}
	for _, key := range fieldKeys(pruned) {
		typ, _, _ := strings.Cut(key, ".")
		if !served[key] && servedType[typ] {
			t.Errorf("the embedded schema has %s, which no resolver serves", key)
		}
	}
	for name, def := range pruned.Types {
		if def.Kind == ast.Object && !def.BuiltIn && !servedType[name] &&
			!memberOfAbstract(pruned, name) {
			t.Errorf("the embedded schema has %s, which no resolver serves and no union or interface has as a member", name)
		}
	}
	if len(reg.fields) != len(served) {
		t.Errorf("Fields lists %d fields, want %d, the registry's", len(served), len(reg.fields))
	}
}

// fieldKeys is "Type.field" for every object field of a schema, for
// comparing schemas in tests.
func fieldKeys(s *ast.Schema) []string {
	var out []string
	for name, def := range s.Types {
		if def.BuiltIn || strings.HasPrefix(name, "__") || def.Kind != ast.Object {
			continue
		}
		for _, f := range def.Fields {
			if !strings.HasPrefix(f.Name, "__") {
				out = append(out, name+"."+f.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}

// memberOfAbstract reports whether a type is a member of one of the
// schema's unions or implements one of its interfaces.
func memberOfAbstract(s *ast.Schema, name string) bool {
	for _, def := range s.Types {
		if (def.Kind == ast.Union || def.Kind == ast.Interface) && slices.ContainsFunc(s.GetPossibleTypes(def),
			func(d *ast.Definition) bool { return d.Name == name }) {
			return true
		}
	}
	return false
}
