package graphql

import (
	"reflect"
	"sort"

	"github.com/vektah/gqlparser/v2/ast"
)

// Introspection (the GraphQL specification's "Schema Introspection"
// section) describes the schema the emulator serves: the pruned copy of
// GitHub's, so a client that asks what exists (gh asks __type(name:
// "LinkedBranch") before `gh issue develop` and the values of SearchType
// before `gh search issues`) learns exactly what the emulator answers.
// GitHub answers introspection from graphql-ruby; the shapes here follow the
// specification, which both implement.
//
// The introspection fields live in their own registry: they are not
// GitHub's schema, so scripts/prunegraphql must not look for them there.
// gqlparser supplies their definitions (the prelude's __Schema, __Type, ...)
// and adds __schema and __type to the query root.

// introSchema is the parent of __Schema's fields.
type introSchema struct{ s *ast.Schema }

// introType is a __Type: a named definition, or a list or non-null wrapper
// around another type reference.
type introType struct {
	s   *ast.Schema
	def *ast.Definition // set for a named type
	ref *ast.Type       // set for a wrapper (LIST or NON_NULL)
}

// introField is a __Field.
type introField struct {
	s *ast.Schema
	f *ast.FieldDefinition
}

// introInput is an __InputValue: a field or directive argument, or an input
// object's field.
type introInput struct {
	s          *ast.Schema
	name, desc string
	typ        *ast.Type
	def        *ast.Value
	dirs       ast.DirectiveList
}

// introEnumValue is an __EnumValue.
type introEnumValue struct{ v *ast.EnumValueDefinition }

// introDirective is a __Directive.
type introDirective struct {
	s *ast.Schema
	d *ast.DirectiveDefinition
}

type typeNameArgs struct {
	Name string `json:"name"`
}

// includeDeprecatedArgs is the argument of fields, enumValues, inputFields
// and args; deprecated entries are left out unless it is true.
type includeDeprecatedArgs struct {
	IncludeDeprecated *bool `json:"includeDeprecated"`
}

func (a includeDeprecatedArgs) all() bool { return a.IncludeDeprecated != nil && *a.IncludeDeprecated }

// newIntrospectionResolvers builds the registry of the introspection
// fields; like the main registry it is read-only once built.
func newIntrospectionResolvers() *resolvers {
	r := &resolvers{fields: map[string]fieldResolver{}, types: map[reflect.Type]func(any) string{}}
	resolve(r, "Query.__schema", func(x *gqlContext, _ root) (any, error) {
		return introSchema{s: x.ex.schema}, nil
	})
	resolveArgs(r, "Query.__type", func(x *gqlContext, _ root, a typeNameArgs) (any, error) {
		if def := x.ex.schema.Types[a.Name]; def != nil {
			return introType{s: x.ex.schema, def: def}, nil
		}
		return nil, nil // an unknown name is null, not an error
	})
	registerIntroSchema(r)
	registerIntroType(r)
	registerIntroMembers(r)
	return r
}

func registerIntroSchema(r *resolvers) {
	resolve(r, "__Schema.description", func(_ *gqlContext, p introSchema) (any, error) {
		return nonEmpty(p.s.Description), nil
	})
	resolve(r, "__Schema.types", func(_ *gqlContext, p introSchema) (any, error) {
		names := make([]string, 0, len(p.s.Types))
		for name := range p.s.Types {
			names = append(names, name)
		}
		sort.Strings(names)
		out := make([]introType, len(names))
		for i, name := range names {
			out[i] = introType{s: p.s, def: p.s.Types[name]}
		}
		return out, nil
	})
	rootType := func(def *ast.Definition) func(*gqlContext, introSchema) (any, error) {
		return func(_ *gqlContext, p introSchema) (any, error) {
			if def == nil {
				return nil, nil
			}
			return introType{s: p.s, def: def}, nil
		}
	}
	resolve(r, "__Schema.queryType", func(x *gqlContext, p introSchema) (any, error) { return rootType(p.s.Query)(x, p) })
	resolve(r, "__Schema.mutationType", func(x *gqlContext, p introSchema) (any, error) { return rootType(p.s.Mutation)(x, p) })
	resolve(r, "__Schema.subscriptionType", func(x *gqlContext, p introSchema) (any, error) { return rootType(p.s.Subscription)(x, p) })
	resolve(r, "__Schema.directives", func(_ *gqlContext, p introSchema) (any, error) {
		names := make([]string, 0, len(p.s.Directives))
		for name := range p.s.Directives {
			names = append(names, name)
		}
		sort.Strings(names)
		out := make([]introDirective, len(names))
		for i, name := range names {
			out[i] = introDirective{s: p.s, d: p.s.Directives[name]}
		}
		return out, nil
	})
}

func registerIntroType(r *resolvers) {
	resolve(r, "__Type.kind", func(_ *gqlContext, p introType) (any, error) {
		switch {
		case p.ref != nil && p.ref.NonNull:
			return "NON_NULL", nil
		case p.ref != nil:
			return "LIST", nil
		}
		return string(p.def.Kind), nil // gqlparser's kinds are the spec's names
	})
	resolve(r, "__Type.name", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil {
			return nil, nil
		}
		return p.def.Name, nil
	})
	resolve(r, "__Type.description", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil {
			return nil, nil
		}
		return nonEmpty(p.def.Description), nil
	})
	resolve(r, "__Type.specifiedByURL", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil {
			return nil, nil
		}
		if d := p.def.Directives.ForName("specifiedBy"); d != nil {
			if u := d.Arguments.ForName("url"); u != nil {
				return u.Value.Raw, nil
			}
		}
		return nil, nil
	})
	resolveArgs(r, "__Type.fields", func(_ *gqlContext, p introType, a includeDeprecatedArgs) (any, error) {
		if p.def == nil || (p.def.Kind != ast.Object && p.def.Kind != ast.Interface) {
			return nil, nil
		}
		out := []introField{}
		for _, f := range p.def.Fields {
			if isIntrospectionField(f.Name) || (!a.all() && deprecated(f.Directives)) {
				continue
			}
			out = append(out, introField{s: p.s, f: f})
		}
		return out, nil
	})
	resolve(r, "__Type.interfaces", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil || (p.def.Kind != ast.Object && p.def.Kind != ast.Interface) {
			return nil, nil
		}
		out := []introType{}
		for _, name := range p.def.Interfaces {
			if def := p.s.Types[name]; def != nil {
				out = append(out, introType{s: p.s, def: def})
			}
		}
		return out, nil
	})
	resolve(r, "__Type.possibleTypes", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil || (p.def.Kind != ast.Interface && p.def.Kind != ast.Union) {
			return nil, nil
		}
		possible := append([]*ast.Definition(nil), p.s.GetPossibleTypes(p.def)...)
		sort.Slice(possible, func(i, j int) bool { return possible[i].Name < possible[j].Name })
		out := make([]introType, len(possible))
		for i, def := range possible {
			out[i] = introType{s: p.s, def: def}
		}
		return out, nil
	})
	resolveArgs(r, "__Type.enumValues", func(_ *gqlContext, p introType, a includeDeprecatedArgs) (any, error) {
		if p.def == nil || p.def.Kind != ast.Enum {
			return nil, nil
		}
		out := []introEnumValue{}
		for _, v := range p.def.EnumValues {
			if a.all() || !deprecated(v.Directives) {
				out = append(out, introEnumValue{v: v})
			}
		}
		return out, nil
	})
	resolveArgs(r, "__Type.inputFields", func(_ *gqlContext, p introType, a includeDeprecatedArgs) (any, error) {
		if p.def == nil || p.def.Kind != ast.InputObject {
			return nil, nil
		}
		out := []introInput{}
		for _, f := range p.def.Fields {
			if a.all() || !deprecated(f.Directives) {
				out = append(out, introInput{s: p.s, name: f.Name, desc: f.Description, typ: f.Type, def: f.DefaultValue, dirs: f.Directives})
			}
		}
		return out, nil
	})
	resolve(r, "__Type.ofType", func(_ *gqlContext, p introType) (any, error) {
		return ofType(p), nil
	})
	resolve(r, "__Type.isOneOf", func(_ *gqlContext, p introType) (any, error) {
		if p.def == nil || p.def.Kind != ast.InputObject {
			return nil, nil
		}
		return p.def.Directives.ForName("oneOf") != nil, nil
	})
}

// ofType unwraps one level of a wrapper: NON_NULL of T is T (itself perhaps
// a LIST), LIST of T is T; a named type has none.
func ofType(p introType) any {
	if p.ref == nil {
		return nil
	}
	if p.ref.NonNull {
		inner := *p.ref
		inner.NonNull = false
		return typeRef(p.s, &inner)
	}
	return typeRef(p.s, p.ref.Elem)
}

// typeRef is the __Type of a type reference as written in the schema.
func typeRef(s *ast.Schema, t *ast.Type) introType {
	if t.NonNull || t.Elem != nil {
		return introType{s: s, ref: t}
	}
	return introType{s: s, def: s.Types[t.NamedType]}
}

func registerIntroMembers(r *resolvers) {
	resolve(r, "__Field.name", func(_ *gqlContext, p introField) (any, error) { return p.f.Name, nil })
	resolve(r, "__Field.description", func(_ *gqlContext, p introField) (any, error) { return nonEmpty(p.f.Description), nil })
	resolveArgs(r, "__Field.args", func(_ *gqlContext, p introField, a includeDeprecatedArgs) (any, error) {
		return inputValues(p.s, p.f.Arguments, a.all()), nil
	})
	resolve(r, "__Field.type", func(_ *gqlContext, p introField) (any, error) { return typeRef(p.s, p.f.Type), nil })
	resolve(r, "__Field.isDeprecated", func(_ *gqlContext, p introField) (any, error) { return deprecated(p.f.Directives), nil })
	resolve(r, "__Field.deprecationReason", func(_ *gqlContext, p introField) (any, error) {
		return deprecationReason(p.f.Directives), nil
	})

	resolve(r, "__InputValue.name", func(_ *gqlContext, p introInput) (any, error) { return p.name, nil })
	resolve(r, "__InputValue.description", func(_ *gqlContext, p introInput) (any, error) { return nonEmpty(p.desc), nil })
	resolve(r, "__InputValue.type", func(_ *gqlContext, p introInput) (any, error) { return typeRef(p.s, p.typ), nil })
	resolve(r, "__InputValue.defaultValue", func(_ *gqlContext, p introInput) (any, error) {
		if p.def == nil {
			return nil, nil
		}
		return p.def.String(), nil // the value in GraphQL syntax, as the spec asks
	})
	resolve(r, "__InputValue.isDeprecated", func(_ *gqlContext, p introInput) (any, error) { return deprecated(p.dirs), nil })
	resolve(r, "__InputValue.deprecationReason", func(_ *gqlContext, p introInput) (any, error) {
		return deprecationReason(p.dirs), nil
	})

	resolve(r, "__EnumValue.name", func(_ *gqlContext, p introEnumValue) (any, error) { return p.v.Name, nil })
	resolve(r, "__EnumValue.description", func(_ *gqlContext, p introEnumValue) (any, error) { return nonEmpty(p.v.Description), nil })
	resolve(r, "__EnumValue.isDeprecated", func(_ *gqlContext, p introEnumValue) (any, error) { return deprecated(p.v.Directives), nil })
	resolve(r, "__EnumValue.deprecationReason", func(_ *gqlContext, p introEnumValue) (any, error) {
		return deprecationReason(p.v.Directives), nil
	})

	resolve(r, "__Directive.name", func(_ *gqlContext, p introDirective) (any, error) { return p.d.Name, nil })
	resolve(r, "__Directive.description", func(_ *gqlContext, p introDirective) (any, error) { return nonEmpty(p.d.Description), nil })
	resolve(r, "__Directive.isRepeatable", func(_ *gqlContext, p introDirective) (any, error) { return p.d.IsRepeatable, nil })
	resolve(r, "__Directive.locations", func(_ *gqlContext, p introDirective) (any, error) {
		out := make([]string, len(p.d.Locations))
		for i, l := range p.d.Locations {
			out[i] = string(l)
		}
		return out, nil
	})
	resolveArgs(r, "__Directive.args", func(_ *gqlContext, p introDirective, a includeDeprecatedArgs) (any, error) {
		return inputValues(p.s, p.d.Arguments, a.all()), nil
	})
}

func inputValues(s *ast.Schema, args ast.ArgumentDefinitionList, all bool) []introInput {
	out := []introInput{}
	for _, a := range args {
		if all || !deprecated(a.Directives) {
			out = append(out, introInput{s: s, name: a.Name, desc: a.Description, typ: a.Type, def: a.DefaultValue, dirs: a.Directives})
		}
	}
	return out
}

// isIntrospectionField reports the query root's __schema and __type, which
// the specification keeps out of the root type's listed fields.
func isIntrospectionField(name string) bool { return name == "__schema" || name == "__type" }

func deprecated(dirs ast.DirectiveList) bool { return dirs.ForName("deprecated") != nil }

// deprecationReason is @deprecated's reason, or its default when the
// directive names none, or null when the member is not deprecated.
func deprecationReason(dirs ast.DirectiveList) any {
	d := dirs.ForName("deprecated")
	if d == nil {
		return nil
	}
	if a := d.Arguments.ForName("reason"); a != nil && a.Value != nil {
		return a.Value.Raw
	}
	return "No longer supported"
}

// nonEmpty is s, or null when s is empty: the pruned schema carries no
// descriptions, and a missing description is null.
func nonEmpty(s string) any {
	if s == "" {
		return nil
	}
	return s
}
