package tooldef

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// schemaFor infers the JSON schema of T from its Go type and json/jsonschema
// tags, with two adjustments: nulls are never sent (the compact form drops
// them and inputs treat absence as "not given"), so the "null" that
// pointers and slices add is removed; types that need their own schema
// (tri-state inputs, say) state it themselves ([SelfDescribing]).
func schemaFor(t reflect.Type) (*jsonschema.Schema, error) {
	own, err := typeSchemas(t)
	if err != nil {
		return nil, err
	}
	s, err := jsonschema.ForType(t, &jsonschema.ForOptions{TypeSchemas: own})
	if err != nil {
		return nil, err
	}
	dropNull(s)
	return s, nil
}

// defaultsFromTags turns a description that only names what omission
// means, as a field's jsonschema tag writes it ("default open", "default
// 30"), into JSON Schema's default keyword: the same in fewer bytes of
// tools/list, and in a form a client can read. A value the field cannot
// hold (not one of its enum, not a whole number) is a mistake in the tag.
func defaultsFromTags(s *jsonschema.Schema) error {
	if s == nil {
		return nil
	}
	for name, p := range s.Properties {
		if err := defaultsFromTags(p); err != nil {
			return err
		}
		word, ok := strings.CutPrefix(p.Description, "default ")
		if !ok || strings.ContainsAny(word, " :;,") {
			continue
		}
		var v any
		switch {
		case len(p.Enum) > 0:
			if !slices.Contains(p.Enum, any(word)) {
				return fmt.Errorf("%s: default %q is not one of its values", name, word)
			}
			v = word
		case p.Type == "integer":
			n, err := strconv.Atoi(word)
			if err != nil {
				return fmt.Errorf("%s: default %q is not a whole number", name, word)
			}
			v = n
		case p.Type == "boolean":
			b, err := strconv.ParseBool(word)
			if err != nil {
				return fmt.Errorf("%s: default %q is not true or false", name, word)
			}
			v = b
		default:
			continue
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return err
		}
		p.Default, p.Description = raw, ""
	}
	return nil
}

// requireNonEmpty makes every required string field refuse "": a required
// owner or title that is empty is as missing as an absent one.
func requireNonEmpty(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for _, name := range s.Required {
		if p := s.Properties[name]; p != nil && p.Type == "string" && p.MinLength == nil {
			one := 1
			p.MinLength = &one
		}
	}
	for _, p := range s.Properties {
		if p.Type == "object" {
			requireNonEmpty(p)
		}
	}
}

func dropNull(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && slices.Contains(s.Types, "null") {
		for _, t := range s.Types {
			if t != "null" {
				s.Type = t
			}
		}
		s.Types = nil
	}
	for _, p := range s.Properties {
		dropNull(p)
	}
	dropNull(s.Items)
	if s.AdditionalProperties != nil && s.AdditionalProperties.Not == nil {
		dropNull(s.AdditionalProperties)
	}
}

// allowNull gives back the null that schemaFor drops to a field Compact
// keeps even when empty (a path as Compact reads it): an empty object or
// pointer is written there as null.
func allowNull(s *jsonschema.Schema, path string) error {
	for _, part := range strings.Split(path, ".") {
		name, elems := strings.CutSuffix(part, "[]")
		if s == nil || s.Properties[name] == nil {
			return fmt.Errorf("no field %q in the output", name)
		}
		s = s.Properties[name]
		if elems {
			s = s.Items
		}
	}
	if s == nil {
		return fmt.Errorf("no schema at %s", path)
	}
	if s.Type != "" && s.Type != "null" {
		s.Types = []string{s.Type, "null"}
		s.Type = ""
	}
	return nil
}

// describe says in words what a schema accepts, for error reasons. It never
// repeats the value the agent sent.
func describe(s *jsonschema.Schema) string {
	if s == nil {
		return "is not accepted"
	}
	if len(s.Enum) > 0 {
		var names []string
		for _, e := range s.Enum {
			names = append(names, fmt.Sprint(e))
		}
		return "must be one of: " + strings.Join(names, ", ")
	}
	if len(s.AnyOf) > 0 {
		var parts []string
		for _, a := range s.AnyOf {
			parts = append(parts, strings.TrimPrefix(describe(a), "must be "))
		}
		return "must be " + strings.Join(parts, " or ")
	}
	typ := s.Type
	if typ == "" && len(s.Types) > 0 {
		typ = strings.Join(s.Types, " or ")
	}
	switch typ {
	case "integer", "number":
		word := "an integer"
		if typ == "number" {
			word = "a number"
		}
		switch {
		case s.Minimum != nil && s.Maximum != nil:
			return fmt.Sprintf("must be %s from %v to %v", word, *s.Minimum, *s.Maximum)
		case s.Minimum != nil:
			return fmt.Sprintf("must be %s of at least %v", word, *s.Minimum)
		case s.Maximum != nil:
			return fmt.Sprintf("must be %s of at most %v", word, *s.Maximum)
		}
		return "must be " + word
	case "string":
		switch {
		case s.MinLength != nil && s.MaxLength != nil:
			return fmt.Sprintf("must be a string of %d to %d characters", *s.MinLength, *s.MaxLength)
		case s.MinLength != nil && *s.MinLength > 0:
			return "must be a non-empty string"
		case s.MaxLength != nil:
			return fmt.Sprintf("must be a string of at most %d characters", *s.MaxLength)
		case s.Pattern != "":
			return "must be a string matching " + s.Pattern
		}
		return "must be a string"
	case "boolean":
		return "must be true or false"
	case "null":
		return "must be null"
	case "array":
		d := "must be an array"
		if s.Items != nil {
			d += " whose items " + strings.TrimPrefix(describe(s.Items), "must be ")
			d = strings.Replace(d, "whose items a", "of", 1)
		}
		if s.MaxItems != nil {
			d += fmt.Sprintf(" (at most %d)", *s.MaxItems)
		}
		return d
	case "object":
		if len(s.Properties) > 0 {
			return "must be an object with fields " + strings.Join(propertyNames(s), ", ")
		}
		return "must be an object"
	}
	return "is not accepted"
}

func propertyNames(s *jsonschema.Schema) []string {
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	if len(s.PropertyOrder) == len(names) {
		return slices.Clone(s.PropertyOrder)
	}
	sort.Strings(names)
	return names
}
