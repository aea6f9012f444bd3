package tooldef

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// validator checks arguments against an input schema and names the one
// field at fault. Leaf checks are the jsonschema library's; this type only
// walks objects, so that it can say which field and why in words the agent
// can act on.
type validator struct {
	root   *jsonschema.Schema
	leaves map[*jsonschema.Schema]*jsonschema.Resolved
}

// fieldError is an argument problem at a dotted path.
type fieldError struct {
	Field  string
	Reason string
	// Enum is the accepted set, when the field is an enum.
	Enum []any
	// Unknown is set when the field is not in the schema at all: leaving
	// it out is then the fix.
	Unknown bool
}

func newValidator(root *jsonschema.Schema) (*validator, error) {
	v := &validator{root: root, leaves: map[*jsonschema.Schema]*jsonschema.Resolved{}}
	if err := v.prepare(root); err != nil {
		return nil, err
	}
	return v, nil
}

// prepare resolves every non-object schema once, up front.
func (v *validator) prepare(s *jsonschema.Schema) error {
	if s.Type == "object" && s.Properties != nil {
		for _, p := range s.Properties {
			if err := v.prepare(p); err != nil {
				return err
			}
		}
		return nil
	}
	r, err := s.Resolve(nil)
	if err != nil {
		return err
	}
	v.leaves[s] = r
	return nil
}

// checkNormalized validates raw JSON arguments and returns them re-encoded
// so encoding/json can decode them into the typed input: JSON Schema counts
// 1.0 as an integer, encoding/json does not, so integral numbers are
// written as integers.
func (v *validator) checkNormalized(raw json.RawMessage) (json.RawMessage, *fieldError) {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err != nil {
		return nil, &fieldError{Reason: "arguments must be a JSON object"}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, &fieldError{Reason: "arguments must be one JSON object, with nothing after it"}
	}
	if fe := v.walk(v.root, val, ""); fe != nil {
		return nil, fe
	}
	out, err := json.Marshal(integral(val))
	if err != nil {
		return nil, &fieldError{Reason: "arguments cannot be re-encoded"}
	}
	return out, nil
}

// integral rewrites numbers with no fractional part as integers.
func integral(v any) any {
	switch t := v.(type) {
	case json.Number:
		if _, err := t.Int64(); err == nil {
			return t
		}
		if f, err := t.Float64(); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return json.Number(strconv.FormatInt(int64(f), 10))
		}
		return t
	case map[string]any:
		for k, x := range t {
			t[k] = integral(x)
		}
	case []any:
		for i, x := range t {
			t[i] = integral(x)
		}
	}
	return v
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func (v *validator) walk(s *jsonschema.Schema, val any, path string) *fieldError {
	if s.Type == "object" && s.Properties != nil {
		obj, ok := val.(map[string]any)
		if !ok {
			return &fieldError{Field: path, Reason: describe(s)}
		}
		names := make([]string, 0, len(obj))
		for name := range obj {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if _, known := s.Properties[name]; !known {
				return &fieldError{Field: join(path, name), Unknown: true,
					Reason: "is not a known field; known fields: " + strings.Join(propertyNames(s), ", ")}
			}
		}
		for _, req := range s.Required {
			if _, present := obj[req]; !present {
				return &fieldError{Field: join(path, req), Reason: "is required and " + describe(s.Properties[req])}
			}
		}
		for _, name := range propertyNames(s) {
			if sub, present := obj[name]; present {
				if fe := v.walk(s.Properties[name], sub, join(path, name)); fe != nil {
					return fe
				}
			}
		}
		return nil
	}
	r := v.leaves[s]
	if r == nil {
		return &fieldError{Field: path, Reason: "has no schema"}
	}
	// The library validates Go values as encoding/json produces them;
	// json.Number is not one of those, so convert numbers first.
	if err := r.Validate(plain(val)); err != nil {
		return &fieldError{Field: path, Reason: describe(s), Enum: s.Enum}
	}
	return nil
}

// plain turns [json.Number] into float64 (or int64 when integral) throughout.
func plain(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return float64(i)
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			out[k] = plain(x)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = plain(x)
		}
		return out
	}
	return v
}

func (fe *fieldError) String() string {
	if fe.Field == "" {
		return fe.Reason
	}
	return fmt.Sprintf("%s %s", fe.Field, fe.Reason)
}

// withoutField is raw with the field at path (dot-separated) left out, for
// the repair of an unknown field; ok is false when raw cannot be read.
func withoutField(raw json.RawMessage, path string) (out map[string]any, ok bool) {
	if json.Unmarshal(raw, &out) != nil || out == nil {
		return nil, false
	}
	obj := out
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, isObj := obj[p].(map[string]any)
		if !isObj {
			return nil, false
		}
		obj = next
	}
	delete(obj, parts[len(parts)-1])
	return out, true
}
