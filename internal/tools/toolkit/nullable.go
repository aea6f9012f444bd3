package toolkit

import (
	"encoding/json"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
)

// Nullable is a tri-state input: absent (leave the field as it is), null
// (clear it) or a value (set it). A pointer cannot tell absent from null,
// because encoding/json sets a pointer to nil for both; this type's
// UnmarshalJSON runs only when the key is present, null included. Use it
// with `json:",omitzero"` so an absent field stays absent when the input is
// marshalled again (as repair and follow-up arguments are).
type Nullable[T any] struct {
	Set   bool // the key was present
	Null  bool // ... and was null
	Value T
}

// Null returns the "clear it" value.
func Null[T any]() Nullable[T] { return Nullable[T]{Set: true, Null: true} }

// Some returns the "set it to v" value.
func Some[T any](v T) Nullable[T] { return Nullable[T]{Set: true, Value: v} }

// UnmarshalJSON implements [json.Unmarshaler].
func (n *Nullable[T]) UnmarshalJSON(b []byte) error {
	*n = Nullable[T]{Set: true}
	if string(b) == "null" {
		n.Null = true
		return nil
	}
	return json.Unmarshal(b, &n.Value)
}

// MarshalJSON implements [json.Marshaler]; an absent value is dropped by
// omitzero before this is asked.
func (n Nullable[T]) MarshalJSON() ([]byte, error) {
	if !n.Set || n.Null {
		return []byte("null"), nil
	}
	return json.Marshal(n.Value)
}

// IsZero reports absence, for omitzero.
func (n Nullable[T]) IsZero() bool { return !n.Set }

// JSONSchema implements [tooldef.SelfDescribing]: the value's own schema or
// null. A field's jsonschema tag replaces the description with a more
// specific one.
func (Nullable[T]) JSONSchema() (*jsonschema.Schema, error) {
	value, err := jsonschema.For[T](nil)
	if err != nil {
		return nil, err
	}
	return &jsonschema.Schema{
		AnyOf:       []*jsonschema.Schema{value, {Type: "null"}},
		Description: "null clears; absent leaves as is",
	}, nil
}

var _ tooldef.SelfDescribing = Nullable[int]{}
