package tooldef

import (
	"bytes"
	"encoding/json"
)

// Compact renders v as the compact JSON agents receive: nulls, empty
// strings, empty arrays and empty objects are dropped at every depth, and
// nothing is HTML-escaped (an issue body's `a<b` stays `a<b`). keep names
// top-level keys kept even when null, for contract fields that must always
// be present.
func Compact(v any, keep ...string) ([]byte, error) {
	raw, err := marshalNoEscape(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // keep integers exact
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	if obj, ok := tree.(map[string]any); ok {
		kept := map[string]any{}
		for _, k := range keep {
			if val, present := obj[k]; present {
				kept[k] = val
			}
		}
		tree = prune(obj)
		out, _ := tree.(map[string]any)
		if out == nil {
			out = map[string]any{}
		}
		for k, val := range kept {
			if _, present := out[k]; !present {
				out[k] = val
			}
		}
		tree = out
	} else {
		tree = prune(tree)
	}
	return marshalNoEscape(tree)
}

// prune drops empty values; it returns nil for a value that is itself empty.
func prune(v any) any {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		if t == "" {
			return nil
		}
	case map[string]any:
		for k, val := range t {
			if p := prune(val); p == nil {
				delete(t, k)
			} else {
				t[k] = p
			}
		}
		if len(t) == 0 {
			return nil
		}
	case []any:
		out := t[:0]
		for _, val := range t {
			// Elements are kept even when empty: dropping one would shift
			// positions and change the number of rows.
			if p := prune(val); p != nil {
				out = append(out, p)
			} else {
				out = append(out, val)
			}
		}
		if len(out) == 0 {
			return nil
		}
		return out
	}
	return v
}

func marshalNoEscape(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(buf.Bytes(), "\n"), nil
}
