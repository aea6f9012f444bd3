package graphql

import "encoding/json"

// nullable is a nullable input field that tells the three things a client
// can send apart: nothing (the field is absent: leave the value as it is),
// null (clear it) and a value. A *T field cannot: JSON null and an absent key
// both leave it nil, which is how `updateIssue(input: {milestoneId: null})`,
// gh's `issue edit --remove-milestone`, came to answer success and keep the
// milestone.
//
// Arguments reach the typed argument structs through a JSON round trip of
// the values gqlparser decoded (registry.go), which keeps an explicit null as
// a key with a null value and leaves an absent field (or an unset variable)
// out, so UnmarshalJSON runs exactly when the client sent the field.
//
// A mutation input field where null means something other than "as if not
// sent" (clear, or a refusal) is declared nullable[T]; TestMutationNulls
// holds every served mutation's nullable fields to a written expectation.
type nullable[T any] struct {
	// Set is whether the client sent the field, null or not.
	Set bool
	// Value is what it sent; nil for null.
	Value *T
}

// UnmarshalJSON records that the field was sent, and its value.
func (n *nullable[T]) UnmarshalJSON(b []byte) error {
	n.Set = true
	n.Value = nil
	return json.Unmarshal(b, &n.Value)
}

// Null reports whether the client sent the field as null.
func (n nullable[T]) Null() bool { return n.Set && n.Value == nil }

// Given reports whether the client sent the field with a value.
func (n nullable[T]) Given() bool { return n.Value != nil }

// deref is *p, or T's zero value for nil.
func deref[T any](p *T) T {
	if p == nil {
		var zero T
		return zero
	}
	return *p
}
