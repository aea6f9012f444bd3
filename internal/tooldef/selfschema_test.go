package tooldef

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// colour is a string on the wire though it is a struct in Go.
type colour struct{ r, g, b uint8 }

func (colour) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Type: "string", Pattern: "^[0-9a-f]{6}$"}, nil
}

type broken struct{}

func (broken) JSONSchema() (*jsonschema.Schema, error) { return nil, errors.New("no schema") }

// A self-describing type gives its schema wherever it is reached: as a
// field, behind a pointer, as slice items and as map values.
func TestSelfDescribingTypesGiveTheirSchema(t *testing.T) {
	type in struct {
		One  colour            `json:"one"`
		Ptr  *colour           `json:"ptr,omitempty"`
		Many []colour          `json:"many,omitempty"`
		By   map[string]colour `json:"by,omitempty"`
	}
	s, err := schemaFor(reflect.TypeFor[in]())
	if err != nil {
		t.Fatal(err)
	}
	for i, got := range []*jsonschema.Schema{s.Properties["one"], s.Properties["ptr"], s.Properties["many"].Items, s.Properties["by"].AdditionalProperties} {
		name := []string{"one", "ptr", "many's items", "by's values"}[i]
		b, _ := json.Marshal(s)
		if got == nil {
			t.Fatalf("%s has no schema, want the colour's own: %s", name, b)
		}
		if got.Type != "string" {
			t.Fatalf("%s type = %q, want the colour's string: %s", name, got.Type, b)
		}
		if got.Pattern != "^[0-9a-f]{6}$" {
			t.Fatalf("%s pattern = %q, want the colour's %q: %s", name, got.Pattern, "^[0-9a-f]{6}$", b)
		}
	}
}

// A type that cannot state its schema fails the build of the schema, with
// its reason, rather than serving an inferred one.
func TestSelfDescribingErrorFailsTheSchema(t *testing.T) {
	type in struct {
		B []broken `json:"b"`
	}
	_, err := schemaFor(reflect.TypeFor[in]())
	if err == nil || !strings.Contains(err.Error(), "no schema") {
		t.Fatalf("err = %v, want the type's own error saying %q", err, "no schema")
	}
}
