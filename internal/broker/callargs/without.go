package callargs

import "encoding/json"

// Without returns the arguments with the top-level keys named dropped
// from Canonical (exactly as spelled: Read has already refused a key that
// folds onto another). The broker's own arguments of an augmented
// upstream tool (see broker/augment) are read by the broker and never
// forwarded. Target and Named are kept: a key dropped here names no owner
// or repository. Arguments without those keys come back unchanged, the
// same bytes.
func (a Args) Without(keys ...string) Args {
	if len(a.Canonical) == 0 {
		return a
	}
	ms, e := readMembers(a.Canonical, nil)
	if e != nil {
		return a // Canonical is what readMembers wrote; it always reads back
	}
	drop := map[string]bool{}
	for _, k := range keys {
		drop[k] = true
	}
	kept := make(members, 0, len(ms))
	for _, m := range ms {
		if !drop[m.key] {
			kept = append(kept, m)
		}
	}
	if len(kept) == len(ms) {
		return a
	}
	a.Canonical = kept.canonical()
	return a
}

// Value decodes the top-level argument key of Canonical into v; found is
// false when the arguments have no such key.
func (a Args) Value(key string, v any) (found bool, err error) {
	if len(a.Canonical) == 0 {
		return false, nil
	}
	ms, e := readMembers(a.Canonical, nil)
	if e != nil {
		return false, e
	}
	for _, m := range ms {
		if m.key == key {
			return true, json.Unmarshal(m.value, v)
		}
	}
	return false, nil
}
