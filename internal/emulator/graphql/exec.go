package graphql

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/vektah/gqlparser/v2/ast"

	"github.com/ghgate/ghgate/internal/emulator/wire"
)

// execution runs one validated operation against the resolver registry,
// following the GraphQL specification's execution section: fields are
// collected through fragments and inline fragments for the runtime object
// type, resolved, completed against their schema type, and a null in a
// non-null position propagates to the nearest nullable parent.
type execution struct {
	schema *ast.Schema
	reg    *resolvers
	doc    *ast.QueryDocument
	vars   map[string]any
	x      *gqlContext
	errs   []gqlErrorJSON
}

// run executes op from the root and returns the data (nil when a non-null
// violation reached the root).
func (ex *execution) run(op *ast.OperationDefinition) *jsonObject {
	rootType := ex.schema.Query
	if op.Operation == ast.Mutation {
		rootType = ex.schema.Mutation
	}
	if rootType == nil {
		ex.fail(nil, op.Position, &gqlError{Message: "Schema is not configured for " + string(op.Operation) + "s"})
		return nil
	}
	data, ok := ex.selectionSet(rootType, root{}, op.SelectionSet, nil)
	if !ok {
		return nil
	}
	return data
}

// fail records an error at path, located at pos.
func (ex *execution) fail(path []any, pos *ast.Position, err error) {
	e := gqlErrorJSON{Path: append([]any(nil), path...), Message: err.Error()}
	var ge *gqlError
	if errors.As(err, &ge) {
		e.Type = ge.Type
	}
	if pos != nil {
		e.Locations = []gqlLocation{{Line: pos.Line, Column: pos.Column}}
	}
	ex.errs = append(ex.errs, e)
}

// fieldGroup is every field of a selection set that answers to one response
// key, in document order.
type fieldGroup struct {
	key    string
	fields []*ast.Field
}

// collect gathers the fields that apply to objType, honouring @skip and
// @include, and merging fields that share a response key.
func (ex *execution) collect(objType *ast.Definition, set ast.SelectionSet, groups []fieldGroup, seen map[string]bool) []fieldGroup {
	for _, sel := range set {
		switch s := sel.(type) {
		case *ast.Field:
			if !ex.included(s.Directives) {
				continue
			}
			key := s.Alias
			if key == "" {
				key = s.Name
			}
			found := false
			for i := range groups {
				if groups[i].key == key {
					groups[i].fields = append(groups[i].fields, s)
					found = true
					break
				}
			}
			if !found {
				groups = append(groups, fieldGroup{key: key, fields: []*ast.Field{s}})
			}
		case *ast.InlineFragment:
			if !ex.included(s.Directives) || !ex.applies(objType, s.TypeCondition) {
				continue
			}
			groups = ex.collect(objType, s.SelectionSet, groups, seen)
		case *ast.FragmentSpread:
			if seen[s.Name] || !ex.included(s.Directives) {
				continue
			}
			frag := ex.doc.Fragments.ForName(s.Name)
			if frag == nil || !ex.applies(objType, frag.TypeCondition) {
				continue
			}
			seen[s.Name] = true
			groups = ex.collect(objType, frag.SelectionSet, groups, seen)
		}
	}
	return groups
}

// included evaluates @skip(if:) and @include(if:).
func (ex *execution) included(dirs ast.DirectiveList) bool {
	for _, d := range dirs {
		if d.Name != "skip" && d.Name != "include" {
			continue
		}
		arg := d.Arguments.ForName("if")
		if arg == nil {
			continue
		}
		v, err := arg.Value.Value(ex.vars)
		if err != nil {
			continue // validation has checked the argument is a Boolean!
		}
		b, _ := v.(bool)
		if (d.Name == "skip" && b) || (d.Name == "include" && !b) {
			return false
		}
	}
	return true
}

// applies reports whether a fragment on condition applies to objType.
func (ex *execution) applies(objType *ast.Definition, condition string) bool {
	if condition == "" || condition == objType.Name {
		return true
	}
	cond := ex.schema.Types[condition]
	if cond == nil || (cond.Kind != ast.Interface && cond.Kind != ast.Union) {
		return false
	}
	for _, pt := range ex.schema.GetPossibleTypes(cond) {
		if pt.Name == objType.Name {
			return true
		}
	}
	return false
}

// selectionSet resolves a selection set on an object of objType. It reports
// false when a non-null field came back null, so the caller nulls the
// object in turn.
func (ex *execution) selectionSet(objType *ast.Definition, value any, set ast.SelectionSet, path []any) (*jsonObject, bool) {
	out := &jsonObject{}
	for _, g := range ex.collect(objType, set, nil, map[string]bool{}) {
		f := g.fields[0]
		p := append(append([]any(nil), path...), g.key)
		if f.Name == "__typename" {
			out.add(g.key, objType.Name)
			continue
		}
		def := objType.Fields.ForName(f.Name)
		if def == nil {
			// Validation rules this out; a field the validator accepted but
			// the type lacks would be an emulator bug.
			ex.fail(p, f.Position, fmt.Errorf("emulator: %s.%s is not served", objType.Name, f.Name))
			return nil, false
		}
		v, ok := ex.field(objType, value, def, g.fields, p)
		if !ok {
			return nil, false
		}
		out.add(g.key, v)
	}
	return out, true
}

// field resolves and completes one field.
func (ex *execution) field(objType *ast.Definition, parent any, def *ast.FieldDefinition, fields []*ast.Field, path []any) (any, bool) {
	f := fields[0]
	key := objType.Name + "." + def.Name
	fr, ok := ex.reg.lookup(key)
	if !ok {
		ex.fail(path, f.Position, fmt.Errorf("emulator: %s is not served", key))
		return nil, !def.Type.NonNull
	}
	if objType == ex.schema.Mutation {
		if err := ex.admitMutation(def); err != nil {
			ex.fail(path, f.Position, err)
			return nil, !def.Type.NonNull
		}
	}
	ex.x.field, ex.x.path, ex.x.ex = f, path, ex
	val, err := fr.fn(ex.x, parent, ex.arguments(def, f))
	if err != nil {
		ex.fail(path, f.Position, err)
		return nil, !def.Type.NonNull
	}
	return ex.complete(def.Type, fields, val, path)
}

// complete shapes a resolved value by its schema type. A null where the
// type is non-null is an error that nulls the parent (ok false).
func (ex *execution) complete(t *ast.Type, fields []*ast.Field, val any, path []any) (any, bool) {
	if t.NonNull {
		inner := *t
		inner.NonNull = false
		v, ok := ex.completeNullable(&inner, fields, val, path)
		if !ok {
			return nil, false
		}
		if v == nil {
			ex.fail(path, fields[0].Position, fmt.Errorf("Cannot return null for non-nullable field %s", fieldName(fields[0])))
			return nil, false
		}
		return v, true
	}
	v, ok := ex.completeNullable(t, fields, val, path)
	if !ok {
		return nil, true // a non-null child failed: this nullable value becomes null
	}
	return v, true
}

func (ex *execution) completeNullable(t *ast.Type, fields []*ast.Field, val any, path []any) (any, bool) {
	if isNil(val) {
		return nil, true
	}
	if t.Elem != nil {
		rv := reflect.ValueOf(val)
		if rv.Kind() != reflect.Slice {
			ex.fail(path, fields[0].Position, fmt.Errorf("emulator: list field resolved to %T", val))
			return nil, false
		}
		out := make([]any, rv.Len())
		for i := range out {
			v, ok := ex.complete(t.Elem, fields, rv.Index(i).Interface(), append(append([]any(nil), path...), i))
			if !ok {
				return nil, false
			}
			out[i] = v
		}
		return out, true
	}
	def := ex.schema.Types[t.NamedType]
	if def == nil {
		ex.fail(path, fields[0].Position, fmt.Errorf("emulator: unknown type %s", t.NamedType))
		return nil, false
	}
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		v, err := leafValue(def, val)
		if err != nil {
			ex.fail(path, fields[0].Position, err)
			return nil, false
		}
		return v, true
	case ast.Object:
		return ex.subselection(def, fields, val, path)
	case ast.Interface, ast.Union:
		name := ex.reg.typeName(val)
		obj := ex.schema.Types[name]
		if obj == nil || !ex.applies(obj, def.Name) {
			ex.fail(path, fields[0].Position, fmt.Errorf("emulator: %T is not a %s", val, def.Name))
			return nil, false
		}
		return ex.subselection(obj, fields, val, path)
	}
	ex.fail(path, fields[0].Position, fmt.Errorf("emulator: cannot complete %s", def.Name))
	return nil, false
}

// subselection merges the selection sets of every field in the group and
// resolves them on the object.
func (ex *execution) subselection(obj *ast.Definition, fields []*ast.Field, val any, path []any) (any, bool) {
	var set ast.SelectionSet
	for _, f := range fields {
		set = append(set, f.SelectionSet...)
	}
	o, ok := ex.selectionSet(obj, val, set, path)
	if !ok {
		return nil, false
	}
	return o, true
}

// fieldName is "Type.field" for messages, with the type the document
// selected the field on.
func fieldName(f *ast.Field) string {
	if f.ObjectDefinition != nil {
		return f.ObjectDefinition.Name + "." + f.Name
	}
	return f.Name
}

// isNil reports whether v is nil or a typed nil pointer, slice or map.
func isNil(v any) bool {
	if v == nil {
		return true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Interface:
		return rv.IsNil()
	}
	return false
}

// leafValue serializes a scalar or enum. Pointers are dereferenced and
// times written as GitHub writes DateTime; an enum value the schema does not
// list is an emulator bug, reported rather than sent.
func leafValue(def *ast.Definition, val any) (any, error) {
	rv := reflect.ValueOf(val)
	for rv.Kind() == reflect.Pointer {
		rv = rv.Elem()
	}
	v := rv.Interface()
	if t, ok := v.(time.Time); ok {
		return wire.Timestamp(t), nil
	}
	if def.Kind == ast.Enum {
		s, ok := v.(string)
		if !ok || def.EnumValues.ForName(s) == nil {
			return nil, fmt.Errorf("emulator: %v is not a %s", v, def.Name)
		}
	}
	return v, nil
}

// jsonObject is a response object that keeps its keys in selection order, as
// GraphQL responses do.
type jsonObject struct {
	keys   []string
	values []any
}

func (o *jsonObject) add(key string, v any) {
	o.keys = append(o.keys, key)
	o.values = append(o.values, v)
}

// MarshalJSON writes the keys in order.
func (o *jsonObject) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, err := json.Marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.values[i])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// arguments are a field's argument values with GraphQL's input coercion
// for lists applied: a single value where the schema expects a list stands
// for a list of that one value (ownerAffiliations: OWNER, which gh sends).
// Validation has already checked the types.
func (ex *execution) arguments(def *ast.FieldDefinition, f *ast.Field) map[string]any {
	args := f.ArgumentMap(ex.vars)
	for name, v := range args {
		if ad := def.Arguments.ForName(name); ad != nil {
			args[name] = coerceLists(ex.schema, ad.Type, v)
		}
	}
	return args
}

// coerceLists wraps single values into lists where t (or an input object
// field inside it) is a list type.
func coerceLists(schema *ast.Schema, t *ast.Type, v any) any {
	if v == nil {
		return nil
	}
	if t.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			list = []any{v}
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = coerceLists(schema, t.Elem, e)
		}
		return out
	}
	def := schema.Types[t.NamedType]
	m, ok := v.(map[string]any)
	if def == nil || def.Kind != ast.InputObject || !ok {
		return v
	}
	out := make(map[string]any, len(m))
	for k, fv := range m {
		if fd := def.Fields.ForName(k); fd != nil {
			fv = coerceLists(schema, fd.Type, fv)
		}
		out[k] = fv
	}
	return out
}
