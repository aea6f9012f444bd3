package tooldef

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
)

// A gated field is listed and accepted only where its tool is served;
// elsewhere a call naming it is refused as an unknown field, with the
// repair that drops it, and the tool never runs.
func TestGatedFieldsFollowTheServedToolsets(t *testing.T) {
	gated := echo
	gated.Gated = map[string]string{"labels": "label_tool"}
	for _, served := range []bool{true, false} {
		env := &Env{Fingerprint: func() string { return "fp" }, Serves: func(ts string) bool { return served && ts == "label_tool" }}
		cs := connect(t, env, gated)
		list, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		schema, _ := json.Marshal(list.Tools[0].InputSchema)
		if listed := strings.Contains(string(schema), `"labels"`); listed != served {
			t.Errorf("served=%v: labels listed=%v in %s", served, listed, schema)
		}
		res, out := call(t, cs, `{"owner":"acme","labels":["x"]}`)
		if served {
			if res.IsError {
				t.Errorf("served: labels refused: %v", out)
			} else if out["labels"] == nil {
				t.Errorf("served: labels missing from the answer %v, want them", out)
			}
			continue
		}
		wantCode(t, "unserved labels", res, out, "invalid_field")
		repair, _ := out["repair"].(map[string]any)
		args, _ := json.Marshal(repair["arguments"])
		if string(args) != `{"owner":"acme"}` {
			t.Errorf("unserved: repair arguments %s, want the call without labels", args)
		}
	}
}

func TestGateRefusesMistakes(t *testing.T) {
	in := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"a": {Type: "string"}, "b": {Type: "string"}}, Required: []string{"a"}}
	for _, g := range []map[string]string{{"nope": "x"}, {"a": "x"}, {"b": ""}} {
		if _, err := gate(in, g, nil); err == nil {
			t.Errorf("gate %v: no error", g)
		}
	}
	out, err := gate(in, map[string]string{"b": "x"}, func(string) bool { return false })
	if err != nil {
		t.Fatalf("gate: %v", err)
	}
	if len(out.Properties) != 1 {
		t.Errorf("gated schema has %d fields (%v), want 1", len(out.Properties), out.Properties)
	}
	if len(in.Properties) != 2 {
		t.Errorf("the original schema has %d fields after gate, want 2 still", len(in.Properties))
	}
}

// A nested gated field is dropped from its object only, the objects on
// its path are copies, and a path through no object fails the build.
func TestGateNestedFields(t *testing.T) {
	changes := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"project": {Type: "object"}, "state": {Type: "string"}}}
	in := &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{"changes": changes}, Required: []string{"changes"}}
	out, err := gate(in, map[string]string{"changes.project": "board_tool"}, func(string) bool { return false })
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Properties["changes"].Properties; len(got) != 1 {
		t.Errorf("unserved: changes has %d fields (%v), want state only", len(got), got)
	} else if got["state"] == nil {
		t.Errorf("unserved: changes has %v, want state only", got)
	}
	if len(changes.Properties) != 2 {
		t.Errorf("the full schema lost a field: %v", changes.Properties)
	}
	if out, err = gate(in, map[string]string{"changes.project": "board_tool"}, func(string) bool { return true }); err != nil {
		t.Errorf("served: gate: %v", err)
	} else if got := out.Properties["changes"].Properties; len(got) != 2 {
		t.Errorf("served: changes has %d fields (%v), want 2", len(got), got)
	}
	for _, g := range []string{"changes.nope", "changes.state.x", "nope.project"} {
		if _, err := gate(in, map[string]string{g: "board_tool"}, nil); err == nil {
			t.Errorf("gate %s: no error", g)
		}
	}
}
