package tooldef

import "github.com/google/jsonschema-go/jsonschema"

// publishedOutput is the output schema as listed to clients: the same
// shape, told more briefly. Every result is still validated against the
// full schema before it is sent; what clients see is looser, never
// stricter, so a client validating against it never rejects a real
// result. It keeps the top-level fields and their types (nested objects
// as any value, and no required list): tools/list is loaded into
// every agent's context, and the full nested shapes would cost more bytes
// than all the tools' inputs together. The full schemas are served as the
// ghgate://schemas resource (see Spec.Schemas), read only by whoever needs
// them.
func publishedOutput(full *jsonschema.Schema) *jsonschema.Schema {
	out := slim(full, 0)
	// Fields any result may carry are described once, in the server's
	// instructions, rather than in every tool: the schema stays open
	// (no additionalProperties: false), so they remain valid.
	for _, name := range commonOutputFields {
		delete(out.Properties, name)
	}
	return out
}

// commonOutputFields may appear in any tool's result: rate_limit_remaining
// (set when under 10% of the rate budget is left), notes (what a write
// found already done, or what it could not check), and on a listing
// truncated with truncation_hint (some matches cannot be reached).
var commonOutputFields = []string{"rate_limit_remaining", "notes", "truncated", "truncation_hint"}

func slim(s *jsonschema.Schema, depth int) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := &jsonschema.Schema{Type: s.Type, Types: s.Types, Enum: s.Enum}
	switch s.Type {
	case "object":
		if depth == 1 {
			// A nested object field is listed as any object. Not as the
			// empty schema: that marshals as `true`, and clients built on
			// the TypeScript SDK (1.32.2) reject a whole tools/list when a
			// top-level property schema is not a JSON object.
			return &jsonschema.Schema{Type: "object"}
		}
		if depth > 1 {
			// Deeper (array items), the empty schema: "any value".
			return &jsonschema.Schema{}
		}
		if len(s.Properties) > 0 {
			out.Properties = map[string]*jsonschema.Schema{}
			for name, p := range s.Properties {
				out.Properties[name] = slim(p, depth+1)
			}
		}
	case "array":
		// Items of objects are "any value", which is what an array
		// without items already says; only simple item types are listed.
		if items := slim(s.Items, depth+1); items != nil && (items.Type != "" || len(items.Types) > 0) {
			out.Items = items
		}
	}
	return out
}

// publishedInput is the input schema as listed: the same fields, types,
// enums and bounded ranges, without the minLength of 1 every required
// string carries and the minimum of 1 on numbers. That rule is still enforced, and an empty value is answered
// with an invalid_field naming the field; listing it on every owner, repo
// and title would cost more bytes than it tells.
func publishedInput(full *jsonschema.Schema) *jsonschema.Schema {
	cp := *full
	if len(full.Properties) > 0 {
		cp.Properties = map[string]*jsonschema.Schema{}
		for name, p := range full.Properties {
			q := publishedInput(p)
			if q.MinLength != nil && *q.MinLength == 1 && q.MaxLength == nil {
				q.MinLength = nil
			}
			// Likewise the minimum of 1 on issue numbers and ids: they
			// count from 1 on GitHub, and 0 is refused by name.
			if q.Type == "integer" && q.Minimum != nil && *q.Minimum == 1 && q.Maximum == nil {
				q.Minimum = nil
			}
			cp.Properties[name] = q
		}
	}
	return &cp
}
