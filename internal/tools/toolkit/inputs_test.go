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
			if p == nil || p.Type != "integer" || p.Minimum == nil || *p.Minimum != 1 {
				t.Fatalf("%s: %+v; want an integer from 1", name, p)
			}
		})
	}
	if p := s.Properties["size"]; p.Maximum == nil || *p.Maximum != MaxPageSize {
		t.Errorf("size: maximum %v, want %d", p.Maximum, MaxPageSize)
	}
	if p := s.Properties["key"]; p == nil || p.MinLength == nil || *p.MinLength != 1 || p.MaxLength == nil || *p.MaxLength != maxKeyLength {
		t.Errorf("key: %+v; want 1 to %d characters", p, maxKeyLength)
	}
	if d := s.Properties["issue"].Description; d != "the issue" {
		t.Errorf("issue: description %q; the field's tag should give it", d)
	}
}

// Enum lists the values in the order given.
func TestEnumKeepsOrder(t *testing.T) {
	s := Enum("b", "a", "c")
	if s.Type != "string" || !slices.Equal(s.Enum, []any{"b", "a", "c"}) {
		t.Fatalf("Enum: %+v", s)
	}
}
