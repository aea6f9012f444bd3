package tooldef

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// publishedOutput is the output schema as listed to clients: the same
// shape, told more briefly. Every result is still validated against the
// full schema before it is sent; what clients see is looser, never
// stricter, so a client validating against it never rejects a real
// result. It keeps the top-level fields and their types (nested objects
// as any object, and no required list): tools/list is loaded into every
// agent's context, and the full nested shapes would cost more bytes than
// all the tools' inputs together. The full schemas are served as the
// ghgate://schemas resource (see Spec.Schemas), read only by whoever needs
// them. The fields a tool outlines (Tool.Outline) are listed one level
// further down, with their descriptions.
func publishedOutput(full *jsonschema.Schema, outline, unlisted []string) (*jsonschema.Schema, error) {
	out := slim(full, 0)
	// Fields any result may carry are described once, in the capability
	// summary (ghgate://capabilities, which the instructions point to),
	// rather than in every tool: the schema stays open (no
	// additionalProperties: false), so they remain valid.
	for _, name := range commonOutputFields {
		delete(out.Properties, name)
	}
	// So are the paging fields, the same on every listing: the cursor
	// argument each listing takes names the field it is fed from.
	for name := range out.Properties {
		if isPagingField(name) {
			delete(out.Properties, name)
		}
	}
	for _, name := range unlisted {
		if out.Properties[name] == nil {
			return nil, fmt.Errorf("unlisted %s: no such output field", name)
		}
		delete(out.Properties, name)
	}
	for _, path := range outline {
		if err := outlineField(out, full, path); err != nil {
			return nil, fmt.Errorf("outline %s: %w", path, err)
		}
	}
	// A result whose every field is described elsewhere is listed as any
	// object, without an empty properties map that says nothing.
	if len(out.Properties) == 0 {
		out.Properties = nil
	}
	return out, nil
}

// outlineField lists, in the published schema out, the nested field a
// path names ("relations.blocked_by", "items[].labels") or every nested
// field of an object ("relations", "items[]" for each item): its type,
// and the description the Go type gives it. One level only: a nested
// object is listed as any object, its description saying what it holds.
func outlineField(out, full *jsonschema.Schema, path string) error {
	top, sub, _ := strings.Cut(path, ".")
	name, elems := strings.CutSuffix(top, "[]")
	src, pub := full.Properties[name], out.Properties[name]
	if src == nil || pub == nil {
		return fmt.Errorf("no published field %q in the output", name)
	}
	if elems {
		if src.Items == nil || pub.Type != "array" {
			return fmt.Errorf("%s is not an array", name)
		}
		src = src.Items
		if pub.Items == nil {
			pub.Items = &jsonschema.Schema{Type: "object"}
		}
		pub = pub.Items
	}
	if src.Type != "object" || len(src.Properties) == 0 {
		return fmt.Errorf("%s is not an object with fields", top)
	}
	pub.Description = src.Description
	if pub.Properties == nil {
		pub.Properties = map[string]*jsonschema.Schema{}
	}
	names := propertyNames(src)
	if sub != "" {
		names = []string{sub}
	}
	for _, n := range names {
		p := src.Properties[n]
		if p == nil {
			return fmt.Errorf("no field %q in %s", n, top)
		}
		q := slim(p, 1)
		q.Description = p.Description
		pub.Properties[n] = q
	}
	return nil
}

// commonOutputFields may appear in any tool's result: rate_limit_remaining
// (set when under 10% of the rate budget is left), notes (what a write
// found already done, or what it could not check), on a listing
// truncated with truncation_hint (some matches cannot be reached), and
// withheld (rows left out that the caller may not see).
var commonOutputFields = []string{"rate_limit_remaining", "notes", "truncated", "truncation_hint", "withheld"}

// isPagingField reports whether an output field is part of paging:
// has_more and next_cursor, or a prefixed pair for a listing nested in a
// result (get_issue's comments_has_more, comments_next_cursor).
func isPagingField(name string) bool {
	for _, f := range []string{"has_more", "next_cursor"} {
		if name == f || strings.HasSuffix(name, "_"+f) {
			return true
		}
	}
	return false
}

func slim(s *jsonschema.Schema, depth int) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	out := &jsonschema.Schema{Type: s.Type, Types: s.Types, Enum: s.Enum}
	enumOnly(out)
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
// enums and numeric upper bounds, without the minLength of 1 every
// required string (and the idempotency key) carries, a string's maxLength,
// the minimum of 1 on numbers, and "type": "string" beside a string enum. That rule is still enforced, and an empty value or a 0 is
// answered with an invalid_field naming the field; listing it on every
// owner, repo, title, issue number and page size would cost more bytes
// than it tells.
//
// The arguments, and any object nested in them (labels: {add, remove}),
// are listed with their fields but without additionalProperties: false.
// The properties already name every argument a tool takes, the closure
// would cost 28 bytes a tool in every tools/list, and it is enforced
// where it matters: a stray field at any depth is refused as
// invalid_field, before anything runs, with a repair that drops it.
//
// A boolean is listed without its default of false (the instructions say
// a boolean left out is false). The fields named brief (Tool.Brief) are
// listed as an object with their description only.
func publishedInput(full *jsonschema.Schema, brief ...string) *jsonschema.Schema {
	out := publishedArgs(full, true)
	for _, name := range brief {
		if p := out.Properties[name]; p != nil {
			out.Properties[name] = &jsonschema.Schema{Type: "object", Description: p.Description}
		}
	}
	return out
}

func publishedArgs(full *jsonschema.Schema, top bool) *jsonschema.Schema {
	cp := *full
	if cp.AdditionalProperties != nil && cp.AdditionalProperties.Not != nil {
		cp.AdditionalProperties = nil
	}
	if len(full.Properties) > 0 {
		cp.Properties = map[string]*jsonschema.Schema{}
		for name, p := range full.Properties {
			q := publishedArgs(p, false)
			if q.MinLength != nil && *q.MinLength == 1 {
				q.MinLength = nil
			}
			// Likewise the minimum of 1 on issue numbers, ids and page
			// sizes: they count from 1 on GitHub, and 0 is refused by name.
			if q.Type == "integer" && q.Minimum != nil && *q.Minimum == 1 {
				q.Minimum = nil
			}
			// A boolean's default of false goes unlisted: the instructions
			// say once that a boolean left out is false, which every
			// boolean argument here means, so each need not say it again.
			if q.Type == "boolean" && string(q.Default) == "false" {
				q.Default = nil
			}
			// A string's length cap goes unlisted too (the idempotency
			// keys' 200): still enforced and refused by name, and no key
			// an agent makes comes near it.
			q.MaxLength = nil
			typePair(q)
			enumOnly(q)
			if q.Items != nil {
				items := *q.Items
				enumOnly(&items)
				q.Items = &items
			}
			cp.Properties[name] = q
		}
	}
	return &cp
}

// typePair lists "a bare type or null" (a tri-state input's anyOf) as the
// type pair ["integer","null"]: the same meaning in fewer bytes. Only the
// listing changes; arguments are checked against the anyOf.
func typePair(s *jsonschema.Schema) {
	if len(s.AnyOf) != 2 || s.AnyOf[1].Type != "null" {
		return
	}
	value := s.AnyOf[0]
	if bare := (jsonschema.Schema{Type: value.Type}); value.Type == "" || !reflect.DeepEqual(*value, bare) || !reflect.DeepEqual(*s.AnyOf[1], jsonschema.Schema{Type: "null"}) {
		return
	}
	s.Types, s.AnyOf = []string{value.Type, "null"}, nil
}

// enumOnly lists a string enum by its members alone: a value that is one
// of them is a string, so "type": "string" beside them says nothing more
// (16 bytes on each of the 20-odd enums in tools/list). Only the
// listing changes; arguments are checked against the full schema.
func enumOnly(s *jsonschema.Schema) {
	if s.Type != "string" || len(s.Enum) == 0 {
		return
	}
	for _, v := range s.Enum {
		if _, ok := v.(string); !ok {
			return
		}
	}
	s.Type = ""
}
