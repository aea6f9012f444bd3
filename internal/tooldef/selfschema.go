package tooldef

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
)

// SelfDescribing is a type whose JSON schema is not what its Go shape
// would infer: a tri-state input is a struct in Go and "a value or null" on
// the wire. The schema builder asks the type itself, through its zero
// value, wherever it appears in a tool's input or output; a field's
// jsonschema tag still replaces the description.
type SelfDescribing interface {
	JSONSchema() (*jsonschema.Schema, error)
}

var selfDescribing = reflect.TypeFor[SelfDescribing]()

// typeSchemas walks t and collects the schema of every self-describing
// type it reaches, for jsonschema's TypeSchemas.
func typeSchemas(t reflect.Type) (map[reflect.Type]*jsonschema.Schema, error) {
	out := map[reflect.Type]*jsonschema.Schema{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		if seen[t] {
			return nil
		}
		seen[t] = true
		// A pointer is followed to its element, which is what the
		// schema builder looks up (and *T has T's methods too).
		if t.Kind() != reflect.Pointer && t.Implements(selfDescribing) {
			s, err := reflect.Zero(t).Interface().(SelfDescribing).JSONSchema()
			if err != nil {
				return err
			}
			out[t] = s
			return nil
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array:
			return walk(t.Elem())
		case reflect.Map:
			return walk(t.Elem())
		case reflect.Struct:
			for i := range t.NumField() {
				// Only what encoding/json (and so the schema) sees.
				f := t.Field(i)
				if !f.IsExported() && !f.Anonymous {
					continue
				}
				if err := walk(f.Type); err != nil {
					return err
				}
			}
		}
		return nil
	}
	if err := walk(t); err != nil {
		return nil, err
	}
	return out, nil
}
