package issues

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/ghgate/ghgate/internal/tooldef"
	"github.com/google/jsonschema-go/jsonschema"
)

// LabelNames is one label name or several: labels.swap.to takes
// "status: done" as well as ["status: triaged", "status: blocked"].
// It is marshalled as a list, which every caller may send back.
type LabelNames []string

// UnmarshalJSON implements [json.Unmarshaler]. The schema has already
// checked the value is a string or a list of strings.
func (n *LabelNames) UnmarshalJSON(b []byte) error {
	var one string
	if json.Unmarshal(b, &one) == nil {
		*n = LabelNames{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*n = many
	return nil
}

// JSONSchema implements [tooldef.SelfDescribing].
func (LabelNames) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Types: []string{"string", "array"}, Items: &jsonschema.Schema{Type: "string"}}, nil
}

// CreateMissing is labels.create_missing: false (or absent) refuses a
// label the repository lacks; true creates it in GitHub's default grey,
// ededed; a colour ("d73a4a", "#d73a4a") creates it in that colour.
type CreateMissing struct {
	On bool
	// Color is the colour as given, "" for true. Validate checks it.
	Color string
}

// defaultLabelColor is the colour of a label create_missing: true makes:
// the grey GitHub itself gives a label first added to an issue by name.
const defaultLabelColor = "ededed"

var labelColor = regexp.MustCompile(`^#?[0-9a-fA-F]{6}$`)

// UnmarshalJSON implements [json.Unmarshaler]. A string turns creation on
// even when it is not a colour, so Validate refuses it by name rather than
// the call going ahead without creating.
func (c *CreateMissing) UnmarshalJSON(b []byte) error {
	var color string
	if json.Unmarshal(b, &color) == nil {
		*c = CreateMissing{On: true, Color: color}
		if color == "" {
			c.Color = "#" // not a colour: refused, never taken for true
		}
		return nil
	}
	var on bool
	if err := json.Unmarshal(b, &on); err != nil {
		return err
	}
	*c = CreateMissing{On: on}
	return nil
}

// MarshalJSON implements [json.Marshaler]: true, or the colour.
func (c CreateMissing) MarshalJSON() ([]byte, error) {
	if c.On && c.Color != "" {
		return json.Marshal(c.Color)
	}
	return json.Marshal(c.On)
}

// IsZero reports false or absent, for omitzero.
func (c CreateMissing) IsZero() bool { return !c.On }

// valid reports whether the colour, if any, is six hex digits.
func (c CreateMissing) valid() bool {
	return c.Color == "" || labelColor.MatchString(c.Color)
}

// color is the colour to create labels in, as GitHub takes it (no "#").
func (c CreateMissing) color() string {
	if c.Color == "" {
		return defaultLabelColor
	}
	return strings.TrimPrefix(c.Color, "#") // GitHub keeps the case given
}

// JSONSchema implements [tooldef.SelfDescribing].
func (CreateMissing) JSONSchema() (*jsonschema.Schema, error) {
	return &jsonschema.Schema{Types: []string{"boolean", "string"}}, nil
}

var (
	_ tooldef.SelfDescribing = LabelNames{}
	_ tooldef.SelfDescribing = CreateMissing{}
)
