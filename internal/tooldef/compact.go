package tooldef

import (
	"bytes"
	"encoding/json"
)

// Compact renders v as the compact JSON agents receive: nulls, empty
// strings, empty arrays and empty objects are dropped at every depth, and
// nothing is HTML-escaped (an issue body's `a<b` stays `a<b`). keep names
// keys kept even when empty, for contract fields that must always be
// present: a path of keys joined by dots, with [] for each element of an
// array ("retry_after_ms", "issue.labels", "items[].milestone").
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
	kept := map[string]bool{}
	for _, k := range keep {
		kept[k] = true
	}
	_, object := tree.(map[string]any)
	tree = prune(tree, "", kept)
	if object && tree == nil {
		tree = map[string]any{} // an object stays one, even when empty
	}
	return marshalNoEscape(tree)
}

// prune drops empty values, except at the paths kept; it returns nil for a
// value that is itself empty.
func prune(v any, path string, kept map[string]bool) any {
	switch t := v.(type) {
	case nil:
		return nil
	case string:
		if t == "" {
			return nil
		}
	case map[string]any:
		for k, val := range t {
			at := k
			if path != "" {
				at = path + "." + k
			}
			if p := prune(val, at, kept); p != nil {
				t[k] = p
			} else if kept[at] {
				t[k] = emptyAs(val)
			} else {
				delete(t, k)
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
			if p := prune(val, path+"[]", kept); p != nil {
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

// emptyAs is how a kept empty value is written: an empty list stays [],
// anything else becomes null.
func emptyAs(v any) any {
	if _, ok := v.([]any); ok {
		return []any{}
	}
	return nil
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
