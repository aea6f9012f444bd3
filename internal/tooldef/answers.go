package tooldef

import (
	"context"
	"fmt"
	"reflect"
	"slices"

	"github.com/ghgate/ghgate/internal/contract"
	"github.com/ghgate/ghgate/internal/policy"
	"github.com/google/jsonschema-go/jsonschema"
)

// Published are a tool's full schemas as the ghgate://schemas resource
// serves them: what its arguments are checked against, and one schema for
// each kind of answer a call can get. tools/list carries a shorter form
// of Input and Output only.
type Published struct {
	Input *jsonschema.Schema `json:"input"`
	// Output is a result's structuredContent; on a write tool it may also
	// carry neutralized (what the outbound policy rewrote).
	Output *jsonschema.Schema `json:"output"`
	// DryRun is a write tool's answer to dry_run: true, which replaces the
	// result: the admitted plan and, where the tool forecasts, a preview.
	DryRun *jsonschema.Schema `json:"dry_run,omitempty"`
	// Error is the envelope an isError result carries.
	Error *jsonschema.Schema `json:"error"`
}

// neutralizedField is where a write's answer says what the outbound
// policy rewrote in the text it sent (see withNeutralized).
const neutralizedField = "neutralized"

// withNeutralized adds the optional neutralized field to a write tool's
// output schema: the adapter adds it to the answer, so no tool declares
// it and every write's schema has it.
func withNeutralizedField(out *jsonschema.Schema) (*jsonschema.Schema, error) {
	n, err := schemaFor(reflect.TypeFor[policy.Neutralized]())
	if err != nil {
		return nil, err
	}
	n.Description = "what the outbound policy rewrote in the text sent (mentions, slash commands, links); absent: nothing"
	cp := *out
	cp.Properties = make(map[string]*jsonschema.Schema, len(out.Properties)+1)
	for k, v := range out.Properties {
		cp.Properties[k] = v
	}
	cp.Properties[neutralizedField] = n
	if len(out.PropertyOrder) > 0 {
		cp.PropertyOrder = append(slices.Clone(out.PropertyOrder), neutralizedField)
	}
	return &cp, nil
}

// ErrorSchema is the schema of the envelope a failed call of a tool of
// mode answers with (see errorResult): code, message, temporary, request
// id and fingerprint always; retry_after_ms always, null when there is
// no reason to wait; settlement on every write's failure and never on a
// read's.
func ErrorSchema(mode Mode) (*jsonschema.Schema, error) {
	s, err := schemaFor(reflect.TypeFor[contract.Error]())
	if err != nil {
		return nil, err
	}
	if err := allowNull(s, "retry_after_ms"); err != nil {
		return nil, err
	}
	s.Required = append(s.Required, "request_id", "fingerprint")
	s.Properties["code"].Description = "one of the codes in ghgate://errors"
	settle := s.Properties["settlement"]
	settle.Enum = []any{string(contract.NotStarted), string(contract.NoRemoteSuccessKnown),
		string(contract.RemoteSuccessKnown), string(contract.Indeterminate)}
	if mode == Read {
		// A read changes nothing, so its failures say nothing of it.
		delete(s.Properties, "settlement")
		s.PropertyOrder = slices.DeleteFunc(s.PropertyOrder, func(n string) bool { return n == "settlement" })
	} else {
		s.Required = append(s.Required, "settlement")
	}
	return s, nil
}

// Forecast is a write tool's own dry run (Tool.Preview): it reads what the
// call would read and plans with the tool's own code. Build it with
// Forecasts, which keeps the type of what it answers: that type is
// published as the dry run's preview.
type Forecast[In any] struct {
	run     func(ctx context.Context, in In) (any, error)
	preview reflect.Type
	keep    []string
}

// Forecasts makes the Forecast that fn answers. keep names the fields of
// its answer written even when empty, as Tool.Keep does for a result.
func Forecasts[In, P any](fn func(ctx context.Context, in In) (P, error), keep ...string) *Forecast[In] {
	return &Forecast[In]{
		run:     func(ctx context.Context, in In) (any, error) { return fn(ctx, in) },
		preview: reflect.TypeFor[P](),
		keep:    keep,
	}
}

// forecast is one call's Forecast, as admitWrites runs it.
type forecast struct {
	run  func(ctx context.Context) (any, error)
	keep []string
}

// previewField holds a Forecast's answer in a dry run's.
const previewField = "preview"

// dryRunKeep are the fields of a dry run's answer written even when
// empty: an issue's labels and assignees as it stands, where [] says it
// has none.
var dryRunKeep = []string{dryRunField + ".writes[].before.labels", dryRunField + ".writes[].before.assignees"}

// dryRunSchema is the schema of a dry run's answer (see admitWrites):
// the plan the write path admitted and, when the tool forecasts, its
// preview (f nil: none).
func dryRunSchema[In any](f *Forecast[In]) (*jsonschema.Schema, error) {
	plan, err := schemaFor(reflect.TypeFor[policy.Plan]())
	if err != nil {
		return nil, fmt.Errorf("dry run plan: %w", err)
	}
	s := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{dryRunField: plan},
		Required: []string{dryRunField}, AdditionalProperties: &jsonschema.Schema{Not: &jsonschema.Schema{}}}
	if f == nil {
		return s, nil
	}
	p, err := schemaFor(f.preview)
	if err != nil {
		return nil, fmt.Errorf("dry run preview: %w", err)
	}
	for _, path := range f.keep {
		if err := allowNull(p, path); err != nil {
			return nil, fmt.Errorf("dry run preview: keep %s: %w", path, err)
		}
	}
	s.Properties[previewField] = p
	s.Required = append(s.Required, previewField)
	return s, nil
}
