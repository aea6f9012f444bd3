package tooldef

import (
	"fmt"
	"slices"

	"github.com/google/jsonschema-go/jsonschema"
)

// gate returns the input schema without the gated fields whose toolset
// serves reports unserved (a copy; the full schema is left as it is). A
// gated name that is no top-level field, or a required one, is a mistake
// in the tool and fails its build.
func gate(in *jsonschema.Schema, gated map[string]string, serves func(string) bool) (*jsonschema.Schema, error) {
	if len(gated) == 0 {
		return in, nil
	}
	cp := *in
	cp.Properties = make(map[string]*jsonschema.Schema, len(in.Properties))
	for name, p := range in.Properties {
		cp.Properties[name] = p
	}
	for field, toolset := range gated {
		if _, ok := in.Properties[field]; !ok {
			return nil, fmt.Errorf("gated field %q is not an input field", field)
		}
		if slices.Contains(in.Required, field) {
			return nil, fmt.Errorf("gated field %q is required", field)
		}
		if toolset == "" {
			return nil, fmt.Errorf("gated field %q names no toolset", field)
		}
		if serves != nil && !serves(toolset) {
			delete(cp.Properties, field)
			cp.PropertyOrder = slices.DeleteFunc(slices.Clone(cp.PropertyOrder), func(n string) bool { return n == field })
		}
	}
	return &cp, nil
}
