package tooldef

import (
	"fmt"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// gate returns the input schema without the gated fields whose tool
// serves reports unserved (a copy; the full schema is left as it is). A
// field is a path of property names ("project", "changes.project"). A
// gated path that names no input field, or a required one, is a mistake
// in the tool and fails its build.
func gate(in *jsonschema.Schema, gated map[string]string, serves func(string) bool) (*jsonschema.Schema, error) {
	if len(gated) == 0 {
		return in, nil
	}
	out := in
	for field, tool := range gated {
		if tool == "" {
			return nil, fmt.Errorf("gated field %q names no tool", field)
		}
		var err error
		if out, err = without(out, strings.Split(field, "."), serves == nil || serves(tool)); err != nil {
			return nil, fmt.Errorf("gated field %q: %w", field, err)
		}
	}
	return out, nil
}

// without returns s with the property at path removed (keep false) or
// only checked (keep true), copying each object it changes on the way.
func without(s *jsonschema.Schema, path []string, keep bool) (*jsonschema.Schema, error) {
	name := path[0]
	p, ok := s.Properties[name]
	if !ok {
		return nil, fmt.Errorf("%q is not an input field", name)
	}
	if len(path) == 1 && slices.Contains(s.Required, name) {
		return nil, fmt.Errorf("%q is required", name)
	}
	if len(path) > 1 {
		inner, err := without(p, path[1:], keep)
		if err != nil {
			return nil, err
		}
		if keep {
			return s, nil
		}
		p = inner
	}
	if keep {
		return s, nil
	}
	cp := *s
	cp.Properties = make(map[string]*jsonschema.Schema, len(s.Properties))
	for n, q := range s.Properties {
		cp.Properties[n] = q
	}
	if len(path) > 1 {
		cp.Properties[name] = p
	} else {
		delete(cp.Properties, name)
		cp.PropertyOrder = slices.DeleteFunc(slices.Clone(cp.PropertyOrder), func(n string) bool { return n == name })
	}
	return &cp, nil
}
