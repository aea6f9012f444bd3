package toolkit

import (
	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
)

// Input field types that carry their own schema (tooldef.SelfDescribing):
// a field declared with one of them gets its range or its values wherever
// it appears, so no tool edits its schema by property name.

// IssueNumber is an issue's number; GitHub counts from 1.
type IssueNumber int

// JSONSchema implements [tooldef.SelfDescribing].
func (IssueNumber) JSONSchema() (*jsonschema.Schema, error) { return fromOne("integer"), nil }

// MilestoneNumber is a milestone's number; GitHub counts from 1.
type MilestoneNumber int

// JSONSchema implements [tooldef.SelfDescribing].
func (MilestoneNumber) JSONSchema() (*jsonschema.Schema, error) { return fromOne("integer"), nil }

// CommentID is an issue comment's id; GitHub counts from 1.
type CommentID int64

// JSONSchema implements [tooldef.SelfDescribing].
func (CommentID) JSONSchema() (*jsonschema.Schema, error) { return fromOne("integer"), nil }

// PageSize is how many rows a listing returns at once.
type PageSize int

// JSONSchema implements [tooldef.SelfDescribing].
func (PageSize) JSONSchema() (*jsonschema.Schema, error) {
	s := fromOne("integer")
	s.Maximum = ptr(float64(MaxPageSize))
	return s, nil
}

// IdempotencyKey names one attempt at a write, so a repeat finds it.
type IdempotencyKey string

// JSONSchema implements [tooldef.SelfDescribing].
func (IdempotencyKey) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "string", MinLength: ptr(1), MaxLength: ptr(maxKeyLength)}, nil
}

// fromOne is a number counted from 1.
func fromOne(typ string) *jsonschema.Schema {
	return &jsonschema.Schema{Type: typ, Minimum: ptr(1.0)}
}

// Enum is a string that must be one of values, listed in this order.
func Enum[S ~string](values ...S) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "string"}
	for _, v := range values {
		s.Enum = append(s.Enum, string(v))
	}
	return s
}

var (
	_ tooldef.SelfDescribing = IssueNumber(0)
	_ tooldef.SelfDescribing = MilestoneNumber(0)
	_ tooldef.SelfDescribing = CommentID(0)
	_ tooldef.SelfDescribing = PageSize(0)
	_ tooldef.SelfDescribing = IdempotencyKey("")
)

func ptr[T any](v T) *T { return &v }
