package toolkit

import (
	"context"
	"slices"
	"testing"

	"github.com/ghgate/ghgate/internal/tooldef"
)

// A field declared with one of the input types gets its range in the
// schema a tool is checked against, wherever it stands.
func TestInputTypesCarryTheirRanges(t *testing.T) {
	type in struct {
		Issue   IssueNumber     `json:"issue" jsonschema:"the issue"`
		Parent  *IssueNumber    `json:"parent,omitempty"`
		Comment CommentID       `json:"comment"`
		Mile    MilestoneNumber `json:"mile,omitempty"`
		Size    PageSize        `json:"size,omitempty"`
		Key     IdempotencyKey  `json:"key,omitempty"`
	}
	tool := tooldef.Tool[in, struct{}]{Name: "t", Run: func(context.Context, in) (struct{}, error) { return struct{}{}, nil }}
	pub, err := tool.Schemas()
	if err != nil {
		t.Fatal(err)
	}
	s := pub.Input
	for _, name := range []string{"issue", "parent", "comment", "mile", "size"} {
		t.Run(name, func(t *testing.T) {
			p := s.Properties[name]
			if p == nil {
				t.Fatalf("%s: no schema, want an integer from 1", name)
			}
			if p.Type != "integer" {
				t.Fatalf("%s: type = %q, want integer", name, p.Type)
			}
			if p.Minimum == nil {
				t.Fatalf("%s: minimum absent, want 1", name)
			}
			if *p.Minimum != 1 {
				t.Fatalf("%s: minimum = %v, want 1", name, *p.Minimum)
			}
		})
	}
	if p := s.Properties["size"]; p.Maximum == nil {
		t.Errorf("size: maximum absent, want %d", MaxPageSize)
	} else if *p.Maximum != MaxPageSize {
		t.Errorf("size: maximum = %v, want %d", *p.Maximum, MaxPageSize)
	}
	if p := s.Properties["key"]; p == nil {
		t.Errorf("key: no schema, want 1 to %d characters", maxKeyLength)
	} else {
		if p.MinLength == nil {
			t.Errorf("key: minLength absent, want 1")
		} else if *p.MinLength != 1 {
			t.Errorf("key: minLength = %d, want 1", *p.MinLength)
		}
		if p.MaxLength == nil {
			t.Errorf("key: maxLength absent, want %d", maxKeyLength)
		} else if *p.MaxLength != maxKeyLength {
			t.Errorf("key: maxLength = %d, want %d", *p.MaxLength, maxKeyLength)
		}
	}
	if d := s.Properties["issue"].Description; d != "the issue" {
		t.Errorf("issue: description %q; the field's tag should give it", d)
	}
}

// Enum lists the values in the order given.
func TestEnumKeepsOrder(t *testing.T) {
	s := Enum("b", "a", "c")
	if s.Type != "string" {
		t.Fatalf("Enum: type = %q, want string", s.Type)
	}
	if want := []any{"b", "a", "c"}; !slices.Equal(s.Enum, want) {
		t.Fatalf("Enum: enum = %v, want %v", s.Enum, want)
	}
}
