package tooldef

import (
	"bytes"
	"encoding/json"
)

// compactRef is Compact as it was first written: decode the encoded value
// into a tree, prune the tree, encode it again. It is the reference the
// single-pass Compact is held to, byte for byte (TestCompactMatchesRef,
// FuzzCompact).
func compactRef(v any, keep ...string) ([]byte, error) {
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
	tree = pruneRef(tree, "", kept)
	if object && tree == nil {
		tree = map[string]any{} // an object stays one, even when empty
	}
	return marshalNoEscape(tree)
}

// pruneRef drops empty values, except at the paths kept; it returns nil
// for a value that is itself empty.
func pruneRef(v any, path string, kept map[string]bool) any {
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
			if p := pruneRef(val, at, kept); p != nil {
				t[k] = p
			} else if kept[at] {
				t[k] = emptyAsRef(val)
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
			if p := pruneRef(val, path+"[]", kept); p != nil {
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

func emptyAsRef(v any) any {
	if _, ok := v.([]any); ok {
		return []any{}
	}
	return nil
}
