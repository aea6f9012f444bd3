package tooldef

import "github.com/google/jsonschema-go/jsonschema"

// publishedOutput is the output schema as listed to clients: the same
// shape, told more briefly. Every result is still validated against the
// full schema before it is sent; what clients see is looser, never
// stricter, so a client validating against it never rejects a real
// result. It keeps the top-level fields and their types, and for nested
// objects only their type and required fields: tools/list is loaded into
// every agent's context, and the full nested shapes would cost more bytes
// than all the tools' inputs together. The full shapes are documented by
// the tools' descriptions and the ghgate://capabilities resource.
func publishedOutput(full *jsonschema.Schema) *jsonschema.Schema {
	return slim(full, 0)
}

func slim(s *jsonschema.Schema, depth int) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := &jsonschema.Schema{Type: s.Type, Types: s.Types, Enum: s.Enum}
	switch s.Type {
	case "object":
		out.Required = s.Required
		if depth >= 1 {
			return out
		}
		if len(s.Properties) > 0 {
			out.Properties = map[string]*jsonschema.Schema{}
			for name, p := range s.Properties {
				out.Properties[name] = slim(p, depth+1)
			}
		}
	case "array":
		out.Items = slim(s.Items, depth+1)
	}
	return out
}
